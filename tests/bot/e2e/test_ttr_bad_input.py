"""Ticket to Ride's bad input through the local Discord: each gets a private, specific answer and changes nothing."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from pydantic import BaseModel

from bot.app import Conductor
from bot.sandbox.table import bot_policy
from localdiscord import ImpossibleInteraction, LocalDiscord
from rules.engine import GameEngine
from rules.ttr import TicketToRideEngine
from rules.ttr.maps import load_map
from rules.ttr.state import Phase, TtrState
from rules.ttr.view import PublicView
from tests.bot.e2e.helpers import Running, controls, people, play_until, playing, stored_version

GAME = "ticket-to-ride"
ENGINE = TicketToRideEngine()
USA = {"map": "usa"}


def public(bot: Conductor, game_id: int) -> PublicView:
    return bot.service.view(game_id, None)  # type: ignore[return-value]


async def test_out_of_turn_and_outsiders_are_refused_privately(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 1, options=USA)
        message = await players.turn_message(game_id)
        at = await stored_version(bot, game_id)
        waiting = people(stand_in, "Ann", "Ben")[1 - (public(bot, game_id).current or 0)]
        deck = controls(message)["act:draw:deck"]["custom_id"]
        out_of_turn = await stand_in.click(waiting, message, deck)
        assert out_of_turn.ephemeral and "not your turn" in out_of_turn.text
        outsider = await stand_in.click("Eve", message, deck)
        assert outsider.ephemeral and "not playing" in outsider.text
        hand = await stand_in.click("Eve", message, controls(message)["hand"]["custom_id"])
        assert hand.ephemeral and "not playing" in hand.text
        typed = await stand_in.slash("Eve", "draw", {"card": "deck"})
        assert typed.ephemeral and "not playing" in typed.text
        russian = await stand_in.slash("Dan", "hand")
        assert russian.ephemeral and "Вы не участвуете в этой игре" in russian.text
        assert await stored_version(bot, game_id) == at


async def test_a_double_click_and_two_clicks_at_once_apply_exactly_once(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 2, options=USA)
        view = await play_until(
            players, game_id, lambda v: v.deck_size > 2 and "locomotive" not in v.market, random.Random(2), look=public
        )
        message = await players.turn_message(game_id)
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        at = await stored_version(bot, game_id)
        logged = len(await bot.service.store.actions(game_id))
        deck = controls(message)["act:draw:deck"]["custom_id"]
        both = await asyncio.gather(*(stand_in.click(person, message, deck) for _ in range(2)))
        stale = [o for o in both if "earlier turn" in o.text]
        assert len(stale) == 1 and stale[0].ephemeral
        assert await stored_version(bot, game_id) == at + 1
        assert stale[0].message is not None and "act:draw:deck" in controls(stale[0].message), "fresh controls"

        message = await players.turn_message(game_id)  # the second card of the same turn
        face_up = [k for k, c in controls(message).items() if k.startswith("take:") and not c.get("disabled")]
        pair = [controls(message)["act:draw:deck"]["custom_id"], controls(message)[face_up[0]]["custom_id"]]
        outcomes = await asyncio.gather(*(stand_in.click(person, message, cid) for cid in pair))
        assert sum("earlier turn" in o.text for o in outcomes) == 1
        assert await stored_version(bot, game_id) == at + 2
        assert len(await bot.service.store.actions(game_id)) == logged + 2


async def test_a_face_up_locomotive_cannot_be_the_second_card(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 3, options=USA)
        view = await play_until(
            players,
            game_id,
            lambda v: v.phase == "turn" and "locomotive" in v.market and v.deck_size > 0,
            random.Random(3),
            look=public,
        )
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        message = await players.turn_message(game_id)
        await stand_in.click(person, message, controls(message)["act:draw:deck"]["custom_id"])
        message = await players.turn_message(game_id)
        at = await stored_version(bot, game_id)
        locomotive = next(c for k, c in controls(message).items() if k.endswith(":locomotive"))
        assert locomotive.get("disabled"), "the face-up locomotive is not offered as the second card"
        typed = await stand_in.slash(person, "draw", {"card": "locomotive"})
        assert typed.ephemeral and "only be taken as your first card" in typed.text
        forced = await stand_in.click(person, message, locomotive["custom_id"], force=True)
        assert forced.ephemeral and "only be taken as your first card" in forced.text
        assert await stored_version(bot, game_id) == at


async def test_claims_that_cannot_be_made_are_explained(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 4, options=USA)
        view = await play_until(
            players, game_id, lambda v: v.phase == "turn" and len(v.owners) >= 2, random.Random(4), look=public
        )
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        state: TtrState = bot.service.state(game_id)  # type: ignore[assignment]
        legal = {a.encode() for a in ENGINE.legal_actions(state, view.current or 0)}
        claimable = {int(a.split(":")[1]) for a in legal if a.startswith("claim:")}
        tracks = load_map("usa").tracks
        taken = next(iter(view.owners))
        partners = {t.partner for t in tracks if t.id in view.owners}
        unaffordable = next(
            t.id
            for t in sorted(tracks, key=lambda t: -t.length)
            if t.id not in view.owners and t.id not in partners and t.id not in claimable
        )
        at = await stored_version(bot, game_id)

        answer = await stand_in.slash(person, "claim", {"route": str(taken)})
        assert answer.ephemeral and "already claimed" in answer.text
        answer = await stand_in.slash(person, "claim", {"route": str(unaffordable)})
        assert answer.ephemeral and "You do not have those cards" in answer.text
        answer = await stand_in.slash(person, "claim", {"route": "Atlantis"})
        assert answer.ephemeral and "“Atlantis” is not a route on this map" in answer.text
        other = people(stand_in, "Ann", "Ben")[1 - (view.current or 0)]
        answer = await stand_in.slash(other, "claim", {"route": str(unaffordable)})
        assert answer.ephemeral and "not your turn" in answer.text
        assert await stored_version(bot, game_id) == at

        offered = await stand_in.autocomplete(person, "claim", {"route": ""}, focused="route")
        assert {int(c.value) for c in offered} == set(sorted(claimable)[:25]) or len(offered) == 25
        assert {int(c.value) for c in offered} <= claimable
        some = next(t for t in tracks if t.id in claimable)
        for typed in (f"{some.a[:4]}", f"{some.b.replace('_', ' ')} {some.a[:3]}"):
            found = await stand_in.autocomplete(person, "claim", {"route": typed}, focused="route")
            assert str(some.id) in {c.value for c in found}, typed
            assert {int(c.value) for c in found} <= claimable


def tickets_first(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random) -> str:
    """Draw destination tickets whenever possible and keep as few as allowed."""
    legal = [a.encode() for a in engine.legal_actions(state, seat)]
    if "tickets" in legal:
        return "tickets"
    keeps = [a for a in legal if a.startswith("keep:")]
    if keeps and isinstance(state, TtrState) and state.phase is Phase.TICKETS:
        return keeps[0]
    return bot_policy(engine, state, seat, rng)


async def test_drawing_tickets_from_an_empty_ticket_deck_is_refused(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(
            stand_in, bot, GAME, ("Ann", "Ben"), 5, options={**USA, "returned_tickets": "removed"}
        )
        players.policy = tickets_first
        view = await play_until(
            players, game_id, lambda v: v.phase == "turn" and v.ticket_deck_size == 0, random.Random(5), look=public
        )
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        message = await players.turn_message(game_id)
        assert controls(message)["act:tickets"].get("disabled")
        at = await stored_version(bot, game_id)
        answer = await stand_in.slash(person, "tickets")
        assert answer.ephemeral and "no destination tickets left" in answer.text
        forced = await stand_in.click(person, message, controls(message)["act:tickets"]["custom_id"], force=True)
        assert forced.ephemeral and "no destination tickets left" in forced.text
        assert await stored_version(bot, game_id) == at


def stations_first(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int, rng: random.Random) -> str:
    """Build a station whenever possible, else play like the bot player."""
    stations = [a.encode() for a in engine.legal_actions(state, seat) if a.encode().startswith("station:")]
    return stations[0] if stations else bot_policy(engine, state, seat, rng)


async def test_a_station_on_a_city_that_has_one_is_refused(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 6, options={"map": "europe"})
        players.policy = stations_first
        view = await play_until(
            players, game_id, lambda v: v.phase == "turn" and v.stations, random.Random(6), look=public
        )
        city = next(iter(view.stations))
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        at = await stored_version(bot, game_id)
        answer = await stand_in.slash(person, "station", {"city": city})
        assert answer.ephemeral and "already has a station" in answer.text
        offered = await stand_in.autocomplete(person, "station", {"city": city[:4]}, focused="city")
        assert city not in {c.value for c in offered}
        answer = await stand_in.slash(person, "station", {"city": "Atlantis"})
        assert answer.ephemeral and "“Atlantis” is not a city on this map" in answer.text
        assert await stored_version(bot, game_id) == at
        assert "builds a station" in stand_in.transcript()


async def test_commands_in_a_channel_without_a_game(stand_in: LocalDiscord, running: Running) -> None:
    async with running():
        for command, options in (("draw", {"card": "deck"}), ("claim", {"route": "1"}), ("hand", {}), ("score", {})):
            answer = await stand_in.slash("Ann", command, options)
            assert answer.ephemeral and "no game in this channel" in answer.text, command


async def test_a_private_menu_from_an_earlier_moment_is_refused_with_fresh_controls(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 7, options=USA)
        view = await play_until(
            players, game_id, lambda v: v.phase == "turn" and v.deck_size > 0, random.Random(7), look=public
        )
        person = people(stand_in, "Ann", "Ben")[view.current or 0]
        message = await players.turn_message(game_id)
        hand = (await stand_in.click(person, message, controls(message)["hand"]["custom_id"])).message
        assert hand is not None and [a.filename for a in hand.attachments] == ["hand.png"]
        await stand_in.click(person, message, controls(message)["act:draw:deck"]["custom_id"])
        menu = next((c for c in hand.walk_components() if c.get("type") == 3), None)
        assert menu is not None, "this deal lets the player claim a route at once"
        at = await stored_version(bot, game_id)
        stale = await stand_in.select(person, hand, menu["custom_id"], [menu["options"][0]["value"]])
        assert stale.ephemeral and "earlier turn" in stale.text
        assert stale.message is not None and "act:draw:deck" in controls(stale.message)
        stand_in.expire_interaction(hand)  # 15 minutes later: a fresh hand comes from the button again
        again = await stand_in.click(person, message, controls(message)["hand"]["custom_id"], force=True)
        assert again.ephemeral
        assert await stored_version(bot, game_id) == at


async def test_newgame_offers_the_map_and_variants_and_no_options_of_another_game(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        command = stand_in.command("newgame")
        ttr_map = command.option(GAME, "map")
        assert {c["value"] for c in ttr_map["choices"]} == {"usa", "europe"}
        for name in ("map", "open_doubles", "returned_tickets", "first_player", "longest_bonus"):
            assert 0 < len(command.option(GAME, name)["description"]) <= 100
        with pytest.raises(ImpossibleInteraction, match="has no option 'map'"):
            await stand_in.slash("Ann", "newgame dice", {"map": "europe"})  # Discord does not offer it
        lobby = await stand_in.slash("Ann", f"newgame {GAME}", {"map": "europe", "open_doubles": True})
        assert not lobby.ephemeral
        rules = lobby.message.text if lobby.message is not None else ""
        assert "Map: **Europe**" in rules and "Open double routes: **yes**" in rules
