"""The game service on a real SQLite file with the real dice engine: lobbies, moves, versions, resuming."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from typing import Any

import pytest

from bot.services.errors import ServiceError, ServiceReason
from bot.services.games import GameListener, Outcome
from bot.services.lobby import LobbyService
from bot.storage.database import Database, Statement
from bot.storage.games import GameStore
from rules.dice import DiceEngine, Freight, Roll, Stop
from rules.engine import IllegalAction, Message
from tests.bot.services.game_parts import GameParts, game_parts

ANN, BEN, CAT = 1, 2, 3


def service(db: Database) -> GameParts:
    return game_parts(GameStore(db), {"dice": DiceEngine()}, bot_move_delay=0)


async def started(svc: GameParts) -> int:
    record = await LobbyService(svc.games, new_seed=lambda: 1234).open_lobby(
        game="dice", guild_id=9, channel_id=8, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).start(record.id, ANN)
    return record.id


def to_act(svc: GameParts, game_id: int) -> int:
    return min(DiceEngine().to_act(svc.games.state(game_id)))  # type: ignore[arg-type]


async def test_bad_options_are_refused_with_the_reason(db: Database) -> None:
    with pytest.raises(ServiceError) as refused:
        await LobbyService(service(db).games).open_lobby(
            game="dice", guild_id=9, channel_id=8, host_id=ANN, host_name="Ann", options={"target": 5}
        )
    assert refused.value.message.key == "bot.reason.bad_options"
    assert "target" in str(refused.value.message.params["detail"])


async def test_a_channel_without_the_game_points_where_a_listener_says_it_is_played(db: Database) -> None:
    svc = service(db)
    game_id = await started(svc)
    pointer = Message(key="admin.reason.game_elsewhere", params={"id": game_id, "channel": "<#8>"})

    class Places(GameListener):
        async def elsewhere(self, channel_id: int, user_id: int | None, game: str | None) -> Message | None:
            return pointer if (channel_id, user_id, game) == (7, ANN, "dice") else None

    with pytest.raises(ServiceError) as nowhere:
        await svc.games.game_in_channel(7, "dice", user_id=ANN)
    assert nowhere.value.reason is ServiceReason.NO_GAME_HERE
    svc.games.add_listener(Places())
    with pytest.raises(ServiceError) as elsewhere:
        await svc.games.game_in_channel(7, "dice", user_id=ANN)
    assert elsewhere.value.reason is None and elsewhere.value.message == pointer
    assert (await svc.games.game_in_channel(8, "dice", user_id=ANN)).id == game_id


async def test_a_move_is_persisted_with_its_version_and_a_stale_version_is_refused(db: Database) -> None:
    svc = service(db)
    game_id = await started(svc)
    version = (await svc.games.get(game_id)).version
    seat = to_act(svc, game_id)
    user = (ANN, BEN)[seat]
    outcome = await svc.moves.act(game_id, user, Stop(), version)
    assert outcome.record.version == version + 1
    assert await svc.games.store.actions(game_id) == [(seat, "stop")]
    with pytest.raises(ServiceError, match="stale"):
        await svc.moves.act(game_id, (ANN, BEN)[to_act(svc, game_id)], Stop(), version)
    assert await svc.games.store.actions(game_id) == [(seat, "stop")]


async def test_illegal_moves_and_strangers_change_nothing(db: Database) -> None:
    svc = service(db)
    game_id = await started(svc)
    before = svc.games.state(game_id)
    waiting = (ANN, BEN)[1 - to_act(svc, game_id)]
    with pytest.raises(IllegalAction):
        await svc.moves.act(game_id, waiting, Roll())
    with pytest.raises(IllegalAction):
        await svc.moves.act(game_id, (ANN, BEN)[to_act(svc, game_id)], Freight())
    with pytest.raises(ServiceError, match="not_a_player"):
        await svc.moves.act(game_id, CAT, Roll())
    assert svc.games.state(game_id) == before
    assert await svc.games.store.actions(game_id) == []


async def test_a_restarted_service_resumes_from_the_log(db: Database) -> None:
    svc = service(db)
    game_id = await started(svc)
    rng = random.Random(2)
    for _ in range(5):
        seat = to_act(svc, game_id)
        action = DiceEngine().bot_action(svc.games.state(game_id), seat, rng)  # type: ignore[arg-type]
        await svc.moves.act(game_id, (ANN, BEN)[seat], action)
    resumed = service(db)
    assert [r.id for r in await resumed.games.resume_all()] == [game_id]
    assert resumed.games.state(game_id) == svc.games.state(game_id)


async def test_games_resume_from_their_snapshots_and_a_snapshot_that_differs_from_its_log_is_reported_and_the_log_wins(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    svc = service(db)
    game_id = await started(svc)
    seat = to_act(svc, game_id)
    await svc.moves.act(game_id, (ANN, BEN)[seat], Stop())
    truth = svc.games.state(game_id)
    opening = DiceEngine().new_game(DiceEngine().load_options({}), 2, 1234)
    await db.write([Statement("UPDATE games SET state = ? WHERE id = ?", (opening.model_dump_json(), game_id))])
    with caplog.at_level(logging.ERROR):
        resumed = service(db)
        await resumed.games.resume_all()
        assert resumed.games.state(game_id) == opening, "loaded from the snapshot, not replayed before the bot is ready"
        await resumed.games.snapshots_checked()
    assert "differs from the snapshot" in caplog.text
    assert resumed.games.state(game_id) == truth


class CountingDice(DiceEngine):
    """The dice engine, counting the logs it replays (each snapshot checked at start replays one)."""

    replays = 0

    def replay(self, *args: Any, **kwargs: Any) -> Any:
        CountingDice.replays += 1
        return super().replay(*args, **kwargs)


async def test_after_a_clean_stop_only_the_games_written_since_are_checked_against_their_logs(db: Database) -> None:
    def counting(db: Database) -> GameParts:
        return game_parts(GameStore(db), {"dice": CountingDice()}, bot_move_delay=0)

    CountingDice.replays = 0
    opened = counting(db)
    quiet = await started(opened)
    lobby = await LobbyService(opened.games, new_seed=lambda: 1234).open_lobby(
        game="dice", guild_id=9, channel_id=7, host_id=CAT, host_name="Cat"
    )
    await LobbyService(opened.games).join(lobby.id, BEN, "Ben")
    await LobbyService(opened.games).start(lobby.id, CAT)
    busy = lobby.id

    after_crash = counting(db)  # `opened` never closes: as if it crashed
    await after_crash.games.resume_all()
    await after_crash.games.snapshots_checked()
    assert CountingDice.replays == 2, "without a clean stop every running game is checked"
    await after_crash.close()

    after_clean_stop = counting(db)
    await after_clean_stop.games.resume_all()
    await after_clean_stop.games.snapshots_checked()
    assert CountingDice.replays == 2, "after a clean stop no snapshot is in doubt"
    seat = min(CountingDice().to_act(after_clean_stop.games.state(busy)))  # type: ignore[arg-type]
    await after_clean_stop.moves.act(busy, (CAT, BEN)[seat], Stop())

    after_another_crash = counting(db)  # `after_clean_stop` never closes
    await after_another_crash.games.resume_all()
    await after_another_crash.games.snapshots_checked()
    assert CountingDice.replays == 3, "only the game written since the clean stop is checked"
    assert after_another_crash.games.state(busy) == after_clean_stop.games.state(busy)
    assert after_another_crash.games.state(quiet) == after_clean_stop.games.state(quiet)


async def test_a_wrong_snapshot_a_move_was_made_from_is_reported_not_replaced(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    svc = service(db)
    game_id = await started(svc)
    await svc.moves.act(game_id, (ANN, BEN)[to_act(svc, game_id)], Stop())
    tampered = svc.games.state(game_id).model_copy(update={"round": 7})
    await db.write([Statement("UPDATE games SET state = ? WHERE id = ?", (tampered.model_dump_json(), game_id))])
    with caplog.at_level(logging.ERROR):
        resumed = service(db)
        await resumed.games.resume_all()
        await resumed.moves.act(game_id, (ANN, BEN)[to_act(resumed, game_id)], Stop())  # before the check has run
        await resumed.games.snapshots_checked()
    assert "differs from the snapshot it has moved on from" in caplog.text
    assert resumed.games.state(game_id).round >= 7, "the game in play is not swapped under its players"


async def test_bot_players_move_by_themselves_until_a_person_is_to_act(db: Database) -> None:
    svc = service(db)
    record = await LobbyService(svc.games, new_seed=lambda: 1234).open_lobby(
        game="dice", guild_id=9, channel_id=8, host_id=ANN, host_name="Ann"
    )
    await LobbyService(svc.games).add_bot(record.id, ANN)
    await LobbyService(svc.games).start(record.id, ANN)
    published: list[Outcome] = []

    class Shows(GameListener):
        async def on_unclicked_move(self, outcome: Outcome) -> None:
            published.append(outcome)

    svc.games.add_listener(Shows())
    if to_act(svc, record.id) == 0:  # Ann opens: end her turn so the bot player has one
        await svc.moves.act(record.id, ANN, Stop())
    svc.bots.wake_bots(record.id)
    async with asyncio.timeout(5):
        while to_act(svc, record.id) != 0:
            await asyncio.sleep(0.001)
    await svc.close()
    assert published and all(o.by_bot and o.seat == 1 for o in published)
    assert [seat for seat, _ in await svc.games.store.actions(record.id)].count(1) == len(published)


class HeldEngine(DiceEngine):
    """The dice engine, whose next move after `hold()` takes until `release` is set (a costly final scoring)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.held = threading.Event()
        self._armed = False

    def hold(self) -> None:
        self._armed = True

    def apply(self, state: Any, seat: Any, action: Any) -> Any:
        if self._armed:
            self._armed = False
            self.held.set()
            assert self.release.wait(timeout=30), "never released"
        return super().apply(state, seat, action)


async def test_one_games_slow_move_never_holds_up_another_games_move(db: Database) -> None:
    engine = HeldEngine()
    svc = game_parts(GameStore(db), {"dice": engine}, bot_move_delay=0)
    slow = await started(svc)
    record = await LobbyService(svc.games, new_seed=lambda: 1234).open_lobby(
        game="dice", guild_id=9, channel_id=18, host_id=CAT, host_name="Cat"
    )
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).start(record.id, CAT)
    fast = record.id
    engine.hold()
    held = asyncio.create_task(svc.moves.act(slow, (ANN, BEN)[to_act(svc, slow)], Stop()))
    await asyncio.to_thread(engine.held.wait, 30)  # the slow move is being worked out
    await svc.moves.act(fast, (CAT, BEN)[to_act(svc, fast)], Stop())  # would wait for the slow one on the event loop
    assert not held.done(), "the other game's move was served while the slow one was still being worked out"
    engine.release.set()
    await held
