"""What a seat may do now, as a compact move set that can be counted, indexed and listed without waste.

Claims are a bitmask of claimable tracks with, per hand, masks of the tracks by how many distinct payments they have
(tracks of the same colour, length and ferry count pay alike), stations as cities × payments, so a random player
counts thousands of moves with a few popcounts and picks one uniformly without building them all, and
`legal_actions` can still list them in a stable order. Each phase has its own move function (`_MOVE_SETS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from rules.caches import BoundedCache
from rules.models import build_unchecked
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
from rules.ttr.cards import Payment, extra_payments, payments
from rules.ttr.options import TtrOptions
from rules.ttr.state import Phase, TtrState

_DRAWS = {source: DrawCard(source=source) for source in (DECK, *CARD_NAMES)}
_PASS = Pass()
_WITHDRAW = Withdraw()
_TICKETS = DrawTickets()


class MoveSet:
    """Every legal move of one seat, grouped by kind, in the order `legal_actions` lists them.

    Claims are held as a bitmask of claimable tracks and the payments of each track's class: counting them is a few
    popcounts, and the sorted (track, payments) list is only built when something reads `claims` or picks a claim.
    """

    __slots__ = (
        "_board",
        "_claims",
        "_groups",
        "_hand",
        "claim_count",
        "claim_mask",
        "draws",
        "keeps",
        "pass_only",
        "pays",
        "station_cities",
        "station_payments",
        "tickets",
        "withdraw",
    )

    def __init__(
        self,
        draws: tuple[str, ...] = (),
        tickets: bool = False,
        station_cities: Sequence[int] = (),
        station_payments: tuple[Payment, ...] = (),
        keeps: Sequence[tuple[int, ...]] = (),
        pays: Sequence[int] = (),
        withdraw: bool = False,
        pass_only: bool = False,
    ) -> None:
        self.draws = draws
        self.tickets = tickets
        self.claim_count = 0
        """How many (track, payment) claims there are."""
        self.claim_mask = 0
        """Bit i set: track i may be claimed now."""
        self._hand: tuple[int, ...] = ()
        self._board: Board | None = None
        self._groups: PaymentClass = ()
        self._claims: list[tuple[int, tuple[Payment, ...]]] | None = None
        self.station_cities = station_cities
        self.station_payments = station_payments
        self.keeps = keeps
        self.pays = pays
        self.withdraw = withdraw
        self.pass_only = pass_only

    @property
    def claims(self) -> list[tuple[int, tuple[Payment, ...]]]:
        """Every claimable track (ascending) with its distinct payments."""
        if self._claims is None:
            self._claims = list(self._walk_claims())
        return self._claims

    def _walk_claims(self) -> Iterator[tuple[int, tuple[Payment, ...]]]:
        """The claimable tracks in order with their payments (worked out once per payment class)."""
        board, hand = self._board, self._hand
        if board is None:
            return
        found: dict[int, tuple[Payment, ...]] = {}
        track_class = board.track_class
        for track in _bits(self.claim_mask):
            k = track_class[track]
            pays = found.get(k)
            if pays is None:
                pays = found[k] = class_payments(board, k, hand)
            yield track, pays

    def claims_of(self, tracks: Iterable[int]) -> Iterator[tuple[int, tuple[Payment, ...]]]:
        """Those of these tracks that are claimable, with their payments (without listing every claim)."""
        board, mask = self._board, self.claim_mask
        if board is None:
            return
        for track in tracks:
            if mask >> track & 1:
                yield track, class_payments(board, board.track_class[track], self._hand)

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
        if index < self.claim_count:
            return self._pick_claim(index, board)
        index -= self.claim_count
        n_station = len(self.station_cities) * len(self.station_payments)
        if index < n_station:
            city, pay = divmod(index, len(self.station_payments))
            return _station(board, self.station_cities[city], self.station_payments[pay])
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

    def _pick_claim(self, index: int, board: Board) -> Claim:
        """The claim at `index` of the claims, walking the tracks in order by their payment counts alone."""
        groups = self._groups
        for track in _bits(self.claim_mask):
            n_pays = next(n for n, mask in groups if mask >> track & 1)
            if index < n_pays:
                return _claim(board, track, class_payments(board, board.track_class[track], self._hand)[index])
            index -= n_pays
        raise IndexError(index)

    def actions(self, board: Board) -> list[TtrAction]:
        """List every legal move, in `pick`'s order (in one walk: picking each by its index walks the claims anew)."""
        listed: list[TtrAction] = [_DRAWS[source] for source in self.draws]
        if self.tickets:
            listed.append(_TICKETS)
        listed += [_claim(board, track, payment) for track, pays in self.claims for payment in pays]
        listed += [_station(board, city, payment) for city in self.station_cities for payment in self.station_payments]
        listed += [KeepTickets(tickets=keep) for keep in self.keeps]
        listed += [PayTunnel(locomotives=locos) for locos in self.pays]
        if self.withdraw:
            listed.append(_WITHDRAW)
        if self.pass_only:
            listed.append(_PASS)
        return listed


def _claim(board: Board, track: int, payment: Payment) -> Claim:
    """The claim of a track paid so (built unchecked: the move set only lists legal claims)."""
    color, locos = payment
    return build_unchecked(Claim, {"track": board.track_ids[track], "color": CARD_NAMES[color], "locomotives": locos})


def _station(board: Board, city: int, payment: Payment) -> BuildStation:
    """The station in a city paid so."""
    color, locos = payment
    return BuildStation(city=board.city_ids[city], color=CARD_NAMES[color], locomotives=locos)


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of `mask`, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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
    return _draw_sources(has_pile, market, first)


@lru_cache(maxsize=8192)
def _draw_sources(has_pile: bool, market: tuple[int, ...], first: bool) -> tuple[str, ...]:
    """`draw_sources`, memoised: a row of 5 of 9 card codes recurs constantly."""
    face_up = tuple(CARD_NAMES[code] for code in sorted(set(market)) if first or code != LOCO)
    return (DECK, *face_up) if has_pile else face_up


PaymentClass = tuple[tuple[int, int], ...]
"""What a hand can pay for on a map: (distinct payments per track, mask of the tracks with that many), by count."""

AFFORDABLE_BUDGET = 16 << 20
"""Estimated bytes the memo of affordable tracks per hand may hold (about 50 000 hands; a hand recurs about every
other time in random games, and a miss is cheap: it merges the per-colour tables below)."""

_affordable: BoundedCache[tuple[str, tuple[int, ...]], PaymentClass] = BoundedCache(
    "rules.ttr.moves.affordable_classes", AFFORDABLE_BUDGET, unit="bytes"
)
_colored: BoundedCache[tuple[str, int, int, int], PaymentClass] = BoundedCache(
    "rules.ttr.moves.colored_classes", 1 << 16
)
"""The coloured tracks of one colour a hand can pay for, by (map, colour, cards of it, locomotives): a table the maps
and the deck bound (2 maps × 8 colours × 13 cards × 15 locomotives = 3 120 at most), which one generation holds
whole, so it is never turned over."""
_ENTRY_BYTES = 56 + 112 + 40 + 40
"""What a memo entry holds whatever the hand: its key (a pair and the hand), a dict slot, its tuple."""


def _affordable_classes(map_id: str, hand: tuple[int, ...]) -> PaymentClass:
    """(payment count, track mask) of every track this hand can pay for, whatever it costs in cars (memoised)."""
    key = (map_id, hand)
    found = _affordable.get(key)
    if found is None:
        found, weight = _payment_classes_for(map_id, hand)
        _affordable.put(key, found, weight=weight)
    return found


def _payment_classes_for(map_id: str, hand: tuple[int, ...]) -> tuple[PaymentClass, int]:
    """`_affordable_classes` worked out from the per-colour and gray tables, and about how many bytes it holds."""
    locos = hand[LOCO]
    merged: dict[int, int] = {}
    for color in range(LOCO):
        key = (map_id, color, hand[color], locos)
        groups = _colored.get(key)
        if groups is None:
            groups = _colored.put(key, _colored_groups(board_for(map_id), color, hand[color], locos))
        for n_pays, mask in groups:
            merged[n_pays] = merged.get(n_pays, 0) | mask
    for n_pays, mask in _gray_groups(map_id, tuple(sorted(hand[:LOCO])), locos):
        merged[n_pays] = merged.get(n_pays, 0) | mask
    return tuple(sorted(merged.items())), _ENTRY_BYTES + 64 * len(merged)


def _group(board: Board, hand: tuple[int, ...], classes: Iterable[int]) -> PaymentClass:
    """(payment count, track mask) of these payment classes for this hand, by count."""
    groups: dict[int, int] = {}
    for k in classes:
        color, length, ferry, _ = board.payment_classes[k]
        n_pays = len(payments(color, length, ferry, hand))
        if n_pays:
            groups[n_pays] = groups.get(n_pays, 0) | board.class_masks[k]
    return tuple(sorted(groups.items()))


def _colored_groups(board: Board, color: int, have: int, locos: int) -> PaymentClass:
    """The coloured tracks of `color` payable with `have` such cards and `locos` locomotives (ferries are gray)."""
    hand = tuple(have if c == color else locos if c == LOCO else 0 for c in range(LOCO + 1))
    return _group(board, hand, (k for k, cls in enumerate(board.payment_classes) if cls[0] == color))


@lru_cache(maxsize=4096)
def _gray_groups(map_id: str, colors: tuple[int, ...], locos: int) -> PaymentClass:
    """The gray tracks payable with these colour counts (sorted: how many payments a gray track has does not depend
    on which colour has which count) and `locos` locomotives."""
    board = board_for(map_id)
    return _group(board, (*colors, locos), (k for k, cls in enumerate(board.payment_classes) if cls[0] < 0))


def class_payments(board: Board, k: int, hand: tuple[int, ...]) -> tuple[Payment, ...]:
    """The distinct payments of payment class `k` from this hand."""
    color, length, ferry, _ = board.payment_classes[k]
    if color >= 0:
        return _colored_payments(color, length, hand[color], hand[LOCO])
    return payments(color, length, ferry, hand)


@lru_cache(maxsize=4096)
def _colored_payments(color: int, length: int, have: int, locos: int) -> tuple[Payment, ...]:
    """The payments of a coloured track (two counts of the hand matter: at most 8 × 8 × 13 × 15 keys)."""
    hand = tuple(have if c == color else locos if c == LOCO else 0 for c in range(LOCO + 1))
    return payments(color, length, 0, hand)


def doubles_closed(n_players: int, options: TtrOptions, board: Board) -> bool:
    """Whether a double route's second track closes once the first is claimed (2–3 players, R-T6)."""
    return n_players < board.game_map.rules.double_min_players and not options.open_doubles


def closed_tracks(state: TtrState, board: Board) -> list[int]:
    """Free tracks nobody may claim any more: the twin of a claimed double route with 2–3 players (R-T6)."""
    if not doubles_closed(state.n_players, state.options, board):
        return []
    owners, partners = state.owners, board.track_partner
    return [i for i, partner in enumerate(partners) if partner >= 0 and owners[i] < 0 and owners[partner] >= 0]


OwnerMasks = tuple[int, int, tuple[int, ...]]
"""(claimed tracks, twins of claimed tracks, per seat the twins of its own tracks), as bitmasks."""
_OWNER_MASKS: dict[int, tuple[tuple[int, ...], OwnerMasks]] = {}
"""`owner_masks` by the identity of the owners tuple (a move that claims nothing passes the same tuple on, so the
masks are worked out once per claim); the entry holds the tuple, so its id is not reused while it is kept."""
OWNER_MASKS_SIZE = 4096


def owner_masks(owners: tuple[int, ...], board: Board) -> OwnerMasks:
    """The claimed tracks and the twins they close, as bitmasks (memoised by the owners tuple's identity)."""
    entry = _OWNER_MASKS.get(id(owners))
    if entry is not None and entry[0] is owners:
        return entry[1]
    taken = twins = 0
    own_twins = [0] * len(owners)
    partners = board.track_partner
    for i, owner in enumerate(owners):
        if owner >= 0:
            taken |= 1 << i
            partner = partners[i]
            if partner >= 0:
                twins |= 1 << partner
                own_twins[owner] |= 1 << partner
    masks = (taken, twins, tuple(own_twins[: max(owners) + 1]))
    if len(_OWNER_MASKS) >= OWNER_MASKS_SIZE:
        _OWNER_MASKS.clear()
    _OWNER_MASKS[id(owners)] = (owners, masks)
    return masks


def with_owner(owners: tuple[int, ...], track: int, seat: int, board: Board) -> tuple[int, ...]:
    """Return `owners` with `track` claimed by `seat`, its masks derived from the old ones when those are known."""
    new = (*owners[:track], seat, *owners[track + 1 :])
    entry = _OWNER_MASKS.get(id(owners))
    if entry is not None and entry[0] is owners:
        taken, twins, own_twins = entry[1]
        seats = list(own_twins) + [0] * (seat + 1 - len(own_twins))
        partner = board.track_partner[track]
        if partner >= 0:
            twins |= 1 << partner
            seats[seat] |= 1 << partner
        if len(_OWNER_MASKS) >= OWNER_MASKS_SIZE:
            _OWNER_MASKS.clear()
        _OWNER_MASKS[id(new)] = (new, (taken | 1 << track, twins, tuple(seats)))
    return new


def _fill_claims(moves: MoveSet, state: TtrState, seat: int, board: Board) -> None:
    """Put the seat's claimable tracks (R-T5, R-T6, R-EU-5) and their payment count into `moves`."""
    hand = state.hands[seat]
    cars = state.cars[seat]
    groups = (
        _affordable_classes(state.map_id, hand)
        if cars >= board.max_length
        else _group(board, hand, (k for k, cls in enumerate(board.payment_classes) if cls[1] <= cars))
    )
    if not groups:
        return
    taken, twins, own_twins = owner_masks(state.owners, board)
    blocked = taken
    if seat < len(own_twins):
        blocked |= own_twins[seat]
    if twins and doubles_closed(state.n_players, state.options, board):
        blocked |= twins
    free = board.all_tracks & ~blocked
    count = avail = 0
    for n_pays, mask in groups:
        mask &= free
        if mask:
            count += mask.bit_count() * n_pays
            avail |= mask
    moves.claim_count = count
    moves.claim_mask = avail
    moves._hand = hand
    moves._board = board
    moves._groups = groups


def claimable(state: TtrState, seat: int, board: Board) -> tuple[list[tuple[int, tuple[Payment, ...]]], int]:
    """Every track the seat may claim now (R-T5, R-T6, R-EU-5) with its distinct payments, and their count."""
    moves = MoveSet()
    _fill_claims(moves, state, seat, board)
    return moves.claims, moves.claim_count


def station_cost(stations_left: int, board: Board) -> int:
    """Cards a player's next station costs: 1, 2, then 3 (R-EU-4)."""
    return board.game_map.rules.stations_per_player - stations_left + 1


_FREE_CITIES: dict[int, tuple[tuple[int, ...], list[int]]] = {}
"""Free cities by the identity of the stations tuple (see `_OWNER_MASKS`)."""


def free_cities(stations: tuple[int, ...]) -> list[int]:
    """The cities without a station (memoised by the tuple's identity: it changes only when a station is built)."""
    entry = _FREE_CITIES.get(id(stations))
    if entry is not None and entry[0] is stations:
        return entry[1]
    free = [c for c, owner in enumerate(stations) if owner < 0]
    if len(_FREE_CITIES) >= OWNER_MASKS_SIZE:
        _FREE_CITIES.clear()
    _FREE_CITIES[id(stations)] = (stations, free)
    return free


def station_options(state: TtrState, seat: int, board: Board) -> tuple[list[int], tuple[Payment, ...]]:
    """Free cities and the distinct payments for the seat's next station, or nothing (R-EU-4)."""
    left = state.stations_left[seat]
    if left <= 0:
        return [], ()
    pays = _station_payments(station_cost(left, board), state.hands[seat])
    if not pays:
        return [], ()
    return free_cities(state.stations), pays


@lru_cache(maxsize=8192)
def _station_payments(cost: int, hand: tuple[int, ...]) -> tuple[Payment, ...]:
    """The distinct payments of a station of this cost from this hand (memoised: hands recur)."""
    return payments(-1, cost, 0, hand)


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


def _opening_moves(state: TtrState, seat: int, board: Board) -> MoveSet:
    """Keep some opening tickets (R-USA-2, R-EU-2), for a seat still choosing."""
    offer = state.offers[seat]
    return MoveSet(keeps=keep_choices(offer, board.game_map.rules.opening_keep) if offer else ())


def _turn_moves(state: TtrState, seat: int, board: Board) -> MoveSet:
    """A turn's first choice: a card, tickets, a claim, a station, or a pass when nothing else is legal."""
    moves = MoveSet(_draw_sources(bool(state.deck or state.discard), state.market, True), bool(state.ticket_deck))
    _fill_claims(moves, state, seat, board)
    if state.stations_left[seat] > 0:
        moves.station_cities, moves.station_payments = station_options(state, seat, board)
    moves.pass_only = not (
        moves.draws or moves.tickets or moves.claim_count or (moves.station_cities and moves.station_payments)
    )
    return moves


def _second_pick_moves(state: TtrState, seat: int, board: Board) -> MoveSet:
    """The second card of a draw (R-T1, R-T2)."""
    return MoveSet(_draw_sources(bool(state.deck or state.discard), state.market, False))


def _tunnel_moves(state: TtrState, seat: int, board: Board) -> MoveSet:
    """Pay a tunnel's extra cards some way, or withdraw (R-EU-6)."""
    return MoveSet(pays=tunnel_payments(state, board), withdraw=True)


def _ticket_moves(state: TtrState, seat: int, board: Board) -> MoveSet:
    """Keep some of the tickets just drawn (R-T7)."""
    return MoveSet(keeps=keep_choices(state.offers[seat], board.game_map.rules.ticket_keep))


_MOVE_SETS: dict[Phase, Callable[[TtrState, int, Board], MoveSet]] = {
    Phase.OPENING: _opening_moves,
    Phase.TURN: _turn_moves,
    Phase.SECOND_PICK: _second_pick_moves,
    Phase.TUNNEL: _tunnel_moves,
    Phase.TICKETS: _ticket_moves,
}
"""The moves of each phase in which someone acts."""


def move_set(state: TtrState, seat: int) -> MoveSet:
    """Return every legal move of `seat` now (empty if it is not this seat's move)."""
    phase = state.phase
    moves = _MOVE_SETS.get(phase)
    if moves is None or (seat != state.current and phase is not Phase.OPENING):
        return MoveSet()
    return moves(state, seat, board_for(state.map_id))
