"""Imports flow one way: rules <- render <- bot. Checked by reading every import of every module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_roots(package: str) -> dict[str, set[str]]:
    """Map each module file of a package to the top-level names it imports."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        roots = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def test_storage_imports_only_the_standard_library_its_drivers_the_settings_and_the_shards() -> None:
    """bot/storage is the only place that speaks SQL: sqlite3 and asyncpg, never discord, pictures or the rules."""
    allowed = set(sys.stdlib_module_names) | {"__future__", "asyncpg"}
    ours = ("bot.storage", "bot.settings", "bot.shards")
    offenders: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bot" / "storage").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] not in allowed and not name.startswith(ours):
                    offenders.setdefault(str(path.relative_to(ROOT)), []).append(name)
    assert offenders == {}


def test_the_layer_check_sees_imports() -> None:
    """Guard against a check that passes because it reads nothing."""
    assert "pydantic" in set().union(*imported_roots("rules").values())
    assert "PIL" in set().union(*imported_roots("render").values())


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
