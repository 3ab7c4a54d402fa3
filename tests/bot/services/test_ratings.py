"""Ratings over seeded finished games: finishing order, shared wins, bots, abandoned games, the backfill of games
finished before ratings existed, the live path after a game's last move, a game its host ended (their loss), and
the stats a person's results sum to."""

from __future__ import annotations

import random
from typing import Any

from bot.games import GAMES
from bot.services.games import AnyEngine, GameService, Outcome
from bot.services.lobby import LobbyService
from bot.services.ratings import (
    RatingService,
    finished_game,
    forfeited_game,
    rate_game,
    rated_as_loss,
    shown,
    summarize,
)
from bot.storage.database import Database
from bot.storage.games import GameRecord, GameStore, SeatRecord
from bot.storage.ratings import FinishedGame, Rating, RatingStore, SeatResult
from rules.ttr.board import board_for
from rules.ttr.scoring import final_scores
from tests.bot.services.game_parts import game_parts

GUILD = 5
ENGINES = {game: info.engine for game, info in GAMES.items()}
RATINGS = {game: info.ratings for game, info in GAMES.items()}


def game_of(places: list[int], users: list[int | None]) -> FinishedGame:
    seats = tuple(
        SeatResult(seat=i, name=f"P{i}", place=p, score=50 - p, won=p == 1, user_id=u, bot_kind=None if u else "hard")
        for i, (p, u) in enumerate(zip(places, users, strict=True))
    )
    return FinishedGame(1, GUILD, "dice", "2026-01-01T00:00:00.000+00:00", seats)


def test_a_four_player_game_moves_ratings_in_finishing_order() -> None:
    after = rate_game({}, game_of([3, 1, 4, 2], [10, 11, 12, 13]))
    assert sorted(after, key=lambda user: -after[user].mu) == [11, 13, 10, 12]
    assert after[11].mu > 25 > after[12].mu and all(r.sigma < 25 / 3 for r in after.values())
    assert [after[u].wins for u in (10, 11, 12, 13)] == [0, 1, 0, 0] and shown(after[11]) > shown(after[10])
    assert shown(Rating(25.0, 25 / 3)) == 1000


def test_a_shared_win_moves_the_tied_players_equally_and_lifts_no_one_below() -> None:
    after = rate_game({}, game_of([1, 1, 3, 4], [10, 11, 12, 13]))
    assert after[10].mu == after[11].mu and after[10].sigma == after[11].sigma
    assert after[10].mu > after[12].mu > after[13].mu  # OpenSkill 6.2 alone gives the third the winners' gain
    assert after[10].wins == after[11].wins == 1


def test_bots_are_left_out_and_a_game_needs_two_people() -> None:
    assert rate_game({}, game_of([1, 2, 3], [10, None, None])) == {}
    after = rate_game({}, game_of([1, 2, 3], [None, 11, 10]))
    alone = rate_game({}, game_of([1, 2], [11, 10]))
    assert {u: (r.mu, r.sigma) for u, r in after.items()} == {u: (r.mu, r.sigma) for u, r in alone.items()}
    assert after[11].wins == 0  # second behind a bot: no win


def test_a_person_who_left_is_rated_below_everyone_who_stayed_whatever_the_bot_in_their_seat_did() -> None:
    seats = (
        SeatResult(seat=0, name="Ann", place=1, score=90, won=True, bot_kind="normal", left_user_id=10),
        SeatResult(seat=1, name="Ben", place=2, score=80, won=False, user_id=11),
        SeatResult(seat=2, name="Cat", place=3, score=70, won=False, user_id=12),
    )
    after = rate_game({}, FinishedGame(1, GUILD, "dice", "2026-01-01T00:00:00.000+00:00", seats))
    assert sorted(after, key=lambda user: -after[user].mu) == [11, 12, 10]
    assert after[10].games == 1 and after[10].wins == 0 and after[10].name == "Ann"


def play_to_the_end(engine: AnyEngine, n_players: int, seed: int, **options: Any) -> Any:
    state = engine.new_game(engine.load_options(options), n_players, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, rng, "easy"))
    return state


async def store_game(
    games: GameStore, game: str, seats: list[SeatRecord], state: Any, *, channel: int, finished: bool = True
) -> GameRecord:
    """A game as the service leaves it: started with these seats, then its final move stored (or abandoned)."""
    engine = ENGINES[game]
    record = await games.create_game(
        game=game, guild_id=GUILD, channel_id=channel, host_id=1, options={}, seed=1, seats=seats
    )
    snapshot = engine.state_model.model_validate(state).model_dump_json()
    record = await games.start(record, seats, snapshot)
    if not finished:
        (closed,) = await games.close_games([record.id], "abandoned")
        return closed
    return await games.record_action(record, 0, "end", snapshot, finished=True)


def people(*names: str) -> list[SeatRecord]:
    return [SeatRecord(seat=i, name=name, user_id=100 + i) for i, name in enumerate(names)]


async def test_finished_games_are_backfilled_once_in_finish_order_and_abandoned_ones_change_nothing(
    db: Database,
) -> None:
    games, store = GameStore(db), RatingStore(db)
    service = GameService(games, ENGINES)
    ratings = RatingService(store, service, RATINGS)
    ttr_state = play_to_the_end(ENGINES["ticket-to-ride"], 3, seed=7)
    ttr_seats = [*people("Ann", "Ben"), SeatRecord(seat=2, name="Stephenson", bot_kind="easy")]
    ttr = await store_game(games, "ticket-to-ride", ttr_seats, ttr_state, channel=1)
    dice = await store_game(
        games, "dice", people("Ann", "Ben", "Cat", "Dan"), play_to_the_end(ENGINES["dice"], 4, 3), channel=2
    )
    abandoned_state = ENGINES["dice"].new_game(ENGINES["dice"].load_options({}), 2, 1)
    await store_game(games, "dice", people("Eve", "Fay"), abandoned_state, channel=3, finished=False)

    assert await ratings.run_due() == 2
    assert await ratings.run_due() == 0  # never counted twice
    assert await store.standing(GUILD, "dice", 104) is None  # Eve played only the abandoned game
    assert {s.user_id for s in await store.top(GUILD, "dice")} == {100, 101, 102, 103}
    assert {s.user_id for s in await store.top(GUILD, "ttr")} == {100, 101}

    result = ENGINES["ticket-to-ride"].result(ttr_state)
    assert result is not None
    board, scores = board_for(ttr_state.map_id), final_scores(ttr_state)
    (ann,) = await store.results_of(GUILD, "ttr", 100)
    assert ann.won == (0 in result.winners) and ann.score == next(p.total for p in result.players if p.seat == 0)
    assert ann.facts == {
        "map": "usa",
        "trail": scores[0].trail_length,
        "tickets_done": scores[0].completed,
        "tickets_failed": len(scores[0].tickets) - scores[0].completed,
        "tracks": [board.track_ids[i] for i, owner in enumerate(ttr_state.owners) if owner == 0],
    }
    assert finished_game(ENGINES["ticket-to-ride"], RATINGS["ticket-to-ride"], ttr, "t").seats[2].bot_kind == "easy"
    dice_results = [await store.results_of(GUILD, "dice", 100 + i) for i in range(4)]
    assert sorted(r[0].place for r in dice_results)[0] == 1
    assert {"mode", "scoring_turns", "best_turn"} <= set(dice_results[0][0].facts)
    assert dice.status == "finished"


async def test_a_finished_game_is_rated_after_its_last_move_is_shown(db: Database) -> None:
    games, store = GameStore(db), RatingStore(db)
    service = GameService(games, ENGINES)
    ratings = RatingService(store, service, RATINGS)
    service.add_listener(ratings)
    ratings.start()
    try:
        state = play_to_the_end(ENGINES["dice"], 2, 11)
        record = await store_game(games, "dice", people("Ann", "Ben"), state, channel=4)
        await service.after_move(Outcome(record=record, state=state, seat=0, action=None, events=[]))  # type: ignore[arg-type]
        await ratings.until_recorded(1)
    finally:
        await ratings.close()
    assert len(await store.top(GUILD, "dice")) == 2


async def test_a_seat_handed_to_a_bot_remembers_who_left_it_and_they_are_rated_last(db: Database) -> None:
    games, store = GameStore(db), RatingStore(db)
    service = game_parts(games, ENGINES, bot_move_delay=3600)
    record = await LobbyService(service.games).open_lobby(
        game="dice", guild_id=GUILD, channel_id=6, host_id=100, host_name="Ann"
    )
    await LobbyService(service.games).join(record.id, 101, "Ben")
    await LobbyService(service.games).join(record.id, 102, "Cat")
    await LobbyService(service.games).start(record.id, 100)
    handed = await service.moves.hand_to_bot(record.id, 0)
    assert (handed.seats[0].bot_kind, handed.seats[0].left_user_id) == ("normal", 100)
    stored = await games.get(record.id)
    assert stored is not None and stored.seats[0].left_user_id == 100
    await service.close(timeout=0)
    state = play_to_the_end(ENGINES["dice"], 3, 5)
    winner_first = await store_game(games, "dice", list(stored.seats), state, channel=7)
    assert await RatingService(store, GameService(games, ENGINES), RATINGS).run_due() == 1
    board = await store.top(GUILD, "dice")
    assert [s.user_id for s in board][-1] == 100, "the leaver is last whatever their seat's bot scored"
    (left,) = await store.results_of(GUILD, "dice", 101)
    assert left.user_id == 101 and winner_first.status == "finished"


def running_record(game: str, seats: list[SeatRecord], state: Any) -> GameRecord:
    """A running game of the test server with these seats and this snapshot."""
    snapshot = ENGINES[game].state_model.model_validate(state).model_dump_json()
    return GameRecord(9, game, GUILD, 8, seats[0].user_id or 0, "active", {}, 1, 5, snapshot, tuple(seats))


def test_a_game_its_host_ended_is_their_loss_and_the_others_are_placed_by_their_points() -> None:
    engine = ENGINES["ticket-to-ride"]
    state = engine.new_game(engine.load_options({}), 4, 1).model_copy(update={"route_points": (30, 10, 20, 10)})
    seats = [*people("Ann", "Ben"), SeatRecord(seat=2, name="Stephenson", bot_kind="easy"), SeatRecord(3, "Cat", 103)]
    record = running_record("ticket-to-ride", seats, state)
    assert rated_as_loss(record, 100) and RATINGS["ticket-to-ride"].points_so_far(state) == {0: 30, 1: 10, 2: 20, 3: 10}

    game = forfeited_game(engine, RATINGS["ticket-to-ride"], record, 100, "2026-01-02T00:00:00.000+00:00")
    assert [(s.name, s.place, s.won, s.score) for s in game.seats] == [
        ("Ann", 4, False, 30),  # ahead, and still last: ending the game is a loss
        ("Ben", 2, False, 10),
        ("Stephenson", 1, True, 20),
        ("Cat", 2, False, 10),
    ]
    assert game.family == "ttr" and all(s.facts == {} for s in game.seats)
    after = rate_game({}, game)
    assert after[101].mu == after[103].mu > after[100].mu and after[100].wins == after[101].wins == 0


def test_ending_a_game_alone_with_bot_players_or_with_those_who_left_is_no_loss() -> None:
    seats = [
        *people("Ann"),
        SeatRecord(seat=1, name="Ben", bot_kind="normal", left_user_id=101),
        SeatRecord(seat=2, name="Stephenson", bot_kind="easy"),
    ]
    record = running_record("dice", seats, ENGINES["dice"].new_game(ENGINES["dice"].load_options({}), 3, 1))
    assert not rated_as_loss(record, 100)


def test_the_points_so_far_of_a_card_game_are_its_public_scorings_and_of_a_dice_game_its_standing() -> None:
    cards = ENGINES["ticket-to-ride-cards"]
    assert RATINGS["ticket-to-ride-cards"].points_so_far(cards.new_game(cards.load_options({}), 3, 1)) == {
        0: 0,
        1: 0,
        2: 0,
    }
    dice = play_to_the_end(ENGINES["dice"], 2, 11)
    assert RATINGS["dice"].points_so_far(dice) == {seat: dice.standing(seat) for seat in (0, 1)}


async def test_a_forfeit_is_rated_after_the_games_that_finished_before_it_as_a_recompute_would(db: Database) -> None:
    games, store = GameStore(db), RatingStore(db)
    service = GameService(games, ENGINES)
    ratings = RatingService(store, service, RATINGS)
    await store_game(games, "dice", people("Ann", "Ben"), play_to_the_end(ENGINES["dice"], 2, 11), channel=1)
    running = ENGINES["dice"].new_game(ENGINES["dice"].load_options({}), 2, 1)
    ended = await store_game(games, "dice", people("Ann", "Ben"), running, channel=2, finished=False)

    assert await ratings.forfeit(ended, 100)
    assert ratings.recorded == 2, "the finished game waiting was rated first"
    assert not await ratings.forfeit(ended, 100), "never counted twice"
    live = {s.user_id: s.rating for s in await store.top(GUILD, "dice")}
    assert await store.recompute(GUILD, rate_game) == 2
    assert {s.user_id: s.rating for s in await store.top(GUILD, "dice")} == live
    *_, forfeit = await store.results_of(GUILD, "dice", 100)
    assert (forfeit.place, forfeit.won) == (2, False) and len(await store.results_of(GUILD, "dice", 101)) == 2


def test_a_persons_results_sum_up_to_their_stats() -> None:
    results = [
        SeatResult(
            0,
            "Ann",
            1,
            120,
            True,
            1,
            facts={"map": "usa", "trail": 9, "tickets_done": 3, "tickets_failed": 1, "tracks": [5, 6]},
        ),
        SeatResult(
            1,
            "Ann",
            2,
            80,
            False,
            1,
            facts={"map": "usa", "trail": 14, "tickets_done": 1, "tickets_failed": 2, "tracks": [6, 7]},
        ),
        SeatResult(
            2,
            "Ann",
            3,
            70,
            False,
            1,
            facts={"map": "europe", "trail": 4, "tickets_done": 0, "tickets_failed": 0, "tracks": [6]},
        ),
    ]
    summary = summarize(RATINGS["ticket-to-ride"], results)
    assert (summary.games, summary.wins, summary.win_percent, summary.best) == (3, 1, 33, 120)
    assert summary.average == 90
    assert summary.facts["best_trail"] == 14
    assert (summary.facts["tickets_done"], summary.facts["tickets_failed"]) == (4, 3)
    assert summary.facts["routes"] == [("usa", 6, 2), ("europe", 6, 1), ("usa", 5, 1)]
