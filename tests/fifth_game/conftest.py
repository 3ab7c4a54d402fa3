"""The coin race added to the list of games before the bot is created, as its one line in `bot.games` would."""

from __future__ import annotations

import pytest

from bot.game_entry import GameInfo
from bot.games import GAMES
from tests.bot.e2e.conftest import running, stand_in
from tests.fifth_game.bot import GAME

__all__ = ["fifth_game", "running", "stand_in"]


@pytest.fixture(autouse=True)
def fifth_game(monkeypatch: pytest.MonkeyPatch) -> GameInfo:
    """The coin race listed for the test (its words were read with its entry); afterwards the list is as before."""
    monkeypatch.setitem(GAMES, GAME.game_id, GAME)
    return GAME
