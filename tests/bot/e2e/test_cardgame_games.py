"""Ticket to Ride: The Card Game end to end through the local Discord: a 4-player game through both decks with a
restart in the middle, the simultaneous private opening, the play menus (robbery, three colours, more plays than
a menu holds), tickets kept or not, the slash commands, and a scan of everything public for what was private."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from bot.app import Conductor
from bot.exts.cardgame._private import ticket_words
from bot.i18n import render
from bot.sandbox.table import add_bot, bot_policy
from localdiscord import LocalDiscord
from rules.cardgame import CardGameEngine, CardGameState
from rules.cardgame.actions import PlayGroup
from rules.cardgame.cards import KIND_NAMES, LOCOMOTIVE
from rules.cardgame.view import CardGameView, ticket_view
from rules.engine import GameEngine
from tests.bot.e2e.helpers import (
    Running,
    assert_private_pictures_only_to_players,
    controls,
    final_with_chart,
    fix_seed,
    people,
    play_until,
    playing,
    public_words,
    revisions,
    state,
    stored,
    stored_version,
    table,
    verbs,
    walk,
)

GAME = "ticket-to-ride-cards"
ENGINE = CardGameEngine()
PUBLIC_FILES = {"table.png", "first-scoring.png", "scores.png", "score-detail.png"}


def view(bot: Conductor, game_id: int, seat: int | None = None) -> CardGameView:
    """The running game as a seat (or, with None, everyone) sees it."""
    found = bot.service.view(game_id, seat)
    assert isinstance(found, CardGameView)
    return found


async def assert_nothing_private_in_public(stand_in: LocalDiscord, bot: Conductor, game_id: int) -> None:
    """Replay the finished game's log: no public message may show a private event's words, a ticket before it
    is revealed (at the first scoring for those completed then, at the end for all), a private picture or a
    ticket menu; private pictures go only to the players, ephemerally."""
    record = await stored(bot, game_id)
    assert record.status == "finished"
    options = ENGINE.load_options(record.options)
    now = ENGINE.new_game(options, len(record.seats), record.seed)
    names = {s.seat: s.display_name for s in record.seats}
    held = {t for p in now.players for t in p.offered}
    private: set[str] = set()
    revealed_first: set[int] = set()
    for seat, action in await bot.service.store.actions(game_id):
        now, events = ENGINE.apply(now, seat, ENGINE.parse_action(action))
        held |= {t for p in now.players for t in (*p.offered, *p.tickets)}
        private |= {render(lang, e, names) for e in events if e.to is not None for lang in ("en", "ru")}
        if now.first_scoring is not None and not revealed_first:
            revealed_first = {s.ticket for r in now.first_scoring for s in r.completed}
    words = {t: {ticket_words(lang, ticket_view(t)) for lang in ("en", "ru")} for t in held}
    assert len(private) > 20 and len(held) > 10, "the scan must have secrets to look for"
    messages = stand_in.channel_messages()
    final = messages[-1]
    assert "scores.png" in [a.filename for a in final.attachments]
    first = next((m for m in messages if "first-scoring.png" in [a.filename for a in m.attachments]), None)
    scanned = 0
    for message in messages:
        if message is final:
            continue
        shown_before_first = first is None or message.id < first.id
        secret = {w for t, ws in words.items() if shown_before_first or t not in revealed_first for w in ws}
        for revision in revisions(message):
            text = public_words(revision)
            scanned += 1
            assert not [p for p in private if p in text], text
            assert not [w for w in secret if w in text], text
            assert {a.filename for a in revision.attachments} <= PUBLIC_FILES
            assert "keep" not in verbs(revision)
    assert scanned > 60
    assert_private_pictures_only_to_players(stand_in, record, {"hand.png"})


@pytest.mark.slow
async def test_four_players_through_both_decks_with_a_restart_in_the_middle_and_nothing_private_in_public(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        fix_seed(bot, 11)
        players = table(stand_in, bot, "Ann", "Ben", "Cat")
        record = await players.open(GAME, bots=1)
        rng = random.Random(1)
        for _ in range(40):
            await players.play_move(record.id, rng)
        before = await players.turn_message(record.id)
        at = await stored_version(bot, record.id)
        assert state(bot, record.id).deck_number == 1

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
    assert replayed.deck_number == 2 and replayed.first_scoring is not None
    messages = stand_in.channel_messages()
    first = [m for m in messages if [a.filename for a in m.attachments] == ["first-scoring.png", "score-detail.png"]]
    assert len(first) == 1 and "first scoring" in first[0].text.lower()
    assert any("Deck 2 of 2" in r.text for m in messages[-5:-1] for r in revisions(m))
    assert final.id == messages[-1].id
    assert [a.filename for a in final.attachments] == ["scores.png", "table.png", "score-detail.png", "score-chart.png"]
    assert [b["custom_id"] for b in final.buttons()] == [f"lobby:{record.id}:{finished.version}:rematch"]
    assert all(a.data.startswith(b"\x89PNG") for a in final.attachments)
    result = ENGINE.result(replayed)
    assert result is not None
    winners = [finished.seats[s].display_name for s in result.winners]
    assert all(name in final.text for name in winners)
    assert all(seat.display_name in final.text for seat in finished.seats), "each player's score"
    transcript = stand_in.transcript()
    turns = [m for m in messages if "Turn " in m.text and m.v2]
    pictured = [m for m in turns if m.attachments]
    assert 10 < len(pictured) < len(turns), "a turn shows the table when it changed, not after cards were drawn"
    assert "moves one card of each colour from the Rail Yard to the Train Stack" in transcript, "step 1 is told"


async def test_the_opening_choice_is_simultaneous_private_and_play_waits_for_everyone(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        ann, ben = people(stand_in, "Ann", "Ben")
        lobby = (await stand_in.slash(ann, f"newgame {GAME}")).message
        assert lobby is not None
        await stand_in.click(ben, lobby, lobby.custom_id("Join"))
        await add_bot(stand_in, ann, lobby.id)
        await stand_in.click(ann, stand_in.message(lobby.id), stand_in.message(lobby.id).custom_id("Start"))
        record = await bot.service.game_in_channel(lobby.channel_id)
        opening = await stand_in.wait_for_message(lambda m: "opening tickets" in m.text, after=lobby)
        assert [a.filename for a in opening.attachments] == ["table.png"]
        await stand_in.wait_for(
            lambda: "✅ 🤖" in stand_in.message(opening.id).text or None, what="the bot player's choice"
        )
        assert "⏳ Ann" in stand_in.message(opening.id).text
        assert f"<@{ben.id}>" in stand_in.message(opening.id).text

        hosts = [m for m in stand_in.ephemerals(ann) if any(a.filename == "hand.png" for a in m.attachments)]
        assert len(hosts) == 1, "the host is handed their choice at once"
        current = stand_in.message(opening.id)
        answer = await stand_in.click(ben, current, current.custom_id("Choose my tickets"))
        choice = answer.message
        assert choice is not None and answer.ephemeral and [a.filename for a in choice.attachments] == ["hand.png"]
        keep = controls(choice)["keep"]
        assert keep["min_values"] == 1 and keep["max_values"] == 6 and len(keep["options"]) == 6
        assert "at least 1 of these 6" in choice.text
        values = [o["value"] for o in keep["options"]]
        at = await stored_version(bot, record.id)
        none = await stand_in.select(ben, choice, keep["custom_id"], [], force=True)
        assert none.ephemeral and "Keep at least one ticket" in none.text
        foreign = next(str(t) for t in range(1, 47) if str(t) not in values)
        forged = await stand_in.select(ben, choice, keep["custom_id"], [foreign], force=True)
        assert forged.ephemeral and "only keep tickets you were offered" in forged.text
        assert await stored_version(bot, record.id) == at

        kept = await stand_in.select(ben, choice, keep["custom_id"], values[:2])
        assert "You kept" in kept.text
        await stand_in.wait_for(lambda: "✅ Ben" in stand_in.message(opening.id).text or None)
        assert await bot.shown.message(record.id, "turn") is None, "play waits for everyone"

        host_keep = controls(hosts[0])["keep"]
        await stand_in.select(ann, hosts[0], host_keep["custom_id"], [o["value"] for o in host_keep["options"]])
        # the first person's turn (turn 1, or turn 2 when the bot player starts: its turn is told there)
        first = await stand_in.wait_for_message(lambda m: m.text.startswith("### Turn "), after=opening)
        assert first.attachments[0].filename == "table.png"
        assert stand_in.message(opening.id).buttons() == [], "the opening message loses its button"
        assert "Everyone has chosen" in stand_in.message(opening.id).text
        assert "Ann keeps 6 tickets and returns 0" in stand_in.message(first.id).text


class Hoarder:
    """Seat 0 draws blind until one colour has more ways to play than a menu holds, then plays its biggest group
    with locomotives in it; later plays three colours once and draws tickets keeping none once; otherwise, and
    for everyone else, plays as the bot player."""

    def __init__(self) -> None:
        self.done: set[str] = set()

    def __call__(self, engine: GameEngine[Any, Any, Any], now: BaseModel, seat: int, rng: random.Random) -> str:
        assert isinstance(now, CardGameState)
        if seat != 0 or now.phase == "opening":
            return bot_policy(engine, now, seat, rng)
        legal = [a.encode() for a in engine.legal_actions(now, seat)]
        if now.phase == "tickets":
            self.done.add("keep:none")
            return "keep:none"
        if "big" not in self.done:
            for colour in KIND_NAMES[:LOCOMOTIVE]:
                plays = [a for a in legal if a.startswith(f"play:{colour}:")]
                if len(plays) > 25:
                    self.done.add("big")
                    return max(plays, key=lambda a: (sum(map(int, a.split(":")[2:])), int(a.split(":")[3])))
            if "draw:deck" in legal:
                return "draw:deck"
        threes = [a for a in legal if a.startswith("play3:")]
        if threes and "three" not in self.done:
            self.done.add("three")
            return threes[0]
        if "tickets" in legal and "keep:none" not in self.done and now.phase == "turn":
            return "tickets"
        return bot_policy(engine, now, seat, rng)


async def test_plays_through_the_menus_colour_size_locomotives_three_colours_and_keeping_no_ticket(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 7)
        policy = Hoarder()
        players.policy = policy
        rng = random.Random(7)
        for _ in range(150):
            await players.play_move(game_id, rng)
            if {"big", "three", "keep:none"} <= policy.done:
                break
        assert {"big", "three", "keep:none"} <= policy.done
        log = [a for seat, a in await bot.service.store.actions(game_id) if seat == 0]
    big = next(a for a in log if a.startswith("play:") and sum(map(int, a.split(":")[2:])) >= 6)
    assert int(big.split(":")[3]) > 0, "a group with locomotives, chosen by size and then locomotives"
    assert any(a.startswith("play3:") for a in log) and "keep:none" in log
    ann = [m for m in stand_in.messages if m.ephemeral and m.recipient_id == stand_in.user("Ann").id]
    menus = [c for m in ann for r in revisions(m) for c in walk(r)]  # the hands played from included: taken away
    assert any(c["custom_id"].split(":")[3] == "size" for c in menus), "more plays than a menu holds: size first"
    three = next(c for c in menus if c["custom_id"].split(":")[3] == "three")
    assert three["min_values"] == three["max_values"] == 3
    assert "Ann keeps 0 tickets and returns" in stand_in.transcript()


async def test_the_play_menu_says_whom_each_play_robs(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 3)
        rng = random.Random(3)

        def can_rob(now: CardGameState) -> bool:
            mine = view(bot, game_id, now.current)
            return now.phase == "turn" and any(o.robs_seat is not None for o in mine.legal or [])

        now = await play_until(players, game_id, can_rob, rng)
        mine = view(bot, game_id, now.current)
        robbery = next(o for o in mine.legal or [] if o.robs_seat is not None)
        play = robbery.action
        assert isinstance(play, PlayGroup)
        colour = KIND_NAMES[play.color]
        person = people(stand_in, "Ann", "Ben")[now.current]
        victim = ("Ann", "Ben")[robbery.robs_seat or 0]
        message = await players.turn_message(game_id)
        hand = (await stand_in.click(person, message, controls(message)["hand"]["custom_id"])).message
        assert hand is not None and [a.filename for a in hand.attachments] == ["hand.png"]
        option = next(o for o in controls(hand)["color"]["options"] if o["value"] == colour)
        assert f"Robs {victim}'s {robbery.robs_cards}" in option["description"]
        answer = await stand_in.select(person, hand, controls(hand)["color"]["custom_id"], [colour])
        assert answer.message is not None and answer.message.id == hand.id, "the private message is edited"
        assert f"Train robbery! {victim}'s Rail Yard holds {robbery.robs_cards}" in answer.text
        menu = controls(answer.message).get("act")
        if menu is None:  # more ways than a menu holds: how many cards first, then locomotives
            menu = controls(answer.message)[f"size:{colour}"]
            size = str(play.cards + play.locomotives)
            answer = await stand_in.select(person, answer.message, menu["custom_id"], [size])
            menu = controls(answer.message)["act"]
        assert all(f"Robs {victim}" in o["description"] for o in menu["options"])
        at = await stored_version(bot, game_id)
        assert answer.message is not None
        await stand_in.select(person, answer.message, menu["custom_id"], [play.encode()])
        await players.wait_for_version_after(game_id, at)
        assert f"Train robbery! {victim} loses their" in stand_in.transcript()


async def test_commands_answer_for_the_game_of_their_channel(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Dan"), 5)
        now = state(bot, game_id)
        person = people(stand_in, "Ann", "Dan")[now.current]
        board = await stand_in.slash(person, "board")
        assert board.ephemeral and [a.filename for a in board.message.attachments] == ["table.png"]  # type: ignore[union-attr]
        score = await stand_in.slash("Ann", "score")
        assert score.ephemeral and "Train Stack" in score.text and "Dan" in score.text
        russian = await stand_in.slash("Dan", "score")
        assert "Как идут дела" in russian.text and "Состав" in russian.text, "private words in one's language"
        hand = await stand_in.slash("Dan", "hand")
        assert hand.ephemeral and [a.filename for a in hand.message.attachments] == ["hand.png"]  # type: ignore[union-attr]
        assert "ход" in hand.text
        at = await stored_version(bot, game_id)
        drawn = await stand_in.slash(person, "draw", {"card": "deck"})
        assert drawn.ephemeral and drawn.text.startswith(("You drew:", "Вы взяли карту:")), "the card drawn blind"
        assert await stored_version(bot, game_id) == at + 1
        await players.wait_for_version_after(game_id, at)
        elsewhere = await stand_in.slash("Ann", "hand", channel="general")
        assert elsewhere.ephemeral and f"(game #{game_id}): use the command there" in elsewhere.text

        lobby = (await stand_in.slash("Cat", "newgame ticket-to-ride", channel="general")).message
        assert lobby is not None
        await add_bot(stand_in, stand_in.user("Cat"), lobby.id)
        await stand_in.click("Cat", stand_in.message(lobby.id), stand_in.message(lobby.id).custom_id("Start"))
        other = await stand_in.slash("Cat", "hand", channel="general")
        assert other.ephemeral and other.message is not None
        assert [a.filename for a in other.message.attachments] == ["tickets.png"], "Ticket to Ride's own hand"
        assert (await stand_in.slash("Cat", "hand")).text.startswith("You are not playing")


@pytest.mark.slow  # a whole game played through: the slow group, which CI runs
async def test_a_whole_game_leaves_no_private_message_that_only_repeats_the_public_line(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, GAME, ("Ann", "Ben"), 2)
        await players.play_to_the_end(game_id, seed=2)
        log = await bot.service.store.actions(game_id)
    public = {
        line.strip() for m in stand_in.messages if not m.ephemeral for r in revisions(m) for line in r.text.splitlines()
    }
    for name in ("Ann", "Ben"):
        for message in stand_in.ephemerals(name):
            lines = [line.strip() for line in message.text.splitlines() if line.strip()]
            if message.attachments or walk(message.revision()):
                continue  # a hand, a choice or a menu: asked for, and private
            assert not all(line in public for line in lines), f"{name} is told privately only what all see: {lines}"
    played = [a for _, a in log if a.startswith(("play:", "play3:"))]
    hands_used = [
        m for m in stand_in.messages if m.ephemeral and m.deleted and any("color" in verbs(r) for r in revisions(m))
    ]
    assert played and len(hands_used) == len(played), "each hand a play was made from is taken away, not repeated"
