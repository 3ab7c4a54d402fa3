"""What a seat may do now, as a compact move set that can be counted, indexed and listed without waste.

Claims are grouped per track with the list of distinct affordable payments (shared by tracks of the same colour,
length and ferry count), stations as cities × payments, so a random player can pick uniformly among thousands
of moves without building them all, and `legal_actions` can still list them in a stable order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from rules.caches import BoundedCache
from rules.ttr.actions import (
    DECK,
    BuildStation,
    Claim,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TtrAction,
    Withdraw,
)
from rules.ttr.board import CARD_CODES, CARD_NAMES, LOCO, Board, board_for
from rules.ttr.cards import DECK_COMPOSITION, Payment, extra_payments, payments
from rules.ttr.options import TtrOptions
from rules.ttr.state import Phase, TtrState, build_unchecked

_DRAWS = {source: DrawCard(source=source) for source in (DECK, *CARD_NAMES)}
_PASS = Pass()
_WITHDRAW = Withdraw()
_TICKETS = DrawTickets()


@dataclass
class MoveSet:
    """Every legal move of one seat, grouped by kind, in the order `legal_actions` lists them."""

    draws: tuple[str, ...] = ()
    tickets: bool = False
    claims: list[tuple[int, tuple[Payment, ...]]] = field(default_factory=list)
    claim_count: int = 0
    """How many (track, payment) claims `claims` holds."""
    station_cities: list[int] = field(default_factory=list)
    station_payments: tuple[Payment, ...] = ()
    keeps: list[tuple[int, ...]] = field(default_factory=list)
    pays: list[int] = field(default_factory=list)
    withdraw: bool = False
    pass_only: bool = False

    def count(self) -> int:
        """How many legal moves there are."""
        return (
            len(self.draws)
            + self.tickets
            + self.claim_count
            + len(self.station_cities) * len(self.station_payments)
            + len(self.keeps)
            + len(self.pays)
            + self.withdraw
            + self.pass_only
        )

    def pick(self, index: int, board: Board) -> TtrAction:
        """Return the move at `index` of the listed order without listing the others."""
        if index < len(self.draws):
            return _DRAWS[self.draws[index]]
        index -= len(self.draws)
        if self.tickets:
            if index == 0:
                return _TICKETS
            index -= 1
        for track, pays in self.claims:
            if index < len(pays):
                color, locos = pays[index]
                values = {"track": board.track_ids[track], "color": CARD_NAMES[color], "locomotives": locos}
                return build_unchecked(Claim, values)
            index -= len(pays)
        n_station = len(self.station_cities) * len(self.station_payments)
        if index < n_station:
            city, pay = divmod(index, len(self.station_payments))
            color, locos = self.station_payments[pay]
            return BuildStation(
                city=board.city_ids[self.station_cities[city]], color=CARD_NAMES[color], locomotives=locos
            )
        index -= n_station
        if index < len(self.keeps):
            return KeepTickets(tickets=self.keeps[index])
        index -= len(self.keeps)
        if index < len(self.pays):
            return PayTunnel(locomotives=self.pays[index])
        index -= len(self.pays)
        if self.withdraw and index == 0:
            return _WITHDRAW
        if self.pass_only:
            return _PASS
        raise IndexError(index)

    def actions(self, board: Board) -> list[TtrAction]:
        """List every legal move."""
        return [self.pick(i, board) for i in range(self.count())]


def can_draw(has_pile: bool, market: tuple[int, ...], source: str, first: bool) -> bool:
    """Whether this card may be taken now: the deck needs a card in it or the discards (R-T4), a face-up
    colour must be showing, and a face-up locomotive is first-pick only (R-T2)."""
    if source == DECK:
        return has_pile
    code = CARD_CODES.get(source, -1)
    return code in market and (first or code != LOCO)


def can_draw_second(has_pile: bool, market: tuple[int, ...]) -> bool:
    """Whether a second card can be taken: from the piles, or a face-up card that is not a locomotive."""
    return has_pile or any(c != LOCO for c in market)


def draw_sources(has_pile: bool, market: tuple[int, ...], first: bool) -> tuple[str, ...]:
    """Where a card may be taken from: the deck if it or the discards hold a card, and each face-up colour."""
    face_up = tuple(CARD_NAMES[code] for code in sorted(set(market)) if first or code != LOCO)
    return (DECK, *face_up) if has_pile else face_up


PaymentClass = tuple[int, tuple[int, ...], tuple[Payment, ...]]
"""(length, track indices, payments) of a class of tracks a hand can pay for."""

AFFORDABLE_BUDGET = 32 << 20
"""Estimated bytes the memo of affordable payment classes may hold (about 50 000 hands). Over 3 000 random 4-player
games its hit rate is 68 % (59 % at half the budget, 73 % at one and a half); the table it replaced, emptied at 65 536
hands, reached 71 % holding up to three times the memory."""

_affordable: BoundedCache[tuple[str, tuple[int, ...]], tuple[PaymentClass, ...]] = BoundedCache(
    "rules.ttr.moves.affordable_classes", AFFORDABLE_BUDGET, unit="bytes"
)
_colored: BoundedCache[tuple[str, int, int, int], PaymentClass] = BoundedCache(
    "rules.ttr.moves.colored_classes", 1 << 16
)
"""The payment class of a coloured route by (map, class, cards, locomotives), shared by every hand with those counts:
a table the maps and the deck bound (68 coloured classes in both maps × 13 cards × 15 locomotives = 13 260 at most),
which one generation holds whole, so it is never turned over."""
_PAYMENTS = {(color, locos): (color, locos) for color in range(LOCO + 1) for locos in range(max(DECK_COMPOSITION) + 1)}
"""Every payment once, so the memo's payments of gray routes share them rather than each holding its own."""
_ENTRY_BYTES = 56 + 112 + 40 + 40
"""What a memo entry holds whatever the hand: its key (a pair and the hand), a dict slot, its tuple of classes."""


def _affordable_classes(map_id: str, hand: tuple[int, ...]) -> tuple[PaymentClass, ...]:
    """(length, track indices, payments) of every payment class this hand can pay for (hands recur a lot)."""
    key = (map_id, hand)
    found = _affordable.get(key)
    if found is None:
        found, weight = _payment_classes_for(map_id, hand)
        _affordable.put(key, found, weight=weight)
    return found


def _payment_classes_for(map_id: str, hand: tuple[int, ...]) -> tuple[tuple[PaymentClass, ...], int]:
    """The payment classes this hand can pay for, and about how many bytes a memo entry holds for them: a slot per
    class, and the gray routes' classes with their payments (a coloured route's class is shared, in `_colored`)."""
    locos = hand[LOCO]
    out = []
    weight = _ENTRY_BYTES
    for index, (color, length, ferry, tracks) in enumerate(board_for(map_id).payment_classes):
        if color >= 0:
            # A coloured route's payments depend on two counts only (ferries are gray): memoised, a small table.
            have = hand[color]
            if have + locos < length:
                continue
            key = (map_id, index, have, locos)
            found = _colored.get(key)
            if found is None:
                found = _colored.put(key, (length, tracks, payments(color, length, 0, hand)))
            if found[2]:
                out.append(found)
        elif locos >= ferry:
            pays = tuple(map(_PAYMENTS.__getitem__, payments(color, length, ferry, hand)))
            if pays:
                out.append((length, tracks, pays))
                weight += 64 + 40 + 8 * len(pays)
    return tuple(out), weight + 8 * len(out)


def doubles_closed(n_players: int, options: TtrOptions, board: Board) -> bool:
    """Whether a double route's second track closes once the first is claimed (2–3 players, R-T6)."""
    return n_players < board.game_map.rules.double_min_players and not options.open_doubles


def closed_tracks(state: TtrState, board: Board) -> list[int]:
    """Free tracks nobody may claim any more: the twin of a claimed double route with 2–3 players (R-T6)."""
    if not doubles_closed(state.n_players, state.options, board):
        return []
    owners, partners = state.owners, board.track_partner
    return [i for i, partner in enumerate(partners) if partner >= 0 and owners[i] < 0 and owners[partner] >= 0]


def claimable(state: TtrState, seat: int, board: Board) -> tuple[list[tuple[int, tuple[Payment, ...]]], int]:
    """Every track the seat may claim now (R-T5, R-T6, R-EU-5) with its distinct payments, and their count."""
    hand = state.hands[seat]
    cars = state.cars[seat]
    owners = state.owners
    closed = doubles_closed(state.n_players, state.options, board)
    partners = board.track_partner
    out = []
    total = 0
    for length, tracks, pays in _affordable_classes(state.map_id, hand):
        if length > cars:
            continue
        n_pays = len(pays)
        for i in tracks:
            if owners[i] >= 0:
                continue
            partner = partners[i]
            if partner >= 0:
                other = owners[partner]
                if other == seat or (other >= 0 and closed):
                    continue
            out.append((i, pays))
            total += n_pays
    out.sort()
    return out, total


def station_cost(stations_left: int, board: Board) -> int:
    """Cards a player's next station costs: 1, 2, then 3 (R-EU-4)."""
    return board.game_map.rules.stations_per_player - stations_left + 1


def station_options(state: TtrState, seat: int, board: Board) -> tuple[list[int], tuple[Payment, ...]]:
    """Free cities and the distinct payments for the seat's next station, or nothing (R-EU-4)."""
    if state.stations_left[seat] <= 0:
        return [], ()
    pays = payments(-1, station_cost(state.stations_left[seat], board), 0, state.hands[seat])
    if not pays:
        return [], ()
    return [c for c, owner in enumerate(state.stations) if owner < 0], pays


def tunnel_payments(state: TtrState, board: Board) -> list[int]:
    """Locomotive counts with which the pending tunnel's extra cards can be paid (R-EU-6)."""
    tunnel = state.tunnel
    assert tunnel is not None
    length = board.track_len[tunnel.track]
    return extra_payments(state.hands[state.current], tunnel.color, tunnel.locomotives, length, tunnel.extra)


def keep_choices(offer: tuple[int, ...], minimum: int) -> list[tuple[int, ...]]:
    """Every subset of the offered tickets of at least `minimum` (or all offered, if fewer), ids ascending."""
    ids = sorted(offer)
    least = min(minimum, len(ids))
    return [combo for size in range(least, len(ids) + 1) for combo in combinations(ids, size)]


def move_set(state: TtrState, seat: int) -> MoveSet:
    """Return every legal move of `seat` now (empty if it is not this seat's move)."""
    board = board_for(state.map_id)
    moves = MoveSet()
    phase = state.phase
    if phase is Phase.OPENING:
        if state.offers[seat]:
            moves.keeps = keep_choices(state.offers[seat], board.game_map.rules.opening_keep)
        return moves
    if phase is Phase.OVER or seat != state.current:
        return moves
    if phase is Phase.TURN:
        moves.draws = draw_sources(bool(state.deck or state.discard), state.market, first=True)
        moves.tickets = bool(state.ticket_deck)
        moves.claims, moves.claim_count = claimable(state, seat, board)
        moves.station_cities, moves.station_payments = station_options(state, seat, board)
        moves.pass_only = moves.count() == 0
    elif phase is Phase.SECOND_PICK:
        moves.draws = draw_sources(bool(state.deck or state.discard), state.market, first=False)
    elif phase is Phase.TUNNEL:
        moves.pays = tunnel_payments(state, board)
        moves.withdraw = True
    elif phase is Phase.TICKETS:
        moves.keeps = keep_choices(state.offers[seat], board.game_map.rules.ticket_keep)
    return moves
