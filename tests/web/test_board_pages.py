"""The live board pages over real HTTP, against the bot's own web server on the local Discord: the link every game
message carries, the page's data (the public view, and nothing a scramble of the hidden parts changes), tokens that
open their own game only, the live stream following a move made in Discord, the caps on streams, replays and maps."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from typing import Any

import aiohttp
import pytest

from bot.app import Conductor
from bot.web.board.routes import PAGE_POLICY
from bot.web.board.tokens import check, sign
from localdiscord import LocalDiscord
from rules.ttr.maps import load_map
from tests.bot.e2e.helpers import PATIENCE, final_with_chart, playing, table
from tests.rules.ttr.contract import scramble
from tests.web.support import SECRET, WebRunning, base, board_links, get, get_json, next_event

TTR = "ticket-to-ride"
DICE_RACE: dict[str, object] = {"target": 10}
"""A short dice race, so a game ends in a few turns."""
STREAMING = aiohttp.ClientTimeout(total=None, sock_read=PATIENCE)
MOST_UPDATES = 5000
"""Updates pushed at most to fill a reader's buffers (a few hundred do, on loopback)."""


def token_of(link: str) -> str:
    return link.rsplit("/b/", 1)[1]


async def finished_dice_game(stand_in: LocalDiscord, bot: Conductor) -> int:
    """A short dice race between Ann and a bot player, played to its end; its id."""
    players = table(stand_in, bot, "Ann")
    record = await players.open("dice", bots=1, options=DICE_RACE)
    return (await players.play_to_the_end(record.id, seed=3)).id


async def test_the_turn_message_links_to_the_board_whose_data_is_the_games_public_view(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=5)
        turn = await players.turn_message(game_id)
        [link] = board_links(turn)
        assert link.startswith(f"{base(bot)}/b/{game_id}.")
        assert [b["label"] for b in turn.buttons() if b.get("style") == 5] == ["Open the board"]
        status, headers, body = await get(f"{link}/state.json")
        assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
        assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
        data = json.loads(body)
        record = await bot.service.get(game_id)
        assert data["game"] == {
            "id": game_id, "kind": "ttr", "map": "usa", "language": "en", "title": f"Ticket to Ride · game {game_id}",
            "finished": False, "status": "active", "version": record.version,
        }  # fmt: skip
        assert [s["name"] for s in data["seats"]] == ["Ann", "Ben"] and not any(s["bot"] for s in data["seats"])
        assert data["view"] == bot.service.view(game_id, None).model_dump(mode="json")
        assert data["words"]["web.page.story"] == "Story" and "ttr.city.boston" not in data["words"]
        assert data["story"][-1] == data["last"]["lines"][-1] and data["scores"][0] == [0, 0]
        assert '"hand"' not in body.decode() and '"rng"' not in body.decode()

        await players.play_move(game_id, random.Random(5))
        newer = await players.turn_message(game_id)
        [fresh] = board_links(newer)
        assert newer.id != turn.id and board_links(stand_in.message(turn.id)) == [], "a turn over loses its link"
        assert check(SECRET.encode(), token_of(fresh), bot.clock()) is not None


async def test_scrambling_the_hidden_parts_of_a_running_game_leaves_its_page_data_byte_for_byte_the_same(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=9)
        rng = random.Random(9)
        for _ in range(6):
            await players.play_move(game_id, rng)
        [link] = board_links(await players.turn_message(game_id))
        _, _, honest = await get(f"{link}/state.json")
        live = bot.service.live[game_id]
        assert live.state is not None
        before = live.state
        for seed in range(3):
            live.state = scramble(before, None, random.Random(seed))  # type: ignore[arg-type]
            assert live.state != before
            assert bot.web.board is not None
            await bot.web.board.refresh(game_id)
            _, _, scrambled = await get(f"{link}/state.json")
            assert scrambled == honest
        live.state = before


async def test_a_token_opens_its_own_game_only_and_a_tampered_or_expired_one_nothing(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        first = await finished_dice_game(stand_in, bot)
        players = table(stand_in, bot, "Ann")
        second = (await players.open("dice", bots=1, options=DICE_RACE)).id
        link = board_links(await players.turn_message(second))[0]
        other = f"{base(bot)}/b/{first}.{token_of(link).split('.', 1)[1]}"
        assert (await get_json(f"{link}/state.json"))[1]["game"]["id"] == second
        assert await get_json(f"{other}/state.json") == (
            404,
            {
                "error": "unknown",
                "message": "This link opens no game. Ask for a new one with /board in the game's channel.",
            },
        )
        tampered = link[:-1] + ("A" if link[-1] != "A" else "B")
        for refused in (other, tampered, f"{base(bot)}/b/{second}", f"{base(bot)}/b/nonsense"):
            for route in ("/state.json", "/events", "/replay.json"):
                assert (await get(refused + route))[0] == 404, refused + route

        expired = f"{base(bot)}/b/{sign(SECRET.encode(), second, int(bot.clock()) - 1)}"
        status, answer = await get_json(f"{expired}/state.json", **{"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"})
        assert (status, answer["error"]) == (403, "expired")
        assert answer["message"].startswith("Срок этой ссылки истёк")
        status, headers, page = await get(expired)
        assert status == 403 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert b'<html lang="en">' in page and b"This link has expired." in page


async def test_the_event_stream_sends_the_game_at_once_then_each_move_made_in_discord(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=5)
        link = board_links(await players.turn_message(game_id))[0]
        rng = random.Random(5)
        async with aiohttp.ClientSession(timeout=STREAMING) as session, session.get(f"{link}/events") as stream:
            assert stream.status == 200
            assert stream.headers["Content-Type"] == "text/event-stream; charset=utf-8"
            assert stream.headers["Cache-Control"] == "no-store"
            name, first = await next_event(stream)
            _, _, fetched = await get(f"{link}/state.json")
            assert name == "state" and first.encode() == fetched
            update = json.loads(first)
            for _ in range(3):
                await players.play_move(game_id, rng)
                shown = bot.shown.shown(game_id)
                while update["game"]["version"] < shown:  # each version shown is told, in order
                    name, data = await next_event(stream)
                    newer = json.loads(data)
                    assert name == "state" and newer["game"]["version"] > update["game"]["version"]
                    update = newer
                assert update["view"] == bot.service.view(game_id, None).model_dump(mode="json")
                assert update["last"]["seat"] in (0, 1)


async def test_streams_beyond_the_caps_are_refused(stand_in: LocalDiscord, running: WebRunning) -> None:
    async with running(web_streams_per_game=2, web_streams=3) as bot:
        first = await finished_dice_game(stand_in, bot)
        players = table(stand_in, bot, "Ann")
        second = (await players.open("dice", bots=1, options=DICE_RACE)).id
        expires = int(bot.clock()) + 600
        links = {game: f"{base(bot)}/b/{sign(SECRET.encode(), game, expires)}" for game in (first, second)}
        async with aiohttp.ClientSession(timeout=STREAMING) as session:
            opened: list[aiohttp.ClientResponse] = []

            async def stream(game: int) -> tuple[int, Any]:
                response = await session.get(f"{links[game]}/events")
                if response.status == 200:
                    opened.append(response)
                    assert (await next_event(response))[0] == "state"
                    return 200, None
                refusal = (response.status, response.headers.get("Retry-After"), await response.json())
                response.release()
                return refusal[0], refusal[1:]

            try:
                assert [(await stream(first))[0], (await stream(first))[0]] == [200, 200]
                busy = (
                    "30",
                    {
                        "error": "busy",
                        "message": "Too many people are following this board right now. Reload the page in a moment.",
                    },
                )
                assert await stream(first) == (503, busy), "two pages of one game at most"
                assert (await stream(second))[0] == 200
                assert await stream(second) == (503, busy), "three pages in all at most"
                assert bot.web.board is not None and bot.web.board.open_streams == 3
            finally:
                for response in opened:
                    response.close()


async def test_a_reader_too_slow_for_the_updates_is_dropped_and_one_who_keeps_up_is_not(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=5)
        link = board_links(await players.turn_message(game_id))[0]
        board = bot.web.board
        assert board is not None
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the reader's side fills at once
        slow.setblocking(False)
        await asyncio.get_running_loop().sock_connect(slow, ("127.0.0.1", bot.web.port or 0))
        path = link.split(base(bot), 1)[1]
        await asyncio.get_running_loop().sock_sendall(slow, f"GET {path}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        received: list[int] = []
        async with aiohttp.ClientSession(timeout=STREAMING) as session, session.get(f"{link}/events") as keeping_up:
            await next_event(keeping_up)

            async def read() -> None:
                while True:
                    received.append(json.loads((await next_event(keeping_up))[1])["game"]["version"])

            reading = asyncio.create_task(read())
            await stand_in.wait_for(lambda: board.open_streams == 2, what="both streams open")
            pushed = 0
            while not board.dropped and pushed < MOST_UPDATES:  # never read, the slow one's buffers fill
                await board.refresh(game_id)
                pushed += 1
            assert board.dropped == 1, f"no reader dropped after {pushed} updates"
            await stand_in.wait_for(lambda: board.open_streams == 1, what="the slow stream closed")
            await stand_in.wait_for(lambda: len(received) >= pushed or None, what="every update read")
            reading.cancel()
        slow.close()


async def test_a_finished_games_final_message_links_to_its_replay_of_every_move_and_an_unfinished_one_has_none(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        finished = await finished_dice_game(stand_in, bot)
        players = table(stand_in, bot, "Ann")
        running_game = (await players.open("dice", bots=1, options=DICE_RACE)).id
        now = int(bot.clock()) + 600
        [link] = board_links(await final_with_chart(stand_in, bot, finished))  # the chart added, the link kept
        status, replay = await get_json(f"{link}/replay.json")
        moves = await bot.records.actions(finished)
        assert status == 200 and len(replay["frames"]) == len(moves) + 1
        assert replay["game"]["finished"] and replay["frames"][-1]["told"] == len(replay["story"])
        status, state = await get_json(f"{base(bot)}/b/{sign(SECRET.encode(), finished, now)}/state.json")
        assert status == 200 and replay["frames"][-1]["view"] == state["view"]
        assert replay["scores"] == state["scores"]
        status, refusal = await get_json(f"{base(bot)}/b/{sign(SECRET.encode(), running_game, now)}/replay.json")
        assert (status, refusal["error"]) == (409, "not_finished")


async def test_a_maps_geometry_is_served_to_every_page_and_kept_a_day(
    stand_in: LocalDiscord, running: WebRunning
) -> None:
    async with running() as bot:
        status, headers, body = await get(f"{base(bot)}/web/maps/europe.json")
        assert status == 200 and headers["Cache-Control"] == "public, max-age=86400"
        geometry = json.loads(body)
        tracks = load_map("europe").tracks
        assert [r["id"] for r in geometry["routes"]] == [t.id for t in tracks]
        assert [len(r["slots"]) for r in geometry["routes"]] == [t.length for t in tracks]
        assert {r["id"] for r in geometry["routes"] if r["tunnel"]} == {t.id for t in tracks if t.tunnel}
        assert all(0 <= x <= geometry["size"][0] for r in geometry["routes"] for x, _, _ in r["slots"])
        moskva = next(c for c in geometry["cities"] if c["id"] == "moskva")
        assert moskva["name"] == {"en": "Moskva", "ru": "Москва"}
        again = await get(f"{base(bot)}/web/maps/europe.json", **{"If-None-Match": headers["ETag"]})
        assert again[0] == 304
        assert (await get(f"{base(bot)}/web/maps/mars.json"))[0] == 404


@pytest.mark.parametrize(("game", "words"), [(TTR, ""), ("dice", "This game's live board:")])
async def test_board_answers_with_the_link_to_the_live_board(
    stand_in: LocalDiscord, running: WebRunning, game: str, words: str
) -> None:
    async with running() as bot:
        if game == TTR:
            await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=5)
        else:
            await table(stand_in, bot, "Ann").open("dice", bots=1, options=DICE_RACE)
        answer = (await stand_in.slash("Ann", "board")).message
        assert answer is not None and answer.ephemeral
        [link] = board_links(answer)
        assert answer.text == words and (await get(f"{link}/state.json"))[0] == 200
        assert bool(answer.attachments) == (game == TTR), "a board picture where the game draws one"


async def test_the_board_pages_headers_keep_the_token_to_this_site(stand_in: LocalDiscord, running: WebRunning) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, TTR, ("Ann", "Ben"), seed=5)
        [link] = board_links(await players.turn_message(game_id))
        status, headers, _ = await get(link)
        if status == 200:  # the page is there (bot/web/board/static/page.html)
            assert headers["Content-Security-Policy"] == PAGE_POLICY
        assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
