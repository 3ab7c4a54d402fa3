"""/replay through the local Discord: a finished game's animation (one frame per turn) and its public log (JSON),
which tells each move as the table did and never what it hid (no seed, no returned ticket, no blind card's colour);
refusals (unknown id, another server's game, an unfinished game) are private and say why."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

from PIL import Image

from bot.app import Conductor
from bot.storage.games import GameRecord, SeatRecord
from localdiscord import LocalDiscord
from rules.cardgame.actions import KeepTickets
from rules.history import bots_play, tell_log
from tests.bot.e2e.helpers import Running, table
from tests.rules.test_score_history import engine_of

OPTIONS = {"target": 10}
"""A short dice race, so the game ends in a few turns."""
DRAWN = 60.0
"""Seconds a replay may take to come (its animation is drawn in a worker started on first use)."""
CARDS = "ticket-to-ride-cards"
SEED = 987_654_321
"""The stored card game's seed: long enough not to turn up in its log by chance."""


async def finished_game(stand_in: LocalDiscord, bot: Conductor) -> GameRecord:
    """A short dice race between Ann and a bot player, played to its end."""
    players = table(stand_in, bot, "Ann")
    record = await players.open("dice", bots=1, options=OPTIONS)
    return await players.play_to_the_end(record.id, seed=3)


async def test_replay_posts_the_animation_and_a_log_of_every_move_as_the_table_told_it(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await finished_game(stand_in, bot)
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.state is not None
        posted = await stand_in.slash("Ben", "replay", {"game": record.id}, timeout=DRAWN)
        message = posted.message
        assert message is not None and not posted.ephemeral, "asked in the game's channel: posted there"
        assert posted.interaction.answered  # in time: the stand-in refuses an answer past its 3-second ack_deadline
        files = {a.filename: a for a in message.attachments}
        assert set(files) == {f"replay-{record.id}.webp", f"game-{record.id}.json"}

        log = json.loads(files[f"game-{record.id}.json"].data)
        assert log["format"] == 2 and log["game"] == "dice" and log["options"] == stored.options
        assert [s["name"] for s in log["seats"]] == ["Ann", "Stephenson"]
        actions = await bot.service.store.actions(record.id)
        assert [m["seat"] for m in log["moves"]] == [seat for seat, _ in actions], "every move, by whom"
        assert log["moves"][0]["events"][0]["key"].startswith("dice.event.")
        engine = engine_of("dice")
        assert log["end"] == engine.view(engine.load_state(stored.state), None).model_dump(mode="json")

        story = tell_log(engine_of("dice"), stored.options, len(stored.seats), stored.seed, actions)
        with Image.open(io.BytesIO(files[f"replay-{record.id}.webp"].data)) as animation:
            assert animation.n_frames == len(story.turns), "the start, then one frame per turn"
        assert f"{len(story.turns) - 1} turns" in message.content
        assert files[f"replay-{record.id}.webp"].description


async def stored_card_game(stand_in: LocalDiscord, bot: Conductor) -> tuple[GameRecord, list[tuple[int, str]]]:
    """A whole card game of Ann and Ben (bot players' moves) stored move by move as if played in #trains, and its
    log: tickets returned and cards drawn blind in plenty."""
    engine = engine_of(CARDS)
    log = bots_play(engine_of(CARDS), {}, 2, SEED)
    ann, ben = stand_in.user("Ann"), stand_in.user("Ben")
    seats = [SeatRecord(0, "Ann", user_id=ann.id), SeatRecord(1, "Ben", user_id=ben.id)]
    store = bot.service.store
    record = await store.create_game(
        game=CARDS,
        guild_id=stand_in.guild_id,
        channel_id=stand_in.channel("trains").id,
        host_id=ann.id,
        options={},
        seed=SEED,
        seats=seats,
    )
    state = engine.new_game(engine.load_options({}), 2, SEED)
    record = await store.start(record, seats, state.model_dump_json())
    for number, (seat, text) in enumerate(log, start=1):
        state = engine.apply(state, seat, engine.parse_action(text))[0]
        record = await store.record_action(record, seat, text, state.model_dump_json(), finished=number == len(log))
    return record, log


def hidden_tickets(log: list[tuple[int, str]]) -> set[int]:
    """The tickets returned in a card game's log and kept by nobody in the end: the table never saw them."""
    engine = engine_of(CARDS)
    state = engine.new_game(engine.load_options({}), 2, SEED)
    returned: set[int] = set()
    for seat, text in log:
        action = engine.parse_action(text)
        if isinstance(action, KeepTickets):
            returned |= set(state.players[seat].offered) - set(action.tickets)
        state = engine.apply(state, seat, action)[0]
    return returned - {t for player in state.players for t in player.tickets}


def tickets_in(data: Any) -> Iterator[int]:
    """The id of every ticket a log shows (a ticket's face is an object with its id and two cities)."""
    if isinstance(data, dict):
        if {"id", "a", "b"} <= data.keys():
            yield data["id"]
        for value in data.values():
            yield from tickets_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from tickets_in(value)


async def test_the_log_holds_no_seed_no_returned_ticket_no_blind_card_and_no_hand_before_the_end(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record, actions = await stored_card_game(stand_in, bot)
        posted = await stand_in.slash("Cat", "replay", {"game": record.id}, timeout=DRAWN)
        assert posted.message is not None and not posted.ephemeral
        data = next(a.data for a in posted.message.attachments if a.filename.endswith(".json"))
        log = json.loads(data)

        assert "seed" not in data.decode() and str(SEED) not in data.decode()
        hidden, shown = hidden_tickets(actions), set(tickets_in(log))
        assert hidden and shown, "the game returned tickets, and its final sheet shows the kept ones"
        assert not hidden & shown, "no returned ticket"
        blind = [(n, seat) for n, (seat, text) in enumerate(actions) if text == "draw:deck"]
        assert blind, "the game drew cards blind"
        for n, seat in blind:
            assert log["moves"][n]["events"][0] == {"key": "cardgame.event.drew_from_deck", "params": {"seat": seat}}
        assert "cardgame.event.drew_card" not in data.decode(), "no blind card's colour"
        assert log["start"]["hand"] is None and log["start"]["tickets"] is None and log["start"]["offered"] is None
        assert not [m for m in log["moves"] if {"hand", "tickets", "offered", "stack"} & m["table"].keys()]
        assert all(hand for hand in log["end"]["final"]["hands"]), "the hands left, as the final sheet shows them"


async def test_replay_refuses_unknown_foreign_and_unfinished_games_privately(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await finished_game(stand_in, bot)
        unknown = await stand_in.slash("Ann", "replay", {"game": record.id + 100})
        assert unknown.ephemeral and unknown.text == f"There is no game #{record.id + 100}."

        players = table(stand_in, bot, "Cat")
        running_game = await players.open("dice", bots=1, options=OPTIONS)
        unfinished = await stand_in.slash("Cat", "replay", {"game": running_game.id})
        assert unfinished.ephemeral and "is not finished" in unfinished.text

        other_server = stand_in.add_guild("Elsewhere")
        there = stand_in.channel("trains", guild_id=other_server)
        elsewhere = await stand_in.slash("Ann", "replay", {"game": record.id}, channel=there)
        assert elsewhere.ephemeral and elsewhere.text == f"Game #{record.id} was not played on this server."
