# Conductor as a container: `docker build -t conductor .`, then see docs/deploy.md for the run command.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CONDUCTOR_DATABASE_PATH=/data/conductor.sqlite3 \
    CONDUCTOR_OPS_LISTEN=0.0.0.0:8081

RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin conductor \
    && install -d -o conductor -g conductor /data

WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY rules ./rules
COPY render ./render
COPY bot ./bot
COPY localdiscord ./localdiscord
RUN pip install -c constraints.txt . && rm -rf /root/.cache

USER conductor
# The store, its backups and the drawn art live here: keep it on a volume.
VOLUME ["/data"]
# 8080: the live board pages (CONDUCTOR_WEB_LISTEN=0.0.0.0:8080); 8081: health and metrics when the board is off.
EXPOSE 8080 8081
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
ENTRYPOINT ["python", "-m", "bot"]
