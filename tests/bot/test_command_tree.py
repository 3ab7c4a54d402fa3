"""The slash commands as loaded: /newgame's subcommands carry only their game's options, the commands games share
exist once and answer for the channel's game, and the order the extensions load in changes nothing."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.app import Conductor, create_bot, extensions
from bot.exts.shared_commands import SharedCommands
from bot.games import GAMES
from bot.i18n import LANGUAGES, command_mention, table
from bot.i18n.commands import CommandTranslator
from bot.sandbox.run import sandbox_settings
from bot.sandbox.table import add_bot
from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.storage.votes import VoteStore
from bot.ui.house_rules import TIMER_OVERRIDES
from localdiscord import LocalDiscord, RecordedMessage
from rules.cardgame.cards import KIND_NAMES
from rules.ttr.board import CARD_NAMES
from tests.bot.e2e import conftest as e2e
from tests.bot.services.game_parts import game_parts

stand_in = e2e.stand_in
running = e2e.running
SHARED = ("draw", "tickets", "hand", "board", "score")
NAME = r"^[-_\w]{1,32}$"


@asynccontextmanager
async def loaded(db: Database, tmp_path: Path, extensions: Sequence[str]) -> AsyncIterator[Conductor]:
    """A bot (not connected) with these extensions loaded in this order and the commands' translator set."""
    bot = create_bot(sandbox_settings(tmp_path / "unused.sqlite3"))
    parts = game_parts(GameStore(db), {game: info.engine for game, info in GAMES.items()})
    bot.service, bot.shown, bot.moves, bot.bot_players = parts.games, parts.shown, parts.moves, parts.bots
    bot.votes = VoteStore(db)
    for extension in extensions:
        await bot.load_extension(extension)
    await bot.tree.set_translator(CommandTranslator())
    try:
        yield bot
    finally:
        for extension in reversed(extensions):
            await bot.unload_extension(extension)


async def payloads(bot: Conductor) -> dict[str, dict[str, Any]]:
    """Each top-level command as Discord would receive it, by name."""
    translator = bot.tree.translator
    assert translator is not None
    commands = bot.tree.get_commands()
    return {c.name: await c.get_translated_payload(bot.tree, translator) for c in commands}


def options_of(payload: dict[str, Any], *path: str) -> dict[str, dict[str, Any]]:
    """The options (or subcommands) under a path of subcommand names, by name."""
    for name in path:
        payload = next(o for o in payload.get("options", []) if o["name"] == name)
    return {o["name"]: o for o in payload.get("options", [])}


async def test_each_newgame_subcommand_has_only_its_games_options_worded_in_russian(
    db: Database, tmp_path: Path
) -> None:
    async with loaded(db, tmp_path, extensions()) as bot:
        newgame = (await payloads(bot))["newgame"]
    assert newgame["name_localizations"]["ru"] == "новаяигра" and newgame["contexts"] == [0]
    subcommands = options_of(newgame)
    assert list(subcommands) == list(GAMES)
    for game, info in GAMES.items():
        subcommand = subcommands[game]
        assert subcommand["type"] == 1 and len(game) <= 32 and game == game.lower()
        options = options_of(newgame, game)
        assert list(options) == [*info.engine.options_model.model_fields, *TIMER_OVERRIDES], game
        assert not any(o.get("required") for o in options.values())
        for thing in (subcommand, *options.values()):
            assert not thing["name_localizations"]["ru"].isascii(), thing["name"]
            assert 0 < len(thing["description"]) <= 100 and 0 < len(thing["description_localizations"]["ru"]) <= 100
            assert not thing["description_localizations"]["ru"].isascii(), thing["name"]
    assert options_of(newgame, "dice")["target"]["name_localizations"]["ru"] == "цель"
    assert subcommands["ticket-to-ride"]["name_localizations"]["ru"] == "билет-на-поезд"
    assert {c["value"] for c in options_of(newgame, "ticket-to-ride")["map"]["choices"]} == {"usa", "europe"}
    assert "map" not in options_of(newgame, "dice") and "target" not in options_of(newgame, "ticket-to-ride")


async def test_every_shared_command_exists_once_and_belongs_to_the_shared_cog(db: Database, tmp_path: Path) -> None:
    async with loaded(db, tmp_path, extensions()) as bot:
        names = [c.name for c in bot.tree.get_commands()]
        owners = {c.name: type(c.binding).__name__ for c in bot.tree.get_commands() if c.name in SHARED}
        answering = sorted(c.game for c in bot.cogs.values() if isinstance(c, SharedCommands))
        draw = (await payloads(bot))["draw"]
    assert [n for n in names if names.count(n) > 1] == []
    assert owners == dict.fromkeys(SHARED, "PlayCog")
    assert answering == ["ticket-to-ride", "ticket-to-ride-cards"], "the dice game has none of them"
    card = options_of(draw)["card"]
    assert card["autocomplete"] is True and "choices" not in card, "each game suggests its own cards"


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_extensions_give_the_same_commands_in_any_order(db: Database, tmp_path: Path, seed: int) -> None:
    async with loaded(db, tmp_path, extensions()) as bot:
        expected = await payloads(bot)
    shuffled = list(extensions())
    random.Random(seed).shuffle(shuffled)
    if seed == 1:
        shuffled.reverse()
    async with loaded(db, tmp_path, shuffled) as bot:
        found = await payloads(bot)
    assert shuffled != list(extensions())
    assert sorted(found) == sorted(expected)
    assert [n for n in found if json.dumps(found[n], sort_keys=True) != json.dumps(expected[n], sort_keys=True)] == []


async def lobby_of(
    stand_in: LocalDiscord, bot: Conductor, host: str, game: str, channel: str = "trains"
) -> tuple[RecordedMessage, int]:
    """Open a lobby by /newgame; return its message and the channel (or thread of its own) where it is played."""
    await stand_in.slash(host, f"newgame {game}", channel=channel)
    game_id = (await bot.records.open_games_of(stand_in.user(host).id, game))[0]
    where = await bot.shown.message(game_id, "lobby")
    assert where is not None
    return stand_in.message(where[1]), where[0]


async def test_the_shared_commands_answer_for_the_game_of_the_channel(
    stand_in: LocalDiscord, running: e2e.Running
) -> None:
    async with running() as bot:
        dice, here = await lobby_of(stand_in, bot, "Ann", "dice")
        lacking = await stand_in.slash("Ann", "hand", channel=here)
        hand = command_mention("hand")  # clickable once synced
        assert lacking.content == f"The game in this channel («Poezd», the train dice game) has no {hand} command."
        russian = await stand_in.slash("Dan", "draw", {"card": "deck"}, channel=here)
        assert russian.content == f"В игре этого канала («Поезд», игра в кубики) нет команды {command_mention('draw')}."
        assert await stand_in.autocomplete("Ann", "draw", {"card": ""}, focused="card", channel=here) == []
        await stand_in.click("Ann", dice, dice.custom_id("Cancel"))

        cards, card_place = await lobby_of(stand_in, bot, "Ann", "ticket-to-ride-cards")
        board, ttr_place = await lobby_of(stand_in, bot, "Cat", "ticket-to-ride", "general")
        assert card_place != ttr_place
        for host, lobby in (("Ann", cards), ("Cat", board)):
            await add_bot(stand_in, stand_in.user(host), lobby.id)
            await stand_in.click(host, stand_in.message(lobby.id), stand_in.message(lobby.id).custom_id("Start"))
        card_hand = await stand_in.slash("Ann", "hand", channel=card_place)
        ttr_hand = await stand_in.slash("Cat", "hand", channel=ttr_place)
        assert card_hand.message is not None and ttr_hand.message is not None
        assert card_hand.ephemeral and ttr_hand.ephemeral
        assert [a.filename for a in card_hand.message.attachments] == ["hand.png"], "the card game's hand"
        assert [a.filename for a in ttr_hand.message.attachments] == ["tickets.png"], "Ticket to Ride's hand"

        card_choices = await stand_in.autocomplete("Ann", "draw", {"card": ""}, focused="card", channel=card_place)
        ttr_choices = await stand_in.autocomplete("Cat", "draw", {"card": ""}, focused="card", channel=ttr_place)
        assert [c.value for c in card_choices] == ["deck", *KIND_NAMES]
        assert [c.value for c in ttr_choices] == ["deck", *CARD_NAMES]
        loco = await stand_in.autocomplete("Dan", "draw", {"card": "лок"}, focused="card", channel=ttr_place)
        assert [(c.name, c.value) for c in loco] == [("локомотив", "locomotive")]
        yellow = await stand_in.autocomplete("Dan", "draw", {"card": "желт"}, focused="card", channel=ttr_place)
        assert [c.value for c in yellow] == ["yellow"], "ё is typed as е"

        nonsense = await stand_in.slash("Cat", "draw", {"card": "tartan"}, channel=ttr_place)
        assert nonsense.content == "“tartan” is not a card of this game: pick one of the suggestions."
        typed = await stand_in.slash("Cat", "draw", {"card": "Deck"}, channel=ttr_place)  # typed out, not suggested
        assert typed.ephemeral and "not a card" not in typed.content and "not one this game knows" not in typed.content


def test_the_shared_commands_words_exist_in_both_languages() -> None:
    keys = (
        "play.reason.no_such_command",
        "play.reason.another_games_command",
        "play.reason.another_games_command_in",
        "play.reason.not_a_card",
    )
    assert [(lang, key) for lang in LANGUAGES for key in keys if key not in table(lang)] == []


async def test_the_lists_and_the_invite_menu_are_loaded_with_russian_names(db: Database, tmp_path: Path) -> None:
    async with loaded(db, tmp_path, extensions()) as bot:
        found = await payloads(bot)
    assert {"games", "history"} <= set(found) and found["history"]["contexts"] == [0]
    assert [o["name"] for o in found["history"]["options"]] == ["member", "page"]
    menu = found["Invite to a game"]
    assert menu["type"] == 2 and "description" not in menu and len(menu["name"]) <= 32
    assert menu["name_localizations"]["ru"] == "Пригласить в игру" and menu["contexts"] == [0]


async def test_the_notification_commands_are_loaded_with_russian_names(db: Database, tmp_path: Path) -> None:
    async with loaded(db, tmp_path, extensions()) as bot:
        found = await payloads(bot)
    names = {name: found[name]["name_localizations"]["ru"] for name in ("notify", "mygames", "watch")}
    assert names == {"notify": "уведомления", "mygames": "моиигры", "watch": "следить"}
    assert found["mygames"]["contexts"] == [0] and found["watch"]["contexts"] == [0]
    [game] = found["watch"]["options"]
    assert (game["name"], game["required"], game["name_localizations"]["ru"]) == ("game", False, "игра")
