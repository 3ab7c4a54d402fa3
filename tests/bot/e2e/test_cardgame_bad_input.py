"""The card game's bad input through the local Discord: each gets a private, specific answer and changes nothing.

Plays the menus never offer (a colour already in one's yard, too few to rob, a locomotive among three colours,
three colours with one in another yard) are forced through the menus, as a tampered client could.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from pydantic import BaseModel

from bot.sandbox.table import ScriptedTable, bot_policy
from localdiscord import InteractionOutcome, LocalDiscord, RecordedMessage
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.cards import COLORS, KIND_NAMES, LOCOMOTIVE
from rules.engine import GameEngine
from tests.bot.e2e.helpers import Running, controls, people, play_until, playing, stored_version

GAME = "ticket-to-ride-cards"
ENGINE = CardGameEngine()


def refused(answers: list[tuple[InteractionOutcome, str]]) -> None:
    """Each answer is private and says what it should."""
    for answer, words in answers:
        assert answer.ephemeral, answer.text
        assert words in answer.text, answer.text


async def act_menu(
    stand_in: LocalDiscord, players: ScriptedTable, game_id: int, person: str, colour: str
) -> RecordedMessage:
    """Open My hand and pick a colour; return the private message with that colour's plays."""
    message = await players.turn_message(game_id)
    hand = (await stand_in.click(person, message, controls(message)["hand"]["custom_id"])).message
    assert hand is not None
    answer = await stand_in.select(person, hand, controls(hand)["color"]["custom_id"], [colour])
    assert answer.message is not None
    return answer.message


def keeper(engine: GameEngine[Any, Any, Any], now: BaseModel, seat: int, rng: random.Random) -> str:
    """Seat 0 keeps a big hand: it draws blind until it holds 12 cards, then plays only pairs of colours it holds
    3 or more of (so that colour stays in hand and in its yard); everyone else plays as the bot player."""
    assert isinstance(now, CardGameState)
    legal = [a.encode() for a in engine.legal_actions(now, seat)]
    if seat != 0 or now.phase not in ("turn", "second_pick"):
        return bot_policy(engine, now, seat, rng)
    hand = now.players[0].hand
    if sum(hand) < 12 and "draw:deck" in legal:
        return "draw:deck"
    pairs = [a for a in legal if a.startswith("play:") and a.endswith(":2:0") and hand[COLORS.index(a[5:-4])] >= 3]
    if pairs:
        return pairs[0]
    return "draw:deck" if "draw:deck" in legal else bot_policy(engine, now, seat, rng)


def a_legal_colour(now: CardGameState) -> str | None:
    """A colour the player to act can play as a group now, in few enough ways for one menu of plays."""
    codes = [a.encode() for a in ENGINE.legal_actions(now, now.current) if a.encode().startswith("play:")]
    colours = [code.split(":")[1] for code in codes]
    return next((c for c in colours if colours.count(c) <= 25), None)


async def test_out_of_turn_outsiders_double_and_simultaneous_clicks(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 1)
        now = await play_until(players, game_id, lambda s: s.phase == "turn" and len(s.deck) > 4, random.Random(1))
        message = await players.turn_message(game_id)
        at = await stored_version(bot, game_id)
        waiting = people(stand_in, "Ann", "Ben")[1 - now.current]
        deck = controls(message)["act:draw:deck"]["custom_id"]
        answers = [
            (await stand_in.click(waiting, message, deck), "not your turn"),
            (await stand_in.click("Eve", message, deck), "not playing"),
            (await stand_in.click("Eve", message, controls(message)["hand"]["custom_id"]), "not playing"),
            (await stand_in.slash("Eve", "draw", {"card": "deck"}), "not playing"),
            (await stand_in.slash("Eve", "hand"), "not playing"),
        ]
        refused(answers)
        assert await stored_version(bot, game_id) == at

        person = people(stand_in, "Ann", "Ben")[now.current]
        logged = len(await bot.service.store.actions(game_id))
        both = await asyncio.gather(*(stand_in.click(person, message, deck) for _ in range(2)))
        stale = [o for o in both if "earlier turn" in o.text]
        assert len(stale) == 1 and stale[0].ephemeral
        assert stale[0].message is not None and "act:draw:deck" in controls(stale[0].message), "fresh controls"
        assert await stored_version(bot, game_id) == at + 1

        message = await players.turn_message(game_id)  # the second card of the same turn
        face_up = [k for k, c in controls(message).items() if k.startswith("take:") and not c.get("disabled")]
        pair = [controls(message)["act:draw:deck"]["custom_id"], controls(message)[face_up[0]]["custom_id"]]
        outcomes = await asyncio.gather(*(stand_in.click(person, message, cid) for cid in pair))
        assert sum("earlier turn" in o.text for o in outcomes) == 1
        assert await stored_version(bot, game_id) == at + 2
        assert len(await bot.service.store.actions(game_id)) == logged + 2


async def test_a_face_up_locomotive_cannot_be_the_second_card(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 3)
        now = await play_until(
            players,
            game_id,
            lambda s: s.phase == "turn" and LOCOMOTIVE in s.face_up and len(s.deck) > 2,
            random.Random(3),
        )
        person = people(stand_in, "Ann", "Ben")[now.current]
        message = await players.turn_message(game_id)
        await stand_in.click(person, message, controls(message)["act:draw:deck"]["custom_id"])
        message = await players.turn_message(game_id)
        at = await stored_version(bot, game_id)
        locomotive = next(c for k, c in controls(message).items() if k.endswith(":locomotive"))
        assert locomotive.get("disabled"), "the face-up locomotive is not offered as the second card"
        assert controls(message)["act:tickets"].get("disabled"), "no tickets in the middle of drawing"
        typed = await stand_in.slash(person, "draw", {"card": "locomotive"})
        forced = await stand_in.click(person, message, locomotive["custom_id"], force=True)
        tickets = await stand_in.slash(person, "tickets")
        words = "can only be your first card"
        refused([(typed, words), (forced, words), (tickets, "not possible right now")])
        assert await stored_version(bot, game_id) == at


async def test_plays_the_menus_never_offer_are_refused_with_the_rule_they_break(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 2)
        players.policy = keeper
        rng = random.Random(2)

        def own_colour_playable(now: CardGameState) -> bool:
            me = now.players[now.current]
            return (
                now.phase == "turn"
                and a_legal_colour(now) is not None
                and any(me.yard[c] and me.hand[c] and me.hand[c] + me.hand[LOCOMOTIVE] >= 2 for c in range(8))
            )

        now = await play_until(players, game_id, own_colour_playable, rng)
        me = now.players[now.current]
        person = people(stand_in, "Ann", "Ben")[now.current]
        own = next(c for c in range(8) if me.yard[c] and me.hand[c] and me.hand[c] + me.hand[LOCOMOTIVE] >= 2)
        natural = min(2, me.hand[own])
        menu = await act_menu(stand_in, players, game_id, person.name, a_legal_colour(now) or "")
        at = await stored_version(bot, game_id)
        plays = controls(menu)["act"]["custom_id"]
        refused(
            [
                (
                    await stand_in.select(
                        person, menu, plays, [f"play:{COLORS[own]}:{natural}:{2 - natural}"], force=True
                    ),
                    f"Your Rail Yard already holds {COLORS[own]}",
                ),
                (
                    await stand_in.select(person, menu, plays, ["play3:red,blue,locomotive"], force=True),
                    "cannot include locomotives",
                ),
            ]
        )
        assert await stored_version(bot, game_id) == at

        def robbery_too_small(now: CardGameState) -> bool:
            me, other = now.players[now.current], now.players[1 - now.current]
            free = [c for c in range(8) if me.hand[c] and not me.yard[c] and not other.yard[c]]
            return (
                now.phase == "turn"
                and a_legal_colour(now) is not None
                and len(free) >= 2
                and any(other.yard[c] >= 2 and me.hand[c] and me.hand[c] + me.hand[LOCOMOTIVE] >= 2 for c in range(8))
            )

        now = await play_until(players, game_id, robbery_too_small, rng)
        me, other = now.players[now.current], now.players[1 - now.current]
        person = people(stand_in, "Ann", "Ben")[now.current]
        robbed = next(
            c for c in range(8) if other.yard[c] >= 2 and me.hand[c] and me.hand[c] + me.hand[LOCOMOTIVE] >= 2
        )
        natural = min(2, me.hand[robbed])
        free = [COLORS[c] for c in range(8) if me.hand[c] and not me.yard[c] and not other.yard[c]][:2]
        menu = await act_menu(stand_in, players, game_id, person.name, a_legal_colour(now) or "")
        at = await stored_version(bot, game_id)
        plays = controls(menu)["act"]["custom_id"]
        three = ",".join(sorted([COLORS[robbed], *free], key=COLORS.index))
        refused(
            [
                (
                    await stand_in.select(
                        person, menu, plays, [f"play:{COLORS[robbed]}:{natural}:{2 - natural}"], force=True
                    ),
                    f"to rob it you need at least {other.yard[robbed] + 1} cards",
                ),
                (
                    await stand_in.select(person, menu, plays, [f"play3:{three}"], force=True),
                    "lies in another player's yard",
                ),
            ]
        )
        assert await stored_version(bot, game_id) == at


@pytest.mark.slow
async def test_an_empty_deck_gives_no_cards_and_the_buttons_say_so(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 4)
        now = await play_until(
            players, game_id, lambda s: s.phase == "turn" and not s.deck and bool(s.last_turns_left), random.Random(4)
        )
        person = people(stand_in, "Ann", "Ben")[now.current]
        message = await players.turn_message(game_id)
        deck = controls(message)["act:draw:deck"]
        assert deck.get("disabled") and deck["label"] == "Deck empty"
        assert all(c.get("disabled") for k, c in controls(message).items() if k.startswith("take:"))
        assert "Last round" in message.text
        at = await stored_version(bot, game_id)
        answers = [
            (await stand_in.slash(person, "draw", {"card": "deck"}), "The deck is empty"),
            (await stand_in.click(person, message, deck["custom_id"], force=True), "The deck is empty"),
        ]
        if now.face_up:
            colour = KIND_NAMES[now.face_up[0]]
            answers.append((await stand_in.slash(person, "draw", {"card": colour}), "The deck is empty"))
        refused(answers)
        assert await stored_version(bot, game_id) == at


async def test_a_private_menu_from_an_earlier_moment_is_refused_with_fresh_controls(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 6)
        now = await play_until(
            players,
            game_id,
            lambda s: s.phase == "turn" and len(s.deck) > 2 and a_legal_colour(s) is not None,
            random.Random(6),
        )
        person = people(stand_in, "Ann", "Ben")[now.current]
        message = await players.turn_message(game_id)
        hand = (await stand_in.click(person, message, controls(message)["hand"]["custom_id"])).message
        assert hand is not None
        await stand_in.click(person, message, controls(message)["act:draw:deck"]["custom_id"])
        at = await stored_version(bot, game_id)
        colour = controls(hand)["color"]
        stale = await stand_in.select(person, hand, colour["custom_id"], [colour["options"][0]["value"]])
        assert stale.ephemeral and "earlier turn" in stale.text
        assert stale.message is not None and "act:draw:deck" in controls(stale.message), "the turn's buttons"
        stand_in.expire_interaction(hand)  # 15 minutes later: a fresh hand comes from the button again
        again = await stand_in.click(person, message, controls(message)["hand"]["custom_id"], force=True)
        assert again.ephemeral and again.message is not None and again.message.id != hand.id
        assert await stored_version(bot, game_id) == at


async def test_lobby_refusals_and_commands_where_no_card_game_is_played(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running():
        lobby = (await stand_in.slash("Ann", f"newgame {GAME}")).message
        assert lobby is not None
        early = await stand_in.click("Ann", lobby, lobby.custom_id("Start"))
        assert early.ephemeral and "At least 2 players" in early.text
        not_started = await stand_in.slash("Ann", "score")
        assert not_started.ephemeral and "has not started" in not_started.text
        for name in ("Ben", "Cat", "Dan"):
            await stand_in.click(name, stand_in.message(lobby.id), stand_in.message(lobby.id).custom_id("Join"))
        full = await stand_in.click("Eve", lobby.id, lobby.custom_id("Join"), force=True)  # a client not yet updated
        assert full.ephemeral and "full (4 players)" in full.text
        for command, options in (("draw", {"card": "deck"}), ("hand", {}), ("board", {}), ("score", {})):
            answer = await stand_in.slash("Eve", command, options, channel="general")
            assert answer.ephemeral and "no game in this channel" in answer.text, command
            pointed = await stand_in.slash("Ann", command, options, channel="general")
            assert pointed.ephemeral and "use the command there" in pointed.text, command
