"""The deployment files say what the project ships: the image installs every package and runs the bot's own entry
point and health check as an unprivileged user with its store on a volume; the systemd unit passes systemd's check.
(The image itself is built by the operator; this checks what can be checked without Docker.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.settings import Settings
from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined."""
    joined = ROOT.joinpath("Dockerfile").read_text().replace("\\\n", " ")
    lines = (line.strip() for line in joined.splitlines())
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines if line and line[0] != "#"]


def argument(keyword: str) -> str:
    (found,) = [args for key, args in instructions() if key == keyword]
    return found


def test_the_image_installs_every_package_the_project_ships() -> None:
    shipped = tomllib.loads(ROOT.joinpath("pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = {pattern.rstrip("*") for pattern in shipped["include"]}
    copied = {args.split()[0] for key, args in instructions() if key == "COPY"}
    assert packages <= copied
    ignored = set(ROOT.joinpath(".dockerignore").read_text().split())
    assert not packages & ignored


def test_the_image_runs_the_bot_as_an_unprivileged_user_with_its_store_on_the_volume() -> None:
    assert argument("USER") not in ("root", "0")
    assert json.loads(argument("VOLUME")) == ["/data"]
    env = dict(pair.split("=", 1) for pair in argument("ENV").split())
    settings = Settings(**{key.removeprefix("CONDUCTOR_").lower(): value for key, value in env.items() if "_" in key})
    assert settings.database_path.parent == Path("/data") and settings.backups().is_relative_to("/data")
    assert settings.ops_listen is not None, "the health check has an address to ask"
    assert json.loads(argument("ENTRYPOINT")) == ["python", "-m", "bot"]
    check = argument("HEALTHCHECK")
    assert json.loads(check[check.index("CMD") + 3 :]) == ["python", "-m", "bot", "health"]


def test_the_health_check_fails_when_no_bot_answers(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("CONDUCTOR_")}
    env["CONDUCTOR_OPS_LISTEN"] = f"127.0.0.1:{port}"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert f"127.0.0.1:{port}/healthz" in done.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_passes_systemds_check(tmp_path: Path) -> None:
    unit = ROOT.joinpath("deploy", "conductor.service").read_text()
    here = unit.replace("/opt/conductor/.venv/bin/python", sys.executable)  # the unit's python, installed here
    (tmp_path / "conductor.service").write_text(here)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "conductor.service")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
