"""The lobby's presenter: a stored lobby in, its embed and buttons out, in both languages, without Discord."""

from __future__ import annotations

import pytest

from bot.exts.lobby._presenter import bot_kind_view, lobby_embed, lobby_view
from bot.games import GAMES
from bot.i18n import text
from bot.ui.hints import kind_name
from tests.bot.ui.presenters.support import LANGUAGES, cid, controls, record, russian, user_id

INFO = GAMES["dice"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_open_lobby_lists_the_seats_marks_host_and_bot_and_says_the_rules(language: str) -> None:
    lobby = record("dice", 3, bots=frozenset({2}), status="lobby")
    embed = lobby_embed(language, INFO, lobby, timers=["⏱ 5 min"])
    assert embed.title == text(language, "bot.lobby.title", game=text(language, "bot.game.dice"))
    assert f"<@{user_id(0)}>" in (embed.description or "")
    players, rules, timers = embed.fields
    assert players.name == text(language, "bot.lobby.players", n=3, max=INFO.engine.max_players)
    seats = (players.value or "").splitlines()
    assert seats[0] == "1. Ann" + text(language, "bot.lobby.host_mark")
    assert seats[2].startswith("3. 🤖 Brunel 2") and kind_name(language, "normal") in seats[2]
    assert rules.name == text(language, "bot.lobby.rules") and rules.value
    assert timers.value == "⏱ 5 min"
    assert embed.footer.text == text(language, "bot.lobby.footer", id=7)
    assert russian(embed.title or "") is (language == "ru")


def test_a_lobby_that_expired_says_after_how_long() -> None:
    embed = lobby_embed("en", INFO, record("dice", 2, status="cancelled"), expired_after=30)
    assert embed.description == text("en", "admin.lobby.expired", host=f"<@{user_id(0)}>", min=2, max=6, minutes=30)
    assert "30" in (embed.description or "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_buttons_are_enabled_by_who_sits(language: str) -> None:
    alone = controls(lobby_view(language, INFO, record("dice", 1, status="lobby")))
    verbs = [c.custom_id.split(":")[3] for c in alone]
    assert verbs == ["join", "leave", "bot", "unbot", "start", "cancel", "kick"]
    assert alone[0].custom_id == cid("lobby", "join") and alone[0].label == text(language, "bot.lobby.join")
    enabled = {c.custom_id.split(":")[3]: not c.disabled for c in alone}
    assert enabled == {
        "join": True,
        "leave": True,
        "bot": True,
        "unbot": False,
        "start": True,
        "cancel": True,
        "kick": False,
    }
    full = record("dice", INFO.engine.max_players, bots=frozenset({1}), status="lobby")
    enabled = {c.custom_id.split(":")[3]: not c.disabled for c in controls(lobby_view(language, INFO, full))}
    assert not enabled["join"] and not enabled["bot"] and enabled["unbot"] and enabled["kick"]
    no_bots = controls(lobby_view(language, INFO, record("dice", 1, status="lobby"), bots_allowed=False))
    assert [c.disabled for c in no_bots if c.custom_id == cid("lobby", "bot")] == [True]


def test_a_started_lobby_has_no_buttons() -> None:
    assert lobby_view("en", INFO, record("dice", 2, status="active")) is None
    assert lobby_embed("en", INFO, record("dice", 2, status="active")).description == "The game has started. Good luck!"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bot_choice_offers_every_kind_the_game_has_at_the_lobbys_version(language: str) -> None:
    lobby = record("dice", 2, status="lobby")
    [menu] = controls(bot_kind_view(language, INFO, lobby))
    assert menu.custom_id == cid("lobby", "botkind")
    assert menu.values == [str(kind) for kind in INFO.engine.bot_kinds]
    assert [o.label for o in menu.options] == [kind_name(language, kind) for kind in INFO.engine.bot_kinds]
    assert all(o.description for o in menu.options)
