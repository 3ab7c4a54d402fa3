"""Ticket to Ride end to end through the local Discord: whole games of USA and Europe played through the real
buttons and menus, the simultaneous opening, a restart in the middle, tunnels, a station, a closed double route,
and a scan of everything public for what was private at the time."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from bot.app import Conductor
from bot.exts.ttr._map import ticket_words
from bot.i18n import render
from bot.sandbox.table import add_bot, bot_policy
from localdiscord import LocalDiscord
from rules.engine import GameEngine
from rules.ttr import TicketToRideEngine
from rules.ttr.maps import load_map
from rules.ttr.state import Phase, TtrState
from tests.bot.e2e.helpers import (
    Running,
    assert_private_pictures_only_to_players,
    final_with_chart,
    fix_seed,
    people,
    public_words,
    revisions,
    stored,
    stored_version,
    table,
    verbs,
    walk,
)

GAME = "ticket-to-ride"
ENGINE = TicketToRideEngine()


def ttr_state(bot: Conductor, game_id: int) -> TtrState:
    return bot.service.state(game_id)  # type: ignore[return-value]


async def assert_nothing_private_in_public(stand_in: LocalDiscord, bot: Conductor, game_id: int) -> None:
    """Replay the game's log; no public message may show a private event's words, a ticket before the end, a
    private picture, or a ticket menu; private pictures go only to the players, ephemerally."""
    record = await stored(bot, game_id)
    assert record.status == "finished"
    options = ENGINE.load_options(record.options)
    state = ENGINE.new_game(options, len(record.seats), record.seed)
    tickets = {t for offer in state.offers for t in offer}
    names = {s.seat: s.display_name for s in record.seats}
    private: set[str] = set()
    for seat, action in await bot.service.store.actions(game_id):
        state, events = ENGINE.apply(state, seat, ENGINE.parse_action(action))
        tickets |= set(state.offers[seat])
        private |= {render(lang, e, names) for e in events if e.to is not None for lang in ("en", "ru")}
    game_map = load_map(options.map.value)
    direct = {frozenset((t.a, t.b)) for t in game_map.tracks}
    secret_tickets = {
        ticket_words(lang, game_map.id, t.id)
        for t in game_map.tickets
        if t.id in tickets and frozenset((t.a, t.b)) not in direct
        for lang in ("en", "ru")
    }
    assert len(private) > 20 and len(secret_tickets) > 10, "the scan must have secrets to look for"
    messages = stand_in.channel_messages()
    final = messages[-1]
    assert "scores.png" in [a.filename for a in final.attachments]
    assert any(t in public_words(final.revision()) for t in secret_tickets), "the end reveals the tickets"
    scanned = 0
    for message in messages:
        for revision in revisions(message):
            words = public_words(revision)
            scanned += 1
            assert not [p for p in private if p in words], words
            if message is not final:
                assert not [t for t in secret_tickets if t in words], words
            assert {a.filename for a in revision.attachments} <= {
                "board.png",
                "scores.png",
                "score-detail.png",
                "score-chart.png",
            }
            assert "keep" not in verbs(revision)
    assert scanned > 100
    assert_private_pictures_only_to_players(stand_in, record, {"hand.png", "tickets.png"})


@pytest.mark.slow
async def test_usa_whole_game_with_a_restart_in_the_middle_and_nothing_private_in_public(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, 11)
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        record = await players.open(GAME, bots=1)
        rng = random.Random(1)
        for _ in range(30):
            await players.play_move(record.id, rng)
        before = await players.turn_message(record.id)
        at = await stored_version(bot, record.id)

    async with running() as bot:  # a new bot object on the same database: the restart
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        assert await players.turn_message(record.id) == before, "the same message still holds the controls"
        await players.play_move(record.id, rng)  # through the buttons of the message posted before the restart
        assert await stored_version(bot, record.id) > at
        finished = await players.play_to_the_end(record.id, seed=2)
        final = await final_with_chart(stand_in, bot, record.id)
        log = await bot.service.store.actions(record.id)
        await assert_nothing_private_in_public(stand_in, bot, record.id)

    assert finished.state is not None
    replayed = ENGINE.replay(ENGINE.load_options(finished.options), 4, finished.seed, log)
    assert replayed == ENGINE.load_state(finished.state)
    assert final.id == stand_in.channel_messages()[-1].id
    assert [a.filename for a in final.attachments] == ["scores.png", "board.png", "score-detail.png", "score-chart.png"]
    assert all(a.data.startswith(b"\x89PNG") for a in final.attachments)
    result = ENGINE.result(replayed)
    assert result is not None
    winners = [finished.seats[s].display_name for s in result.winners]
    assert all(name in final.text for name in winners)
    marks = "".join(line[0] if line[:1] in ("✅", "❌") else "|" for line in final.text.splitlines())
    runs = marks.split("|")  # one run of ticket lines a player
    assert all(run == "".join(sorted(run, key=lambda m: m == "✅")) for run in runs), "failed tickets come first"
    turns = [
        m for m in stand_in.channel_messages() if m.v2 and m.buttons() == [] and "Ticket to Ride · USA ·" in m.text
    ]
    pictured = [m for m in turns if m.attachments]
    assert 10 < len(pictured) < len(turns), "a turn shows the board when it changed, not after cards were drawn"


def europe_policy() -> Callable[[GameEngine[Any, Any, Any], BaseModel, int, random.Random], str]:
    """Play like the bot player, but claim tunnels when possible, pay for the first costly tunnel that can be paid
    and give up any other, and build one station as soon as one can be built."""
    done = {"withdraw": False, "pay": False, "station": False}
    tunnels = {t.id for t in load_map("europe").tracks if t.tunnel}

    def choose(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random) -> str:
        assert isinstance(state, TtrState)
        legal = [a.encode() for a in engine.legal_actions(state, seat)]
        if state.phase is Phase.TUNNEL:
            pays = [a for a in legal if a.startswith("pay:")]
            if pays and not done["pay"]:
                done["pay"] = True
                return pays[-1]
            done["withdraw"] = True
            return "withdraw"
        stations = [a for a in legal if a.startswith("station:")]
        if stations and not done["station"]:
            done["station"] = True
            return stations[len(stations) // 2]
        claims = [a for a in legal if a.startswith("claim:") and int(a.split(":")[1]) in tunnels]
        if claims and not (done["withdraw"] and done["pay"]):
            return claims[0]
        return bot_policy(engine, state, seat, rng)

    return choose


@pytest.mark.slow
async def test_europe_whole_game_with_a_tunnel_paid_one_withdrawn_and_a_station(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, 5)
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        players.policy = europe_policy()
        record = await players.open(GAME, bots=1, options={"map": "europe"})
        await players.play_to_the_end(record.id, seed=3)
        log = await bot.service.store.actions(record.id)
        await assert_nothing_private_in_public(stand_in, bot, record.id)

    humans = {s.seat for s in record.seats if s.user_id is not None}
    done = [action for seat, action in log if seat in humans]
    assert "withdraw" in done and any(a.startswith("pay:") for a in done)
    assert any(a.startswith("station:") for a in done)
    shown = "\n".join(public_words(r) for m in stand_in.channel_messages() for r in revisions(m))
    assert "gives up the tunnel" in shown and "builds a station" in shown
    assert "gives up the tunnel" in stand_in.transcript(), "a turn message keeps telling the last turn"
    redrawn = [
        m
        for m in stand_in.channel_messages()
        if len({a.data for r in revisions(m) for a in r.attachments if a.filename == "board.png"}) > 1
    ]
    assert redrawn, "the turn message shows the board again while a tunnel is paid: its turned-over cards are public"
    choices = [
        m
        for name in ("Ann", "Ben", "Cat")
        for m in stand_in.messages
        if m.recipient_id == stand_in.user(name).id
        for r in revisions(m)
        if "It costs" in r.text
    ]
    assert choices, "the tunnel's extra cost was offered privately"
    labels = [c.get("label", "") for m in choices for r in revisions(m) for c in walk(r)]
    assert any(label.startswith("Pay ") and "×" in label for label in labels)
    assert "Give up the tunnel" in labels


def doubles_first(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random) -> str:
    """Claim a track of a double route whenever one can be claimed, else play like the bot player."""
    assert isinstance(state, TtrState)
    doubles = {t.id for t in load_map(state.map_id).tracks if t.partner is not None}
    claims = [a.encode() for a in engine.legal_actions(state, seat) if a.encode().startswith("claim:")]
    wanted = [c for c in claims if int(c.split(":")[1]) in doubles]
    return wanted[0] if wanted else bot_policy(engine, state, seat, rng)


async def test_three_players_a_double_route_closes_once_one_track_is_taken(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, 21)
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        players.policy = doubles_first
        record = await players.open(GAME)
        tracks = {t.id: t for t in load_map("usa").tracks}
        rng = random.Random(4)
        seen = set()
        for _ in range(200):
            await players.play_move(record.id, rng)
            state = ttr_state(bot, record.id)
            public = ENGINE.view(state, None)
            if public.phase != "turn" or public.current is None:
                continue
            owned = [t for t, s in public.owners.items() if tracks[t].partner is not None]
            if not owned:
                continue
            track = tracks[owned[0]]
            partner = tracks[track.partner]  # type: ignore[index]
            mine = public.owners[track.id] == public.current
            if mine in seen:
                continue
            seen.add(mine)
            person = people(stand_in, "Ann", "Ben", "Cat")[public.current]
            at = await stored_version(bot, record.id)
            typed = f"{partner.a} {partner.b}".replace("_", " ")
            offered = await stand_in.autocomplete(person, "claim", {"route": typed}, focused="route")
            assert str(partner.id) not in {c.value for c in offered}
            refused = await stand_in.slash(person, "claim", {"route": str(partner.id)})
            expected = "already hold the other route" if mine else "only one route of a double route"
            assert refused.ephemeral and expected in refused.text
            assert await stored_version(bot, record.id) == at
            if seen == {True, False}:
                break
        assert seen == {True, False}


async def test_the_opening_choice_is_simultaneous_private_and_play_waits_for_everyone(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        ann, ben = people(stand_in, "Ann", "Ben")
        lobby = (await stand_in.slash(ann, f"newgame {GAME}", {"map": "usa"})).message
        assert lobby is not None
        await stand_in.click(ben, lobby, lobby.custom_id("Join"))
        await add_bot(stand_in, ann, lobby.id)
        await stand_in.click(ann, stand_in.message(lobby.id), stand_in.message(lobby.id).custom_id("Start"))
        record = await bot.service.game_in_channel(lobby.channel_id)
        opening = await stand_in.wait_for_message(lambda m: "opening tickets" in m.text, after=lobby)
        await stand_in.wait_for(
            lambda: "✅ 🤖" in stand_in.message(opening.id).text or None, what="the bot player's choice"
        )
        assert "⏳ Ann" in stand_in.message(opening.id).text
        assert f"<@{ben.id}>" in stand_in.message(opening.id).text

        hosts = [m for m in stand_in.ephemerals(ann) if any(a.filename == "tickets.png" for a in m.attachments)]
        assert len(hosts) == 1, "the host is handed their choice at once"
        answer = await stand_in.click(ben, stand_in.message(opening.id), opening.custom_id("Choose my tickets"))
        ben_choice = answer.message
        assert ben_choice is not None and answer.ephemeral
        assert [a.filename for a in ben_choice.attachments] == ["tickets.png"]
        keep = next(c for c in walk(ben_choice.revision()) if c.get("type") == 3)
        assert keep["min_values"] == 2 and len(keep["options"]) == 3
        values = [o["value"] for o in keep["options"]]
        at = await stored_version(bot, record.id)
        too_few = await stand_in.select(ben, ben_choice, keep["custom_id"], values[:1], force=True)
        assert too_few.ephemeral and "Keep at least 2" in "\n".join(
            m.text for m in [too_few.message, *too_few.followups] if m is not None
        )
        assert await stored_version(bot, record.id) == at

        kept = await stand_in.select(ben, ben_choice, keep["custom_id"], values[:2])
        assert "You kept" in kept.text
        await stand_in.wait_for(lambda: "✅ Ben" in stand_in.message(opening.id).text or None)
        assert await bot.shown.message(record.id, "turn") is None, "play waits for everyone"

        host_keep = next(c for c in walk(hosts[0].revision()) if c.get("type") == 3)
        await stand_in.select(ann, hosts[0], host_keep["custom_id"], [o["value"] for o in host_keep["options"]])
        first = await stand_in.wait_for_message(lambda m: "plays first" in m.text, after=opening)
        assert first.attachments[0].filename == "board.png"
        assert stand_in.message(opening.id).buttons() == [], "the opening message loses its button"
        names = [s.name for s in record.seats]
        assert any(f"· {name}" in first.text for name in names)
