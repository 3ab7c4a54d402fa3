"""The board page's own files (bot/web/board/static/: the page, its style and its script), read once at start and
served with caching headers.

Each file is named in a URL by its content hash: the page's references to `/web/static/<file>` are served as
`/web/static/<file>?v=<hash>`, which browsers and proxies may keep for a year (a new version has a new address); a
request without the hash may be kept an hour; either is answered `304 Not Modified` when its ETag still matches.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

FOLDER = Path(__file__).parent / "static"
PAGE = "page.html"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
REFERENCE = re.compile(rb"/web/static/([A-Za-z0-9][A-Za-z0-9._-]{0,99})")
FOREVER = "public, max-age=31536000, immutable"
"""A file asked for by its content hash never changes."""
AN_HOUR = "public, max-age=3600"
"""A file asked for by its name alone may change with the next version of the bot."""
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}
"""Content types the standard library may not know on every system."""


@dataclass(frozen=True)
class StaticFile:
    """A file as served: its bytes, its content type and the hash that versions it."""

    body: bytes
    content_type: str
    version: str

    @property
    def etag(self) -> str:
        """The strong ETag of its content."""
        return f'"{self.version}"'


class StaticFiles:
    """The files of a folder, read once; the page with its references versioned."""

    def __init__(self, folder: Path = FOLDER) -> None:
        self.files: dict[str, StaticFile] = {}
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file() and NAME.fullmatch(path.name):
                    body = path.read_bytes()
                    kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                    self.files[path.name] = StaticFile(body, kind, hashlib.sha256(body).hexdigest()[:16])

    def page(self) -> bytes | None:
        """The page, its references to these files carrying their versions (None while there is no page)."""
        page = self.files.get(PAGE)
        if page is None:
            return None
        return REFERENCE.sub(self._versioned, page.body)

    def _versioned(self, reference: re.Match[bytes]) -> bytes:
        found = self.files.get(reference[1].decode())
        return reference[0] if found is None else reference[0] + b"?v=" + found.version.encode("ascii")

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """`GET /web/static/{name}`: a file with its ETag and how long it may be kept; 304 when the client has it."""
        found = self.files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        headers = {
            "ETag": found.etag,
            "Cache-Control": FOREVER if request.query.get("v") == found.version else AN_HOUR,
            "X-Content-Type-Options": "nosniff",
        }
        if found.etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        charset = "utf-8" if found.content_type.startswith("text/") else None
        response = web.Response(body=found.body, content_type=found.content_type, charset=charset, headers=headers)
        response.enable_compression()
        return response
