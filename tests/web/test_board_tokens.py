"""Signed board links (bot/web/board/tokens.py): a token opens its own game until its time is up, and nothing else."""

from __future__ import annotations

import pytest

from bot.web.board.tokens import LINK_LIFETIME, Opened, Refusal, check, fresh, sign

SECRET = b"the server's secret"
NOW = 1_800_000_000.0


def test_a_token_opens_its_game_until_its_time_is_up() -> None:
    token = fresh(SECRET, 42, NOW)
    assert check(SECRET, token, NOW) == Opened(42, int(NOW) + LINK_LIFETIME)
    assert check(SECRET, token, NOW + LINK_LIFETIME - 1) == Opened(42, int(NOW) + LINK_LIFETIME)
    assert check(SECRET, token, NOW + LINK_LIFETIME) is Refusal.EXPIRED


def test_a_token_for_one_game_opens_no_other() -> None:
    token = fresh(SECRET, 42, NOW)
    _, expires, signature = token.split(".")
    for other in ("43", "4", "420", "142"):
        assert check(SECRET, f"{other}.{expires}.{signature}", NOW) is Refusal.UNKNOWN


def test_a_changed_expiry_or_signature_or_another_secret_opens_nothing() -> None:
    token = fresh(SECRET, 42, NOW)
    game, expires, signature = token.split(".")
    later = str(int(expires) + 1)
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    assert check(SECRET, f"{game}.{later}.{signature}", NOW) is Refusal.UNKNOWN
    assert check(SECRET, f"{game}.{expires}.{flipped}", NOW) is Refusal.UNKNOWN
    assert check(b"another secret", token, NOW) is Refusal.UNKNOWN
    expired = sign(SECRET, 42, int(NOW) - 1)
    assert check(b"another secret", expired, NOW) is Refusal.UNKNOWN, "only our own tokens are told they expired"


@pytest.mark.parametrize(
    "token", ["", "42", "42.1", "42..x", "0.1900000000.x", "-1.1900000000.x", "42.1900000000.short", "a.b.c"]
)
def test_a_malformed_token_opens_nothing(token: str) -> None:
    assert check(SECRET, token, NOW) is Refusal.UNKNOWN


def test_tokens_fit_in_a_discord_link_with_a_long_public_address() -> None:
    """Discord takes link buttons of at most 512 characters; the settings allow a base address of 400."""
    token = fresh(SECRET, 10**17, NOW)
    assert len("https://" + "x" * 392 + "/b/" + token) <= 512
