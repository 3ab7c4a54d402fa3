"""The board page's files (bot/web/board/static_files.py) over real HTTP: each with its ETag, kept a year when asked
for by its content hash (the page's references carry it) and an hour by its name alone; 304 when the client has it;
nothing outside the folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.board.static_files import AN_HOUR, FOREVER, StaticFiles

PAGE = b"""<!doctype html><link rel="stylesheet" href="/web/static/board.css">
<script src="/web/static/board.js" defer></script><img src="/web/static/gone.png">"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "page.html").write_bytes(PAGE)
    (tmp_path / "board.js").write_text("console.log('board');\n")
    (tmp_path / "board.css").write_text("svg { width: 100%; }\n")
    (tmp_path / ".hidden").write_text("not served")
    return tmp_path


@pytest.fixture
async def client(folder: Path) -> AsyncIterator[TestClient[web.Request, web.Application]]:
    app = web.Application()
    app.router.add_get("/web/static/{name}", StaticFiles(folder).serve)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        yield client


def test_the_page_names_each_file_by_its_content_hash(folder: Path) -> None:
    files = StaticFiles(folder)
    page = files.page()
    assert page is not None
    assert f"/web/static/board.js?v={files.files['board.js'].version}".encode() in page
    assert f"/web/static/board.css?v={files.files['board.css'].version}".encode() in page
    assert b'src="/web/static/gone.png"' in page, "a file that is not there is left as it is"
    (folder / "board.js").write_text("console.log('board, changed');\n")
    assert StaticFiles(folder).files["board.js"].version != files.files["board.js"].version


async def test_a_file_comes_with_its_etag_and_is_kept_a_year_under_its_hash(
    client: TestClient[web.Request, web.Application], folder: Path
) -> None:
    version = StaticFiles(folder).files["board.js"].version
    plain = await client.get("/web/static/board.js")
    assert plain.status == 200 and await plain.text() == "console.log('board');\n"
    assert plain.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert plain.headers["Cache-Control"] == AN_HOUR
    assert plain.headers["ETag"] == f'"{version}"'
    assert plain.headers["X-Content-Type-Options"] == "nosniff"
    hashed = await client.get(f"/web/static/board.js?v={version}")
    assert hashed.status == 200 and hashed.headers["Cache-Control"] == FOREVER
    stale = await client.get("/web/static/board.js?v=0123456789abcdef")
    assert stale.headers["Cache-Control"] == AN_HOUR, "an old version's address is not promised forever"
    again = await client.get("/web/static/board.js", headers={"If-None-Match": f'"{version}"'})
    assert again.status == 304 and await again.read() == b""
    changed = await client.get("/web/static/board.js", headers={"If-None-Match": '"0123456789abcdef"'})
    assert changed.status == 200
    css = await client.get("/web/static/board.css")
    assert css.headers["Content-Type"] == "text/css; charset=utf-8"


@pytest.mark.parametrize("name", [".hidden", "missing.js", "..%2Fpage.html", "%2E%2E"])
async def test_nothing_outside_the_folders_files_is_served(
    client: TestClient[web.Request, web.Application], name: str
) -> None:
    assert (await client.get(f"/web/static/{name}")).status == 404
