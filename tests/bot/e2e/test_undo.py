"""Undo by consent end to end through the local Discord: a claim taken back with the other's consent (the turn shown
again, the mover claiming anew, the log marking the move, a restart replaying right), refused after a blind card or
drawn tickets, refused by a vote (and not asked again until the cooldown passes), lapsed when the other moves or when
it is left too long, the game's one open vote, never answered by its asker; a dice add taken back."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.app import Conductor
from bot.sandbox.table import ScriptedTable, bot_policy
from localdiscord import InteractionOutcome, LocalDiscord, LocalUser
from rules.engine import GameEngine
from rules.ttr import TicketToRideEngine
from rules.ttr.actions import Claim
from tests.bot.e2e.helpers import Running, people, playing, stored_version, table, verb_id

ENGINE = TicketToRideEngine()


def claim_to_undo(engine: GameEngine[Any, Any, Any], state: BaseModel, seat: int) -> str | None:
    """A claim this seat may make now and take back, if any."""
    for action in engine.legal_actions(state, seat):
        if isinstance(action, Claim) and engine.undo_refusal(state, seat, action) is None:
            return str(action.encode())
    return None


async def play(players: ScriptedTable, game_id: int, code: str) -> None:
    """The person to act makes the move `code` through the UI."""
    players.policy = lambda engine, state, seat, rng: code
    await players.play_move(game_id, random.Random(0))
    players.policy = bot_policy


@dataclass(frozen=True)
class Claimed:
    """A game just after a claim that may be taken back: who claimed what, from which state, and the other."""

    players: ScriptedTable
    game_id: int
    mover: LocalUser
    other: LocalUser
    code: str
    before: BaseModel
    version: int


async def claimed(stand_in: LocalDiscord, bot: Conductor) -> Claimed:
    """Ann and Ben past the opening; the first who can claims a route (one that may be taken back)."""
    players, game_id = await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), 4, options={"map": "usa"})
    mover, code, before = await claim_soon(players, game_id)
    other = next(p for p in people(stand_in, "Ann", "Ben") if p != mover)
    await play(players, game_id, code)
    return Claimed(players, game_id, mover, other, code, before, await stored_version(bot, game_id))


async def claim_soon(players: ScriptedTable, game_id: int) -> tuple[LocalUser, str, BaseModel]:
    """Draw until the person to act can claim; return them, the claim, and the state before it (not made yet)."""
    rng = random.Random(1)
    for _ in range(60):
        record = await players.settle(game_id)
        found = players.person_to_act(record)
        assert found is not None
        seat, person = found
        state = players.bot.service.state(game_id)
        code = claim_to_undo(ENGINE, state, seat)
        if code is not None:
            return person, code, state
        await players.play_move(game_id, rng)
    raise AssertionError("nobody could claim")


async def ask_undo(stand_in: LocalDiscord, person: LocalUser) -> InteractionOutcome:
    """/undo as `person`; the public request with its buttons."""
    asked = await stand_in.slash(person, "undo")
    assert not asked.ephemeral and asked.message is not None
    assert "asks to take back their last move" in asked.text
    return asked


async def action_rows(bot: Conductor, game_id: int) -> list[tuple[int, int, str, bool]]:
    """(seq, seat, action, taken back) of every stored action, taken back ones included."""
    rows = await bot.database.fetch(
        "SELECT seq, seat, action, undone_at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    return [(row["seq"], row["seat"], row["action"], row["undone_at"] is not None) for row in rows]


async def test_a_claim_taken_back_with_consent_is_played_again_and_replays_after_a_restart(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        claim = await claimed(stand_in, bot)
        players, game_id, mover, other = claim.players, claim.game_id, claim.mover, claim.other

        asked = await ask_undo(stand_in, mover)
        assert f"<@{other.id}>" in asked.text and len(asked.message.buttons()) == 2
        outsider = await stand_in.click("Eve", asked.message, verb_id(asked.message, "yes"))
        assert outsider.ephemeral and "not yours to answer" in outsider.text
        agreed = await stand_in.click(other, asked.message, verb_id(asked.message, "yes"))
        assert "the move is taken back" in agreed.message.text and agreed.message.buttons() == []

        assert await stored_version(bot, game_id) == claim.version + 1
        assert bot.service.state(game_id) == claim.before
        shown = await players.turn_message(game_id)  # the turn is shown again, with the controls of now
        assert shown.buttons() and "The last move was taken back by consent" in shown.text
        assert players.person_to_act(await players.settle(game_id)) == (min(ENGINE.to_act(claim.before)), mover)
        rows = await action_rows(bot, game_id)
        assert rows[-1][2:] == (claim.code, True) and not any(undone for *_, undone in rows[:-1])
        assert (rows[-1][1], claim.code) not in (await bot.service.store.actions(game_id))[-1:]

        await play(players, game_id, claim.code)  # the mover claims again
        rows = await action_rows(bot, game_id)
        assert rows[-1] == (rows[-2][0] + 1, rows[-2][1], claim.code, False)
        state = bot.service.state(game_id)

    async with running() as bot:  # the restart replays the live log: the same state, no snapshot mismatch
        await bot.service.snapshots_checked()
        assert bot.service.state(game_id) == state
        record = await bot.service.store.get(game_id)
        assert record is not None
        replayed = ENGINE.replay(
            ENGINE.load_options(record.options), 2, record.seed, await bot.service.store.actions(game_id)
        )
        assert replayed == state


async def test_no_undo_after_a_blind_card_or_drawn_tickets(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, "ticket-to-ride", ("Ann", "Ben"), 4, options={"map": "usa"})
        found = players.person_to_act(await players.settle(game_id))
        assert found is not None
        _, drawer = found
        await play(players, game_id, "draw:deck")
        at = await stored_version(bot, game_id)
        refused = await stand_in.slash(drawer, "undo")
        assert refused.ephemeral and "you saw cards nobody else has seen" in refused.text
        await play(players, game_id, "draw:deck")
        found = players.person_to_act(await players.settle(game_id))
        assert found is not None and found[1] != drawer
        await play(players, game_id, "tickets")
        refused = await stand_in.slash(found[1], "undo")
        assert refused.ephemeral and "you saw cards nobody else has seen" in refused.text
        assert not any(undone for *_, undone in await action_rows(bot, game_id))
        assert await stored_version(bot, game_id) == at + 2


async def test_a_refusal_keeps_the_move_and_a_move_by_the_other_lapses_the_request(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        claim = await claimed(stand_in, bot)
        asked = await ask_undo(stand_in, claim.mover)
        twice = await stand_in.slash(claim.mover, "undo")
        assert twice.ephemeral and "already open" in twice.text
        refused = await stand_in.click(claim.other, asked.message, verb_id(asked.message, "no"))
        assert f"{claim.other.name} refused: the move stands" in refused.message.text
        assert refused.message.buttons() == [] and await stored_version(bot, claim.game_id) == claim.version
        too_soon = await stand_in.slash(claim.mover, "undo")
        assert too_soon.ephemeral and "was refused or lapsed: you may ask again <t:" in too_soon.text

        cooldown = bot.settings.vote_cooldown_minutes * 60
        bot.clock = lambda: time.time() + cooldown + 1
        asked = await ask_undo(stand_in, claim.mover)  # asked again; the other moves instead of answering
        await claim.players.play_move(claim.game_id, random.Random(2))
        await stand_in.wait_for(
            lambda: "The request lapsed" in stand_in.message(asked.message.id).text, what="the request lapsed"
        )
        assert stand_in.message(asked.message.id).buttons() == []
        not_last = await stand_in.slash(claim.mover, "undo")
        assert not_last.ephemeral and "the last move is not yours" in not_last.text
        assert not any(undone for *_, undone in await action_rows(bot, claim.game_id))
        sql = "SELECT outcome FROM game_votes WHERE game_id = ? ORDER BY id"
        outcomes = await bot.database.fetch(sql, (claim.game_id,))
        assert [row["outcome"] for row in outcomes] == ["refused", "lapsed"]


async def test_an_open_request_is_the_games_one_vote_and_its_asker_cannot_answer_it(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        claim = await claimed(stand_in, bot)
        asked = await ask_undo(stand_in, claim.mover)
        vote = await stand_in.slash(claim.other, "vote pause")
        assert vote.ephemeral and vote.text == (
            f"A vote is already open in this game: {claim.mover.name} asks to take back their last move. Answer it"
            " with its buttons; one vote at a time."
        )
        own = await stand_in.click(claim.mover, asked.message, verb_id(asked.message, "yes"))
        assert own.ephemeral and "You asked for this vote" in own.text
        assert (
            stand_in.message(asked.message.id).buttons() and await stored_version(bot, claim.game_id) == claim.version
        )


async def test_a_request_left_too_long_lapses_when_answered(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        claim = await claimed(stand_in, bot)
        game_id, mover, other = claim.game_id, claim.mover, claim.other
        asked = await ask_undo(stand_in, mover)
        bot.clock = lambda: time.time() + 3600
        late = await stand_in.click(other, asked.message, verb_id(asked.message, "yes"))
        assert late.ephemeral and "This vote is over" in late.text
        assert not any(undone for *_, undone in await action_rows(bot, game_id))


async def test_a_dice_add_taken_back_when_the_others_are_bot_players(stand_in: LocalDiscord, running: Running) -> None:
    async with running() as bot:
        players = table(stand_in, bot, "Ann")
        record = await players.open("dice", bots=1)
        engine = bot.service.engine("dice")
        rng = random.Random(5)
        for _ in range(80):
            settled = await players.settle(record.id)
            found = players.person_to_act(settled)
            assert found is not None
            state = bot.service.state(record.id)
            adds = [a for a in engine.legal_actions(state, found[0]) if engine.undo_refusal(state, found[0], a) is None]
            if adds:
                break
            await players.play_move(record.id, rng)
        else:
            raise AssertionError("Ann never had an add to take back")
        await play(players, record.id, adds[0].encode())
        taken = await stand_in.slash("Ann", "undo")
        assert not taken.ephemeral and "the move is taken back" in taken.text and taken.message.buttons() == []
        await players.turn_message(record.id)
        assert bot.service.state(record.id) == state

        rolled = next(a for a in engine.legal_actions(state, found[0]) if a.encode() in ("roll", "stop"))
        await play(players, record.id, rolled.encode())
        if players.person_to_act(await players.settle(record.id)) is not None:
            refused = await stand_in.slash("Ann", "undo")
            assert refused.ephemeral and (
                "turned up what nobody had seen" in refused.text or "the last move is not yours" in refused.text
            )
