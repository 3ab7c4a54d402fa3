"""Signed board links: a token names one game and when it stops opening it, signed with the server's secret.

A token reads `<game id>.<expiry>.<signature>`: the expiry is Unix seconds, the signature HMAC-SHA256 of
`board:<game id>.<expiry>` under `web_secret`, in URL-safe base64. Nothing in it is secret but the signature, which
nobody without the secret can make: a link cannot be guessed, a token for one game opens no other, and a changed
game id or expiry no longer matches its signature.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from enum import StrEnum

LINK_LIFETIME = 14 * 24 * 3600
"""Seconds a link opens its game: twice the longest turn timer (a week), so the link on a turn message works for that
whole turn and for a week after a game's last turn, time to watch its replay. Each new turn message, and every
/board, carries a fresh link, so a game that runs for months is always a click away; and a link that leaked, or a
person who lost access to a private channel, stops opening the game within two weeks."""

_SHAPE = re.compile(r"(?P<game>[1-9][0-9]{0,17})\.(?P<expires>[0-9]{1,12})\.(?P<signature>[A-Za-z0-9_-]{43})")
"""A token as `sign` writes it: a game id, an expiry and an unpadded base64 SHA-256 (43 characters)."""


class Refusal(StrEnum):
    """Why a token opens nothing (each is a message key of the refusal page, `web.refused.<reason>`)."""

    UNKNOWN = "unknown"
    """Malformed, or signed with another secret, or changed: treated as no link at all."""
    EXPIRED = "expired"
    """Signed here, but its time is up."""


@dataclass(frozen=True)
class Opened:
    """A token that opens a game."""

    game_id: int
    expires: int


def sign(secret: bytes, game_id: int, expires: int) -> str:
    """The token that opens `game_id` until `expires` (Unix seconds)."""
    return f"{game_id}.{expires}.{_signature(secret, game_id, expires)}"


def fresh(secret: bytes, game_id: int, now: float) -> str:
    """A token for `game_id` that opens it for `LINK_LIFETIME` from `now`."""
    return sign(secret, game_id, int(now) + LINK_LIFETIME)


def check(secret: bytes, token: str, now: float) -> Opened | Refusal:
    """The game a token opens, or why it opens none (its signature is compared in constant time)."""
    shape = _SHAPE.fullmatch(token)
    if shape is None:
        return Refusal.UNKNOWN
    game_id, expires = int(shape["game"]), int(shape["expires"])
    if not hmac.compare_digest(shape["signature"], _signature(secret, game_id, expires)):
        return Refusal.UNKNOWN
    if expires <= now:
        return Refusal.EXPIRED
    return Opened(game_id, expires)


def _signature(secret: bytes, game_id: int, expires: int) -> str:
    digest = hmac.new(secret, f"board:{game_id}.{expires}".encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
