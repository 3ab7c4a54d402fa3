"""Graph work on a player's routes: which cities they connect (R-P2) and the exact longest trail (R-P3).

A trail may pass through a city many times but uses each track at most once. The search is exact. A trail
crosses a bridge at most once, so a component is cut into parts along its bridges (`_bridge_paths`); a part with
at most two odd-degree cities is walked whole (an Euler trail); otherwise a longest trail must start and end at
odd-degree cities (an even end could be extended), and it is found over the part's chains (runs through cities of
degree 2, contracted) by two bounded searches that take turns (`_search`), both cut by what parity makes a trail
leave out (`_pairing_floor`). Nothing is memoised across calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

Edge = tuple[int, int, int, int]
"""(city a, city b, length, track id)."""


def components(n_cities: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """Return a component label per city for these edges (union-find with path halving)."""
    parent = list(range(n_cities))
    for a, b in edges:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[a] = b
    for i in range(n_cities):
        root = i
        while parent[root] != root:
            root = parent[root]
        parent[i] = root
    return parent


def longest_trail(edges: Sequence[Edge]) -> tuple[int, list[int]]:
    """Return the length in cars of the longest trail over these edges and its track ids in order."""
    if not edges:
        return 0, []
    incident: dict[int, list[int]] = {}
    for i, (a, b, _, _) in enumerate(edges):
        incident.setdefault(a, []).append(i)
        incident.setdefault(b, []).append(i)
    best_len, best_path = 0, []
    for comp in _edge_components(edges, incident):
        for tracks in _bridge_paths(edges, incident, comp):
            if sum(edges[i][2] for i in tracks) <= best_len:
                break
            part = _contract(edges, tracks)
            if part.ceiling > best_len:
                length, path = _search(edges, part, best_len)
                if length > best_len:
                    best_len, best_path = length, path
    return best_len, [edges[i][3] for i in best_path]


Chain = tuple[int, int, int, tuple[int, ...]]
"""(junction a, junction b, cars, edge indices in order from a to b): a path through cities of degree 2."""


class _Part(NamedTuple):
    """Connected tracks contracted to chains (see `_chains`), their cities numbered in order for bitmasks."""

    tracks: list[int]
    incident: dict[int, list[int]]
    chains: list[Chain]
    """Shortest first; empty when the tracks have at most two odd cities (one trail takes them all)."""
    cities: list[int]
    flips: list[int]
    """Per chain, the cities whose parity it changes."""
    odd: int
    near: list[list[tuple[int, int]]]
    """See `_nearest`."""
    total: int
    ceiling: int
    """No trail is longer: all cars but the least a trail must leave out (`_pairing_floor`)."""


def _contract(edges: Sequence[Edge], tracks: list[int]) -> _Part:
    """Contract connected tracks to chains and bound their longest trail."""
    incident: dict[int, list[int]] = {}
    for i in tracks:
        incident.setdefault(edges[i][0], []).append(i)
        incident.setdefault(edges[i][1], []).append(i)
    total = sum(edges[i][2] for i in tracks)
    if sum(len(ends) % 2 for ends in incident.values()) <= 2:
        return _Part(tracks, incident, [], [], [], 0, [], total, total)
    chains = _chains(edges, incident, tracks)
    chains.sort(key=lambda c: c[2])
    cities = sorted({c for a, b, _, _ in chains for c in (a, b)})
    bit = {c: 1 << n for n, c in enumerate(cities)}
    flips = [0 if a == b else bit[a] | bit[b] for a, b, _, _ in chains]
    odd = 0
    for flip in flips:
        odd ^= flip
    near = _nearest(chains, cities)
    return _Part(tracks, incident, chains, cities, flips, odd, near, total, total - _pairing_floor(near, odd))


def _bridge_paths(edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int]) -> list[list[int]]:
    """The component's tracks split into parts one of which holds a longest trail, heaviest first.

    A trail crosses a bridge (a track whose removal splits the component) at most once, so the pieces left
    without bridges that it visits lie on one path of the tree they and the bridges form: one part per path
    between two of its leaves, or the whole component when the tree has two leaves at most.
    """
    bridges = _bridges(edges, incident, comp)
    if len(bridges) < 2:
        return [comp]
    piece: dict[int, int] = {}
    for i in comp:
        for root in edges[i][:2]:
            if root in piece:
                continue
            piece[root] = root
            stack = [root]
            while stack:
                city = stack.pop()
                for j in incident[city]:
                    if j not in bridges:
                        a, b = edges[j][0], edges[j][1]
                        other = b if a == city else a
                        if other not in piece:
                            piece[other] = root
                            stack.append(other)
    tree: dict[int, list[tuple[int, int]]] = {}
    for j in bridges:
        pa, pb = piece[edges[j][0]], piece[edges[j][1]]
        tree.setdefault(pa, []).append((pb, j))
        tree.setdefault(pb, []).append((pa, j))
    leaves = sorted(p for p, links in tree.items() if len(links) == 1)
    if len(leaves) <= 2:
        return [comp]
    inner: dict[int, list[int]] = {}
    for i in comp:
        if i not in bridges:
            inner.setdefault(piece[edges[i][0]], []).append(i)
    parts = []
    for n, first in enumerate(leaves):
        came: dict[int, tuple[int, int]] = {first: (-1, -1)}
        stack = [first]
        while stack:
            node = stack.pop()
            for other, j in tree[node]:
                if other not in came:
                    came[other] = (node, j)
                    stack.append(other)
        for last in leaves[n + 1 :]:
            part: list[int] = []
            node = last
            while node >= 0:
                part.extend(inner.get(node, ()))
                node, j = came[node]
                if j >= 0:
                    part.append(j)
            parts.append(sorted(part))
    parts.sort(key=lambda part: -sum(edges[i][2] for i in part))
    return parts


def _bridges(edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int]) -> set[int]:
    """The component's bridges (Tarjan's low links, iterative; a parallel track is no bridge)."""
    start = edges[comp[0]][0]
    order = {start: 0}
    low = {start: 0}
    bridges: set[int] = set()
    stack: list[tuple[int, int, int]] = [(start, -1, 0)]
    while stack:
        city, via, k = stack[-1]
        if k < len(incident[city]):
            stack[-1] = (city, via, k + 1)
            j = incident[city][k]
            if j == via:
                continue
            a, b = edges[j][0], edges[j][1]
            other = b if a == city else a
            if other in order:
                low[city] = min(low[city], order[other])
            else:
                order[other] = low[other] = len(order)
                stack.append((other, j, 0))
            continue
        stack.pop()
        if stack:
            parent = stack[-1][0]
            low[parent] = min(low[parent], low[city])
            if low[city] > order[parent]:
                bridges.add(via)
    return bridges


def _chains(edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int]) -> list[Chain]:
    """Contract the component's runs through degree-2 cities into single chains between the other cities.

    A longest trail never ends inside such a run (it could go on along the run's other track), so it is made of
    whole chains; the component has cities of another degree, since it has more than two odd ones.
    """
    seen: set[int] = set()
    chains: list[Chain] = []
    for start in sorted({c for i in comp for c in edges[i][:2] if len(incident[c]) != 2}):
        for first in incident[start]:
            if first in seen:
                continue
            path = [first]
            seen.add(first)
            length = edges[first][2]
            a, b = edges[first][0], edges[first][1]
            city = b if a == start else a
            while len(incident[city]) == 2:
                nxt = incident[city][0] if incident[city][1] == path[-1] else incident[city][1]
                path.append(nxt)
                seen.add(nxt)
                length += edges[nxt][2]
                a, b = edges[nxt][0], edges[nxt][1]
                city = b if a == city else a
            chains.append((start, city, length, tuple(path)))
    return chains


WALK_BUDGET = 500
"""Steps the trail walk of `_search` may take in its first round."""
LEAVE_OUT_STEP = 1
"""About how many walk steps one step of the removal search costs (it checks parity bounds and connectivity; a walk
step computes a reach bound: measured about even), so the two get equal time each round."""


def _search(edges: Sequence[Edge], part: _Part, known: int) -> tuple[int, list[int]]:
    """The longest trail over a part's tracks if longer than `known`, else (0, []).

    With at most two odd cities it takes every track (an Euler trail). Otherwise two exact searches over the
    part's chains, each fast where the other is slow, take turns with a budget of steps that doubles each round
    until one finishes: a walk of trails from the odd cities (quick when trails are short or few), and a search of
    the chains a trail leaves out, bounded by the best trail walked (quick when few chains must be left out). See
    `_walk` and `_leave_out`.
    """
    tracks, incident, chains, cities, flips, odd, near, total, ceiling = part
    if not chains:
        odd_cities = [c for c in sorted(incident) if len(incident[c]) % 2]
        start = odd_cities[0] if odd_cities else edges[tracks[0]][0]
        return total, _euler_trail(edges, incident, tracks, start)
    starts = [c for n, c in enumerate(cities) if odd >> n & 1]
    budget = WALK_BUDGET
    walked = 0
    steps: list[int] = []
    # When the trail to beat (from another part) is within two cars of the ceiling, the removal search goes first:
    # only sets of chains weighing what the ceiling leaves out or a car more are left for it to rule out, while the
    # walk must still try every start (measured on bench/ttr_worst_cases.py; a wider gap made some networks slower).
    removal_first = 0 < known >= ceiling - 2
    while True:
        if not removal_first:
            walked, steps, finished = _walk(chains, flips, odd, starts, near, known, ceiling, budget)
            if finished:
                cut = -1
                break
        removal_first = False
        cut, finished = _leave_out(
            chains, flips, odd, near, total - max(walked, known), total - ceiling, budget // LEAVE_OUT_STEP
        )
        if finished:
            break
        budget *= 2
    if cut < 0:
        # The walk's best trail is the longest: it finished, or the removal search found nothing to beat it.
        if walked <= known:
            return 0, []
        path: list[int] = []
        for step in steps:
            path.extend(chains[step][3] if step >= 0 else reversed(chains[-step - 1][3]))
        return walked, path
    kept = [i for k, c in enumerate(chains) if not cut >> k & 1 for i in c[3]]
    kept_incident: dict[int, list[int]] = {}
    for i in kept:
        kept_incident.setdefault(edges[i][0], []).append(i)
        kept_incident.setdefault(edges[i][1], []).append(i)
    odd_ends = [c for c in sorted(kept_incident) if len(kept_incident[c]) % 2]
    start = odd_ends[0] if odd_ends else edges[kept[0]][0]
    return sum(edges[i][2] for i in kept), _euler_trail(edges, kept_incident, sorted(kept), start)


def _nearest(chains: list[Chain], cities: list[int]) -> list[list[tuple[int, int]]]:
    """Per city (numbered as in `cities`), the other cities as (cars apart, number), nearest first (Floyd–Warshall:
    the contracted graph has a few dozen cities at most)."""
    n = len(cities)
    index = {c: k for k, c in enumerate(cities)}
    far = 1 << 20
    dist = [[far] * n for _ in range(n)]
    for k in range(n):
        dist[k][k] = 0
    for a, b, length, _ in chains:
        i, j = index[a], index[b]
        if length < dist[i][j]:
            dist[i][j] = dist[j][i] = length
    for k in range(n):
        row_k = dist[k]
        for i in range(n):
            d_ik = dist[i][k]
            if d_ik < far and i != k:
                dist[i] = [x if x <= d_ik + y else d_ik + y for x, y in zip(dist[i], row_k, strict=True)]
    return [sorted((dist[v][u], u) for u in range(n) if u != v) for v in range(n)]


def _pairing_floor(near: list[list[tuple[int, int]]], odd: int) -> int:
    """The least cars of chains a trail must leave out of the whole component, whose odd cities are `odd`.

    What is left out has every odd city but the trail's two ends as an odd city of its own, so it holds paths
    pairing them (a T-join): at least the cheapest such pairing by distance, exact for a few odd cities.
    """
    odd_cities = [k for k in range(len(near)) if odd >> k & 1]
    if len(odd_cities) <= 2:
        return 0
    dist = {(v, u): d for v in odd_cities for d, u in near[v]}
    if len(odd_cities) > 8:
        terms = sorted(next(d for d, u in near[v] if odd >> u & 1) for v in odd_cities)
        return (sum(terms[:-2]) + 1) // 2
    memo: dict[tuple[int, int], int] = {}

    def pair(rest: int, ends: int) -> int:
        """The cheapest pairing of the cities in `rest`, `ends` of them left unpaired."""
        if not rest:
            return 0
        key = (rest, ends)
        if key not in memo:
            low = rest & -rest
            v = low.bit_length() - 1
            others = rest ^ low
            best = pair(others, ends - 1) if ends else 1 << 20
            scan = others
            while scan:
                bit = scan & -scan
                scan ^= bit
                best = min(best, dist[v, bit.bit_length() - 1] + pair(others ^ bit, ends))
            memo[key] = best
        return memo[key]

    return pair(odd, 2)


def _walk(
    chains: list[Chain],
    flips: list[int],
    odd: int,
    starts: list[int],
    near: list[list[tuple[int, int]]],
    known: int,
    ceiling: int,
    budget: int,
) -> tuple[int, list[int], bool]:
    """Depth-first walk of trails over the chains from each odd city, chains used as a bitmask: (best length, its
    chain steps, whether it finished within `budget` steps). A step is k for chain k walked from its first city,
    -k - 1 from its second.

    A branch is cut when it cannot beat the best: the rest of the trail runs over the unused chains it can still
    reach, less what parity or dead ends make it leave out (see `reach_bound`); on tree-like networks most chains are
    soon out of reach. A walk that reaches the same city over the same chains as an earlier one stops.
    """
    cities = sorted({c for a, b, _, _ in chains for c in (a, b)})
    index = {c: n for n, c in enumerate(cities)}
    touching = [0] * len(cities)
    ends = []
    for k, (a, b, _, _) in enumerate(chains):
        touching[index[a]] |= 1 << k
        touching[index[b]] |= 1 << k
        ends.append(1 << index[a] | 1 << index[b])
    lengths = [c[2] for c in chains]
    loops = sum(1 << k for k, (a, b, _, _) in enumerate(chains) if a == b)
    # Cities by number (as in `index`) from here on: no dictionary lookups in the walk.
    out: list[list[tuple[int, int, int, int, int]]] = [[] for _ in cities]
    for k in reversed(range(len(chains))):
        a, b, length, _ = chains[k]
        out[index[a]].append((1 << k, index[b], length, k, flips[k]))
        if b != a:
            out[index[b]].append((1 << k, index[a], length, -k - 1, flips[k]))
    best = known
    best_steps: list[int] = []
    steps: list[int] = []
    degree = {c: sum(1 + (a == b) for a, b, _, _ in chains if c in (a, b)) for c in cities}
    starts_order = sorted(starts, key=lambda c: (degree[c] != 1, c))

    # Keyed by a city's or chain's bit rather than its number: no bit_length in the hot loops below.
    touching_of = {1 << n: mask for n, mask in enumerate(touching)}
    length_of = {1 << k: length for k, length in enumerate(lengths)}
    ends_of = {1 << k: mask for k, mask in enumerate(ends)}
    near_of = {1 << n: [(d, 1 << u) for d, u in row] for n, row in enumerate(near)}

    def reach_bound(city: int, used: int, odd: int, need: int) -> int:
        """The most cars the rest of a trail from `city` (a number) can add over the unused chains it reaches; when
        those chains weigh `need` or less, their weight (enough to cut the branch: the parity part is skipped)."""
        here = 1 << city
        seen_cities = frontier = here
        reached = 0
        left = 0
        while frontier:
            new = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new |= touching_of[low]
            new &= ~used & ~reached
            reached |= new
            while new:
                low = new & -new
                new ^= low
                left += length_of[low]
                frontier |= ends_of[low]
            frontier &= ~seen_cities
            seen_cities |= frontier
        if left <= need:
            return left
        # `flips` and `odd` number the cities as `index` does (both sort the chains' end cities). Unless it closes,
        # the rest ends at a city it leaves no chain at, so what it leaves out pairs the reached odd cities but
        # two (that end and `city`) among themselves and `city`: each is at least as far as the nearest of those.
        # A dead end (a city with one unused chain, not a loop, so odd) ends the trail if it is entered, so the trail
        # enters one at most: the others' chains are left out.
        partners = odd & seen_cities
        rest = partners
        partners |= here
        terms = top = second = 0
        dead_ends = longest = 0
        while rest:
            low = rest & -rest
            rest ^= low
            free = touching_of[low] & reached
            first = free & -free
            shortest = length_of[first]
            if free == first and low != here and not free & loops:
                dead_ends += shortest
                if shortest > longest:
                    longest = shortest
            for d, u in near_of[low]:
                if partners & u:
                    term = d if d > shortest else shortest
                    terms += term
                    if term > second:
                        if term > top:
                            top, second = term, top
                        else:
                            second = term
                    break
        # Half the terms but the two largest, rounded up.
        parity = (terms - top - second + 1) // 2
        return left - max(parity, dead_ends - longest)

    visited: set[int] = set()
    shift = len(cities).bit_length()

    def walk(city: int, used: int, done: int, odd: int) -> bool:
        nonlocal best, best_steps, budget
        if done > best:
            best, best_steps = done, steps.copy()
            if done >= ceiling:
                return True
        budget -= 1
        if budget < 0:
            return True
        # The same tracks used, ending in the same city, leave the same rest: walked once is enough (an earlier walk
        # of them scored at least as much, from fewer banned chains).
        key = used << shift | city
        if key in visited or done + reach_bound(city, used, odd, best - done) <= best:
            return False
        visited.add(key)
        for bit, other, length, step, flip in out[city]:
            if not used & bit:
                steps.append(step)
                if walk(other, used | bit, done + length, odd ^ flip):
                    return True
                steps.pop()
        return False

    # Every trail is walked from one of its ends, so once all walks from a city are done, no later walk needs to end
    # there; a dead end's chain could only be walked to end there, so it is dropped, which makes its neighbour's
    # parity change: the next start is the first unexplored city odd in what is left, dead ends first.
    banned = 0
    explored: set[int] = set()
    while True:
        odd_left = [c for c in starts_order if c not in explored and odd & 1 << index[c]]
        if not odd_left:
            break
        start = odd_left[0]
        if walk(index[start], banned, 0, odd):
            break
        explored.add(start)
        free = touching[index[start]] & ~banned
        if free and not free & (free - 1) and not free & loops:
            banned |= free
            odd ^= flips[free.bit_length() - 1]
    return best, best_steps, budget >= 0 or best >= ceiling


def _leave_out(
    chains: list[Chain],
    flips: list[int],
    odd: int,
    near: list[list[tuple[int, int]]],
    beat: int,
    floor: int,
    budget: int,
) -> tuple[int, bool]:
    """The lightest set of chains (a bitmask) lighter than `beat` whose removal leaves the rest connected with at
    most two odd cities, or -1, and whether that was settled within `budget` steps (else the bitmask means
    nothing): include-or-skip over chains shortest first, cut when the set, plus what its odd cities still need,
    weighs `beat` or more, and stopped once it weighs `floor` (no lighter one exists). An odd city that must turn
    even starts a path of removed chains to another odd city (or to a trail's end, odd in the whole part), so it
    needs at least its shortest undecided chain and its distance to the nearest such city; a path serves two
    cities: half the sum, less the two largest (two cities may stay odd), is a lower bound."""
    m = len(chains)
    cities = sorted({c for a, b, _, _ in chains for c in (a, b)})
    index = {c: n for n, c in enumerate(cities)}
    touching: list[list[int]] = [[] for _ in cities]
    for k, (a, b, _, _) in enumerate(chains):
        touching[index[a]].append(k)
        if b != a:
            touching[index[b]].append(k)
    lengths = [c[2] for c in chains]
    best = beat
    best_cut = -1

    ends = odd

    def needed(odd: int, first: int) -> int:
        """Twice the least weight still to remove, by the odd cities' shortest undecided chains and their distance
        to the nearest city they could be paired with (huge: hopeless)."""
        shortest = []
        stuck = 0
        partners = odd | ends
        rest = odd
        while rest:
            low = rest & -rest
            rest ^= low
            city = low.bit_length() - 1
            found = next((lengths[k] for k in touching[city] if k >= first), -1)
            if found < 0:
                stuck += 1
            else:
                shortest.append(max(found, next(d for d, u in near[city] if partners >> u & 1)))
        if stuck > 2:
            return 1 << 30
        shortest.sort()
        return sum(shortest[: max(0, len(shortest) - (2 - stuck))])

    def connected(cut: int) -> bool:
        parent: dict[int, int] = {}

        def find(city: int) -> int:
            while city in parent:
                city = parent[city]
            return city

        kept = [c for k, c in enumerate(chains) if not cut >> k & 1]
        for a, b, _, _ in kept:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
        root = find(kept[0][0])
        return all(find(a) == root for a, _, _, _ in kept)

    def choose(first: int, cut: int, weight: int, odd: int) -> None:
        nonlocal best, best_cut, budget
        budget -= 1
        if weight >= best or budget < 0:
            return
        if odd.bit_count() <= 2 and cut != (1 << m) - 1 and connected(cut):
            best, best_cut = weight, cut
            if weight <= floor:
                budget = -1 << 30
            return
        if first >= m or 2 * weight + needed(odd, first) >= 2 * best:
            return
        choose(first + 1, cut | 1 << first, weight + lengths[first], odd ^ flips[first])
        choose(first + 1, cut, weight, odd)

    choose(0, 0, 0, odd)
    return best_cut, budget >= 0 or best <= floor


def _edge_components(edges: Sequence[Edge], incident: dict[int, list[int]]) -> list[list[int]]:
    """Group edge indices by connected component, in a stable order."""
    seen: set[int] = set()
    groups: list[list[int]] = []
    for start in range(len(edges)):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            group.append(i)
            for c in edges[i][:2]:
                for j in incident[c]:
                    if j not in seen:
                        seen.add(j)
                        stack.append(j)
        groups.append(sorted(group))
    return groups


def _euler_trail(edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int], start: int) -> list[int]:
    """Return every edge of a component with ≤ 2 odd cities as one trail from `start` (Hierholzer)."""
    used: set[int] = set()
    stack: list[tuple[int, int]] = [(start, -1)]
    trail: list[int] = []
    while stack:
        city, via = stack[-1]
        nxt = next((i for i in incident[city] if i not in used), -1)
        if nxt < 0:
            stack.pop()
            if via >= 0:
                trail.append(via)
            continue
        used.add(nxt)
        a, b = edges[nxt][0], edges[nxt][1]
        stack.append((b if a == city else a, nxt))
    trail.reverse()
    return trail
