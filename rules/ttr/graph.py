"""Graph work on a player's routes: which cities they connect (R-P2) and the exact longest trail (R-P3).

A trail may pass through a city many times but uses each track at most once. The search is exact. A component
with at most two odd cities is walked whole (an Euler trail), a tree along its longest path. Otherwise, as a trail
crosses a bridge at most once, the component is solved over the tree of its bridges and the blocks between them
(`_component_trail`): a subtree becomes one dead-end track, an arm, and each block is searched once or twice with
its arms. In a block a trail is what is left once a set of chains is taken out whose odd cities are all the
block's odd cities but the trail's two ends (`_block_trail`): the ends that take arms are tried best bound first,
and the chains taken out are searched city by city, bounded by the cheapest pairing of the cities still to fix.
Nothing is memoised across calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
    incident = _incident(edges, range(len(edges)))
    best_len, best_path = 0, []
    weighed = [(sum(edges[i][2] for i in comp), comp) for comp in _edge_components(edges, incident)]
    for total, comp in sorted(weighed, key=lambda item: -item[0]):
        if total <= best_len:
            break
        length, path = _component_trail(edges, incident, comp, best_len)
        if length > best_len:
            best_len, best_path = length, path
    return best_len, [edges[i][3] for i in best_path]


def _incident(edges: Sequence[Edge], tracks: Iterable[int]) -> dict[int, list[int]]:
    """The tracks at each city."""
    incident: dict[int, list[int]] = {}
    for i in tracks:
        incident.setdefault(edges[i][0], []).append(i)
        incident.setdefault(edges[i][1], []).append(i)
    return incident


Arm = tuple[int, list[int]]
"""(cars, edge indices in order from a block's city outward): the longest trail into a subtree over its bridge."""


def _component_trail(
    edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int], known: int
) -> tuple[int, list[int]]:
    """The longest trail of one component if longer than `known`, else (0, []).

    A trail crosses a bridge at most once, so the blocks left between bridges (2-edge-connected, or a lone city)
    that it visits lie on one path of the tree they and the bridges form. Rooted at its heaviest block, the tree is
    solved bottom-up: a subtree hanging from a bridge is replaced by one dead-end track (an arm) as long as the
    longest trail that enters it over that bridge, found as the longest trail of its own block and arms that starts
    where the bridge lands. Each block is searched with its children's arms for trails whose highest block it is.
    """
    cities = {c for i in comp for c in edges[i][:2]}
    odd = sorted(c for c in cities if len(incident[c]) % 2)
    if len(odd) <= 2:
        total = sum(edges[i][2] for i in comp)
        return (
            (total, _euler_trail(edges, incident, comp, odd[0] if odd else edges[comp[0]][0]))
            if total > known
            else (0, [])
        )
    if len(cities) == len(comp) + 1:
        # A tree: its longest path, from the city farthest from any city to the city farthest from that one.
        far, _ = _farthest(edges, incident, odd[0])
        other, came = _farthest(edges, incident, far)
        path = []
        while other != far:
            j = came[other]
            path.append(j)
            other = edges[j][0] if edges[j][1] == other else edges[j][1]
        length = sum(edges[i][2] for i in path)
        return (length, path) if length > known else (0, [])
    bridges = _bridges(edges, incident, comp)
    if not bridges:
        return _block_trail(edges, comp, [], -1, 0, known)
    block: dict[int, int] = {}
    inner: dict[int, list[int]] = {}
    for i in comp:
        for root in edges[i][:2]:
            if root in block:
                continue
            block[root] = root
            inner[root] = []
            stack = [root]
            while stack:
                city = stack.pop()
                for j in incident[city]:
                    if j not in bridges:
                        a, b = edges[j][0], edges[j][1]
                        other = b if a == city else a
                        if other not in block:
                            block[other] = root
                            stack.append(other)
    for i in comp:
        if i not in bridges:
            inner[block[edges[i][0]]].append(i)
    tree: dict[int, list[int]] = {}
    for j in sorted(bridges):
        tree.setdefault(block[edges[j][0]], []).append(j)
        tree.setdefault(block[edges[j][1]], []).append(j)
    weight = {root: sum(edges[i][2] for i in tracks) for root, tracks in inner.items()}
    top = max(inner, key=lambda root: (weight[root], -root))
    # Blocks in depth-first order from the heaviest, each with the bridge to its parent: children come after.
    order: list[tuple[int, int]] = [(top, -1)]
    for root, via in order:
        for j in tree[root]:
            if j != via:
                a, b = edges[j][0], edges[j][1]
                order.append((block[b] if block[a] == root else block[a], j))
    anchor = sum(edges[i][2] for i in comp) + 1
    arms: dict[int, list[tuple[int, Arm]]] = {}
    """Per block, its children's arms by the city they hang from."""
    for root, via in reversed(order):
        if via < 0:
            continue
        a, b = edges[via][0], edges[via][1]
        here, there = (a, b) if block[a] == root else (b, a)
        hanging = arms.get(root, [])
        if inner[root]:
            length, path = _block_trail(edges, inner[root], hanging, here, anchor, 0)
            length -= anchor
        else:
            # A lone city: the longest arm on.
            length, path = max((arm for _, arm in hanging), key=lambda arm: arm[0], default=(0, []))
        arms.setdefault(block[there], []).append((there, (edges[via][2] + length, [via, *path])))
    best_len, best_path = known, []
    bounds = sorted(((weight[root] + _two_longest(arms.get(root, [])), root) for root, _ in order), reverse=True)
    for bound, root in bounds:
        if bound <= best_len:
            break
        length, path = _block_trail(edges, inner[root], arms.get(root, []), -1, 0, best_len)
        if length > best_len:
            best_len, best_path = length, path
    return (best_len, best_path) if best_path else (0, [])


def _farthest(edges: Sequence[Edge], incident: dict[int, list[int]], start: int) -> tuple[int, dict[int, int]]:
    """The city of a tree farthest from `start` in cars, and the track by which each city is reached from it."""
    dist = {start: 0}
    came: dict[int, int] = {}
    stack = [start]
    while stack:
        city = stack.pop()
        for j in incident[city]:
            a, b, length, _ = edges[j]
            other = b if a == city else a
            if other not in dist:
                dist[other] = dist[city] + length
                came[other] = j
                stack.append(other)
    return max(dist, key=lambda city: dist[city]), came


def _two_longest(arms: list[tuple[int, Arm]]) -> int:
    """The cars of the two longest arms: a trail takes two at most (it ends in them)."""
    lengths = sorted((arm[0] for _, arm in arms), reverse=True)
    return sum(lengths[:2])


EXACT_PAIRING = 6
"""Up to how many cities the pairing bound of `_block_trail` is an exact matching (measured on the hill-climbed
networks of bench/ttr_worst_cases.py)."""

Chain = tuple[int, int, int, tuple[int, ...]]
"""(junction a, junction b, cars, edge indices in order from a to b): a path through cities of degree 2."""


def _block_trail(
    edges: Sequence[Edge], tracks: list[int], arms: list[tuple[int, Arm]], start: int, anchor: int, known: int
) -> tuple[int, list[int]]:
    """The longest trail over a block's tracks (no bridges among them) and its arms if longer than `known`, else
    (0, []); with a `start` city, the longest from there (found as if one more arm `anchor` cars long hung there,
    which every trail that beats the others must take; its cars are counted in the length).

    The trail runs over the block between two ends (one city if it closes); an end may go on into the longest arm
    at its city (a closed trail into the two longest), and an end that takes no arm is an odd city (else the trail
    could go on). What the trail leaves of the block pairs the block's odd cities but its ends (a T-join), so it
    weighs at least their cheapest pairing by distance (`pairing`). The ends that take arms are chosen first, best
    bound first; then the chains left out are searched city by city, each city still to fix becoming a free end or
    having one of its chains taken out (at a city, the lower chains not taken are kept), until none is left: the
    trail is then the part of what is kept that holds an end (and the other: a part has an even number of odd
    cities). The blocks of the networks hill-climbed in bench/ttr_worst_cases.py have up to 12 junctions and 18
    chains.
    """
    if start >= 0:
        arms = [*arms, (start, (anchor, []))]
    if not tracks:
        # A lone city: the trail is its two longest arms.
        top = sorted((arm for _, arm in arms), key=lambda arm: -arm[0])[:2]
        length = sum(arm[0] for arm in top)
        if length <= known:
            return 0, []
        return length, [*reversed(top[0][1]), *(top[1][1] if len(top) > 1 else ())]
    incident = _incident(edges, tracks)
    longest: dict[int, list[Arm]] = {}
    for city, arm in sorted(arms, key=lambda item: -item[1][0]):
        if len(longest.setdefault(city, [])) < 2:
            longest[city].append(arm)
    junctions = sorted({c for c, ends in incident.items() if len(ends) != 2} | set(longest)) or [min(incident)]
    chains = sorted(_chains(edges, incident, junctions), key=lambda chain: chain[2])
    index = {c: n for n, c in enumerate(junctions)}
    n = len(junctions)
    # Junctions and chains as bits from here on, keyed by bit: no bit_length in the hot loops below.
    touching = dict.fromkeys((1 << k for k in range(n)), 0)
    branching = dict.fromkeys(touching, 0)
    flip_of: dict[int, int] = {}
    ends_of: dict[int, int] = {}
    length_of: dict[int, int] = {}
    odd = 0
    for k, (a, b, length, _) in enumerate(chains):
        bit, ends = 1 << k, 1 << index[a] | 1 << index[b]
        flip_of[bit], ends_of[bit], length_of[bit] = (0 if a == b else ends), ends, length
        odd ^= flip_of[bit]
        touching[1 << index[a]] |= bit
        touching[1 << index[b]] |= bit
        if a != b:
            branching[1 << index[a]] |= bit
            branching[1 << index[b]] |= bit
    every = (1 << len(chains)) - 1
    total = sum(length_of.values())
    dist = _distances(n, [(index[a], index[b], length) for a, b, length, _ in chains])
    memo: dict[int, int] = {}
    nearest: dict[int, list[tuple[int, int]]] = {}

    def pairing(todo: int, free: int) -> int:
        """At most the fewest cars of chains that pair the cities in `todo` but `free` of them (the trail's ends
        still to choose): the cheapest matching by distance, or for many cities (its cost grows as 2 to their
        number) half the sum of each one's distance to its nearest, the `free` largest left out."""
        if not todo:
            return 0
        key = todo << 2 | free
        found = memo.get(key)
        if found is None:
            if todo.bit_count() > EXACT_PAIRING:
                if not nearest:
                    nearest.update(
                        (1 << v, sorted((d, 1 << u) for u, d in enumerate(row) if u != v)) for v, row in enumerate(dist)
                    )
                terms = []
                rest = todo
                while rest:
                    low = rest & -rest
                    rest ^= low
                    for d, u in nearest[low]:
                        if todo & u:
                            terms.append(d)
                            break
                terms.sort()
                found = (sum(terms[: len(terms) - free]) + 1) // 2
            else:
                low = todo & -todo
                rest = todo ^ low
                row = dist[low.bit_length() - 1]
                found = pairing(rest, free - 1) if free else 1 << 20
                scan = rest
                while scan:
                    other = scan & -scan
                    scan ^= other
                    d = row[other.bit_length() - 1]
                    if d < found:
                        found = min(found, d + pairing(rest ^ other, free))
            memo[key] = found
        return found

    # The ends that take arms (u, v as bits; none, one, two, or one city taking two to close the trail), each with
    # the cities still to fix and how many ends are still free to choose.
    bonus = {1 << index[c]: [arm[0] for arm in found] + [0] for c, found in longest.items()}
    arm_choices: list[tuple[int, int, int, int, int]] = [(0, 0, 0, odd, 2)]
    for u, lengths in bonus.items():
        arm_choices.append((lengths[0] + lengths[1], u, u, odd, 0))
        arm_choices.append((lengths[0], u, 0, odd ^ u, 1))
        arm_choices.extend((lengths[0] + other[0], u, v, odd ^ u ^ v, 0) for v, other in bonus.items() if v > u)
    candidates = sorted(
        ((total + gain - pairing(todo, free), gain, u, v, todo, free) for gain, u, v, todo, free in arm_choices),
        key=lambda item: (-item[0], item[2], item[3]),
    )
    best, best_part, best_ends = known, -1, (0, 0, 0)
    ceiling, arm_ends = 0, (0, 0)
    """The trail's cars if it took every chain, and the ends that take arms, for the candidate being searched."""

    def take_out(todo: int, free: int, ends: int, removed: int, decided: int, weight: int) -> None:
        """Fix the cities in `todo` one by one, the one with the fewest chains left to take out first (the lowest
        of those): make it a free end (`ends`) or take a chain at it out."""
        nonlocal best, best_part, best_ends
        if ceiling - weight - pairing(todo, free) <= best:
            return
        if todo:
            low = todo & -todo
            fewest = (branching[low] & ~decided).bit_count()
            scan = todo ^ low
            while scan and fewest > 1:
                city = scan & -scan
                scan ^= city
                count = (branching[city] & ~decided).bit_count()
                if count < fewest:
                    low, fewest = city, count
            if free:
                take_out(todo ^ low, free - 1, ends | low, removed, decided, weight)
            choices = branching[low] & ~decided
            while choices:
                chain = choices & -choices
                choices ^= chain
                decided |= chain
                take_out(todo ^ flip_of[chain], free, ends, removed | chain, decided, weight + length_of[chain])
            return
        kept = every & ~removed
        seen = frontier = arm_ends[0] or ends & -ends or 1
        part = 0
        value = ceiling - total
        while frontier:
            new = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new |= touching[low]
            new &= kept & ~part
            part |= new
            while new:
                low = new & -new
                new ^= low
                frontier |= ends_of[low]
                value += length_of[low]
            frontier &= ~seen
            seen |= frontier
        if value > best:
            best, best_part, best_ends = value, part, (*arm_ends, ends & -ends)

    for bound, gain, u, v, todo, free in candidates:
        if bound <= best:
            break
        ceiling, arm_ends = total + gain, (u, v)
        take_out(todo, free, 0, 0, 0, 0)
    if best_part < 0:
        return 0, []
    u, v, free_ends = (junctions[bit.bit_length() - 1] if bit else -1 for bit in best_ends)
    if start >= 0 and v == start:
        u, v = v, u
    kept_tracks = [i for k, chain in enumerate(chains) if best_part >> k & 1 for i in chain[3]]
    path = [*reversed(longest[u][0][1])] if u >= 0 else []
    if kept_tracks:
        first = u if u >= 0 else free_ends if free_ends >= 0 else junctions[0]
        path += _euler_trail(edges, _incident(edges, kept_tracks), kept_tracks, first)
    if v >= 0 and v != u:
        path += longest[v][0][1]
    elif v == u >= 0 and len(longest[u]) > 1:
        path += longest[u][1][1]
    return best, path


def _distances(n: int, links: list[tuple[int, int, int]]) -> list[list[int]]:
    """Cars apart of every two of `n` cities joined by these (a, b, cars) links (Floyd–Warshall: a block has a
    dozen or so junctions)."""
    far = 1 << 20
    dist = [[far] * n for _ in range(n)]
    for k in range(n):
        dist[k][k] = 0
    for i, j, length in links:
        if length < dist[i][j]:
            dist[i][j] = dist[j][i] = length
    for k in range(n):
        row_k = dist[k]
        for i in range(n):
            d_ik = dist[i][k]
            if d_ik < far and i != k:
                dist[i] = [x if x <= d_ik + y else d_ik + y for x, y in zip(dist[i], row_k, strict=True)]
    return dist


def _bridges(edges: Sequence[Edge], incident: dict[int, list[int]], comp: list[int]) -> set[int]:
    """The component's bridges (Tarjan's low links, iterative; a parallel track is no bridge)."""
    start = edges[comp[0]][0]
    order = {start: 0}
    low = {start: 0}
    bridges: set[int] = set()
    stack = [(start, -1, iter(incident[start]))]
    while stack:
        city, via, tracks = stack[-1]
        for j in tracks:
            if j == via:
                continue
            a, b = edges[j][0], edges[j][1]
            other = b if a == city else a
            if other not in order:
                order[other] = low[other] = len(order)
                stack.append((other, j, iter(incident[other])))
                break
            if order[other] < low[city]:
                low[city] = order[other]
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                if low[city] < low[parent]:
                    low[parent] = low[city]
                if low[city] > order[parent]:
                    bridges.add(via)
    return bridges


def _chains(edges: Sequence[Edge], incident: dict[int, list[int]], junctions: list[int]) -> list[Chain]:
    """Contract the runs of tracks through cities other than these junctions into single chains between them.

    A longest trail never ends inside such a run (the run's cities have degree 2 and no arm: it could go on along
    the run's other track), so it is made of whole chains.
    """
    stops = set(junctions)
    seen: set[int] = set()
    chains: list[Chain] = []
    for start in junctions:
        for first in incident.get(start, ()):
            if first in seen:
                continue
            path = [first]
            seen.add(first)
            length = edges[first][2]
            a, b = edges[first][0], edges[first][1]
            city = b if a == start else a
            while city not in stops:
                nxt = incident[city][0] if incident[city][1] == path[-1] else incident[city][1]
                path.append(nxt)
                seen.add(nxt)
                length += edges[nxt][2]
                a, b = edges[nxt][0], edges[nxt][1]
                city = b if a == city else a
            chains.append((start, city, length, tuple(path)))
    return chains


def _edge_components(edges: Sequence[Edge], incident: dict[int, list[int]]) -> list[list[int]]:
    """Group edge indices by connected component, in a stable order."""
    seen: set[int] = set()
    groups: list[list[int]] = []
    for first in range(len(edges)):
        city = edges[first][0]
        if city in seen:
            continue
        seen.add(city)
        stack = [city]
        group: set[int] = set()
        while stack:
            city = stack.pop()
            for j in incident[city]:
                group.add(j)
                a, b = edges[j][0], edges[j][1]
                other = b if a == city else a
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
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
