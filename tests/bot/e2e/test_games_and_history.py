"""/games and /history through the local Discord, on a database with many games stored through the game store:
private answers, ten to a page, newest first, whose turn it is, places and scores, links to the final messages."""

from __future__ import annotations

from bot.app import Conductor
from bot.storage.games import GameRecord, SeatRecord
from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, table

STORED = 24
"""Finished games stored directly, beside the one played through the stand-in."""


async def store_finished(bot: Conductor, stand_in: LocalDiscord, final: GameRecord, count: int) -> list[int]:
    """Store `count` finished games of the dice game with `final`'s last snapshot, seated Ann, Ben and (every third
    game) Cat or else a bot player; they have no final message. Return their ids."""
    ann, ben, cat = (stand_in.user(n) for n in ("Ann", "Ben", "Cat"))
    store = bot.service.store
    ids = []
    for number in range(count):
        third = SeatRecord(2, "Cat", user_id=cat.id) if number % 3 == 0 else SeatRecord(2, "Brunel", bot_kind="easy")
        seats = [SeatRecord(0, "Ann", user_id=ann.id), SeatRecord(1, "Ben", user_id=ben.id), third]
        record = await store.create_game(
            game="dice",
            guild_id=stand_in.guild_id,
            channel_id=final.channel_id,
            host_id=ann.id,
            options=final.options,
            seed=number,
            seats=seats,
        )
        assert final.state is not None
        record = await store.start(record, seats, final.state)
        await store.record_action(record, 0, "stop", final.state, finished=True)
        ids.append(record.id)
    return ids


async def test_history_pages_the_finished_games_with_places_scores_and_links(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann", "Ben")
        played = await players.play_to_the_end((await players.open("dice", bots=1, options={"target": 10})).id)
        stored = await store_finished(bot, stand_in, played, STORED)

        first = await stand_in.slash("Ann", "history")
        assert first.ephemeral and first.message is not None
        embed = first.message.embeds[0]
        assert embed["footer"]["text"] == f"Page 1 of 3 · {STORED + 1} games"
        entries = embed["description"].split("\n\n")
        assert len(entries) == 10
        assert [int(e.split(" · #")[1].split(" ")[0]) for e in entries] == stored[::-1][:10], "the latest first"
        assert all("no link" in e and "1. " in e and "🏆" in e for e in entries)

        last = await stand_in.slash("Ann", "history", {"page": 3})
        assert last.message is not None
        [oldest] = [e for e in last.message.embeds[0]["description"].split("\n\n") if f"#{played.id} " in e]
        where = await bot.shown.message(played.id, "final")
        assert where is not None and f"/{where[0]}/{where[1]})" in oldest, "a link to the final message"
        assert "🤖 Stephenson" in oldest and "🏆" in oldest

        cats = await stand_in.slash("Ben", "history", {"member": "Cat"})
        assert cats.message is not None
        assert cats.message.embeds[0]["title"] == "Finished games of Cat"
        assert cats.message.embeds[0]["footer"]["text"] == f"Page 1 of 1 · {len(stored[::3])} games"
        beyond = await stand_in.slash("Dan", "history", {"page": 9})
        assert beyond.ephemeral and beyond.text == "Всего 3 страницы."


async def test_games_lists_open_lobbies_and_running_games_with_whose_turn(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        empty = await stand_in.slash("Ann", "games")
        assert empty.ephemeral and empty.text == "No lobby is open and no game is being played on this server."
        eve = stand_in.user("Eve")
        for number in range(11):  # lobbies in eleven other channels
            await bot.service.store.create_game(
                game="ticket-to-ride",
                guild_id=stand_in.guild_id,
                channel_id=5_000 + number,
                host_id=eve.id,
                options={},
                seed=number,
                seats=[SeatRecord(0, "Eve", user_id=eve.id)],
            )
        players = table(stand_in, bot, "Ann", "Ben")
        record = await players.open("dice")

        listed = await stand_in.slash("Cat", "games")
        assert listed.ephemeral and listed.message is not None
        embed = listed.message.embeds[0]
        assert embed["title"] == "Games on this server" and embed["footer"]["text"] == "Page 1 of 2 · 12 games"
        entries = embed["description"].split("\n\n")
        assert len(entries) == 10 and f"#{record.id} " in entries[0], "the newest first"
        to_act = bot.service.engine("dice").to_act(bot.service.state(record.id))
        acting = next(s.name for s in record.seats if s.seat in to_act)
        assert f"<#{record.channel_id}>" in entries[0] and "playing" in entries[0]
        assert f"To play: {acting}" in entries[0] and "opened <t:" in entries[0]
        assert "lobby, 1 of 5 seats taken" in entries[1] and "Eve" in entries[1]
        second = await stand_in.slash("Cat", "games", {"page": 2})
        assert second.message is not None and len(second.message.embeds[0]["description"].split("\n\n")) == 2
