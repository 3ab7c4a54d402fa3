"""The websocket gateway: HELLO, heartbeats, IDENTIFY and RESUME, and events for the connected bot."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable

from aiohttp import WSMsgType, web

from bot.sandbox import payloads
from bot.sandbox.errors import NotConnected
from bot.sandbox.models import Json
from bot.sandbox.state import StandInState

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
AUTHENTICATION_FAILED = 4004
GOING_AWAY = 1001


class GatewaySession:
    """One bot login: it keeps its id and sequence when the bot reconnects and resumes on a new socket."""

    def __init__(self, session_id: str, shard: list[int]) -> None:
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
    """Accept bot connections; the most recent one to IDENTIFY or RESUME receives the interactions."""

    def __init__(self, state: StandInState, *, token: str, url: Callable[[], str]) -> None:
        self._state = state
        self._token = token
        self._url = url
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def connected(self) -> bool:
        """Whether a bot session is connected and can receive events."""
        return self.current is not None and self.current.open

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket connection until the bot or the stand-in closes it."""
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
            self._state.notify()
        return socket

    async def dispatch(self, event: str, data: Json) -> None:
        """Send an event to the connected bot; NotConnected if there is none."""
        session = self.current
        if session is None or not session.open:
            raise NotConnected(f"no bot is connected to the local Discord gateway to receive {event}")
        await session.send_event(event, data)

    def end_session(self, session_id: str | None) -> None:
        """Forget a session whose bot was closed on purpose: it will not resume, so stop waiting for it.

        (discord.py's close frame says 4000, "resumable", whether it logs out or not.)
        """
        session = self.sessions.pop(session_id or "", None)
        if session is not None and self.current is session:
            self.current = next((s for s in reversed(self.sessions.values()) if s.open), None)
        self._state.notify()

    async def notify_bot(self, event: str, data: Json) -> None:
        """Send an event if a bot is connected; state changes are kept either way."""
        if self.connected:
            await self.dispatch(event, data)

    async def flush(self, *, timeout: float) -> None:
        """Wait until the connected bot has processed every event sent so far (its cache is up to date).

        The stand-in asks for a heartbeat (op 1); discord.py answers with the sequence number it has reached,
        after handling the frames before the request, in order.
        """
        session = self.current
        if session is None or not session.open:
            return
        target = session.sequence
        await session.send_op(1, None)
        await self._state.wait_until(
            lambda: session.heard >= target or not session.open or None,
            timeout=timeout,
            what=f"the bot to process gateway events up to #{target}",
        )

    async def request_reconnect(self) -> None:
        """Ask the connected bot to reconnect and resume (op 7), as Discord does during maintenance."""
        if self.current is None or not self.current.open:
            raise NotConnected("no bot is connected, so none can be asked to reconnect")
        await self.current.send_op(7, None)

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
            return await self._identify(socket, data)
        elif op == 6 and isinstance(data, dict):
            return await self._resume(socket, data)
        elif op == 8 and session is not None and isinstance(data, dict):
            await self._send_members(session, data)
        return session

    async def _identify(self, socket: web.WebSocketResponse, data: Json) -> GatewaySession | None:
        if data.get("token") != self._token:
            await socket.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        session = GatewaySession(secrets.token_hex(16), list(data.get("shard") or [0, 1]))
        session.socket = socket
        self.sessions[session.session_id] = session
        self.current = session
        ready = {
            "v": 10,
            "user": payloads.user(self._state.bot_user) | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(self._state.guild_id), "unavailable": True}] if self._state.bot_in_guild else [],
            "session_id": session.session_id,
            "resume_gateway_url": self._url(),
            "shard": session.shard,
            "application": {"id": str(self._state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "session_type": "normal",
        }
        await session.send_event("READY", ready)
        if self._state.bot_in_guild:
            await session.send_event("GUILD_CREATE", payloads.guild(self._state))
        _log.debug("bot identified: session %s", session.session_id)
        self._state.notify()
        return session

    async def _resume(self, socket: web.WebSocketResponse, data: Json) -> GatewaySession | None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self._token:
            await socket.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        session.socket = socket
        self.current = session
        await session.send_event("RESUMED", {})
        self._state.notify()
        return session

    async def _send_members(self, session: GatewaySession, data: Json) -> None:
        members = [payloads.member(self._state, p) for p in [*self._state.users.values(), self._state.bot_user]]
        chunk: Json = {
            "guild_id": str(self._state.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.send_event("GUILD_MEMBERS_CHUNK", chunk)
