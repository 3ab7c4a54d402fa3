"""Imports flow one way: rules <- render <- bot, and inside the bot app -> exts -> ui -> services -> storage, with SQL
only in storage. Checked by reading every module."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def parsed(source: str) -> ast.Module:
    """The module's syntax tree. Python before 3.11.8 may raise a spurious SystemError ("AST constructor recursion
    depth mismatch", CPython gh-106905) in a process whose other threads are busy, as a test process's are: parse
    once more then."""
    try:
        return ast.parse(source)
    except SystemError:
        return ast.parse(source)


def imported_roots(package: str) -> dict[str, set[str]]:
    """Map each module file of a package to the top-level names it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        roots = set()
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = roots
    return found


def test_rules_import_only_the_standard_library_pydantic_and_rules() -> None:
    allowed = (set(sys.stdlib_module_names) - {"asyncio"}) | {"pydantic", "rules", "__future__"}
    offenders = {f: sorted(r - allowed) for f, r in imported_roots("rules").items() if r - allowed}
    assert offenders == {}


def test_render_never_imports_the_bot_or_discord() -> None:
    forbidden = {"bot", "discord", "asyncpg", "sqlite3", "asyncio"}
    offenders = {f: sorted(r & forbidden) for f, r in imported_roots("render").items() if r & forbidden}
    assert offenders == {}


def test_storage_imports_only_the_standard_library_its_drivers_the_settings_the_shards_and_the_metrics() -> None:
    """bot/storage alone speaks SQL: sqlite3, aiosqlite and asyncpg, never discord, pictures or the rules; it times
    its calls into the bot's metrics."""
    allowed = set(sys.stdlib_module_names) | {"__future__", "aiosqlite", "asyncpg"}
    ours = ("bot.storage", "bot.settings", "bot.shards", "bot.metrics")
    offenders: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bot" / "storage").rglob("*.py")):
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] not in allowed and not name.startswith(ours):
                    offenders.setdefault(str(path.relative_to(ROOT)), []).append(name)
    assert offenders == {}


def test_the_metrics_sit_below_every_layer() -> None:
    """bot/metrics.py imports only the standard library and the Prometheus client, so every layer that records (the
    storage, the services, the workers, the ui, the composition root) may import it without importing upward."""
    allowed = set(sys.stdlib_module_names) | {"__future__", "prometheus_client"}
    source = (ROOT / "bot" / "metrics.py").read_text(encoding="utf-8")
    assert {name.split(".")[0] for name in imports_of(source)} - allowed == set()
    assert "prometheus_client" in {name.split(".")[0] for name in imports_of(source)}, "the check reads its imports"


def test_the_layer_check_sees_imports() -> None:
    """Guard against a check that passes because it reads nothing."""
    assert "pydantic" in set().union(*imported_roots("rules").values())
    assert "PIL" in set().union(*imported_roots("render").values())


SQL = re.compile(r"\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(TABLE|INDEX|UNIQUE)\s)")
"""A string that starts like a statement of SQL (upper case, as every statement of bot/storage is written; an
HTTP route such as "DELETE /channels/{id}" is none)."""


def imports_of(source: str) -> set[str]:
    """Every module a source imports, by full name (also under TYPE_CHECKING: a type-only import still ties layers);
    `from bot import drawing` counts as `bot.drawing`."""
    found: set[str] = set()
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def store_reaches(source: str) -> list[int]:
    """The lines that reach through an attribute named `store` (a service's storage object)."""
    return [
        node.lineno for node in ast.walk(parsed(source)) if isinstance(node, ast.Attribute) and node.attr == "store"
    ]


def sql_strings(source: str) -> list[int]:
    """The lines of string constants that start like SQL."""
    tree = parsed(source)
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and SQL.match(n.value)
    ]


def string_refusals(source: str) -> list[int]:
    """The lines that refuse with a `ServiceError` of bare text rather than a reason (an enum member or a message)."""
    return [
        node.lineno
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ServiceError"
        and node.args
        and isinstance(node.args[0], ast.Constant | ast.JoinedStr)
    ]


def bot_modules(*parts: str) -> dict[str, str]:
    """The source of each module under bot/ (or under bot/<parts>), by path."""
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in sorted(ROOT.joinpath("bot", *parts).rglob("*.py"))
    }


def importing(modules: dict[str, str], *forbidden: str) -> dict[str, list[str]]:
    """The modules that import any of `forbidden` (or a module inside one), with what they import of them."""
    found: dict[str, list[str]] = {}
    for path, source in modules.items():
        names = sorted(n for n in imports_of(source) if any(n == f or n.startswith(f + ".") for f in forbidden))
        if names:
            found[path] = names
    return found


def test_the_services_import_neither_the_ui_the_commands_the_composition_root_nor_discord() -> None:
    """Services decide and remember; what is shown, and how Discord is spoken to, lives above them."""
    assert (
        importing(bot_modules("services"), "bot.ui", "bot.exts", "bot.games", "bot.app", "bot.sandbox", "discord") == {}
    )


def test_the_ui_imports_neither_the_commands_nor_the_composition_root() -> None:
    """Nor the list of games, which imports the games' packages: the ui reaches it through the bot."""
    assert importing(bot_modules("ui"), "bot.exts", "bot.games", "bot.app", "bot.sandbox") == {}


def test_only_the_entry_point_and_the_offline_runner_import_the_composition_root() -> None:
    """Below bot/app.py the bot is typed by what is needed of it (bot/ui/parts.py), never by the composition root."""
    allowed = ("bot/app.py", "bot/__main__.py", "bot/sandbox/")
    offenders = importing(bot_modules(), "bot.app")
    assert {path: names for path, names in offenders.items() if not path.startswith(allowed)} == {}


def test_only_storage_and_the_services_hold_a_store() -> None:
    """Above the services nothing reaches through `.store`: the services give what is needed of stored data."""
    offenders = {
        path: lines
        for path, source in bot_modules().items()
        if not path.startswith(("bot/storage/", "bot/services/")) and (lines := store_reaches(source))
    }
    assert offenders == {}


def test_only_storage_writes_sql() -> None:
    offenders = {
        path: lines
        for path, source in bot_modules().items()
        if not path.startswith("bot/storage/") and (lines := sql_strings(source))
    }
    assert offenders == {}


def test_refusals_name_a_reason_not_a_string() -> None:
    """Callers compare reasons (`error.reason is ServiceReason.STALE`), which a misspelt string would never match."""
    offenders = {path: lines for path, source in bot_modules().items() if (lines := string_refusals(source))}
    assert offenders == {}


def names_in(source: str) -> set[str]:
    """Every name a source uses or defines: variables, attributes, functions and classes."""
    found: set[str] = set()
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
    return found


def test_the_game_service_tells_the_world_only_through_its_listeners() -> None:
    """No per-game publishers and no locator beside `GameListener`: a second way to be told would creep back."""
    others = {"register_publisher", "unregister_publisher", "locate_elsewhere", "Publisher", "Locator"}
    offenders = {path: sorted(found) for path, source in bot_modules().items() if (found := names_in(source) & others)}
    assert offenders == {}


def test_the_loaded_games_and_what_is_shown_know_nothing_of_the_parts_built_on_them() -> None:
    """The loaded tables (games.py) and what is shown (shown.py) import none of the parts built on them (the lobby,
    the move core, the bot players), so the game service's parts stack one way."""
    parts = {f"bot.services.{name}" for name in ("lobby", "shown", "moves", "bot_players")}
    modules = bot_modules()
    assert imports_of(modules["bot/services/games.py"]) & parts == set()
    assert imports_of(modules["bot/services/shown.py"]) & parts == set()


def test_the_bot_layer_checks_see_what_they_look_for() -> None:
    """Each check finds its offence in a small source, so none passes because it reads nothing."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from bot import drawing\n"
        "if TYPE_CHECKING:\n"
        "    from bot.app import Conductor\n"
        "import discord.ui\n"
        "async def f(bot):\n"
        "    await bot.service.store.get(1)\n"
        "    return f'SELECT * FROM games WHERE id = {1}', 'Select a game', 'DELETE /channels/{id}'\n"
        "raise ServiceError('bot.reason.stale') if x else ServiceError(ServiceReason.STALE)\n"
    )
    assert {"bot.drawing", "bot.app.Conductor", "discord.ui"} <= imports_of(source)
    assert importing({"m.py": source}, "bot.app", "discord") == {"m.py": ["bot.app", "bot.app.Conductor", "discord.ui"]}
    assert importing({"m.py": source}, "bot.ui") == {}, "bot.app is no part of bot.ui, nor bot.application of bot.app"
    assert store_reaches(source) == [7]
    assert sql_strings(source) == [8]
    assert string_refusals(source) == [9]
    assert {"TYPE_CHECKING", "store", "f", "ServiceReason"} <= names_in(source)
    assert bot_modules("services") and bot_modules("ui"), "the checks read the bot's modules"


def test_the_local_discord_imports_nothing_of_ours_and_only_the_offline_runner_imports_it() -> None:
    """localdiscord is a test double of Discord: it knows no game and no bot, and the bot does not depend on it;
    only the offline runner (bot/sandbox/) and the games' sandbox move drivers (bot/exts/<game>/sandbox.py) use it."""
    double = imported_roots("localdiscord")
    ours = {"bot", "rules", "render"}
    assert {f: sorted(r & ours) for f, r in double.items() if r & ours} == {}

    def may_use_it(module: str) -> bool:
        path = Path(module)
        return path.parts[:2] == ("bot", "sandbox") or (path.parts[:2] == ("bot", "exts") and path.name == "sandbox.py")

    users = {f for package in sorted(ours) for f, r in imported_roots(package).items() if "localdiscord" in r}
    assert sorted(f for f in users if not may_use_it(f)) == []
    assert "aiohttp" in set().union(*double.values()) and "bot/sandbox/run.py" in users  # the check reads imports
