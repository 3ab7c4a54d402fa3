"""The game's flow on a mutable working copy of the state: each `apply` edits one, then freezes it.

Validation happens before (in the engine); everything here assumes the move is legal. Rules by number:
step 1 (R-CG-5), drawing and the face-up row (R-CG-7), plays and robbery (R-CG-8, R-CG-9), tickets (R-CG-10),
the end of a deck (R-CG-11, R-CG-12) and the scorings (R-CG-13).
"""

from __future__ import annotations

import random

from rules.cardgame.cards import LOCOMOTIVE, N_COLORS, N_KINDS, cards_of, color_message
from rules.cardgame.plays import has_legal_play, holder
from rules.cardgame.scoring import score_stack
from rules.cardgame.state import CardGameState, LastMove, MoveKind, Phase, PlayerState, PlayRecord
from rules.cardgame.tickets import load_data, ticket_message
from rules.engine import Event, Message, Param

FACE_UP = 5
TICKETS_DRAWN = 4
SECOND_DECK_DEAL = 4


def event(name: str, to: int | None = None, **params: Param) -> Event:
    """Build an event `cardgame.event.<name>`; public unless `to` names the one seat told."""
    return Event.model_construct(key=f"cardgame.event.{name}", params=params, to=to)  # built right: skip checks


def ticket_list(tickets: list[int] | tuple[int, ...]) -> list[str | int | Message]:
    """Tickets as translatable names, for event parameters."""
    return [ticket_message(t) for t in tickets]


def card_list(cards: list[int]) -> list[str | int | Message]:
    """Cards as translatable colour names, for event parameters."""
    return [color_message(kind) for kind in cards]


class Seat:
    """One player's mutable cards and tickets while a move is applied."""

    __slots__ = ("chose_opening", "hand", "offered", "stack", "tickets", "yard", "yard_locomotives")

    def __init__(self, player: PlayerState) -> None:
        self.hand = list(player.hand)
        self.yard = list(player.yard)
        self.yard_locomotives = list(player.yard_locomotives)
        self.stack = list(player.stack)
        self.tickets = list(player.tickets)
        self.offered = list(player.offered)
        self.chose_opening = player.chose_opening

    def freeze(self) -> PlayerState:
        """Return the frozen player state."""
        return PlayerState.model_construct(
            hand=tuple(self.hand),
            yard=tuple(self.yard),
            yard_locomotives=tuple(self.yard_locomotives),
            stack=tuple(self.stack),
            tickets=tuple(self.tickets),
            offered=tuple(self.offered),
            chose_opening=self.chose_opening,
        )


class Table:
    """A mutable copy of a state plus the events produced; seats are copied only when touched."""

    def __init__(self, state: CardGameState) -> None:
        self.state = state
        self.options = state.options
        self.n = state.n_players
        self.rng = state.rng
        self.deck = list(state.deck)
        self.face_up = list(state.face_up)
        self.discard = list(state.discard)
        self.ticket_deck = list(state.ticket_deck)
        self.phase = state.phase
        self.current = state.current
        self.turn = state.turn
        self.deck_number = state.deck_number
        self.last_turns_left = state.last_turns_left
        self.plays = state.plays
        self.last_move = state.last_move
        self.first_scoring = state.first_scoring
        self.final_scoring = state.final_scoring
        self._seats: dict[int, Seat] = {}
        self.events: list[Event] = []

    def seat(self, seat: int) -> Seat:
        """Return a seat's mutable copy, making it on first touch."""
        found = self._seats.get(seat)
        if found is None:
            found = self._seats[seat] = Seat(self.state.players[seat])
        return found

    def yards(self) -> list[list[int] | tuple[int, ...]]:
        """Every seat's yard group sizes, as they stand now."""
        return [self._seats[s].yard if s in self._seats else self.state.players[s].yard for s in range(self.n)]

    def freeze(self) -> CardGameState:
        """Return the new frozen state (untouched seats are shared with the old one)."""
        players = tuple(self._seats[s].freeze() if s in self._seats else self.state.players[s] for s in range(self.n))
        return self.state.model_copy(
            update={
                "rng": self.rng,
                "deck": tuple(self.deck),
                "face_up": tuple(self.face_up),
                "discard": tuple(self.discard),
                "ticket_deck": tuple(self.ticket_deck),
                "players": players,
                "phase": self.phase,
                "current": self.current,
                "turn": self.turn,
                "deck_number": self.deck_number,
                "last_turns_left": self.last_turns_left,
                "plays": self.plays,
                "last_move": self.last_move,
                "first_scoring": self.first_scoring,
                "final_scoring": self.final_scoring,
            }
        )

    def random(self) -> random.Random:
        """Return a generator for one random event, advancing the stored Rng."""
        generator, self.rng = self.rng.next()
        return generator

    # Drawing (R-CG-7) ---------------------------------------------------------------------------------------

    def draw_from_deck(self, seat: int) -> None:
        """Take the deck's top card into `seat`'s hand: public as a blind draw, private with its colour."""
        kind = self.deck.pop()
        self.seat(seat).hand[kind] += 1
        self.events.append(event("drew_from_deck", seat=seat))
        self.events.append(event("drew_card", to=seat, seat=seat, color=color_message(kind)))
        drawn = self.drawing(seat)
        self.last_move = drawn.model_copy(update={"blind": drawn.blind + 1})

    def draw_face_up(self, seat: int, kind: int) -> None:
        """Take a face-up card of `kind`, replace it at once from the deck, then check the locomotive reset."""
        slot = self.face_up.index(kind)
        self.seat(seat).hand[kind] += 1
        self.face_up[slot] = self.deck.pop()  # drawing needs a non-empty deck, so a replacement is there
        self.events.append(event("drew_face_up", seat=seat, color=color_message(kind)))
        drawn = self.drawing(seat)
        self.last_move = drawn.model_copy(update={"face_up": (*drawn.face_up, kind)})
        self.check_locomotive_reset()

    def drawing(self, seat: int) -> LastMove:
        """This turn's draw so far: the first pick's record at the second pick, else a new one."""
        last = self.last_move
        if last is not None and last.kind is MoveKind.DRAW and last.turn == self.turn and last.seat == seat:
            return last
        return LastMove(turn=self.turn, seat=seat, kind=MoveKind.DRAW)

    def refill_face_up(self) -> None:
        """Turn cards from the deck until 5 are face up (or the deck is empty), then check the reset."""
        while len(self.face_up) < FACE_UP and self.deck:
            self.face_up.append(self.deck.pop())
        self.check_locomotive_reset()

    def check_locomotive_reset(self) -> None:
        """3 face-up locomotives: discard the row and turn 5 new cards, again if need be (R-CG-7, variant).

        Ruling: a reset needs 5 cards in the deck to turn a new row; with fewer, the row stays as it is.
        """
        if not self.options.three_locomotive_reset:
            return
        while len(self.face_up) == FACE_UP and self.face_up.count(LOCOMOTIVE) >= 3 and len(self.deck) >= FACE_UP:
            discarded = self.face_up
            for kind in discarded:
                self.discard[kind] += 1
            self.face_up = [self.deck.pop() for _ in range(FACE_UP)]
            self.events.append(event("face_up_reset", discarded=card_list(discarded), turned=card_list(self.face_up)))

    # Plays (R-CG-8, R-CG-9) ---------------------------------------------------------------------------------

    def play(self, seat: int, colors: tuple[int, ...], cards: int, locomotives: int) -> None:
        """Move a legal play from hand to yard, robbing the yard that held its colour, if any."""
        player = self.seat(seat)
        robbed_seat, robbed_cards = None, 0
        if len(colors) == 1:
            color = colors[0]
            victim = holder(self.yards(), color, seat)
            if victim is not None:
                robbed_seat, robbed_cards = victim, self.rob(victim, color)
            player.hand[color] -= cards
            player.hand[LOCOMOTIVE] -= locomotives
            player.yard[color] = cards + locomotives
            player.yard_locomotives[color] = locomotives
            self.events.append(
                event(
                    "played_group_locomotives" if locomotives else "played_group",
                    seat=seat,
                    color=color_message(color),
                    count=cards,
                    locomotives=locomotives,
                )
            )
        else:
            for color in colors:
                player.hand[color] -= 1
                player.yard[color] = 1
            self.events.append(event("played_three", seat=seat, colors=card_list(list(colors))))
        if robbed_seat is not None:
            self.events.append(
                event("robbed", seat=robbed_seat, robber=seat, color=color_message(colors[0]), count=robbed_cards)
            )
        record = PlayRecord.model_construct(
            turn=self.turn,
            seat=seat,
            colors=colors,
            cards=cards,
            locomotives=locomotives,
            robbed_seat=robbed_seat,
            robbed_cards=robbed_cards,
        )
        self.plays = (*self.plays, record)
        self.last_move = LastMove(turn=self.turn, seat=seat, kind=MoveKind.PLAY)

    def rob(self, victim: int, color: int) -> int:
        """Discard `victim`'s whole group of `color` (R-CG-9); return how many cards it held."""
        player = self.seat(victim)
        size, locomotives = player.yard[color], player.yard_locomotives[color]
        self.discard[color] += size - locomotives
        self.discard[LOCOMOTIVE] += locomotives
        player.yard[color] = player.yard_locomotives[color] = 0
        return size

    # Tickets (R-CG-3, R-CG-10) ------------------------------------------------------------------------------

    def offer_tickets(self, seat: int) -> None:
        """Show `seat` the top 4 tickets (fewer if the deck has fewer)."""
        offered = self.ticket_deck[:TICKETS_DRAWN]
        del self.ticket_deck[:TICKETS_DRAWN]
        self.seat(seat).offered = offered
        self.phase = Phase.TICKETS
        self.events.append(event("drew_tickets", seat=seat, count=len(offered)))
        self.last_move = LastMove(turn=self.turn, seat=seat, kind=MoveKind.TICKETS, tickets_drawn=len(offered))
        self.events.append(event("tickets_offered", to=seat, seat=seat, tickets=ticket_list(offered)))

    def keep_tickets(self, seat: int, kept: tuple[int, ...]) -> list[int]:
        """Keep `kept` of the offered tickets; return the others (in the order they were offered)."""
        player = self.seat(seat)
        returned = [t for t in player.offered if t not in kept]
        player.tickets.extend(kept)
        player.offered = []
        self.events.append(event("kept_tickets", seat=seat, count=len(kept), returned=len(returned)))
        if kept:
            self.events.append(event("you_kept_tickets", to=seat, seat=seat, tickets=ticket_list(kept)))
        return returned

    def keep_opening(self, seat: int, kept: tuple[int, ...]) -> None:
        """Opening choice: keep, shuffle the rest back into the ticket deck; start play once all have chosen."""
        returned = self.keep_tickets(seat, kept)
        self.seat(seat).chose_opening = True
        self.ticket_deck.extend(returned)
        self.random().shuffle(self.ticket_deck)
        if all(self.seat(s).chose_opening for s in range(self.n)):
            self.start_turn(self.state.first_player)

    def keep_drawn(self, seat: int, kept: tuple[int, ...]) -> None:
        """Turn choice: keep, put the rest under the ticket deck, end the turn."""
        self.ticket_deck.extend(self.keep_tickets(seat, kept))
        if self.last_move is not None and self.last_move.kind is MoveKind.TICKETS:
            self.last_move = self.last_move.model_copy(update={"tickets_kept": len(kept)})
        self.end_turn()

    # Turns, the end of a deck, scorings (R-CG-5, R-CG-11, R-CG-12) -----------------------------------------

    def start_turn(self, seat: int) -> None:
        """Begin `seat`'s turn with the automatic step 1; a seat with no possible step 2 passes at once."""
        while True:
            self.current = seat
            self.turn += 1
            self.phase = Phase.TURN
            self.events.append(event("turn_started", seat=seat, turn=self.turn))
            self.move_yard_to_stack(seat)
            if self.can_act(seat):
                return
            self.events.append(event("no_move", seat=seat))
            self.last_move = LastMove(turn=self.turn, seat=seat, kind=MoveKind.PASS)
            if not self.finish_turn():
                return
            seat = self.current

    def move_yard_to_stack(self, seat: int) -> None:
        """Step 1: one card of each colour in the yard goes to the stack, a locomotive first (R-CG-5)."""
        player = self.seat(seat)
        moved = []
        for color in range(N_COLORS):
            if not player.yard[color]:
                continue
            kind = LOCOMOTIVE if player.yard_locomotives[color] else color
            if kind == LOCOMOTIVE:
                player.yard_locomotives[color] -= 1
            player.yard[color] -= 1
            player.stack[kind] += 1
            moved.append(kind)
        if moved:
            self.events.append(event("yard_to_stack", seat=seat, cards=card_list(moved)))

    def can_act(self, seat: int) -> bool:
        """Whether `seat` has any step 2: a card to draw, tickets to draw, or a legal play."""
        return bool(self.deck or self.ticket_deck) or has_legal_play(self.seat(seat).hand, self.yards(), seat)

    def end_turn(self) -> None:
        """End the current turn and start the next one (unless the game or a deck ended)."""
        if self.finish_turn():
            self.start_turn(self.current)

    def finish_turn(self) -> bool:
        """Count down the last turns and run a scoring when due; set `current` to who plays next.

        Return whether play goes on. The deck running out during a turn gives every player, that one
        included, one more turn (R-CG-11).
        """
        if self.last_turns_left is not None:
            self.last_turns_left -= 1
            if self.last_turns_left == 0:
                self.last_turns_left = None
                if self.n == 4 and self.deck_number == 1:
                    self.first_scoring_and_new_deck()
                else:
                    self.final_scoring_now()
                    return False
        elif not self.deck:
            self.last_turns_left = self.n
            self.events.append(event("last_round", seat=self.current))
        self.current = (self.current + 1) % self.n
        return True

    def first_scoring_and_new_deck(self) -> None:
        """4 players, first deck out: score completed tickets, set them aside, build and deal the second deck."""
        records = []
        for s in range(self.n):
            player = self.seat(s)
            record = score_stack(s, player.stack, player.tickets)
            records.append(record)
            done = {score.ticket for score in record.completed}
            player.tickets = [t for t in player.tickets if t not in done]
            self.events.append(
                event(
                    "first_scoring",
                    seat=s,
                    points=sum(load_data().ticket(t).points for t in done),
                    completed=ticket_list(sorted(done)),
                )
            )
        self.first_scoring = tuple(records)
        pile = list(self.discard)
        for s in range(self.n):
            player = self.seat(s)
            for color in range(N_COLORS):
                pile[color] += player.yard[color] - player.yard_locomotives[color]
                pile[LOCOMOTIVE] += player.yard_locomotives[color]
            for kind in range(N_KINDS):
                pile[kind] += player.stack[kind]
            player.yard = [0] * N_COLORS
            player.yard_locomotives = [0] * N_COLORS
            player.stack = [0] * N_KINDS
        self.discard = [0] * N_KINDS
        self.deck = cards_of(pile)
        self.random().shuffle(self.deck)
        self.deck_number = 2
        self.events.append(event("second_deck", count=len(self.deck)))
        first = (self.current + 1) % self.n
        for offset in range(self.n):
            s = (first + offset) % self.n
            dealt = [self.deck.pop() for _ in range(min(SECOND_DECK_DEAL, len(self.deck)))]
            for kind in dealt:
                self.seat(s).hand[kind] += 1
            self.events.append(event("dealt", to=s, seat=s, cards=card_list(dealt)))
        self.refill_face_up()
        if not self.deck:
            # Ruling: a second deck used up by the deal runs out at once; the last turns follow.
            self.last_turns_left = self.n
            self.events.append(event("last_round", seat=self.current))

    def final_scoring_now(self) -> None:
        """Reveal every stack, score it, and end the game (R-CG-13)."""
        self.final_scoring = tuple(score_stack(s, self.seat(s).stack, self.seat(s).tickets) for s in range(self.n))
        self.phase = Phase.OVER
        self.events.append(event("game_over"))
