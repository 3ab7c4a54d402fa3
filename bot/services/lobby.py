"""The lobby with its admission rules: who may join, be removed, add or remove bot players, start or cancel it.

Every change is made under the game's lock while the game is still a lobby; the running game it starts belongs to
the move core (`Moves`) from then on.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.services.errors import ServiceError, ServiceReason
from bot.storage.games import ChannelBusy, GameRecord, SeatRecord
from rules.engine import Level

if TYPE_CHECKING:
    from bot.services.games import GameService, LiveTable

BOT_NAMES = ("Stephenson", "Brunel", "Cherepanov", "Trevithick", "Borodin", "Westinghouse")


class LobbyService:
    """Opens lobbies and admits, removes and seats players in them until they start or are cancelled."""

    def __init__(self, games: GameService, *, new_seed: Callable[[], int] = lambda: secrets.randbits(63)) -> None:
        self.games = games
        self.store = games.store
        self._new_seed = new_seed

    async def open_lobby(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[SeatRecord] = (),
    ) -> GameRecord:
        """Open a lobby with the host in the first seat, or with `seats` (a rematch: the host and the bot players in
        their places); options are checked against the engine's model."""
        engine = self.games.engine(game)
        try:
            checked = engine.load_options(dict(options or {}))
        except ValidationError as error:
            raise ServiceError(ServiceReason.BAD_OPTIONS, detail=_first_error(error)) from error
        try:
            record = await self.store.create_game(
                game=game,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                options=checked.model_dump(mode="json"),
                seed=self._new_seed(),
                seats=list(seats) or [SeatRecord(seat=0, name=host_name, user_id=host_id)],
            )
        except ChannelBusy as busy:  # the database keeps one open game per channel, whatever raced
            raise ServiceError(ServiceReason.CHANNEL_BUSY, id=busy.game_id) from None
        self.games.keep_lobby(record)
        return record

    # Join and Leave act on the clicker's own seat and are idempotent (a second click is refused as already
    # joined / not in the lobby), so they take no version: a click on an older drawing of the lobby means the same.
    # Adding or removing a bot player and Start change what everyone sees, so they are refused when the lobby has
    # changed since the button was drawn (`version`, checked under the game's lock): two clicks never seat two bots.

    @staticmethod
    def check_lobby_version(record: GameRecord, version: int | None) -> None:
        """Refuse a lobby click drawn for an older version of the lobby (someone changed it first)."""
        if version is not None and version != record.version:
            raise ServiceError(ServiceReason.STALE_LOBBY)

    async def join(
        self, game_id: int, user_id: int, name: str, *, order: Callable[[SeatRecord], int] | None = None
    ) -> GameRecord:
        """Seat a person in a lobby, last or where `order` (a sort key over the seats) puts them; refused to someone
        the host removed from it."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if record.seat_of(user_id) is not None:
                raise ServiceError(ServiceReason.ALREADY_JOINED)
            if len(record.seats) >= table.engine.max_players:
                raise ServiceError(ServiceReason.LOBBY_FULL, max=table.engine.max_players)
            if await self.store.removed_from(game_id, user_id):
                raise ServiceError(ServiceReason.REMOVED_BY_HOST)
            seats = [*record.seats, SeatRecord(seat=len(record.seats), name=name, user_id=user_id)]
            if order is not None:
                seats = _renumber(sorted(seats, key=order))
            table.record = await self.store.update_lobby(record, seats)
            return table.record

    async def kick(self, game_id: int, host_id: int, user_id: int, *, version: int | None = None) -> GameRecord:
        """The host takes a person out of the lobby (as drawn at `version`); they may not join it again unless the
        host invites them back."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if host_id != record.host_id:
                raise ServiceError(ServiceReason.ONLY_HOST)
            self.check_lobby_version(record, version)
            if user_id == host_id:
                raise ServiceError(ServiceReason.NOT_YOURSELF)
            if record.seat_of(user_id) is None:
                raise ServiceError(ServiceReason.NOT_SEATED)
            seats = _renumber(s for s in record.seats if s.user_id != user_id)
            table.record = await self.store.remove_from_lobby(record, seats, user_id)
            return table.record

    async def leave(self, game_id: int, user_id: int) -> GameRecord:
        """Take a person out of a lobby (the host cancels instead)."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if record.seat_of(user_id) is None:
                raise ServiceError(ServiceReason.NOT_IN_LOBBY)
            if user_id == record.host_id:
                raise ServiceError(ServiceReason.HOST_CANNOT_LEAVE)
            table.record = await self.store.update_lobby(
                record, _renumber(s for s in record.seats if s.user_id != user_id)
            )
            return table.record

    async def add_bot(
        self, game_id: int, user_id: int, kind: str | None = None, *, version: int | None = None
    ) -> GameRecord:
        """Seat a bot player; anyone already seated may add one (refused when the lobby is past `version`)."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if record.seat_of(user_id) is None:
                raise ServiceError(ServiceReason.NOT_IN_LOBBY)
            self.check_lobby_version(record, version)
            if len(record.seats) >= table.engine.max_players:
                raise ServiceError(ServiceReason.LOBBY_FULL, max=table.engine.max_players)
            kind = kind or Level.NORMAL
            if kind not in table.engine.bot_kinds:
                raise ServiceError(ServiceReason.UNKNOWN_BOT_KIND, kind=kind)
            taken = {s.name for s in record.seats}
            name = next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(2, 100))) if n not in taken)
            seats = [*record.seats, SeatRecord(seat=len(record.seats), name=name, bot_kind=kind)]
            table.record = await self.store.update_lobby(record, seats)
            return table.record

    async def remove_bot(self, game_id: int, user_id: int, *, version: int | None = None) -> GameRecord:
        """Take the last bot player out of a lobby (refused when the lobby is past `version`)."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if record.seat_of(user_id) is None:
                raise ServiceError(ServiceReason.NOT_IN_LOBBY)
            self.check_lobby_version(record, version)
            bots = [s for s in record.seats if s.is_bot]
            if not bots:
                raise ServiceError(ServiceReason.NO_BOT_TO_REMOVE)
            table.record = await self.store.update_lobby(record, _renumber(s for s in record.seats if s != bots[-1]))
            return table.record

    async def start(
        self,
        game_id: int,
        user_id: int,
        *,
        version: int | None = None,
        thread: Callable[[GameRecord], Awaitable[int | None]] | None = None,
    ) -> GameRecord:
        """Start a lobby: only the host, with enough players, as drawn at `version` (if given); the engine deals
        from the game's seed. `thread`, once the start is certain, opens the thread of the lobby's channel to play
        in (its id; None: the channel)."""
        async with _LobbyLock(self.games, game_id) as table:
            record = table.record
            if user_id != record.host_id:
                raise ServiceError(ServiceReason.ONLY_HOST)
            self.check_lobby_version(record, version)
            if len(record.seats) < table.engine.min_players:
                raise ServiceError(ServiceReason.TOO_FEW_PLAYERS, min=table.engine.min_players)
            options = table.engine.load_options(record.options)
            state = table.engine.new_game(options, len(record.seats), record.seed)
            thread_id = None if thread is None else await thread(record)
            table.record = await self.store.start(record, record.seats, state.model_dump_json(), thread_id=thread_id)
            table.state = state
        started = table.record
        await self.games.after_start(started)
        return started

    async def cancel(self, game_id: int, user_id: int, *, version: int | None = None) -> GameRecord:
        """Cancel a lobby: only the host. The host's Cancel button means it whatever changed (no version); an
        expiry passes the version it found idle, so a lobby someone just joined is not cancelled under them."""
        async with _LobbyLock(self.games, game_id) as table:
            if user_id != table.record.host_id:
                raise ServiceError(ServiceReason.ONLY_HOST)
            self.check_lobby_version(table.record, version)
            table.record = await self.store.set_status(table.record, "cancelled")
            self.games.unload(game_id)
            return table.record


class _LobbyLock:
    """Async context: the game's lock, held only while the game is still a lobby."""

    def __init__(self, service: GameService, game_id: int) -> None:
        self._service = service
        self._game_id = game_id
        self._table: LiveTable | None = None

    async def __aenter__(self) -> LiveTable:
        table = await self._service.table(self._game_id)
        await table.lock.acquire()
        self._table = table
        if table.record.status != "lobby":
            table.lock.release()
            raise ServiceError(ServiceReason.ALREADY_STARTED)
        return table

    async def __aexit__(self, *exc: object) -> None:
        assert self._table is not None
        self._table.lock.release()


def _renumber(seats: Any) -> list[SeatRecord]:
    return [SeatRecord(seat=i, name=s.name, user_id=s.user_id, bot_kind=s.bot_kind) for i, s in enumerate(seats)]


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    return f"{where}: {first.get('msg', '')}".strip(": ")
