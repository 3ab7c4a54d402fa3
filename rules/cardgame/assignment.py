"""The exact best use of a revealed Train Stack (R-CG-13): which tickets it completes, which card serves which.

Each completed ticket takes, per coloured circle, one stack card of that colour or a locomotive, and a card serves
one ticket only. Natural cards only ever serve their own colour, so a set of tickets fits the stack exactly when
the shortfalls of its colours, added up, are covered by the locomotives. The search maximises, in this order, the
ticket points, the number of completed tickets, the number of big-city names on them, and finally prefers the set
holding the lowest ticket id where two sets differ (a fixed order, so the result is unique and deterministic).

The search is exact. Two facts keep it fast even for absurd hands of 40+ tickets:
1. A Lagrangian bound: for prices `lam[c] >= 0` on natural cards and `max(lam)` on locomotives, the stack's
   priced value plus the positive reduced points `points - lam·need` of the tickets still open bounds every
   completion (LP weak duality). Prices come from a short subgradient descent at the root.
2. Tickets are tried in order of reduced points, so the first greedy pass is nearly optimal and the bound cuts
   almost everything else. Ties on points are settled by a layered dynamic programme over the remaining
   capacities that keeps only states still able to reach the best points.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from rules.cardgame.cards import LOCOMOTIVE, N_COLORS
from rules.cardgame.tickets import Ticket

_DUAL_ITERATIONS = 200
_LAYER_ITERATIONS = 40
_REPRICE_STATES = 200
"""A tie-settling layer with more states than this gets prices of its own (see `_Search._settle_ties`)."""
_SMALL = 20
"""Up to this many candidate tickets, plain branch and bound (no prices) is faster than computing prices."""

_EPSILON = 1e-6
"""Slack for float rounding in the bound; points are integers, so it never hides a better set."""

Capacity = tuple[tuple[int, ...], int]
"""What is left of a stack: natural cards per colour, and locomotives."""


@dataclass(frozen=True)
class StackAssignment:
    """The best use of one stack: completed ticket ids (ascending), each one's cards, and the cards left over."""

    completed: tuple[int, ...]
    cards: dict[int, tuple[int, ...]]
    unused: tuple[int, ...]


@dataclass(frozen=True)
class _Item:
    """A candidate ticket in the search: points, packed tie-break weight, per-colour need."""

    ticket: Ticket
    points: int
    tiebreak: int
    need: tuple[int, ...]


def best_assignment(stack: Sequence[int], tickets: Sequence[Ticket]) -> StackAssignment:
    """Return the exact best assignment of the stack's cards (per-kind counts) to these tickets."""
    naturals = tuple(stack[:N_COLORS])
    locomotives = stack[LOCOMOTIVE]
    items = _candidates(naturals, locomotives, tickets)
    chosen = _best_set(items, naturals, locomotives)
    return _assign_cards(stack, sorted((item.ticket for item in chosen), key=lambda t: t.id))


def fits(stack: Sequence[int], needs: Sequence[Sequence[int]]) -> bool:
    """Whether one stack (per-kind counts) can serve all these per-colour needs together."""
    shortfall = 0
    for color in range(N_COLORS):
        wanted = sum(need[color] for need in needs)
        if wanted > stack[color]:
            shortfall += wanted - stack[color]
    return shortfall <= stack[LOCOMOTIVE]


def _candidates(naturals: tuple[int, ...], locomotives: int, tickets: Sequence[Ticket]) -> list[_Item]:
    """Build the search items: each ticket the stack could complete on its own, with its tie-break weight."""
    ordered = sorted(tickets, key=lambda t: t.id)
    n = len(ordered)
    big_shift = n
    count_shift = big_shift + (n * max((len(t.big_cities) for t in ordered), default=0)).bit_length()
    items = []
    for rank, ticket in enumerate(ordered):
        need = ticket.need
        if _shortfall(naturals, need) > locomotives:
            continue
        tiebreak = (1 << count_shift) | (len(ticket.big_cities) << big_shift) | (1 << (n - 1 - rank))
        items.append(_Item(ticket, ticket.points, tiebreak, need))
    return items


def _shortfall(naturals: Sequence[int], need: Sequence[int]) -> int:
    """Return how many locomotives `need` takes beyond the natural cards available."""
    return sum(want - have for have, want in zip(naturals, need, strict=True) if want > have)


def _take(capacity: Capacity, need: tuple[int, ...]) -> Capacity | None:
    """Serve `need` from `capacity` (naturals first, locomotives for the rest), or None if it does not fit."""
    naturals, locomotives = capacity
    left = []
    for have, want in zip(naturals, need, strict=True):
        if want > have:
            locomotives -= want - have
            left.append(0)
        else:
            left.append(have - want)
    return (tuple(left), locomotives) if locomotives >= 0 else None


def _best_set(items: list[_Item], naturals: tuple[int, ...], locomotives: int) -> list[_Item]:
    """Return the candidate set with the best (points, count, big cities, fixed order)."""
    if not items:
        return []
    if _take_all(items, (naturals, locomotives)) is not None:
        return items
    prices = _prices(items, naturals, locomotives) if len(items) > _SMALL else [0.0] * N_COLORS
    search = _Search(items, prices, (naturals, locomotives))
    return search.best_set()


def _take_all(items: Sequence[_Item], capacity: Capacity) -> Capacity | None:
    """Serve every item in turn, or None as soon as one does not fit."""
    current: Capacity | None = capacity
    for item in items:
        if current is None:
            return None
        current = _take(current, item.need)
    return current


def _prices(
    items: Sequence[_Item], naturals: tuple[int, ...], locomotives: int, iterations: int = _DUAL_ITERATIONS
) -> list[float]:
    """Approximate the LP's dual prices of natural cards by subgradient descent (any prices give a valid bound)."""
    prices = [0.0] * N_COLORS
    best_prices = prices
    best_value = float("inf")
    step = 2.0
    for _ in range(iterations):
        top = max(range(N_COLORS), key=prices.__getitem__)
        value = sum(p * c for p, c in zip(prices, naturals, strict=True)) + prices[top] * locomotives
        gradient = [float(c) for c in naturals]
        gradient[top] += locomotives
        for item in items:
            reduced = item.points - sum(p * w for p, w in zip(prices, item.need, strict=True))
            if reduced > 0:
                value += reduced
                for color, want in enumerate(item.need):
                    gradient[color] -= want
        if value < best_value:
            best_value, best_prices = value, prices
        norm = sum(g * g for g in gradient) ** 0.5
        if norm == 0:
            break
        prices = [max(0.0, p - step * g / norm) for p, g in zip(prices, gradient, strict=True)]
        step *= 0.985
    return best_prices


class _Search:
    """Branch and bound over items ordered by reduced points, then a tie-settling pass; see the module text."""

    def __init__(self, items: list[_Item], prices: list[float], capacity: Capacity) -> None:
        reduced = [item.points - sum(p * w for p, w in zip(prices, item.need, strict=True)) for item in items]
        order = sorted(range(len(items)), key=lambda i: (-reduced[i], -items[i].tiebreak))
        self.items = [items[i] for i in order]
        self.prices = prices
        self.locomotive_price = max(prices)
        self.capacity = capacity
        n = len(self.items)
        # Suffix tables over the items still open from position i: positive reduced points, what they could
        # ever use, and (for the tie-break bound) their sizes ascending and tie-break weights descending.
        self.open_reduced = [0.0] * (n + 1)
        self.open_need = [(0,) * N_COLORS] * (n + 1)
        self.open_total = [0] * (n + 1)
        self.open_sizes: list[list[int]] = [[]] * (n + 1)
        self.open_tiebreaks: list[list[int]] = [[0]] * (n + 1)
        self.dense_sizes: list[list[int]] = [[0]] * (n + 1)
        self.dense_points: list[list[int]] = [[0]] * (n + 1)
        self.dense_rate: list[list[float]] = [[]] * (n + 1)
        for i in range(n - 1, -1, -1):
            need = self.items[i].need
            self.open_reduced[i] = self.open_reduced[i + 1] + max(0.0, reduced[order[i]])
            self.open_need[i] = tuple(a + b for a, b in zip(self.open_need[i + 1], need, strict=True))
            self.open_total[i] = self.open_total[i + 1] + sum(need)
            self.open_sizes[i] = list(accumulate(sorted(sum(item.need) for item in self.items[i:])))
            weights = sorted((item.tiebreak for item in self.items[i:]), reverse=True)
            self.open_tiebreaks[i] = [0, *accumulate(weights)]
            dense = sorted(self.items[i:], key=lambda item: -item.points / sum(item.need))
            self.dense_sizes[i] = [0, *accumulate(sum(item.need) for item in dense)]
            self.dense_points[i] = [0, *accumulate(item.points for item in dense)]
            self.dense_rate[i] = [item.points / sum(item.need) for item in dense]
        self.best = self._greedy()
        self.seen: dict[tuple[int, Capacity], int] = {}

    def best_set(self) -> list[_Item]:
        """Find the best points, then the best tie-break among sets reaching them; return that set."""
        self._improve(0, self.capacity, (0, 0, 0))
        return self._settle_ties()

    def _greedy(self) -> tuple[int, int, int]:
        """The greedy pass in search order, as (points, tie-break, chosen positions): the first incumbent."""
        capacity = self.capacity
        points = tiebreak = chosen = 0
        for i, item in enumerate(self.items):
            taken = _take(capacity, item.need)
            if taken is not None:
                capacity = taken
                points, tiebreak, chosen = points + item.points, tiebreak + item.tiebreak, chosen | 1 << i
        return points, tiebreak, chosen

    def _clip(self, i: int, capacity: Capacity) -> Capacity:
        """Forget capacity the open items can never use, so equivalent states share one key."""
        naturals, locomotives = capacity
        clipped = tuple(h if h < w else w for h, w in zip(naturals, self.open_need[i], strict=True))
        return clipped, min(locomotives, self.open_total[i])

    def _points_bound(self, i: int, capacity: Capacity, points: int) -> int:
        """Return an upper bound on the points of any completion from item `i` on (the Lagrangian bound)."""
        naturals, locomotives = capacity
        priced = sum(p * h for p, h in zip(self.prices, naturals, strict=True))
        lagrangian = priced + self.locomotive_price * locomotives + self.open_reduced[i]
        cards = sum(naturals) + locomotives
        whole = bisect_right(self.dense_sizes[i], cards) - 1
        knapsack = float(self.dense_points[i][whole])
        if whole < len(self.dense_rate[i]):
            knapsack += (cards - self.dense_sizes[i][whole]) * self.dense_rate[i][whole]
        return int(points + min(lagrangian, knapsack) + _EPSILON)

    def _tiebreak_bound(self, i: int, capacity: Capacity) -> int:
        """Bound the tie-break weight the open items can add: at most as many as their smallest sizes allow."""
        naturals, locomotives = capacity
        fitting = bisect_right(self.open_sizes[i], sum(naturals) + locomotives)
        return self.open_tiebreaks[i][fitting]

    def _improve(self, i: int, capacity: Capacity, value: tuple[int, int, int]) -> None:
        """Depth-first search for sets with strictly more points than the best known."""
        points, tiebreak, chosen = value
        if value > self.best:
            self.best = value
        if i == len(self.items):
            return
        capacity = self._clip(i, capacity)
        key = (i, capacity)
        if self.seen.get(key, -1) >= points:
            return
        self.seen[key] = points
        if self._points_bound(i, capacity, points) <= self.best[0]:
            return
        item = self.items[i]
        taken = _take(capacity, item.need)
        if taken is not None:
            self._improve(i + 1, taken, (points + item.points, tiebreak + item.tiebreak, chosen | 1 << i))
        self._improve(i + 1, capacity, value)

    def _settle_ties(self) -> list[_Item]:
        """Among sets reaching the best points, keep per state the best (points, tie-break); return the winner.

        A state is dropped when it cannot reach the best points, or cannot beat the incumbent's tie-break. Root
        prices bound deep states loosely, so a crowded layer gets fresh prices for its own open items, priced
        at its median capacity; a state must pass both bounds.
        """
        target = self.best[0]
        layer: dict[Capacity, tuple[int, int, int]] = {self._clip(0, self.capacity): (0, 0, 0)}
        for i, item in enumerate(self.items):
            local = self._layer_prices(i, layer) if len(layer) > _REPRICE_STATES else None
            following: dict[Capacity, tuple[int, int, int]] = {}
            for capacity, value in layer.items():
                points, tiebreak, chosen = value
                if self._points_bound(i, capacity, points) < target:
                    continue
                if local is not None and _lagrangian(local, capacity, points) < target:
                    continue
                if tiebreak + self._tiebreak_bound(i, capacity) <= self.best[1]:
                    continue
                _keep_better(following, self._clip(i + 1, capacity), value)
                taken = _take(capacity, item.need)
                if taken is not None:
                    value = (points + item.points, tiebreak + item.tiebreak, chosen | 1 << i)
                    _keep_better(following, self._clip(i + 1, taken), value)
            layer = following
        _, _, chosen = max([self.best, *layer.values()])
        return [item for i, item in enumerate(self.items) if chosen >> i & 1]

    def _layer_prices(self, i: int, layer: dict[Capacity, tuple[int, int, int]]) -> _Priced:
        """Prices for the items open from `i`, tuned to the layer's median capacity, with their reduced sum."""
        capacities = sorted(layer, key=lambda c: (sum(c[0]) + c[1], c))
        naturals, locomotives = capacities[len(capacities) // 2]
        open_items = self.items[i:]
        prices = _prices(open_items, naturals, locomotives, _LAYER_ITERATIONS)
        reduced = sum(
            max(0.0, item.points - sum(p * w for p, w in zip(prices, item.need, strict=True))) for item in open_items
        )
        return prices, max(prices), reduced


_Priced = tuple[list[float], float, float]
"""Prices of natural cards, the locomotive's price, and the open items' positive reduced points."""


def _lagrangian(priced: _Priced, capacity: Capacity, points: int) -> int:
    """Bound the points reachable from a state with these prices (LP weak duality)."""
    prices, locomotive_price, reduced = priced
    naturals, locomotives = capacity
    value = sum(p * h for p, h in zip(prices, naturals, strict=True)) + locomotive_price * locomotives
    return int(points + value + reduced + _EPSILON)


def _keep_better(layer: dict[Capacity, tuple[int, int, int]], key: Capacity, value: tuple[int, int, int]) -> None:
    """Store `value` under `key` unless an equal-or-better (points, tie-break) is there already."""
    old = layer.get(key)
    if old is None or value[:2] > old[:2]:
        layer[key] = value


def _assign_cards(stack: Sequence[int], completed: list[Ticket]) -> StackAssignment:
    """Hand out the cards: in ticket-id order, natural cards of each colour first, then locomotives."""
    left = list(stack)
    cards: dict[int, tuple[int, ...]] = {}
    for ticket in completed:
        used: list[int] = []
        for color, want in enumerate(ticket.need):
            for _ in range(want):
                kind = color if left[color] > 0 else LOCOMOTIVE
                if left[kind] == 0:
                    raise ValueError("the chosen tickets do not fit the stack")
                left[kind] -= 1
                used.append(kind)
        cards[ticket.id] = tuple(used)
    return StackAssignment(tuple(t.id for t in completed), cards, tuple(left))
