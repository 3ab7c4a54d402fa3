"""What leaves the engine: the public view, a seat's view, and the revealed end (R-V: nothing hidden leaks).

Public: yards, stack sizes, hand sizes, ticket counts, face-up cards, deck size, every play and robbery, the
last move (cards taken face up, how many from the deck, how many tickets kept, never which), the first scoring
(stacks and completed tickets are shown there). A seat adds its hand, tickets, offered tickets, legal actions
(with whom each play would rob) and, in the beginners' variant only, its own stack. Once over, everything is
revealed: every stack assigned to tickets, every hand, the big-city winners and the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.cardgame.actions import CardGameAction, PlayGroup
from rules.cardgame.cards import KIND_NAMES, N_COLORS, named_counts
from rules.cardgame.plays import holder
from rules.cardgame.scoring import big_cities, game_result
from rules.cardgame.state import CardGameState, MoveKind, Phase, PlayRecord, ScoringRecord
from rules.cardgame.tickets import load_data
from rules.engine import GameResult, Message


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class TicketView(_View):
    """A ticket's face: its cities (ids, names via `cardgame.city.<id>`), points, cards needed, big cities."""

    id: int
    a: str
    b: str
    points: int
    cards: dict[str, int]
    big_cities: list[str]


class YardGroupView(_View):
    """One colour group in a Rail Yard: its size, of which `locomotives` joined it."""

    color: str
    cards: int
    locomotives: int


class PlayView(_View):
    """A play to a yard (one colour group, or three colours) and the robbery it made, if any."""

    turn: int
    seat: int
    colors: list[str]
    cards: int
    locomotives: int
    robbed_seat: int | None
    robbed_cards: int


class LastMoveView(_View):
    """The latest turn's step 2 as everyone saw it: face-up cards taken and how many from the deck, the play made
    (with its robbery), tickets drawn and how many kept (None: still choosing), or a pass."""

    turn: int
    seat: int
    kind: MoveKind
    face_up: list[str] = []
    blind: int = 0
    play: PlayView | None = None
    tickets_drawn: int = 0
    tickets_kept: int | None = None


class PlayerView(_View):
    """A player as everyone sees them."""

    seat: int
    yard: list[YardGroupView]
    stack_size: int
    hand_size: int
    ticket_count: int
    offered_count: int
    chose_opening: bool


class ScoredTicketView(_View):
    """A ticket at a scoring: completed with the stack cards that served it, or unfinished."""

    ticket: TicketView
    completed: bool
    cards: list[str]
    points: int


class ScoringView(_View):
    """One player's side of a scoring: the revealed stack, tickets with their cards, cards left over."""

    seat: int
    stack: dict[str, int]
    tickets: list[ScoredTicketView]
    unused: dict[str, int]
    points: int


class BigCityView(_View):
    """A big-city bonus card: its value, completed tickets naming it per seat, and who takes it."""

    city: str
    bonus: int
    counts: list[int]
    winners: list[int]


class ActionOption(_View):
    """A legal move as a UI shows it: the engine's action itself, its words, and whom it would rob (seat, cards)."""

    action: CardGameAction
    description: Message
    robs_seat: int | None = None
    robs_cards: int = 0


class FinalView(_View):
    """Everything revealed at the end: final scoring per seat, hands left, big cities, the result."""

    scoring: list[ScoringView]
    hands: list[dict[str, int]]
    big_cities: list[BigCityView]
    result: GameResult


class CardGameView(_View):
    """The view of one game for one seat (`seat` None: the public view; its private fields are all None)."""

    seat: int | None
    n_players: int
    phase: Phase
    to_act: list[int]
    current: int
    first_player: int
    turn: int
    deck_size: int
    deck_number: int
    face_up: list[str]
    discard_size: int
    ticket_deck_size: int
    last_round: bool
    """The turns being played are the game's last (R-CG-11; with 4 players, only on the second deck, R-CG-12)."""
    last_turns_left: int | None
    """Turns left before the next scoring, this one included: the first scoring's when 4 play the first deck."""
    big_city_bonus: dict[str, int]
    players: list[PlayerView]
    plays: list[PlayView]
    last_move: LastMoveView | None = None
    first_scoring: list[ScoringView] | None
    hand: dict[str, int] | None = None
    tickets: list[TicketView] | None = None
    offered: list[TicketView] | None = None
    stack: dict[str, int] | None = None
    legal: list[ActionOption] | None = None
    final: FinalView | None = None

    @property
    def legal_moves(self) -> list[CardGameAction]:
        """A seat's legal moves as the engine's actions (`legal` adds their words and robberies; none in public)."""
        return [option.action for option in self.legal or []]


def ticket_view(ticket_id: int) -> TicketView:
    """Return a ticket's face by id."""
    ticket = load_data().ticket(ticket_id)
    return TicketView(
        id=ticket.id,
        a=ticket.a,
        b=ticket.b,
        points=ticket.points,
        cards=dict(ticket.cards),
        big_cities=list(ticket.big_cities),
    )


def build_view(state: CardGameState, seat: int | None, legal: Sequence[CardGameAction]) -> CardGameView:
    """Assemble the view of `state` for `seat` (None: public) with that seat's legal moves."""
    data = load_data()
    turn = _PHASES[state.phase](state)
    player = state.players[seat] if seat is not None else None
    stack_shown = state.options.stack_visible_to_owner or turn.final is not None
    return CardGameView(
        seat=seat,
        n_players=state.n_players,
        phase=state.phase,
        to_act=turn.to_act,
        current=state.current,
        first_player=state.first_player,
        turn=state.turn,
        deck_size=len(state.deck),
        deck_number=state.deck_number,
        face_up=[KIND_NAMES[kind] for kind in state.face_up],
        discard_size=sum(state.discard),
        ticket_deck_size=len(state.ticket_deck),
        last_round=state.last_turns_left is not None and not first_deck_of_four(state),
        last_turns_left=state.last_turns_left,
        big_city_bonus=dict(data.big_city_bonus),
        players=[_player_view(state, s) for s in range(state.n_players)],
        plays=[_play_view(p) for p in state.plays],
        last_move=_last_move_view(state),
        first_scoring=([_scoring_view(r, final=False) for r in state.first_scoring] if state.first_scoring else None),
        final=turn.final,
        hand=named_counts(player.hand) if player else None,
        tickets=[ticket_view(t) for t in player.tickets] if player else None,
        offered=[ticket_view(t) for t in player.offered] if player else None,
        stack=named_counts(player.stack) if player and stack_shown else None,
        legal=[_option(state, seat, action) for action in legal] if seat is not None else None,
    )


def first_deck_of_four(state: CardGameState) -> bool:
    """Whether the deck in play is a 4-player game's first: its end brings the first scoring, not the end."""
    return state.n_players == 4 and state.deck_number == 1


def _play_view(play: PlayRecord) -> PlayView:
    """A play to a yard as shown."""
    return PlayView(
        turn=play.turn,
        seat=play.seat,
        colors=[KIND_NAMES[c] for c in play.colors],
        cards=play.cards,
        locomotives=play.locomotives,
        robbed_seat=play.robbed_seat,
        robbed_cards=play.robbed_cards,
    )


def _last_move_view(state: CardGameState) -> LastMoveView | None:
    """The latest step 2, its play looked up in the public history."""
    move = state.last_move
    if move is None:
        return None
    play = None
    if move.kind is MoveKind.PLAY and state.plays and state.plays[-1].turn == move.turn:
        play = _play_view(state.plays[-1])
    return LastMoveView(
        turn=move.turn,
        seat=move.seat,
        kind=move.kind,
        face_up=[KIND_NAMES[k] for k in move.face_up],
        blind=move.blind,
        play=play,
        tickets_drawn=move.tickets_drawn,
        tickets_kept=move.tickets_kept,
    )


class _Turn(NamedTuple):
    """The fields that follow from the phase: the seats to act (as `CardGameEngine.to_act`, sorted) and, once over,
    everything revealed."""

    to_act: list[int]
    final: FinalView | None = None


def _opening(state: CardGameState) -> _Turn:
    """Everyone who has not kept their opening tickets yet chooses at once."""
    return _Turn(to_act=[s for s, p in enumerate(state.players) if not p.chose_opening])


def _in_turn(state: CardGameState) -> _Turn:
    """The current player acts (step 2, the second card, or the ticket choice)."""
    return _Turn(to_act=[state.current])


def _over(state: CardGameState) -> _Turn:
    """Nobody acts; every stack, hand and ticket is revealed with the result."""
    return _Turn(to_act=[], final=_final_view(state))


_PHASES: dict[Phase, Callable[[CardGameState], _Turn]] = {
    Phase.OPENING: _opening,
    Phase.TURN: _in_turn,
    Phase.SECOND_PICK: _in_turn,
    Phase.TICKETS: _in_turn,
    Phase.OVER: _over,
}
"""Each phase's part of the view, in one place per phase."""


def _player_view(state: CardGameState, seat: int) -> PlayerView:
    """A player's public side: yard groups, and only the sizes of hand, stack and tickets."""
    player = state.players[seat]
    return PlayerView(
        seat=seat,
        yard=[
            YardGroupView(color=KIND_NAMES[c], cards=player.yard[c], locomotives=player.yard_locomotives[c])
            for c in range(N_COLORS)
            if player.yard[c]
        ],
        stack_size=sum(player.stack),
        hand_size=sum(player.hand),
        ticket_count=len(player.tickets),
        offered_count=len(player.offered),
        chose_opening=player.chose_opening,
    )


def _option(state: CardGameState, seat: int, action: CardGameAction) -> ActionOption:
    """A legal move with its robbery target, if it makes one."""
    robs_seat, robs_cards = None, 0
    if isinstance(action, PlayGroup):
        yards = [p.yard for p in state.players]
        robs_seat = holder(yards, action.color, seat)
        robs_cards = yards[robs_seat][action.color] if robs_seat is not None else 0
    return ActionOption(action=action, description=action.describe(), robs_seat=robs_seat, robs_cards=robs_cards)


def _scoring_view(record: ScoringRecord, final: bool) -> ScoringView:
    """A scoring as shown: the first scoring shows completed tickets only; the final one all of them."""
    data = load_data()
    tickets = [
        ScoredTicketView(
            ticket=ticket_view(s.ticket),
            completed=True,
            cards=[KIND_NAMES[k] for k in s.cards],
            points=data.ticket(s.ticket).points,
        )
        for s in record.completed
    ]
    if final:
        tickets += [
            ScoredTicketView(ticket=ticket_view(t), completed=False, cards=[], points=-data.ticket(t).points)
            for t in record.unfinished
        ]
    return ScoringView(
        seat=record.seat,
        stack=named_counts(record.stack),
        tickets=tickets,
        unused=named_counts(record.unused),
        points=sum(t.points for t in tickets),
    )


def _final_view(state: CardGameState) -> FinalView:
    """The end of the game, every secret revealed."""
    assert state.final_scoring is not None
    return FinalView(
        scoring=[_scoring_view(r, final=True) for r in state.final_scoring],
        hands=[named_counts(p.hand) for p in state.players],
        big_cities=[
            BigCityView(city=c.city, bonus=c.bonus, counts=list(c.counts), winners=list(c.winners))
            for c in big_cities(state)
        ],
        result=game_result(state),
    )
