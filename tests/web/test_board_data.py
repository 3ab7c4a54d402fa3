"""What a board page reads of a game (bot/web/board/page_data.py, telling.py) never carries what the table hid:
scrambling the hidden parts of a running game (hands, decks, tickets, the generator: the engine contract's
scramble) leaves the page's data byte for byte the same; so does a Ticket to Ride game dealt differently only where
nobody saw (two blind draws swapped, another ticket returned), told from its start to its end, replay included."""

from __future__ import annotations

import importlib
import itertools
import json
import random
from typing import Any

import pytest
from pydantic import BaseModel

from bot.game_entry import GameInfo
from bot.games import GAMES as OFFERED
from bot.storage.games import GameRecord, SeatRecord
from bot.web.board.page_data import STORY_LINES, as_json, page_data, replay_data
from rules.engine import Seat
from rules.history import Telling, tell_moves
from rules.ttr import TicketToRideEngine
from tests.rules.contract import ContractCase
from tests.rules.test_score_history import GAMES, played
from tests.rules.test_spectator_log import SEED as SWAPPED_SEED
from tests.rules.test_spectator_log import hidden_swapped, states

SEED = 987_654_321
"""Long enough not to turn up in a game's data by chance."""
LOOKS = 12
"""Moments of each game whose page data is compared, evenly spread from its start to its end."""


def record_of(info: GameInfo, players: int, options: dict[str, Any], *, status: str = "active") -> GameRecord:
    """A stored game of these players: Ann, and bot players after her."""
    seats = tuple(
        SeatRecord(seat=0, name="Ann", user_id=1)
        if seat == 0
        else SeatRecord(seat=seat, name=f"Robot {seat}", bot_kind="normal")
        for seat in range(players)
    )
    return GameRecord(
        id=31, game=info.game_id, guild_id=1, channel_id=2, host_id=1, status=status, options=options, seed=SEED,
        version=9, state=None, seats=seats,
    )  # fmt: skip


def contract(info: GameInfo) -> ContractCase:
    """The game's part of the engine contract: its scramble of what a seat (None: everyone) cannot see."""
    case: ContractCase = importlib.import_module(f"tests.rules.{info.namespace}.contract").CASE
    return case


def start_of(info: GameInfo, players: int, options: dict[str, Any]) -> BaseModel:
    return info.engine.new_game(info.engine.load_options(options), players, SEED)


def looks(log: list[tuple[Seat, str]]) -> list[int]:
    """How many moves in, at each compared moment while the game runs (its end reveals everything)."""
    return sorted({round(i * (len(log) - 1) / (LOOKS - 1)) for i in range(LOOKS)})


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_scrambling_what_the_table_hides_leaves_the_page_data_byte_for_byte_the_same(
    game: str, players: int, options: dict[str, Any], language: str
) -> None:
    info = OFFERED[game]
    log = played(game, players, options, seed=SEED)
    record = record_of(info, players, options)
    scramble = contract(info).scramble
    rng = random.Random(SEED)
    for moves in looks(log):
        telling = tell_moves(info.engine, start_of(info, players, options), log[:moves])
        state = telling.state
        honest = as_json(page_data(info, record, state, telling, language))
        for _ in range(2):
            scrambled = scramble(state, None, rng)
            assert scrambled != state or moves == 0 or game == "dice", "the scramble changes something hidden"
            assert as_json(page_data(info, record, scrambled, telling, language)) == honest
        assert_nothing_hidden(json.loads(honest), info, state, record)


def assert_nothing_hidden(data: dict[str, Any], info: GameInfo, state: BaseModel, record: GameRecord) -> None:
    """The page shows the engine's public view as it is, and names neither the generator nor the seed."""
    assert data["view"] == info.engine.view(state, None).model_dump(mode="json")
    text = json.dumps(data)
    assert '"rng"' not in text
    assert '"seed"' not in text
    assert str(record.seed) not in text


def test_a_game_dealt_otherwise_only_where_nobody_saw_is_told_and_replayed_alike() -> None:
    engine = TicketToRideEngine()
    info = OFFERED[engine.game_id]
    options: dict[str, object] = {"map": "usa"}
    log = played(engine.game_id, 2, options, seed=SWAPPED_SEED)  # a deal whose blind draws can be swapped
    start = engine.new_game(engine.load_options(options), 2, SWAPPED_SEED)
    honest_states = states(engine, start, log)
    swapped = hidden_swapped(engine, honest_states, log)
    assert states(engine, swapped, log)[-1].hands != honest_states[-1].hands, "the swap changes hands to the end"
    record = record_of(info, 2, options)
    honest, other = Telling(engine, start), Telling(engine, swapped)
    for moves in range(len(log) + 1):
        honest.extend(log[:moves])
        other.extend(log[:moves])
        if moves % 10 == 0 or moves == len(log):
            assert as_json(page_data(info, record, other.state, other, "en")) == as_json(
                page_data(info, record, honest.state, honest, "en")
            ), f"after {moves} moves"
    finished = record_of(info, 2, options, status="finished")
    assert as_json(replay_data(info, finished, tell_moves(engine, swapped, log, keep_views=True), "ru")) == as_json(
        replay_data(info, finished, tell_moves(engine, start, log, keep_views=True), "ru")
    )


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_replay_has_a_frame_per_move_and_ends_as_the_game_did(
    game: str, players: int, options: dict[str, Any]
) -> None:
    info = OFFERED[game]
    log = played(game, players, options, seed=SEED)
    telling = tell_moves(info.engine, start_of(info, players, options), log, keep_views=True)
    replay = json.loads(as_json(replay_data(info, record_of(info, players, options, status="finished"), telling, "en")))
    frames = replay["frames"]
    assert [frame["step"] for frame in frames] == list(range(len(log) + 1))
    assert frames[0]["last"] is None and frames[0]["told"] == 0 and frames[0]["scored"] == 1
    assert frames[-1]["told"] == len(replay["story"]), "the last frame has told the whole story"
    assert frames[-1]["view"] == info.engine.view(telling.state, None).model_dump(mode="json")
    assert [f["last"]["seat"] for f in frames[1:]] == [seat for seat, _ in log]
    assert all(a["told"] <= b["told"] and a["scored"] <= b["scored"] for a, b in itertools.pairwise(frames))
    result = info.engine.result(telling.state)
    assert result is not None and replay["game"]["finished"]
    assert replay["scores"][-1] == [p.total for p in sorted(result.players, key=lambda p: p.seat)]
    assert replay["scores"][0] == [0] * players
    live = page_data(info, record_of(info, players, options, status="finished"), telling.state, telling, "en")
    assert live["told"] == len(replay["story"]) > STORY_LINES, "a whole game tells more than a page's data holds"
    assert live["story"] == replay["story"][-STORY_LINES:] and live["scores"] == replay["scores"]
