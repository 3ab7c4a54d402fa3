"""The card game's state: frozen, JSON-serializable, compact (cards are ints, counts are tuples)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.cardgame.options import CardGameOptions
from rules.rng import Rng


class Phase(StrEnum):
    """Where the game stands: whose decision is awaited and of what kind."""

    OPENING = "opening"
    """Every player keeps at least 1 of the 6 tickets dealt, simultaneously (R-CG-3)."""
    TURN = "turn"
    """The current player chooses step 2: draw cards, play to the yard or draw tickets (R-CG-6)."""
    SECOND_PICK = "second_pick"
    """The current player drew one card and must take a second (R-CG-7)."""
    TICKETS = "tickets"
    """The current player drew tickets and chooses which to keep (R-CG-10)."""
    OVER = "over"


class PlayerState(BaseModel):
    """One player's cards and tickets. Counts are 9-tuples by card kind; the yard is per colour."""

    model_config = ConfigDict(frozen=True)

    hand: tuple[int, ...]
    yard: tuple[int, ...] = (0,) * 8
    """Cards in the Rail Yard group of each colour, locomotives that joined it included."""
    yard_locomotives: tuple[int, ...] = (0,) * 8
    """How many of each colour group's cards are locomotives."""
    stack: tuple[int, ...] = (0,) * 9
    tickets: tuple[int, ...] = ()
    """Tickets held and not yet scored, by id."""
    offered: tuple[int, ...] = ()
    """Tickets being chosen from (the opening 6, or the 4 drawn), by id."""
    chose_opening: bool = False


class MoveKind(StrEnum):
    """What a turn's step 2 was, as everyone saw it."""

    DRAW = "draw"
    PLAY = "play"
    TICKETS = "tickets"
    PASS = "pass"
    """Nothing was possible: the turn passed by itself (R-CG-11)."""


class PlayRecord(BaseModel):
    """A play to a Rail Yard (R-CG-8), and the robbery it made, if any (R-CG-9): public history."""

    model_config = ConfigDict(frozen=True)

    turn: int
    seat: int
    colors: tuple[int, ...]
    cards: int
    """Natural cards played."""
    locomotives: int = 0
    robbed_seat: int | None = None
    robbed_cards: int = 0


class LastMove(BaseModel):
    """The latest step 2, public: cards taken (face-up kinds; deck cards by number only), the play made (the last
    of `plays`), or tickets drawn and how many were kept (never which)."""

    model_config = ConfigDict(frozen=True)

    turn: int
    seat: int
    kind: MoveKind
    face_up: tuple[int, ...] = ()
    """Kinds taken from the face-up row, in the order taken."""
    blind: int = 0
    """Cards taken from the deck."""
    tickets_drawn: int = 0
    tickets_kept: int | None = None
    """None while the player is still choosing."""


class TicketScore(BaseModel):
    """A completed ticket at a scoring and the stack cards (kinds) that served it."""

    model_config = ConfigDict(frozen=True)

    ticket: int
    cards: tuple[int, ...]


class ScoringRecord(BaseModel):
    """One player's side of a scoring: the revealed stack, the tickets it completed, and the ones it did not."""

    model_config = ConfigDict(frozen=True)

    seat: int
    stack: tuple[int, ...]
    completed: tuple[TicketScore, ...]
    unfinished: tuple[int, ...]
    unused: tuple[int, ...]


class CardGameState(BaseModel):
    """Everything about one game, hidden parts included; only views leave the engine."""

    model_config = ConfigDict(frozen=True)

    options: CardGameOptions
    n_players: int
    rng: Rng
    deck: tuple[int, ...]
    """Train deck, top card last."""
    face_up: tuple[int, ...]
    discard: tuple[int, ...] = (0,) * 9
    """Discard pile as per-kind counts (its order never matters: it is only ever shuffled)."""
    ticket_deck: tuple[int, ...]
    """Ticket deck, top first."""
    players: tuple[PlayerState, ...]
    phase: Phase = Phase.OPENING
    current: int
    first_player: int
    turn: int = 0
    """Turns started so far (1 is the first player's first turn)."""
    deck_number: int = 1
    """Which train deck is in play: 1, or 2 after the 4-player first scoring (R-CG-12)."""
    last_turns_left: int | None = None
    """Turns still to play once the deck has run out, this one included (R-CG-11); None before that."""
    plays: tuple[PlayRecord, ...] = ()
    last_move: LastMove | None = None
    """The latest turn's step 2 (None before the first turn, and in games stored before it was kept)."""
    first_scoring: tuple[ScoringRecord, ...] | None = None
    final_scoring: tuple[ScoringRecord, ...] | None = None
