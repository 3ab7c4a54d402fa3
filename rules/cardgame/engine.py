"""Ticket to Ride: The Card Game on the engine contract: setup, validation, and the phase handlers."""

from __future__ import annotations

import random
from itertools import combinations
from typing import ClassVar

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
from rules.cardgame.table import FACE_UP, Table
from rules.cardgame.tickets import load_data
from rules.cardgame.view import CardGameView, build_view
from rules.engine import (
    DEFAULT_BUDGET,
    Budget,
    CommonReason,
    Event,
    GameEngine,
    GameResult,
    Hint,
    IllegalAction,
    Level,
    Param,
    Seat,
)
from rules.rng import Rng

HAND_SIZE = 7
OPENING_TICKETS = 6


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
        tickets = [ticket.id for ticket in load_data().tickets]
        generator.shuffle(tickets)
        players = tuple(
            PlayerState(hand=hand, offered=tuple(tickets[s * OPENING_TICKETS : (s + 1) * OPENING_TICKETS]))
            for s, hand in enumerate(hands)
        )
        first = generator.randrange(n_players)
        state = CardGameState(
            options=options,
            n_players=n_players,
            rng=rng,
            deck=tuple(deck),
            face_up=tuple(face_up),
            ticket_deck=tuple(tickets[n_players * OPENING_TICKETS :]),
            players=players,
            current=first,
            first_player=first,
        )
        table = Table(state)
        table.check_locomotive_reset()
        return table.freeze()

    def to_act(self, state: CardGameState) -> frozenset[Seat]:
        """Every seat still choosing opening tickets; otherwise the current player; nobody once over."""
        if state.phase is Phase.OPENING:
            return frozenset(s for s, p in enumerate(state.players) if not p.chose_opening)
        if state.phase is Phase.OVER:
            return frozenset()
        return frozenset((state.current,))

    def legal_actions(self, state: CardGameState, seat: Seat) -> list[CardGameAction]:
        """Every move `seat` may make now: draws, plays (robberies included), ticket draws or ticket choices."""
        if seat not in self.to_act(state):
            return []
        player = state.players[seat]
        if state.phase in (Phase.OPENING, Phase.TICKETS):
            smallest = 1 if state.phase is Phase.OPENING else 0
            return [
                keep_action(tuple(sorted(kept)))
                for size in range(len(player.offered), smallest - 1, -1)
                for kept in combinations(player.offered, size)
            ]
        actions: list[CardGameAction] = []
        if state.deck:
            actions.append(draw_action(None))
            second = state.phase is Phase.SECOND_PICK
            for kind in sorted(set(state.face_up)):
                if not (second and kind == LOCOMOTIVE):
                    actions.append(draw_action(kind))
        if state.phase is Phase.SECOND_PICK:
            return actions
        actions.extend(legal_plays(player.hand, [p.yard for p in state.players], seat))
        if state.ticket_deck:
            actions.append(DRAW_TICKETS)
        return actions

    def apply(self, state: CardGameState, seat: Seat, action: CardGameAction) -> tuple[CardGameState, list[Event]]:
        """Validate and apply one move; raise `IllegalAction` (state untouched) if the rules forbid it."""
        self._check_seat(state, seat)
        table = Table(state)
        if state.phase is Phase.OPENING:
            table.keep_opening(seat, self._checked_keep(state, seat, action, at_least=1))
        elif state.phase is Phase.TICKETS:
            table.keep_drawn(seat, self._checked_keep(state, seat, action, at_least=0))
        elif isinstance(action, DrawCard):
            self._draw(state, table, seat, action)
        elif state.phase is Phase.SECOND_PICK:
            raise IllegalAction(CommonReason.NOT_LEGAL_NOW)
        elif isinstance(action, PlayGroup):
            self._raise_if(group_error(state.players[seat].hand, [p.yard for p in state.players], seat, action))
            table.play(seat, (action.color,), action.cards, action.locomotives)
            table.end_turn()
        elif isinstance(action, PlayThree):
            self._raise_if(three_error(state.players[seat].hand, [p.yard for p in state.players], seat, action))
            table.play(seat, action.colors, 3, 0)
            table.end_turn()
        elif isinstance(action, DrawTickets):
            if not state.ticket_deck:
                raise IllegalAction(CardGameReason.TICKET_DECK_EMPTY)
            table.offer_tickets(seat)
        else:
            raise IllegalAction(CommonReason.NOT_LEGAL_NOW)
        return table.freeze(), table.events

    def view(self, state: CardGameState, seat: Seat | None) -> CardGameView:
        """Return what `seat` may see (`None`: the public view, nothing hidden in it)."""
        legal = self.legal_actions(state, seat) if seat is not None else []
        return build_view(state, seat, legal)

    def result(self, state: CardGameState) -> GameResult | None:
        """Final scores with a per-ticket and per-bonus breakdown, and the winners, once the game is over."""
        if state.phase is not Phase.OVER:
            return None
        return game_result(state)

    def is_over(self, state: CardGameState) -> bool:
        """Whether the game has ended (without computing the result)."""
        return state.phase is Phase.OVER

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
        return bot.choose(state, seat, rng, kind, budget)

    def hint(
        self, state: CardGameState, seat: Seat, rng: random.Random, budget: Budget = DEFAULT_BUDGET
    ) -> Hint[CardGameAction]:
        """What the hard player would do in `seat` now, and why."""
        return bot.hint(state, seat, rng, budget)

    def _check_seat(self, state: CardGameState, seat: Seat) -> None:
        """Refuse moves after the end, from unknown seats, and out of turn."""
        if state.phase is Phase.OVER:
            raise IllegalAction(CommonReason.GAME_OVER)
        if not 0 <= seat < state.n_players:
            raise IllegalAction(CommonReason.NOT_A_SEAT)
        if seat not in self.to_act(state):
            raise IllegalAction(CommonReason.NOT_YOUR_TURN)

    @staticmethod
    def _raise_if(error: tuple[CardGameReason, dict[str, Param]] | None) -> None:
        """Raise the play error found, if any."""
        if error is not None:
            reason, params = error
            raise IllegalAction(reason, **params)

    @staticmethod
    def _checked_keep(state: CardGameState, seat: Seat, action: CardGameAction, at_least: int) -> tuple[int, ...]:
        """Validate a ticket choice against the offer; return the ids kept."""
        if not isinstance(action, KeepTickets):
            raise IllegalAction(CommonReason.NOT_LEGAL_NOW)
        offered = state.players[seat].offered
        if any(t not in offered for t in action.tickets) or len(set(action.tickets)) != len(action.tickets):
            raise IllegalAction(CardGameReason.TICKET_NOT_OFFERED)
        if len(action.tickets) < at_least:
            raise IllegalAction(CardGameReason.MUST_KEEP_ONE)
        return action.tickets

    @staticmethod
    def _draw(state: CardGameState, table: Table, seat: Seat, action: DrawCard) -> None:
        """One pick of R-CG-7: a face-up locomotive ends the turn as two cards; an empty deck ends it early."""
        if not state.deck:
            raise IllegalAction(CardGameReason.DECK_EMPTY)
        second = state.phase is Phase.SECOND_PICK
        if action.kind is None:
            table.draw_from_deck(seat)
        else:
            if action.kind not in state.face_up:
                raise IllegalAction(CardGameReason.NOT_FACE_UP)
            if second and action.kind == LOCOMOTIVE:
                raise IllegalAction(CardGameReason.FACE_UP_LOCOMOTIVE_SECOND_PICK)
            table.draw_face_up(seat, action.kind)
        if second or action.kind == LOCOMOTIVE or not table.deck:
            table.end_turn()
        else:
            table.phase = Phase.SECOND_PICK
