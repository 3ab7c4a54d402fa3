"""The coach's advice in the card game: the hard player's move and one sentence why.

Where the search agrees with the normal player's reasoning, the sentence gives that reason (the colour the
tickets need, the robbery, the covered tickets); where it found something better, it gives the simulated odds.
"""

from __future__ import annotations

import random

from rules.cardgame.actions import CardGameAction, DrawCard, DrawTickets, KeepTickets, PlayGroup, PlayThree
from rules.cardgame.bot import hard, normal
from rules.cardgame.bot.hard import Rules
from rules.cardgame.cards import LOCOMOTIVE, N_COLORS, color_message
from rules.cardgame.plays import holder
from rules.cardgame.state import CardGameState
from rules.cardgame.tickets import ticket_message
from rules.engine import DEFAULT_BUDGET, Budget, CommonReason, Hint, IllegalAction, Message, Param


def hint(
    rules: Rules, state: CardGameState, seat: int, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> Hint[CardGameAction]:
    """What the hard player would do in `seat` now, and why, in one translatable sentence."""
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise IllegalAction(CommonReason.NOT_YOUR_TURN)
    searched = hard.search(rules, state, seat, legal, rng, budget)
    return Hint(action=searched.action, reason=reason(state, seat, searched))


def reason(state: CardGameState, seat: int, searched: hard.Searched) -> Message:
    """Why `searched.action` is the move: the heuristic's reason when it agrees, else the simulated odds."""
    action = searched.action
    odds: dict[str, Param] = {"percent": round(100 * searched.wins), "games": searched.games}
    if isinstance(action, KeepTickets):
        tickets: list[str | int | Message] = [ticket_message(t) for t in action.tickets]
        if not tickets:
            return _message("keep_none")
        return (
            _message("keep_searched", tickets=tickets, **odds) if searched.games else _message("keep", tickets=tickets)
        )
    if action != searched.normal:
        return _message("searched", action=action.describe(), **odds)
    deficit = normal.ticket_deficit(state, seat)
    hand = state.players[seat].hand
    missing = [max(0, deficit[c] - hand[c]) for c in range(N_COLORS)]
    if isinstance(action, PlayGroup):
        size = action.cards + action.locomotives
        victim = holder([p.yard for p in state.players], action.color, seat)
        color = color_message(action.color)
        if victim is not None:
            return _message("rob", cards=size, color=color, robbed=state.players[victim].yard[action.color])
        if deficit[action.color]:
            return _message("play_needed", cards=size, color=color, needed=deficit[action.color])
        return _message("play_safe", cards=size, color=color)
    if isinstance(action, PlayThree):
        return _message("play_three", colors=[color_message(c) for c in action.colors])
    if isinstance(action, DrawTickets):
        return _message("draw_tickets")
    if isinstance(action, DrawCard) and action.kind == LOCOMOTIVE:
        return _message("draw_locomotive", needed=sum(missing))
    if isinstance(action, DrawCard) and action.kind is not None:
        if missing[action.kind]:
            return _message("draw_needed", color=color_message(action.kind), needed=missing[action.kind])
        return _message("draw_pair", color=color_message(action.kind))
    return _message("draw_deck")


def _message(name: str, **params: Param) -> Message:
    """A `cardgame_hint.<name>` message."""
    return Message(key=f"cardgame_hint.{name}", params=params)
