"""What a Ticket to Ride game says, and to whom, through the real bot on the local Discord: a private message only
where it adds to the public line (one per turn of cards drawn) and the last turn told once."""

from __future__ import annotations

from itertools import groupby

from bench.private_messages import plain_lines, repeating
from localdiscord import LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Running, fix_seed, people, table

GAME = "ticket-to-ride"
USA = {"map": "usa"}


def game_messages(stand_in: LocalDiscord, channel_id: int) -> list[RecordedMessage]:
    """The public messages of the game's channel after its lobby, as they read now."""
    public_ones = [m for m in stand_in.channel_messages(channel_id) if not m.ephemeral and not m.deleted]
    return public_ones[1:]


async def test_a_whole_two_player_game_sends_no_private_message_that_repeats_the_public_line(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, 3)
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open(GAME, options=USA)
        finished = await players.play_to_the_end(record.id, seed=3)
        actions = await bot.service.store.actions(record.id)
        final_where = await bot.shown.message(record.id, "final")
    assert final_where is not None
    final_id = final_where[1]

    assert finished.status == "finished"
    assert [(m.recipient_id, sorted(shared)) for m, shared in repeating(stand_in.messages)] == []
    for person in people(stand_in, "Ann", "Ben"):
        seat = finished.seat_of(person.id)
        turns = [list(moves) for mover, moves in groupby(actions, key=lambda entry: entry[0]) if mover == seat]
        blind = sum(any(action == "draw:deck" for _, action in turn) for turn in turns)
        drew = [m for m in stand_in.ephemerals(person) if m.text.startswith("You drew")]
        assert len(drew) == blind > 0, "one private message for each turn that drew cards blind"
    *_, last_turn, final = game_messages(stand_in, finished.channel_id)
    assert final.id == final_id
    story = [line for line in plain_lines(last_turn.text) if not line.startswith(("Ticket to Ride", "Game #"))]
    last_mover = next(s.display_name for s in finished.seats if s.seat == actions[-1][0])
    assert story and all(line.startswith(last_mover) for line in story), "the last turn is told in its own message"
    assert not set(story) & set(plain_lines(final.text)), "and not again in the final one"

