"""What a Ticket to Ride game says, and to whom, through the real bot on the local Discord: a private message only
where it adds to the public line (one per turn of cards drawn), the last turn told once, and the face-up cards in
words while the board above shows an older row."""

from __future__ import annotations

from itertools import groupby

import pytest

from bench.private_messages import plain_lines, repeating
from bot.app import Conductor
from bot.exts.ttr._presenter import face_up_row
from localdiscord import LocalDiscord, RecordedMessage
from rules.ttr.view import PublicView
from tests.bot.e2e.helpers import Running, controls, fix_seed, people, playing, table

GAME = "ticket-to-ride"
USA = {"map": "usa"}


def public(bot: Conductor, game_id: int) -> PublicView:
    return bot.service.view(game_id, None)  # type: ignore[return-value]


def game_messages(stand_in: LocalDiscord, channel_id: int) -> list[RecordedMessage]:
    """The public messages of the game's channel after its lobby, as they read now."""
    public_ones = [m for m in stand_in.channel_messages(channel_id) if not m.ephemeral and not m.deleted]
    return public_ones[1:]


@pytest.mark.slow  # a whole game played through: the slow group, which CI runs
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


async def test_the_face_up_row_is_told_in_words_while_the_board_above_shows_an_older_one(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 4, options=USA)
        message = await players.turn_message(game_id)
        view = public(bot, game_id)
        assert message.pictures and face_up_row("en", view) not in message.text, "the board just posted is current"
        mover = people(stand_in, "Ann", "Ben")[view.current or 0]
        taken = next(k for k, c in controls(message).items() if k.startswith("take:") and "locomotive" not in k)
        await stand_in.click(mover, message, controls(message)[taken]["custom_id"])
        message = await players.turn_message(game_id)
        row = face_up_row("en", public(bot, game_id))
        assert row in message.text, "the first card taken face up: the turn's own message says the new row"
        await stand_in.click(mover, message, controls(message)["act:draw:deck"]["custom_id"])
        message = await players.turn_message(game_id)
        assert not message.pictures, "no board after a turn of cards"
        assert face_up_row("en", public(bot, game_id)) == row in message.text, "the next turn says it too"


async def test_a_move_typed_as_a_command_is_answered_done_not_with_the_public_line(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Dan"), 2, options=USA)
        view = public(bot, game_id)
        colour = next(c for c in view.market if c != "locomotive")
        person = people(stand_in, "Ann", "Dan")[view.current or 0]
        typed = await stand_in.slash(person, "draw", {"card": colour})
        assert typed.ephemeral and typed.text == {"Ann": "Done.", "Dan": "Готово."}[person.name]
        shown = await players.turn_message(game_id)
        assert f"takes a face-up {colour} card" in shown.text, "the move is told in public, in the server's language"


async def test_two_cards_drawn_blind_are_one_private_message_or_two_once_the_first_can_no_longer_change(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 5, options=USA)
        answers = []
        for expire in (False, True):
            mover = people(stand_in, "Ann", "Ben")[public(bot, game_id).current or 0]
            message = await players.turn_message(game_id)
            first = await stand_in.click(mover, message, controls(message)["act:draw:deck"]["custom_id"])
            if expire:  # the second card 15 minutes later: the first card's answer cannot be edited any more
                stand_in.expire_interaction(first)
            message = await players.turn_message(game_id)
            second = await stand_in.click(mover, message, controls(message)["act:draw:deck"]["custom_id"])
            answers.append((first, second))
        (first, second), (late_first, late_second) = answers
        assert first.message is not None and first.message.ephemeral
        assert second.message is None or not second.message.ephemeral, "no private message of its own"
        assert first.message.text.count("You drew") == 2 and len(first.message.history) == 1, "told in the first's"
        assert late_first.message is not None and late_second.message is not None and late_second.message.ephemeral
        assert late_first.message.text.count("You drew") == late_second.message.text.count("You drew") == 1
