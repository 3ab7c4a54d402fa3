"""Turn timers on a real SQLite file with the real engines and an injected clock: nothing here waits for real."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field, replace

import pytest

from bot.services.games import GameListener, Outcome
from bot.services.guild_config import AfkPolicy, TimerPolicy
from bot.services.lobby import LobbyService
from bot.services.timers import MAX_STILL_WAITING, RETRY_SECONDS, WAIT_SILENTLY, TimerService
from bot.storage.database import Database
from bot.storage.games import GameRecord, GameStore
from bot.storage.timers import TimerStore
from rules.dice import DiceEngine
from rules.engine import Message
from rules.ttr import TicketToRideEngine
from tests.bot.services.game_parts import GameParts, game_parts

ANN, BEN, CAT = 11, 12, 13
MINUTE = 60.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * MINUTE


@dataclass
class Table:
    """The game services with their timer service, recording notices and published moves."""

    service: GameParts
    timers: TimerService
    clock: Clock
    notices: list[tuple[str, dict[str, object], int | None]] = field(default_factory=list)
    published: list[Outcome] = field(default_factory=list)

    def keys(self) -> list[str]:
        return [key for key, _, _ in self.notices]


@dataclass
class Shows(GameListener):
    """Shows the moves nobody clicked for, as a game's controller does, by keeping them."""

    published: list[Outcome]

    async def on_unclicked_move(self, outcome: Outcome) -> None:
        self.published.append(outcome)


def make_table(db: Database, clock: Clock | None = None) -> Table:
    store = GameStore(db)
    service = game_parts(store, {"dice": DiceEngine(), "ticket-to-ride": TicketToRideEngine()}, bot_move_delay=0)
    clock = clock or Clock()
    timers = TimerService(TimerStore(db), service.games, service.moves, service.bots, clock=clock)
    table = Table(service, timers, clock)

    async def announce(record: GameRecord, message: Message, ping: int | None) -> None:
        table.notices.append((message.key, dict(message.params), ping))

    timers.announce = announce
    service.games.add_listener(Shows(table.published))
    service.games.add_listener(timers)
    return table


async def start_game(
    table: Table,
    policy: TimerPolicy,
    *,
    game: str = "dice",
    people: tuple[int, ...] = (ANN, BEN),
    bots: int = 0,
    channel: int = 2,
) -> GameRecord:
    svc = table.service.games
    record = await LobbyService(svc, new_seed=lambda: 99).open_lobby(
        game=game, guild_id=1, channel_id=channel, host_id=people[0], host_name="Ann"
    )
    await table.timers.adopt(record.id, policy)
    for user in people[1:]:
        await LobbyService(svc).join(record.id, user, f"P{user}")
    for _ in range(bots):
        await LobbyService(svc).add_bot(record.id, people[0])
    return await LobbyService(svc).start(record.id, people[0])


def to_act(table: Table, game_id: int) -> set[int]:
    record_game = table.service.games.live[game_id].record.game
    return set(table.service.games.engine(record_game).to_act(table.service.games.state(game_id)))


async def user_moves(table: Table, game_id: int, user: int) -> Outcome:
    """A person makes a sensible move, shown as the controller would (which tells the listeners)."""
    record = await table.service.games.get(game_id)
    seat = record.seat_of(user)
    assert seat is not None
    engine = table.service.games.engine(record.game)
    action = engine.bot_action(table.service.games.state(game_id), seat, random.Random(seat))
    outcome = await table.service.moves.act(game_id, user, action)
    await table.service.games.after_move(outcome)
    return outcome


def user_to_act(record: GameRecord, seats: set[int]) -> int:
    return next(s.user_id for s in record.seats if s.seat in seats and s.user_id is not None)


async def test_a_reminder_pings_the_player_to_act_after_its_delay_and_not_before(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=10, timeout_minutes=60))
    waiting = user_to_act(record, to_act(table, record.id))
    table.clock.advance(9.9)
    assert await table.timers.run_due() == 0 and table.notices == []
    table.clock.advance(0.1)
    assert await table.timers.run_due() == 1
    assert table.notices == [
        (
            "admin.notice.reminder",
            {"seat": record.seat_of(waiting), "player": f"<@{waiting}>", "id": record.id, "minutes": 10},
            waiting,
        )
    ]
    assert await table.timers.run_due() == 0, "a reminder is said once"


async def test_a_timeout_lets_the_sensible_bot_play_that_turn_for_the_absent_player(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=10, timeout_minutes=60, missed_limit=3))
    absent = min(to_act(table, record.id))
    table.clock.advance(61)
    assert await table.timers.run_due() == 2  # the reminder and the timeout, both due
    assert table.keys() == ["admin.notice.reminder", "admin.notice.played_for"]
    assert table.notices[1][1] == {"seat": absent, "minutes": 60, "missed": 1, "limit": 3}
    assert table.published and all(o.by_bot and o.seat == absent for o in table.published)
    assert {seat for seat, _ in await table.service.games.store.actions(record.id)} == {absent}
    assert absent not in to_act(table, record.id), "the bot played the whole turn"
    assert await table.timers.store.missed(record.id, absent) == 1
    timers = await table.timers.store.timers(record.id)
    assert list(timers) == [1 - absent] and timers[1 - absent].due_at == table.clock.now + 10 * MINUTE


async def test_a_move_by_the_player_cancels_their_timer_and_forgets_their_missed_turns(
    db: Database,
) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=0, timeout_minutes=30))
    first = min(to_act(table, record.id))
    table.clock.advance(31)
    await table.timers.run_due()  # the first player misses a turn
    assert await table.timers.store.missed(record.id, first) == 1
    while first not in to_act(table, record.id):  # the other plays, then it is the first player's turn again
        await user_moves(table, record.id, user_to_act(record, to_act(table, record.id)))
    assert first in await table.timers.store.timers(record.id)
    table.clock.advance(20)
    engine, state = DiceEngine(), DiceEngine().load_state(table.service.games.state(record.id).model_dump_json())
    keeps_turn = next(
        a for a in engine.legal_actions(state, first) if first in engine.to_act(engine.apply(state, first, a)[0])
    )
    outcome = await table.service.moves.act(record.id, (ANN, BEN)[first], keeps_turn)
    await table.service.games.after_move(outcome)
    assert await table.timers.store.missed(record.id, first) == 0
    table.clock.advance(29)
    assert await table.timers.run_due() == 0, "the timer restarted when the player acted"
    table.clock.advance(1)
    assert await table.timers.run_due() == 1


async def test_the_seat_goes_to_a_bot_player_for_good_after_repeated_missed_turns(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=0, timeout_minutes=30, missed_limit=2))
    absent_user = ANN
    for _ in range(200):
        seats = to_act(table, record.id)
        current = await table.service.games.get(record.id)
        if current.seats[0].is_bot:
            break
        if 0 in seats:
            table.clock.advance(31)
            await table.timers.run_due()
        else:
            await user_moves(table, record.id, BEN)
    current = await table.service.games.get(record.id)
    assert current.seats[0].is_bot and current.seats[0].name == "Ann" and current.seats[0].user_id is None
    assert table.keys().count("admin.notice.played_for") == 1
    assert table.keys()[-1] == "admin.notice.handed_over"
    assert table.notices[-1][1] == {"seat": 0, "missed": 2, "player": "Ann"}
    async with asyncio.timeout(5):  # the new bot player takes its turn by itself
        while 0 in to_act(table, record.id):
            await asyncio.sleep(0.001)
    assert current.seat_of(absent_user) is None
    assert 0 not in await table.timers.store.timers(record.id), "bot players have no timers"
    await table.service.close()


async def test_the_pause_policy_waits_for_the_player_and_counts_every_period_as_a_missed_turn(
    db: Database,
) -> None:
    table = make_table(db)
    record = await start_game(
        table, TimerPolicy(reminder_minutes=5, timeout_minutes=20, on_timeout=AfkPolicy.PAUSE, missed_limit=2)
    )
    absent = min(to_act(table, record.id))
    table.clock.advance(21)
    assert await table.timers.run_due() == 2
    assert table.keys() == ["admin.notice.reminder", "admin.notice.paused"]
    assert table.published == [] and await table.service.games.store.actions(record.id) == []
    table.clock.advance(19)
    assert await table.timers.run_due() == 0, "the next missed period is a whole timeout later"
    table.clock.advance(1)
    assert await table.timers.run_due() == 1
    assert table.keys()[-1] == "admin.notice.handed_over"
    assert (await table.service.games.get(record.id)).seats[absent].is_bot
    await table.service.close()


async def test_a_player_who_returns_during_a_pause_plays_on(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=0, timeout_minutes=20, on_timeout=AfkPolicy.PAUSE))
    absent = min(to_act(table, record.id))
    table.clock.advance(21)
    await table.timers.run_due()
    assert (await table.timers.store.timers(record.id))[absent].stage == "paused"
    await user_moves(table, record.id, (ANN, BEN)[absent])
    assert await table.timers.store.missed(record.id, absent) == 0
    stages = {seat: timer.stage for seat, timer in (await table.timers.store.timers(record.id)).items()}
    assert stages.get(absent) in (None, "timeout"), "a move ends the pause"


async def test_a_timer_that_fell_due_while_the_bot_was_down_fires_after_the_restart(db: Database) -> None:
    before = make_table(db)
    record = await start_game(before, TimerPolicy(reminder_minutes=10, timeout_minutes=60))
    waiting = user_to_act(record, to_act(before, record.id))
    clock = Clock()
    clock.now = before.clock.now + 15 * MINUTE  # the bot was down for 15 minutes
    after = make_table(db, clock)  # a new service on the same file: the restart
    await after.service.games.resume_all()
    after.timers.start()
    async with asyncio.timeout(5):
        while not after.notices:
            await asyncio.sleep(0.001)
    await after.timers.close()
    assert after.notices == [
        (
            "admin.notice.reminder",
            {"seat": record.seat_of(waiting), "player": f"<@{waiting}>", "id": record.id, "minutes": 10},
            waiting,
        )
    ]


async def test_after_a_restart_running_games_without_timers_get_them(db: Database) -> None:
    before = make_table(db)
    record = await start_game(before, TimerPolicy(reminder_minutes=10, timeout_minutes=60))
    await before.timers.store.clear(record.id)  # as if the bot died between a move and its timers
    after = make_table(db)
    await after.service.games.resume_all()
    after.timers.start()
    async with asyncio.timeout(5):
        while not await after.timers.store.timers(record.id):
            await asyncio.sleep(0.001)
    await after.timers.close()
    assert set(await after.timers.store.timers(record.id)) == to_act(after, record.id)


async def test_opening_ticket_choices_time_out_the_same_way(db: Database) -> None:
    table = make_table(db)
    record = await start_game(
        table, TimerPolicy(reminder_minutes=0, timeout_minutes=30), game="ticket-to-ride", people=(ANN, BEN, CAT)
    )
    assert to_act(table, record.id) == {0, 1, 2}
    assert set(await table.timers.store.timers(record.id)) == {0, 1, 2}
    table.clock.advance(10)
    await user_moves(table, record.id, BEN)  # Ben keeps his tickets; the others' timers run on
    timers = await table.timers.store.timers(record.id)
    assert set(timers) == {0, 2} and timers[0].due_at == timers[2].due_at
    table.clock.advance(21)
    assert await table.timers.run_due() == 2
    assert table.keys() == ["admin.notice.played_for"] * 2
    assert {o.seat for o in table.published} == {0, 2}
    assert len(to_act(table, record.id)) == 1, "everyone has kept tickets: the first turn begins"


async def test_bot_players_get_no_timers_and_an_ended_game_keeps_none(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=10), people=(ANN,), bots=1)
    seats = to_act(table, record.id)
    assert set(await table.timers.store.timers(record.id)) == (seats & {0})
    ended = await table.service.moves.end(record.id)
    await table.service.games.after_close(ended)
    assert ended.status == "abandoned"
    assert await table.timers.store.timers(record.id) == {}
    await table.service.close()


async def test_with_no_person_left_a_game_handed_over_ends_as_abandoned(db: Database) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(), people=(ANN,), bots=1)
    notice = Message(key="admin.notice.left", params={"seat": 0})
    after = await table.timers.hand_over(record.id, 0, notice)
    assert after.status == "abandoned"
    assert table.keys() == ["admin.notice.left", "admin.notice.nobody_left"]
    stored = await table.service.games.store.get(record.id)
    assert stored is not None and stored.status == "abandoned"
    await table.service.close()


async def test_a_timer_that_fails_to_fire_is_retried_later_and_the_others_still_fire(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(db)
    broken = await start_game(table, TimerPolicy(reminder_minutes=10, timeout_minutes=0))
    table.service.games.live[broken.id].record = replace(broken, channel_id=666)  # where messages cannot be posted
    working = await start_game(table, TimerPolicy(reminder_minutes=10, timeout_minutes=0), people=(CAT, BEN), channel=3)
    recorded = table.timers.announce

    async def announce(record: GameRecord, message: Message, ping: int | None) -> None:
        if record.channel_id == 666:
            raise RuntimeError("Missing Access")
        await recorded(record, message, ping)

    table.timers.announce = announce
    table.clock.advance(10)
    with caplog.at_level(logging.ERROR):
        assert await table.timers.run_due() == 1
    assert "failed; retrying later" in caplog.text
    assert [params["id"] for _, params, _ in table.notices] == [working.id]
    [retry] = (await table.timers.store.timers(broken.id)).values()
    assert retry.stage == "reminder" and retry.due_at == table.clock.now + RETRY_SECONDS


async def test_pause_pings_are_bounded_then_the_game_waits_silently_until_the_player_acts(
    db: Database,
) -> None:
    table = make_table(db)
    policy = TimerPolicy(reminder_minutes=0, timeout_minutes=5, on_timeout=AfkPolicy.PAUSE, missed_limit=0)
    record = await start_game(table, policy)
    absent = min(to_act(table, record.id))
    for _ in range(MAX_STILL_WAITING + 5):  # far more periods than pings allowed
        table.clock.advance(5)
        await table.timers.run_due()
    assert table.keys() == ["admin.notice.paused_uncounted"] + ["admin.notice.still_waiting_uncounted"] * (
        MAX_STILL_WAITING
    )
    silent = (await table.timers.store.timers(record.id))[absent]
    assert silent.stage == "paused" and silent.due_at == WAIT_SILENTLY
    table.clock.advance(7 * 24 * 60)
    assert await table.timers.run_due() == 0, "a week later, still silent"
    assert await table.service.games.store.actions(record.id) == [], "the game waits for the player"
    await user_moves(table, record.id, (ANN, BEN)[absent])  # the player is back: timers as usual again
    assert await table.timers.store.missed(record.id, absent) == 0
    assert all(t.due_at < WAIT_SILENTLY for t in (await table.timers.store.timers(record.id)).values())


async def test_pause_pings_stop_at_the_bound_but_the_hand_over_still_comes(db: Database) -> None:
    table = make_table(db)
    limit = MAX_STILL_WAITING + 3
    policy = TimerPolicy(reminder_minutes=0, timeout_minutes=5, on_timeout=AfkPolicy.PAUSE, missed_limit=limit)
    record = await start_game(table, policy)
    absent = min(to_act(table, record.id))
    for _ in range(limit):
        table.clock.advance(5)
        await table.timers.run_due()
    assert table.keys() == [
        "admin.notice.paused",
        *["admin.notice.still_waiting"] * MAX_STILL_WAITING,
        "admin.notice.handed_over",
    ]
    assert table.notices[-1][1]["missed"] == limit
    assert (await table.service.games.get(record.id)).seats[absent].is_bot
    await table.service.close()


async def test_a_timer_whose_game_closed_while_it_fired_is_not_retried(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(db)
    record = await start_game(table, TimerPolicy(reminder_minutes=10, timeout_minutes=0))

    async def announce(gone: GameRecord, message: Message, ping: int | None) -> None:
        ended = await table.service.moves.end(gone.id)  # as the dead-place handler does for a deleted channel
        await table.service.games.after_close(ended)
        raise RuntimeError("Unknown Channel")

    table.timers.announce = announce
    table.clock.advance(10)
    with caplog.at_level(logging.INFO):
        await table.timers.run_due()
    assert await table.timers.store.timers(record.id) == {}
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    table.clock.advance(RETRY_SECONDS / 60 + 1)
    assert await table.timers.run_due() == 0
