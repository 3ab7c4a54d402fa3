"""What a whole game leaves in its channel, for every game: in the card-table games one message per person's turn
at most (bot players' turns folded in, no new picture when the table did not change), in the dice game one message
per turn (a bot player's too: each tells its turn whole), Components V2 messages within Discord's limits, and alt
text on every picture the bot sends, public or private."""

from __future__ import annotations

import pytest

from localdiscord import LocalDiscord, RecordedMessage
from rules.dice import DiceEngine
from tests.bot.e2e.helpers import Running, table

GAMES = [("dice", {}), ("ticket-to-ride", {"map": "usa"}), ("ticket-to-ride-cards", {})]
NOT_TURNS = {"lobby", "opening", "final", "first_scoring"}
"""Kinds of public messages that are not a turn's."""


def _all_pictures(message: RecordedMessage) -> list[tuple[str, str | None]]:
    """(file name, alt text) of every attachment of every revision of a message."""
    return [(a.filename, a.description) for r in [*message.history, message.revision()] for a in r.attachments]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_whole_game_reads_as_one_message_per_turn_with_every_picture_described(
    stand_in: LocalDiscord, running: Running, game: str, options: dict[str, object]
) -> None:
    async with running(threads=None) as bot:  # a server that never chose: the game gets a thread of its own
        players = table(stand_in, bot, "Ann")
        record = await players.open(game, bots=2, options=options)
        finished = await players.play_to_the_end(record.id, seed=4)
        special = {await bot.shown.message(record.id, kind) for kind in NOT_TURNS}
        lobby = await bot.shown.message(record.id, "lobby")

    assert finished.channel_id in {t.id for t in stand_in.threads}
    public = [m for m in stand_in.channel_messages(finished.channel_id) if not m.ephemeral]
    messages = [m for m in public if (m.channel_id, m.id) != lobby]
    assert all(m.v2 for m in messages), "every game message after the lobby is Components V2"
    turns = [m for m in messages if (m.channel_id, m.id) not in special]
    ann = f"<@{stand_in.user('Ann').id}>"
    assert turns
    first_versions = [m.history[0] if m.history else m.revision() for m in turns]
    if game == "dice":
        assert finished.state is not None
        played = DiceEngine().load_state(finished.state).history
        assert len(turns) == len(played), "a message per turn"
        anns = [r for r in first_versions if ann in _texts(r.components)]
        assert len(anns) == sum(turn.seat == 0 for turn in played), "Ann called once per turn of hers"
    else:
        assert all(ann in _texts(r.components) for r in first_versions), "a message for Ann's turns only"
    described = [p for m in stand_in.messages for p in _all_pictures(m)]
    assert described and all(alt and alt.strip() for _, alt in described), "every picture has alt text"
    assert all(p.description for m in messages for p in m.pictures), "every gallery item is described"


def _texts(components: list[dict[str, object]]) -> str:
    """The text of every text display in a layout."""
    found, stack = [], list(components)
    while stack:
        component = stack.pop()
        stack += component.get("components") or []  # type: ignore[operator]
        found.append(str(component.get("content") or ""))
    return "\n".join(found)
