"""Lobbies on a real SQLite file: versioned clicks, the host role passed on, and idle lobbies expiring by the clock."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.games import GAMES
from bot.services.errors import ServiceError
from bot.services.games import GameListener
from bot.services.guild_config import GuildConfigService
from bot.services.lobby import LobbyService
from bot.services.lobby_expiry import LobbyExpiry
from bot.storage.database import Database
from bot.storage.games import GameRecord, GameStore
from bot.storage.guild_settings import GuildSettingsStore
from rules.dice import DiceEngine
from tests.bot.services.game_parts import GameParts, game_parts

ANN, BEN, CAT = 1, 2, 3
GUILD, PATIENT_GUILD = 9, 10


class Clock:
    """Seconds since the epoch, starting now (lobbies' idle time is stored from the wall clock), moved by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60


class Closed(GameListener):
    def __init__(self) -> None:
        self.closed: list[int] = []

    async def on_closed(self, record: GameRecord) -> None:
        self.closed.append(record.id)


def service(db: Database) -> GameParts:
    return game_parts(GameStore(db), {"dice": DiceEngine()}, bot_move_delay=0)


async def lobby(svc: GameParts, channel: int = 8, guild: int = GUILD, host: int = ANN) -> GameRecord:
    return await LobbyService(svc.games, new_seed=lambda: 1234).open_lobby(
        game="dice", guild_id=guild, channel_id=channel, host_id=host, host_name="Ann"
    )


async def test_two_simultaneous_add_bot_clicks_drawn_for_one_version_seat_one_bot(db: Database) -> None:
    svc = service(db)
    record = await lobby(svc)
    results = await asyncio.gather(
        LobbyService(svc.games).add_bot(record.id, ANN, version=record.version),
        LobbyService(svc.games).add_bot(record.id, ANN, version=record.version),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(refused) == 1 and refused[0].message.key == "bot.reason.stale_lobby"
    assert [s.is_bot for s in (await svc.games.get(record.id)).seats] == [False, True]


async def test_stale_remove_bot_and_start_are_refused_and_change_nothing(db: Database) -> None:
    svc = service(db)
    record = await lobby(svc)
    drawn = await LobbyService(svc.games).add_bot(record.id, ANN)
    await LobbyService(svc.games).join(record.id, BEN, "Ben")  # the lobby moves on: what was drawn before is stale
    for call in (
        LobbyService(svc.games).remove_bot(record.id, ANN, version=drawn.version),
        LobbyService(svc.games).start(record.id, ANN, version=0),
    ):
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.message.key == "bot.reason.stale_lobby"
    now = await svc.games.get(record.id)
    assert now.status == "lobby" and len(now.seats) == 3 and now.version == drawn.version + 1
    started = await LobbyService(svc.games).start(record.id, ANN, version=now.version)
    assert started.status == "active"


async def test_the_host_role_passes_to_the_next_person_in_seat_order(db: Database) -> None:
    svc = service(db)
    record = await lobby(svc)
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).add_bot(record.id, ANN)
    await LobbyService(svc.games).join(record.id, CAT, "Cat")
    started = await LobbyService(svc.games).start(record.id, ANN)
    assert (await svc.moves.pass_host(started.id, BEN)).host_id == ANN, "only the host's role passes"
    handed = await svc.moves.hand_to_bot(started.id, 0)  # Ann leaves: her seat goes to a bot player first
    passed = await svc.moves.pass_host(handed.id, ANN, seat=0)
    assert passed.host_id == BEN and passed.version == handed.version + 1
    stored = await svc.games.store.get(started.id)
    assert stored is not None and stored.host_id == BEN
    await svc.moves.hand_to_bot(started.id, 3)
    assert (await svc.moves.pass_host(started.id, BEN, seat=1)).host_id == BEN, (
        "with no other person seated, the role stays"
    )
    await svc.close()


async def test_the_host_role_wraps_around_to_the_first_seat(db: Database) -> None:
    svc = service(db)
    record = await lobby(svc)
    await LobbyService(svc.games).join(record.id, BEN, "Ben")
    await LobbyService(svc.games).join(record.id, CAT, "Cat")
    game = await LobbyService(svc.games).start(record.id, ANN)
    game = await svc.moves.pass_host(game.id, ANN, seat=0)
    game = await svc.moves.pass_host(game.id, BEN, seat=1)
    assert game.host_id == CAT
    assert (await svc.moves.pass_host(game.id, CAT, seat=2)).host_id == ANN


async def test_idle_lobbies_expire_after_their_servers_limit_by_the_clock(db: Database) -> None:
    svc = service(db)
    config = GuildConfigService(GuildSettingsStore(db), GAMES)
    await config.change(
        PATIENT_GUILD,
        lambda c: c.model_copy(update={"limits": config.with_limits(c.limits, lobby_expiry_minutes=120)}),
    )
    listener = Closed()
    svc.games.add_listener(listener)
    shown: list[tuple[int, int]] = []

    async def present(record: GameRecord, minutes: int) -> None:
        shown.append((record.id, minutes))

    clock = Clock()
    expiry = LobbyExpiry(LobbyService(svc.games), config, clock=clock, present=present)
    idle = await lobby(svc, channel=8)
    patient = await lobby(svc, channel=7, guild=PATIENT_GUILD)
    started = await lobby(svc, channel=6, host=CAT)
    await LobbyService(svc.games).add_bot(started.id, CAT)
    await LobbyService(svc.games).start(started.id, CAT)
    clock.advance(59)
    assert await expiry.run_due() == []
    clock.advance(2)
    expired = await expiry.run_due()
    assert [r.id for r in expired] == [idle.id] and expired[0].status == "cancelled"
    assert shown == [(idle.id, 60)] and listener.closed == [idle.id]
    clock.advance(60)
    assert [r.id for r in await expiry.run_due()] == [patient.id]
    assert (await svc.games.get(started.id)).status == "active", "a running game never expires"
    assert await expiry.run_due() == []
    await svc.close()


async def test_a_lobby_changed_after_it_was_found_idle_is_not_expired(db: Database) -> None:
    svc = service(db)
    record = await lobby(svc)
    await LobbyService(svc.games).join(record.id, BEN, "Ben")  # between the look for idle lobbies and the cancel
    with pytest.raises(ServiceError) as refused:
        await LobbyService(svc.games).cancel(record.id, ANN, version=record.version)
    assert refused.value.message.key == "bot.reason.stale_lobby"
    assert (await svc.games.get(record.id)).status == "lobby"


async def test_the_expiry_loop_runs_in_the_background_and_stops_on_close(db: Database) -> None:
    svc = service(db)
    config = GuildConfigService(GuildSettingsStore(db), GAMES)
    clock = Clock()
    clock.advance(61)
    expiry = LobbyExpiry(LobbyService(svc.games), config, clock=clock, interval=3600)
    record = await lobby(svc)
    expiry.start()
    async with asyncio.timeout(5):
        while (await svc.games.store.get(record.id)).status != "cancelled":  # type: ignore[union-attr]
            await asyncio.sleep(0.005)
    await expiry.close()
