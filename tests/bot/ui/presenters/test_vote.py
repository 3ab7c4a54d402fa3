"""The vote's presenter: a vote in, its text and buttons out, in both languages, without Discord."""

from __future__ import annotations

import pytest

from bot.exts.vote._presenter import vote_text, vote_view
from bot.i18n import text
from bot.services.consent import Vote
from bot.storage.votes import VoteKind, VoteRecord
from tests.bot.ui.presenters.support import GAME_ID, LANGUAGES, VERSION, controls, record, russian, user_id

VOTE_ID = 31


def vote(kind: VoteKind, ballots: dict[int, bool]) -> Vote:
    """Ann's vote of `kind` in a game of Ann, Ben and Cleo (and a bot player, who never votes)."""
    asked = VoteRecord(VOTE_ID, GAME_ID, kind, user_id(0), None, VERSION)
    return Vote(asked, record("dice", 4, bots=frozenset({3})), 0.0, {user_id(0): True, **ballots})


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_undo_asks_the_others_and_says_who_agreed_and_who_is_awaited(language: str) -> None:
    asked = vote("undo", {user_id(1): True})
    lines = vote_text(language, asked).splitlines()
    voters = f"<@{user_id(1)}>, <@{user_id(2)}>"
    assert lines[0] == text(language, "undo.ask.undo", player="Ann", id=GAME_ID, voters=voters)
    assert lines[1] == text(language, "undo.tally.undo", yes="Ben", waiting="Cleo")
    assert len(lines) == 2 and russian(lines[0]) is (language == "ru")
    agree, refuse = controls(vote_view(language, asked))
    assert agree.custom_id == f"vote:{GAME_ID}:{VERSION}:yes:{VOTE_ID}"
    assert refuse.custom_id == f"vote:{GAME_ID}:{VERSION}:no:{VOTE_ID}"
    assert (agree.label, refuse.label) == (text(language, "undo.button.agree"), text(language, "undo.button.refuse"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_pause_vote_counts_everyone_and_says_how_many_yes_carry_it(language: str) -> None:
    asked = vote("pause", {user_id(2): False})
    lines = vote_text(language, asked).splitlines()
    assert lines[1] == text(language, "undo.tally.vote", needed=2, yes="Ann", no="Cleo")
    yes, no = controls(vote_view(language, asked))
    assert (yes.label, no.label) == (text(language, "undo.button.yes"), text(language, "undo.button.no"))


def test_a_refused_undo_names_who_refused_and_loses_its_buttons() -> None:
    asked = vote("undo", {user_id(2): False})
    asked.outcome = asked.decided()
    assert asked.outcome == "refused"
    assert vote_text("en", asked).splitlines()[-1] == "❌ Cleo refused: the move stands."
    assert vote_view("en", asked) is None


def test_a_carried_end_vote_says_the_game_ended() -> None:
    asked = vote("end", {user_id(1): True})
    asked.outcome = asked.decided()
    assert vote_text("ru", asked).splitlines()[-1] == text("ru", "undo.outcome.end_carried")
    assert vote_text("en", asked).splitlines()[1] == "It carries with 2 yes votes. Yes: Ann, Ben. No: nobody."
