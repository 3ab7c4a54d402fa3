"""Moves cross the engine–bot seam as the engines' actions: bot/ and render/ never spell or split a move's text.

A move becomes text only in `bot.ui.custom_ids.action_text` (its `encode()`), and text becomes a move only in the
game service (`engine.parse_action`); everything else decides with `isinstance` and the actions' attributes. Checked
by reading the source of every module, so a new `"draw:deck"` or `code.split(":")` fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.rules.test_engine_contract import CASES, playout

ROOT = Path(__file__).resolve().parents[3]


def _move_texts() -> set[str]:
    """The text of every legal move met in the contract test's seeded playouts of every listed game, and of every
    move without arguments its phases take (a rare one, as a freight train, may never be legal there)."""
    texts: set[str] = set()
    for case in range(len(CASES)):
        game = playout(case)
        for state in game.states:
            kinds = game.engine.phase(state).handlers
            texts.update(
                kind().encode() for kind in kinds if not any(f.is_required() for f in kind.model_fields.values())
            )
            for seat in game.engine.to_act(state):
                texts.update(action.encode() for action in game.engine.legal_actions(state, seat))
    return texts


MOVE_TEXTS = _move_texts()
PREFIXES = tuple(sorted({text.partition(":")[0] + ":" for text in MOVE_TEXTS if ":" in text}))
"""How the texts of moves with arguments begin, in every game (read from the engines' moves)."""
WORDS = frozenset(text for text in MOVE_TEXTS if ":" not in text)
"""The texts of moves without arguments; as words they have other uses (a command's name, an icon), so they are
refused only where a move goes or is compared."""
MOVE_CALLS = frozenset({"act", "act_id", "act_cid", "cid", "ComponentId", "SelectOption", "action_text"})
"""Calls whose arguments are (or carry) moves and custom ids."""
MOVE_NAMES = ("legal", "allowed", "action", "code")
"""Parts of the names of what holds moves, for comparisons (not `move`: a last move's `kind` is a word too)."""
SEPARATORS = frozenset({"split", "rsplit", "partition", "rpartition"})

ALLOWED = {
    "bot/ui/custom_ids.py": {"split", "encode", "parse_action"},
    "bot/services/": {"encode", "parse_action"},
    "bot/command_sync.py": {"encode"},
    "render/artstore.py": {"encode"},
}
"""Where the seam itself lives: the custom id grammar (its one split, a move's one `encode`, and the one reading of a
click's move with the engine's `parse_action`), and the game service, which stores moves as their text and reads a
stored move back to judge its undo; and two hashes of text that
holds no move (the slash commands' payloads, the art store's keys)."""
SKIPPED = ("bot/sandbox/", "bot/storage/")
"""The offline sandbox plays as a person would, by reading the buttons posted (it is the tests' client, not the bot),
and so do the games' own drivers of it (`bot/exts/<game>/sandbox.py`, `DRIVER`); storage never imports the rules
(tests/test_layers.py), so it holds no moves to spell."""
DRIVER = "sandbox.py"


def _name(node: ast.AST) -> str:
    """The called or named thing's last name (`self.controller.act` → `act`)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _mentions_moves(node: ast.AST) -> bool:
    return any(part in _name(n).lower() for n in ast.walk(node) for part in MOVE_NAMES)


def _docstrings(tree: ast.AST) -> set[int]:
    """Ids of the string constants that are documentation (a bare string statement)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def offences(source: str) -> list[str]:
    """Where a module's source spells or splits a move's text, as `line: what`."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.startswith(PREFIXES):
                found.append(f"{line}: spells {node.value!r}")
        elif isinstance(node, ast.Call):
            called = _name(node.func)
            first = node.args[0] if node.args else None
            if called in SEPARATORS and isinstance(first, ast.Constant) and first.value == ":":
                found.append(f"{line}: split")
            elif called == "encode" and not node.args and not node.keywords:
                found.append(f"{line}: encode")
            elif called == "parse_action":
                found.append(f"{line}: parse_action")
            elif called in MOVE_CALLS:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(arg, ast.Constant) and arg.value in WORDS:
                        found.append(f"{line}: spells {arg.value!r} for {called}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            words = [s for s in sides if isinstance(s, ast.Constant) and s.value in WORDS]
            if words and any(_mentions_moves(s) for s in sides if s not in words):
                found.append(f"{line}: compares a move with {words[0].value!r}")  # type: ignore[union-attr]
    return found


def _allowed(path: str, offence: str) -> bool:
    kind = offence.split(": ", 1)[1].split()[0]  # the test's own reading of its report, not a move's text
    return any(path.startswith(where) and kind in kinds for where, kinds in ALLOWED.items())


def test_bot_and_render_never_spell_or_split_a_moves_text() -> None:
    found: dict[str, list[str]] = {}
    for package in ("bot", "render"):
        for file in sorted((ROOT / package).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if path.startswith(SKIPPED) or (path.startswith("bot/exts/") and file.name == DRIVER):
                continue
            bad = [o for o in offences(file.read_text(encoding="utf-8")) if not _allowed(path, o)]
            if bad:
                found[path] = bad
    assert found == {}


def test_the_check_finds_each_way_of_spelling_or_splitting_a_move() -> None:
    """Guard against a check that passes because it sees nothing."""
    samples = {
        'await self.act(interaction, game_id, "draw:deck", version=None)': "spells 'draw:deck'",
        'cid(record, "act", f"claim:{track}:{colour}:0")': "spells 'claim:'",
        'verb, _, rest = code.partition(":")': "split",
        'parts = action.split(":")': "split",
        'await self.controller.act(interaction, record.id, "tickets", version=None)': "spells 'tickets' for act",
        'button(cid(record, "act", "pass"), label)': "spells 'pass' for cid",
        'disabled = "roll" not in allowed': "compares a move with 'roll'",
        'if code == "stop": pass': "compares a move with 'stop'",
        "ids = [c.action.encode() for c in view.legal]": "encode",
        "move = engine.parse_action(text)": "parse_action",
    }
    for source, offence in samples.items():
        assert [o.split(": ", 1)[1] for o in offences(source)] == [offence], source
    innocent = [
        '"""Draw with `draw:deck`."""',
        'app_commands.command(name="tickets", description="…")',
        'items = [("cars", 1), ("tickets", 2)]',
        'if move.kind == "tickets": pass',
        'data = text.encode("utf-8")',
    ]
    for source in innocent:
        assert offences(source) == [], source
    assert _allowed("bot/ui/custom_ids.py", "9: split") and not _allowed("bot/ui/controller.py", "9: split")
