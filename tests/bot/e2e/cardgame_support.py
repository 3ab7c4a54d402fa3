"""Helpers for the card game's end-to-end tests: seeded games through the stand-in, reading controls, and the
scan of every public message for what was private when it was shown."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.app import Conductor
from bot.exts.cardgame._private import ticket_words
from bot.i18n import render
from bot.sandbox.table import ScriptedTable
from localdiscord import LocalDiscord, RecordedMessage
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.view import CardGameView, ticket_view
from tests.bot.e2e.conftest import table

GAME = "ticket-to-ride-cards"
ENGINE = CardGameEngine()
PUBLIC_FILES = {"table.png", "first-scoring.png", "scores.png", "score-detail.png"}


def fix_seed(bot: Conductor, seed: int) -> None:
    """Deal every new game of this bot from `seed`, so a test plays the same game each time."""
    bot.service._new_seed = lambda: seed  # the service draws a seed per game; a test wants a fixed deal


async def version(bot: Conductor, game_id: int) -> int:
    """The game's version now (it moves on with every accepted move)."""
    record = await bot.service.store.get(game_id)
    assert record is not None
    return record.version


def state(bot: Conductor, game_id: int) -> CardGameState:
    """The running game's state."""
    found = bot.service.state(game_id)
    assert isinstance(found, CardGameState)
    return found


def view(bot: Conductor, game_id: int, seat: int | None = None) -> CardGameView:
    """The running game as a seat (or, with None, everyone) sees it."""
    found = bot.service.view(game_id, seat)
    assert isinstance(found, CardGameView)
    return found


def controls(message: RecordedMessage | None) -> dict[str, dict[str, Any]]:
    """Custom id tail (`act:draw:deck`, `take:0:red`, `hand`, `color`, …) -> component, for a message's controls."""
    assert message is not None
    return {str(c["custom_id"]).split(":", 3)[3]: c for c in message.walk_components() if "custom_id" in c}


async def playing(
    stand_in: LocalDiscord, bot: Conductor, names: tuple[str, ...], seed: int, *, bots: int = 0
) -> tuple[ScriptedTable, int]:
    """A started game among these people (and bot players), past the opening choice."""
    fix_seed(bot, seed)
    players = table(stand_in, bot, *names)
    record = await players.open(GAME, bots=bots)
    rng = random.Random(seed)
    while view(bot, record.id).phase == "opening":
        await players.play_move(record.id, rng)
    return players, record.id


async def play_until(
    players: ScriptedTable, game_id: int, wanted: Callable[[CardGameState], bool], rng: random.Random
) -> CardGameState:
    """Play moves until `wanted(state)` holds at a person's turn, with its controls shown; return that state."""
    for _ in range(600):
        record = await players.settle(game_id)
        assert record.status == "active", "the game ended before the wanted moment"
        now = state(players.bot, game_id)
        if wanted(now):
            return now
        assert await players.play_move(game_id, rng), "the game ended before the wanted moment"
    raise AssertionError("the game never reached the wanted moment")


def revisions(message: RecordedMessage) -> list[Any]:
    """Every version a message was shown in."""
    return [*message.history, message.revision()]


def walk(revision: Any) -> list[dict[str, Any]]:
    """The components with a custom id in a message revision."""
    found, stack = [], list(revision.components)
    while stack:
        component = stack.pop()
        stack += component.get("components") or []
        if "custom_id" in component:
            found.append(component)
    return found


def public_words(revision: Any) -> str:
    """Everything a revision of a message shows as text: its text (content, embeds, text displays), controls,
    file names and alt text."""
    parts = [revision.text]
    for component in walk(revision):
        parts += [str(component.get(k) or "") for k in ("label", "placeholder")]
        parts += [f"{o.get('label')} {o.get('description') or ''}" for o in component.get("options") or []]
    parts += [f"{a.filename} {a.description or ''}" for a in revision.attachments]
    return "\n".join(parts)


async def assert_nothing_private_in_public(stand_in: LocalDiscord, bot: Conductor, game_id: int) -> None:
    """Replay the finished game's log: no public message may show a private event's words, a ticket before it
    is revealed (at the first scoring for those completed then, at the end for all), a private picture or a
    ticket menu; private pictures go only to the players, ephemerally."""
    record = await bot.service.store.get(game_id)
    assert record is not None and record.status == "finished"
    options = ENGINE.load_options(record.options)
    now = ENGINE.new_game(options, len(record.seats), record.seed)
    names = {s.seat: s.display_name for s in record.seats}
    held = {t for p in now.players for t in p.offered}
    private: set[str] = set()
    revealed_first: set[int] = set()
    for seat, action in await bot.service.store.actions(game_id):
        now, events = ENGINE.apply(now, seat, ENGINE.parse_action(action))
        held |= {t for p in now.players for t in (*p.offered, *p.tickets)}
        private |= {render(lang, e, names) for e in events if e.to is not None for lang in ("en", "ru")}
        if now.first_scoring is not None and not revealed_first:
            revealed_first = {s.ticket for r in now.first_scoring for s in r.completed}
    words = {t: {ticket_words(lang, ticket_view(t)) for lang in ("en", "ru")} for t in held}
    assert len(private) > 20 and len(held) > 10, "the scan must have secrets to look for"
    messages = stand_in.channel_messages()
    final = messages[-1]
    assert "scores.png" in [a.filename for a in final.attachments]
    first = next((m for m in messages if "first-scoring.png" in [a.filename for a in m.attachments]), None)
    scanned = 0
    for message in messages:
        if message is final:
            continue
        shown_before_first = first is None or message.id < first.id
        secret = {w for t, ws in words.items() if shown_before_first or t not in revealed_first for w in ws}
        for revision in revisions(message):
            text = public_words(revision)
            scanned += 1
            assert not [p for p in private if p in text], text
            assert not [w for w in secret if w in text], text
            assert {a.filename for a in revision.attachments} <= PUBLIC_FILES
            assert "keep" not in {str(c.get("custom_id", "")).split(":")[3] for c in walk(revision)}
    assert scanned > 60
    players = {s.user_id for s in record.seats if s.user_id is not None}
    for message in stand_in.messages:
        if any(a.filename == "hand.png" for a in message.attachments):
            assert message.ephemeral and message.recipient_id in players
