"""Ticket to Ride: The Card Game on the engine contract: setup, and one handler per move kind in each phase."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import Any, ClassVar

from rules.cardgame import bot
from rules.cardgame.actions import (
    DRAW_TICKETS,
    CardGameAction,
    DrawCard,
    DrawTickets,
    KeepTickets,
    PlayGroup,
    PlayThree,
    draw_action,
    keep_action,
    parse_action,
)
from rules.cardgame.cards import COLORS, LOCOMOTIVE, LOCOMOTIVES, N_KINDS, PER_COLOR
from rules.cardgame.options import CardGameOptions
from rules.cardgame.plays import group_error, legal_plays, three_error
from rules.cardgame.reasons import CardGameReason
from rules.cardgame.scoring import game_result
from rules.cardgame.state import CardGameState, Phase, PlayerState
from rules.cardgame.table import FACE_UP, keep_drawn, keep_opening, offer_tickets, pick, play, reset_row
from rules.cardgame.tickets import load_data
from rules.cardgame.view import CardGameView, build_view
from rules.engine import (
    DEFAULT_BUDGET,
    OVER,
    Budget,
    Event,
    GameEngine,
    GameResult,
    Hint,
    IllegalAction,
    Level,
    Param,
    Seat,
    UndoReason,
    turned_up,
)
from rules.engine import Phase as Rules
from rules.rng import Rng

HAND_SIZE = 7
OPENING_TICKETS = 6

Outcome = tuple[CardGameState, list[Event]]


class CardGameEngine(GameEngine[CardGameState, CardGameAction, CardGameOptions]):
    """The rules of Ticket to Ride: The Card Game (R-CG-1 … R-CG-16), for 2 to 4 players."""

    game_id: ClassVar[str] = "ticket-to-ride-cards"
    options_model: ClassVar[type[CardGameOptions]] = CardGameOptions
    state_model: ClassVar[type[CardGameState]] = CardGameState
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def new_game(self, options: CardGameOptions, n_players: int, seed: int) -> CardGameState:
        """Deal the opening (R-CG-2, R-CG-3) and draw the first player (R-CG-4)."""
        if not self.min_players <= n_players <= self.max_players:
            raise ValueError(f"the card game takes 2 to 4 players, not {n_players}")
        generator, rng = Rng(seed=seed).next()
        deck = [kind for kind in range(len(COLORS)) for _ in range(PER_COLOR)]
        deck += [LOCOMOTIVE] * (LOCOMOTIVES - n_players)
        generator.shuffle(deck)
        hands = []
        for _ in range(n_players):
            hand = [0] * N_KINDS
            hand[LOCOMOTIVE] = 1
            for _ in range(HAND_SIZE):
                hand[deck.pop()] += 1
            hands.append(tuple(hand))
        face_up = [deck.pop() for _ in range(FACE_UP)]
        discard = [0] * N_KINDS
        face_up = reset_row(options, face_up, deck, discard, [])
        tickets = [ticket.id for ticket in load_data().tickets]
        generator.shuffle(tickets)
        players = tuple(
            PlayerState(hand=hand, offered=tuple(tickets[s * OPENING_TICKETS : (s + 1) * OPENING_TICKETS]))
            for s, hand in enumerate(hands)
        )
        first = generator.randrange(n_players)
        return CardGameState(
            options=options,
            n_players=n_players,
            rng=rng,
            deck=tuple(deck),
            face_up=tuple(face_up),
            discard=tuple(discard),
            ticket_deck=tuple(tickets[n_players * OPENING_TICKETS :]),
            players=players,
            current=first,
            first_player=first,
        )

    def phase(self, state: CardGameState) -> Rules[CardGameState, CardGameAction]:
        """Return the rules of the phase `state` is in."""
        return PHASES[state.phase]

    def view(self, state: CardGameState, seat: Seat | None) -> CardGameView:
        """Return what `seat` may see (`None`: the public view, nothing hidden in it)."""
        legal = self.legal_actions(state, seat) if seat is not None else []
        return build_view(state, seat, legal)

    def result(self, state: CardGameState) -> GameResult | None:
        """Final scores with a per-ticket and per-bonus breakdown, and the winners, once the game is over."""
        if state.phase is not Phase.OVER:
            return None
        return game_result(state)

    def public_turn(self, view: CardGameView) -> Seat | None:
        """The player to act, or None during the opening choice, which everyone makes at once."""
        return None if view.phase == "opening" else view.current

    def turn_marker(self, view: CardGameView) -> Hashable:
        """The engine's turn number (a play with its second card or its ticket choice is one turn)."""
        return view.turn

    def public_scores(self, view: CardGameView) -> tuple[int, ...]:
        """Points are public only at the scorings: each player's from the 4-player first scoring once it has
        happened, else 0."""
        points = {s.seat: s.points for s in view.first_scoring or []}
        return tuple(points.get(seat, 0) for seat in range(view.n_players))

    def parse_action(self, text: str) -> CardGameAction:
        """Read an action from its `encode()` text, or raise `IllegalAction(MALFORMED_ACTION)`."""
        return parse_action(text)

    def bot_action(
        self,
        state: CardGameState,
        seat: Seat,
        rng: random.Random,
        kind: str = Level.NORMAL,
        budget: Budget = DEFAULT_BUDGET,
    ) -> CardGameAction:
        """Choose a legal move for a bot of `kind` in `seat` (see `rules.cardgame.bot`)."""
        return bot.choose(self, state, seat, rng, kind, budget)

    def hint(
        self, state: CardGameState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET
    ) -> Hint[CardGameAction]:
        """What the hard player would do in `seat` now, and why."""
        return bot.hint(self, state, seat, rng, budget)

    def undo_refusal(self, before: CardGameState, seat: Seat, action: CardGameAction) -> UndoReason | None:
        """A blind card or drawn tickets were seen by the mover; a face-up card replaced from the deck, a shuffle
        (opening tickets shuffled back, a new deck dealt), by everyone."""
        revealed = action.revealed()
        if revealed is not None:
            return revealed
        after, _ = self.apply(before, seat, action)
        return UndoReason.TURNED_UP if turned_up(before, after, ("deck", "ticket_deck")) else None


# Who acts ----------------------------------------------------------------------------------------------------


def _choosing_opening(state: CardGameState) -> frozenset[Seat]:
    """Every seat still choosing its opening tickets (R-CG-3: they choose at the same time)."""
    return frozenset(s for s, p in enumerate(state.players) if not p.chose_opening)


def _current(state: CardGameState) -> frozenset[Seat]:
    """The player whose turn it is."""
    return frozenset((state.current,))


# Legal moves, in a stable order ------------------------------------------------------------------------------


def _keeps(offered: Sequence[int], smallest: int) -> list[CardGameAction]:
    """Every choice of the offered tickets keeping at least `smallest`, larger choices first."""
    return [
        keep_action(tuple(sorted(kept)))
        for size in range(len(offered), smallest - 1, -1)
        for kept in combinations(offered, size)
    ]


def _opening_moves(state: CardGameState, seat: Seat) -> list[CardGameAction]:
    """Keep at least 1 of the 6 tickets dealt (R-CG-3)."""
    return _keeps(state.players[seat].offered, 1)


def _draws(state: CardGameState, second: bool) -> list[CardGameAction]:
    """The deck's top card, then each face-up kind (no face-up locomotive as a second pick); none off an empty deck."""
    if not state.deck:
        return []
    face_up = sorted(set(state.face_up))
    return [draw_action(None), *(draw_action(k) for k in face_up if not (second and k == LOCOMOTIVE))]


def _turn_moves(state: CardGameState, seat: Seat) -> list[CardGameAction]:
    """Step 2 (R-CG-6): draws, then plays (robberies included), then a ticket draw."""
    actions = _draws(state, second=False)
    actions.extend(legal_plays(state.players[seat].hand, [p.yard for p in state.players], seat))
    if state.ticket_deck:
        actions.append(DRAW_TICKETS)
    return actions


def _second_pick_moves(state: CardGameState, seat: Seat) -> list[CardGameAction]:
    """The second card of a draw (R-CG-7)."""
    return _draws(state, second=True)


def _ticket_moves(state: CardGameState, seat: Seat) -> list[CardGameAction]:
    """Keep any of the drawn tickets, none included (R-CG-10)."""
    return _keeps(state.players[seat].offered, 0)


# Handlers: each gets a move of its kind from a seat allowed to act ---------------------------------------------


def _keep_opening(state: CardGameState, seat: Seat, action: KeepTickets) -> Outcome:
    """Opening choice (R-CG-3): keep at least one, shuffle the rest back; play starts once all have chosen."""
    events: list[Event] = []
    return keep_opening(state, seat, _checked_keep(state, seat, action, at_least=1), events), events


def _keep_drawn(state: CardGameState, seat: Seat, action: KeepTickets) -> Outcome:
    """Turn choice (R-CG-10): keep any, put the rest under the ticket deck, end the turn."""
    events: list[Event] = []
    return keep_drawn(state, seat, _checked_keep(state, seat, action, at_least=0), events), events


def _draw(state: CardGameState, seat: Seat, action: DrawCard) -> Outcome:
    """One pick of R-CG-7: a face-up locomotive ends the turn as two cards; an empty deck ends it early."""
    if not state.deck:
        raise IllegalAction(CardGameReason.DECK_EMPTY)
    if action.kind is not None:
        if action.kind not in state.face_up:
            raise IllegalAction(CardGameReason.NOT_FACE_UP)
        if state.phase is Phase.SECOND_PICK and action.kind == LOCOMOTIVE:
            raise IllegalAction(CardGameReason.FACE_UP_LOCOMOTIVE_SECOND_PICK)
    events: list[Event] = []
    return pick(state, seat, action.kind, events), events


def _play_group(state: CardGameState, seat: Seat, action: PlayGroup) -> Outcome:
    """A one-colour group to the yard (R-CG-8), robbing a smaller group of that colour (R-CG-9)."""
    _raise_if(group_error(state.players[seat].hand, [p.yard for p in state.players], seat, action))
    events: list[Event] = []
    return play(state, seat, (action.color,), action.cards, action.locomotives, events), events


def _play_three(state: CardGameState, seat: Seat, action: PlayThree) -> Outcome:
    """Three cards of three colours no yard holds (R-CG-8)."""
    _raise_if(three_error(state.players[seat].hand, [p.yard for p in state.players], seat, action))
    events: list[Event] = []
    return play(state, seat, action.colors, 3, 0, events), events


def _draw_tickets(state: CardGameState, seat: Seat, action: DrawTickets) -> Outcome:
    """Draw the top 4 tickets to choose from (R-CG-10)."""
    if not state.ticket_deck:
        raise IllegalAction(CardGameReason.TICKET_DECK_EMPTY)
    events: list[Event] = []
    return offer_tickets(state, seat, events), events


def _raise_if(error: tuple[CardGameReason, dict[str, Param]] | None) -> None:
    """Raise the play error found, if any."""
    if error is not None:
        reason, params = error
        raise IllegalAction(reason, **params)


def _checked_keep(state: CardGameState, seat: Seat, action: KeepTickets, at_least: int) -> tuple[int, ...]:
    """Validate a ticket choice against the offer; return the ids kept."""
    offered = state.players[seat].offered
    if any(t not in offered for t in action.tickets) or len(set(action.tickets)) != len(action.tickets):
        raise IllegalAction(CardGameReason.TICKET_NOT_OFFERED)
    if len(action.tickets) < at_least:
        raise IllegalAction(CardGameReason.MUST_KEEP_ONE)
    return action.tickets


PHASES: dict[Phase, Rules[CardGameState, Any]] = {
    Phase.OPENING: Rules(_choosing_opening, _opening_moves, {KeepTickets: _keep_opening}),
    Phase.TURN: Rules(
        _current,
        _turn_moves,
        {DrawCard: _draw, PlayGroup: _play_group, PlayThree: _play_three, DrawTickets: _draw_tickets},
    ),
    Phase.SECOND_PICK: Rules(_current, _second_pick_moves, {DrawCard: _draw}),
    Phase.TICKETS: Rules(_current, _ticket_moves, {KeepTickets: _keep_drawn}),
    Phase.OVER: OVER,
}
"""Each phase's rules: who acts, the legal moves, and the handler of each kind of move."""
