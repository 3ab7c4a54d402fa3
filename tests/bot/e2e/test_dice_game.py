"""The dice game end to end: /newgame to the winner, a restart mid-game, and every bad input refused privately."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.app import Conductor
from localdiscord import LocalDiscord, RecordedMessage
from rules.dice import DiceEngine
from tests.bot.e2e.helpers import Running, act_buttons, final_with_chart, people, seat_to_act, stored_version, table


@pytest.mark.slow  # a whole game (test_a_whole_game_tells_each_turn… plays one in every run)
async def test_a_whole_game_from_newgame_to_the_winner(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice", bots=1)
        assert [s.name for s in record.seats][:2] == ["Ann", "Ben"] and record.seats[2].bot_kind == "normal"
        finished = await players.play_to_the_end(record.id, seed=7)
        final = await final_with_chart(stand_in, bot, record.id)

    assert final.id == stand_in.channel_messages()[-1].id
    assert [a.filename for a in final.attachments] == ["scores.png", "score-chart.png"]
    assert all(a.data.startswith(b"\x89PNG") for a in final.attachments)
    assert [b["custom_id"] for b in final.buttons()] == [f"lobby:{record.id}:{finished.version}:rematch"]
    stored = await_result(finished.state)
    winners = [finished.seats[s].name for s in stored.winners]
    assert winners and all(name in final.text for name in winners)
    turn_pictures = [a for m in stand_in.channel_messages() for a in m.attachments if a.filename == "turn.png"]
    assert turn_pictures, "every turn message carries the roll picture"


async def test_a_whole_game_tells_each_turn_in_one_message_a_line_per_roll_and_ends_with_the_winner(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice", bots=1)
        finished = await players.play_to_the_end(record.id, seed=3)
        final = await bot.shown.message(record.id, "final")

    assert finished.state is not None and final is not None
    state = DiceEngine().load_state(finished.state)
    names = {s.seat: s.display_name for s in finished.seats}
    turns = [m for m in stand_in.channel_messages() if "· round" in m.text]
    assert len(turns) == len(state.history), "one message per turn"
    for message, played in zip(turns, state.history, strict=True):
        lines = message.text.splitlines()
        rolls = [line.split(":")[0] for line in lines if line.startswith("Roll ")]
        assert rolls == [f"Roll {n}" for n in range(1, len(rolls) + 1)], "a line per roll, from the first roll"
        assert not any(line.endswith("to the train.") for line in lines), "no line per die added"
        assert message.buttons() == [], "a turn over keeps no buttons"
        assert f"round {played.round} · {names[played.seat]}'s turn" in lines[0]
    assert "this is the last round" not in turns[-1].text, "the turn that ends the game does not announce a round"
    told = stand_in.message(final[1]).text.splitlines()
    won = [f"{names[seat]} wins with {state.standing(seat)} points!" for seat in state.winners()]
    assert won and all(line in told for line in won), "the game's last line names who won"


def await_result(state_json: str | None) -> object:
    """The engine's result of a stored final state."""
    assert state_json is not None
    engine = DiceEngine()
    result = engine.result(engine.load_state(state_json))
    assert result is not None
    return result


async def test_the_game_survives_a_restart_and_old_buttons_still_work(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice")
        rng = random.Random(3)
        for _ in range(4):
            await players.play_move(record.id, rng)
        before = await players.turn_message(record.id)
        version = await stored_version(bot, record.id)

    async with running() as bot:  # a new bot object on the same database: the restart
        state = bot.service.state(record.id)
        engine = DiceEngine()
        seat = seat_to_act(bot, record.id)
        person = people(stand_in, "Ann", "Ben")[seat]
        code = engine.bot_action(state, seat, random.Random(1)).encode()
        buttons = act_buttons(before)
        custom_id = buttons.get(code) or buttons[next(iter(buttons))]
        outcome = await stand_in.click(person, before, custom_id)
        assert not outcome.ephemeral
        players = table(stand_in, bot, "Ann", "Ben")
        await players.wait_for_version_after(record.id, version)
        assert await stored_version(bot, record.id) == version + 1
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.state is not None
        replayed = engine.replay(
            engine.load_options(stored.options), 2, stored.seed, await bot.service.store.actions(record.id)
        )
        assert replayed == engine.load_state(stored.state)
        await players.play_to_the_end(record.id)


async def started_game(stand_in: LocalDiscord, bot: Conductor) -> tuple[int, RecordedMessage]:
    """Ann and Ben in a started game; returns its id and current turn message."""
    players = table(stand_in, bot, "Ann", "Ben")
    record = await players.open("dice")
    return record.id, await players.turn_message(record.id)


async def test_a_click_out_of_turn_is_refused_privately_and_changes_nothing(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, message = await started_game(stand_in, bot)
        version = await stored_version(bot, game_id)
        waiting = people(stand_in, "Ann", "Ben")[1 - seat_to_act(bot, game_id)]
        outcome = await stand_in.click(waiting, message, next(iter(act_buttons(message).values())))
        assert outcome.ephemeral and "not your turn" in outcome.text
        assert await stored_version(bot, game_id) == version


async def test_a_click_by_someone_not_in_the_game_is_refused(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        game_id, message = await started_game(stand_in, bot)
        version = await stored_version(bot, game_id)
        outcome = await stand_in.click("Eve", message, next(iter(act_buttons(message).values())))
        assert outcome.ephemeral and "not playing" in outcome.text
        assert await stored_version(bot, game_id) == version


async def test_a_double_click_applies_once_and_the_second_gets_fresh_controls(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, message = await started_game(stand_in, bot)
        version = await stored_version(bot, game_id)
        seat = seat_to_act(bot, game_id)
        person = people(stand_in, "Ann", "Ben")[seat]
        custom_id = act_buttons(message)["stop"]
        first, second = await asyncio.gather(*(stand_in.click(person, message, custom_id) for _ in range(2)))
        refused = second if second.ephemeral else first
        assert [first.ephemeral, second.ephemeral].count(True) == 1
        assert "earlier turn" in refused.text
        assert await bot.service.store.actions(game_id) == [(seat, "stop")]
        assert await stored_version(bot, game_id) == version + 1


async def test_two_clicks_at_the_same_moment_apply_exactly_one(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        game_id, message = await started_game(stand_in, bot)
        version = await stored_version(bot, game_id)
        seat = seat_to_act(bot, game_id)
        person = people(stand_in, "Ann", "Ben")[seat]
        buttons = list(act_buttons(message).values())
        pair = [buttons[0], buttons[-1]]
        outcomes = await asyncio.gather(*(stand_in.click(person, message, cid) for cid in pair))
        assert sorted(o.ephemeral for o in outcomes) == [False, True]
        assert await stored_version(bot, game_id) == version + 1
        assert len(await bot.service.store.actions(game_id)) == 1


async def test_buttons_of_an_earlier_turn_are_refused(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        game_id, message = await started_game(stand_in, bot)
        seat = seat_to_act(bot, game_id)
        person = people(stand_in, "Ann", "Ben")[seat]
        roll = act_buttons(message)["roll"]  # a roll keeps the turn, so the refused click gets controls
        outcomes = await asyncio.gather(*(stand_in.click(person, message, roll) for _ in range(2)))
        private = next(o.message for o in outcomes if o.ephemeral)
        assert private is not None and act_buttons(private), "the refused player gets the current controls"
        players = table(stand_in, bot, "Ann", "Ben")
        rng = random.Random(5)
        while seat_to_act(bot, game_id) == seat:  # finish this turn …
            await players.play_move(game_id, rng)
        while seat_to_act(bot, game_id) != seat:  # … and let the other player have theirs
            await players.play_move(game_id, rng)
        assert stand_in.message(message.id).buttons() == [], "an earlier turn message loses its buttons"
        version = await stored_version(bot, game_id)
        stale = await stand_in.click(person, private, next(iter(act_buttons(private).values())))
        assert stale.ephemeral and "earlier turn" in stale.text
        assert await stored_version(bot, game_id) == version


async def test_roll_in_a_channel_with_no_game(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        outcome = await stand_in.slash("Ann", "roll")
        assert outcome.ephemeral and "no game in this channel" in outcome.text


async def test_roll_by_the_player_in_turn_applies_and_by_another_is_refused(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        game_id, _ = await started_game(stand_in, bot)
        seat = seat_to_act(bot, game_id)
        ann_ben = people(stand_in, "Ann", "Ben")
        version = await stored_version(bot, game_id)
        refused = await stand_in.slash(ann_ben[1 - seat], "roll")
        assert refused.ephemeral and "not your turn" in refused.text
        assert await stored_version(bot, game_id) == version
        state = bot.service.state(game_id)
        if "roll" in {a.encode() for a in DiceEngine().legal_actions(state, seat)}:  # type: ignore[arg-type]
            accepted = await stand_in.slash(ann_ben[seat], "roll")
            assert not accepted.ephemeral
            assert await stored_version(bot, game_id) == version + 1


async def test_lobby_refusals_are_private_and_change_nothing(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        record = await bot.service.game_in_channel(lobby.channel_id)

        def custom_id(verb: str) -> str:
            message = stand_in.message(lobby.id)
            return next(c["custom_id"] for c in message.buttons() if c["custom_id"].split(":")[3] == verb)

        too_few = await stand_in.click("Ann", lobby, custom_id("start"))
        assert too_few.ephemeral and "At least 2 players" in too_few.text
        await stand_in.click("Ben", lobby, custom_id("join"))
        again = await stand_in.click("Ben", lobby, custom_id("join"))
        assert again.ephemeral and "already in this game" in again.text
        for name in ("Cat", "Dan", "Eve", "Fay"):
            await stand_in.click(name, lobby, custom_id("join"))
        full = await stand_in.click("Gus", lobby, custom_id("join"), force=True)
        assert full.ephemeral and "full" in full.text
        not_host = await stand_in.click("Ben", lobby, custom_id("start"))
        assert not_host.ephemeral and "Only the host" in not_host.text
        busy = await stand_in.slash("Ben", "newgame dice")
        assert busy.ephemeral and "already open" in busy.text
        assert len((await bot.service.get(record.id)).seats) == 6
        russian = await stand_in.click("Dan", lobby, custom_id("join"), force=True)
        assert russian.ephemeral and "Вы уже в этой игре" in russian.text
        await stand_in.click("Ann", lobby, custom_id("start"))
        assert stand_in.message(lobby.id).buttons() == [], "a started lobby has no buttons"


async def test_a_join_racing_the_start_either_joins_before_or_is_refused(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        lobby = (await stand_in.slash("Ann", "newgame dice")).message
        assert lobby is not None
        await stand_in.click("Ben", lobby, lobby.custom_id("Join"))
        lobby = stand_in.message(lobby.id)
        start, join = await asyncio.gather(
            stand_in.click("Ann", lobby, lobby.custom_id("Start")),
            stand_in.click("Cat", lobby, lobby.custom_id("Join")),
        )
        assert not start.ephemeral
        record = (await bot.service.store.in_channel(lobby.channel_id))[0]
        seated = [s.name for s in record.seats]
        if join.ephemeral:
            assert "already started" in join.text and seated == ["Ann", "Ben"]
        else:
            assert seated == ["Ann", "Ben", "Cat"]
        assert record.status == "active"
