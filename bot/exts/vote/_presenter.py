"""How a vote reads in the channel: who asked what, who agreed so far, and how it ended; with its two buttons."""

from __future__ import annotations

import discord

from bot.i18n import escaped, text
from bot.services.consent import Vote
from bot.ui.components import button, view_of
from bot.ui.custom_ids import ComponentId

GAME = "vote"
"""The `game` part of a vote button's custom id (the vote's id is its argument)."""


def vote_text(language: str, vote: Vote) -> str:
    """The vote's message: the question (pinging the voters when asked), the tally, and the outcome once closed."""
    record = vote.record
    names = _names(vote)
    asker = names.get(record.user_id, "?")
    voters = ", ".join(f"<@{voter}>" for voter in vote.voters if voter != record.user_id)
    lines = [text(language, f"undo.ask.{record.kind}", player=asker, id=record.game_id, voters=voters)]
    listed = {yes: _listed(language, names, vote.count(yes)) for yes in (True, False)}
    if record.kind == "undo":
        waiting = [voter for voter in vote.voters if voter not in vote.ballots]
        lines.append(text(language, "undo.tally.undo", yes=listed[True], waiting=_listed(language, names, waiting)))
    else:
        lines.append(text(language, "undo.tally.vote", needed=vote.needed, yes=listed[True], no=listed[False]))
    if vote.outcome is not None:
        lines.append(_outcome(language, vote, names))
    return "\n".join(lines)


def vote_view(language: str, vote: Vote) -> discord.ui.View | None:
    """Agree and Refuse (Yes and No) while the vote is open; nothing once it is closed."""
    if vote.outcome is not None:
        return None
    words = ("agree", "refuse") if vote.record.kind == "undo" else ("yes", "no")
    styles = (discord.ButtonStyle.success, discord.ButtonStyle.danger)
    return view_of(
        [
            button(
                ComponentId(GAME, vote.record.game_id, vote.record.version, verb, str(vote.record.id)),
                text(language, f"undo.button.{word}"),
                style=style,
            )
            for verb, word, style in zip(("yes", "no"), words, styles, strict=True)
        ]
    )


def _outcome(language: str, vote: Vote, names: dict[int, str]) -> str:
    kind, outcome = vote.record.kind, vote.outcome
    if kind == "undo":
        refuser = next(iter(vote.count(False)), None)
        player = names.get(vote.record.user_id if outcome == "carried" else refuser or 0, "?")
        return text(language, f"undo.outcome.undo_{outcome}", player=player)
    return text(language, f"undo.outcome.{kind}_carried" if outcome == "carried" else f"undo.outcome.{outcome}")


def _names(vote: Vote) -> dict[int, str]:
    """User id → name as text, for the people in the game."""
    return {s.user_id: escaped(s.name) for s in vote.game.seats if s.user_id is not None}


def _listed(language: str, names: dict[int, str], people: list[int]) -> str:
    return ", ".join(names.get(p, "?") for p in people) or text(language, "undo.tally.nobody")
