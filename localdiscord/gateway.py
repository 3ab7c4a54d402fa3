"""The websocket gateway: HELLO, heartbeats, IDENTIFY and RESUME, and each guild's events to its shard's sessions."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Iterable
from contextlib import suppress

from aiohttp import WSMsgType, web

from localdiscord import payloads
from localdiscord.errors import NotConnected
from localdiscord.models import Json
from localdiscord.state import StandInState

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
AUTHENTICATION_FAILED = 4004
ALREADY_AUTHENTICATED = 4005
INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
GOING_AWAY = 1001
SESSION_ENDING_CLOSES = (1000, 1001)
"""A client closing with these ends its session on Discord (no RESUME); other codes, or none, leave it resumable."""
MAX_GUILDS_PER_SHARD = 2500
SESSION_STARTS_PER_DAY = 1000
MAX_CONCURRENCY = 16
"""Identifies allowed per 5 s: enough for every shard of a test bot to identify at once."""
DAY_MS = 24 * 60 * 60 * 1000


class GatewaySession:
    """One IDENTIFY for shard ``(shard_id, shard_count)``: it keeps its id and sequence across RESUMEs."""

    def __init__(self, session_id: str, shard: tuple[int, int]) -> None:
        self.session_id = session_id
        self.shard = shard
        self.sequence = 0
        self.heard = 0  # the sequence number of the bot's last heartbeat: it had processed events up to it
        self.socket: web.WebSocketResponse | None = None
        self._send_lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        """Whether a socket is attached and still open."""
        return self.socket is not None and not self.socket.closed

    def covers(self, guild_id: int) -> bool:
        """Whether Discord routes this guild's events to this session: ``(guild_id >> 22) % count == shard_id``."""
        shard_id, shard_count = self.shard
        return (guild_id >> 22) % shard_count == shard_id

    async def send_event(self, event: str, data: Json) -> None:
        """Send a DISPATCH (op 0) with the next sequence number."""
        async with self._send_lock:
            if self.socket is None or self.socket.closed:
                raise NotConnected(f"session {self.session_id} has no open socket to send {event}")
            self.sequence += 1
            frame = {"op": 0, "d": data, "s": self.sequence, "t": event}
            await self.socket.send_str(json.dumps(frame))

    async def send_op(self, op: int, data: object) -> None:
        """Send a non-dispatch frame (heartbeat ACK, reconnect, invalid session)."""
        async with self._send_lock:
            if self.socket is not None and not self.socket.closed:
                await self.socket.send_str(json.dumps({"op": op, "d": data, "s": None, "t": None}))


class Gateway:
    """Accept bot connections: each IDENTIFY opens a session for one shard, which gets the events of its guilds.

    As on Discord, several sessions may hold the same shard at once (each gets all of that shard's events, so two
    processes on one shard both answer its interactions), and a session whose socket dropped stays resumable:
    its shard has no open session until the bot resumes it or a new IDENTIFY for that shard arrives.
    """

    def __init__(self, state: StandInState, *, token: str, url: Callable[[], str], shards: int) -> None:
        self._state = state
        self._token = token
        self._url = url
        self.sessions: dict[str, GatewaySession] = {}
        self.recommended_shards = shards
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.identifies = 0
        self._sockets: set[web.WebSocketResponse] = set()

    def open_sessions(self, guild_id: int | None = None) -> list[GatewaySession]:
        """The sessions with an open socket: all, or those of ``guild_id``'s shard."""
        return [s for s in self.sessions.values() if s.open and (guild_id is None or s.covers(guild_id))]

    def may_return(self, guild_id: int) -> bool:
        """Whether a session of this guild's shard exists, open or waiting for the bot to resume it."""
        return any(session.covers(guild_id) for session in self.sessions.values())

    def connected(self, guild_ids: Iterable[int]) -> bool:
        """Whether a session is open and each of ``guild_ids`` has an open session of its shard."""
        sessions = self.open_sessions()
        return bool(sessions) and all(any(s.covers(guild_id) for s in sessions) for guild_id in guild_ids)

    def bot_gateway(self) -> Json:
        """``GET /gateway/bot``: the URL, the recommended shard count and the session start limits."""
        limits = {
            "total": SESSION_STARTS_PER_DAY,
            "remaining": max(0, SESSION_STARTS_PER_DAY - self.identifies),
            "reset_after": DAY_MS,
            "max_concurrency": MAX_CONCURRENCY,
        }
        return {"url": self._url(), "shards": self.recommended_shards, "session_start_limit": limits}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket connection until the bot or the stand-in closes it, or it drops."""
        socket = web.WebSocketResponse(compress=False, max_msg_size=0)
        await socket.prepare(request)
        self._sockets.add(socket)
        session: GatewaySession | None = None
        try:
            hello = {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
            await socket.send_str(json.dumps(hello))
            async for frame in socket:
                if frame.type is WSMsgType.TEXT:
                    session = await self._receive(socket, session, json.loads(frame.data))
        finally:
            self._sockets.discard(socket)
            if session is not None and session.socket is socket:
                session.socket = None
                if socket.close_code in SESSION_ENDING_CLOSES:
                    self.sessions.pop(session.session_id, None)
            self._state.notify()
        return socket

    async def dispatch(self, event: str, data: Json, guild_id: int) -> None:
        """Send a guild's event to every open session of its shard; NotConnected if there is none."""
        sent = 0
        for session in self.open_sessions(guild_id):
            with suppress(NotConnected, ConnectionError):  # its socket closed meanwhile: as if it had dropped
                await session.send_event(event, data)
                sent += 1
        if not sent:
            raise NotConnected(f"no bot session is connected for the shard of guild {guild_id} to receive {event}")

    def end_session(self, session_id: str) -> None:
        """Forget a session whose bot was closed on purpose: it will not resume, so stop waiting for it.

        (discord.py's Client closes with 4000, "resumable", whether it logs out or not.)
        """
        self.sessions.pop(session_id, None)
        self._state.notify()

    async def notify_bot(self, event: str, data: Json, guild_id: int) -> None:
        """Send a guild's event if a session of its shard is open; state changes are kept either way."""
        if self.open_sessions(guild_id):
            await self.dispatch(event, data, guild_id)

    async def flush(self, *, timeout: float, guild_id: int | None = None) -> None:
        """Wait until the bot has processed every event sent so far on every open session (or ``guild_id``'s).

        The stand-in asks each for a heartbeat (op 1); discord.py answers with the sequence number it has reached,
        after handling the frames before the request, in order.
        """
        await asyncio.gather(*(self._flush(session, timeout) for session in self.open_sessions(guild_id)))

    async def _flush(self, session: GatewaySession, timeout: float) -> None:
        target = session.sequence
        await session.send_op(1, None)
        await self._state.wait_until(
            lambda: session.heard >= target or not session.open or None,
            timeout=timeout,
            what=f"the bot to process gateway events up to #{target} on shard {list(session.shard)}",
        )

    async def close(self) -> None:
        """Close every open socket (bots still running will try to reconnect: close them first)."""
        for socket in list(self._sockets):
            await socket.close(code=GOING_AWAY, message=b"local Discord is shutting down")

    async def _receive(
        self, socket: web.WebSocketResponse, session: GatewaySession | None, message: Json
    ) -> GatewaySession | None:
        op = message.get("op")
        data = message.get("d")
        if op == 1:
            if session is not None and isinstance(data, int):
                session.heard = data
                self._state.notify()
            await socket.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
        elif op == 2 and isinstance(data, dict):
            if session is not None:
                await socket.close(code=ALREADY_AUTHENTICATED, message=b"Already authenticated.")
                return session
            return await self._identify(socket, data)
        elif op == 6 and isinstance(data, dict):
            return await self._resume(socket, data)
        elif op == 8 and session is not None and isinstance(data, dict):
            await self._send_members(session, data)
        return session

    async def _identify(self, socket: web.WebSocketResponse, data: Json) -> GatewaySession | None:
        """Open a session for the shard asked (``[0, 1]`` if none): READY with its guilds, then their GUILD_CREATE."""
        if data.get("token") != self._token:
            await socket.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard = _shard(data.get("shard", [0, 1]))
        if shard is None:
            await socket.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(secrets.token_hex(16), shard)
        guilds = [g for g in self._state.guilds.values() if g.bot_present and session.covers(g.id)]
        if len(guilds) > self.max_guilds_per_shard:
            await socket.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        self.identifies += 1
        session.socket = socket
        self.sessions[session.session_id] = session
        ready = {
            "v": 10,
            "user": payloads.user(self._state.bot_user) | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self._url(),
            "shard": list(session.shard),
            "application": {"id": str(self._state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "session_type": "normal",
        }
        await session.send_event("READY", ready)
        for guild in guilds:
            await session.send_event("GUILD_CREATE", payloads.guild_create(self._state, guild))
        _log.debug("bot identified: session %s, shard %s", session.session_id, session.shard)
        self._state.notify()
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: Json) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self._token:
            await socket.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        session.socket = socket
        await session.send_event("RESUMED", {})
        self._state.notify()
        return session

    async def _send_members(self, session: GatewaySession, data: Json) -> None:
        guild = self._state.guilds.get(int(data.get("guild_id") or 0))
        if guild is None or not session.covers(guild.id):
            return
        people = [*self._state.members(guild), self._state.bot_user]
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": [payloads.member(self._state, person, guild) for person in people],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.send_event("GUILD_MEMBERS_CHUNK", chunk)


def _shard(value: object) -> tuple[int, int] | None:
    """``[shard_id, shard_count]`` from an IDENTIFY, or None when Discord would refuse it (close 4010)."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    shard_id, shard_count = value
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in value) or not 0 <= shard_id < shard_count:
        return None
    return shard_id, shard_count
