"""Graph work on a player's routes: which cities they connect (R-P2) and the exact longest trail (R-P3).

A trail may pass through a city many times but uses each track at most once. The search is exact: a component
with at most two odd-degree cities is walked whole (an Euler trail); otherwise a longest trail must start and end
at odd-degree cities (an even end could be extended), so a depth-first search over unused tracks from each
odd-degree city finds it.
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
    incident: dict[int, list[int]] = {}
    for i, (a, b, _, _) in enumerate(edges):
        incident.setdefault(a, []).append(i)
        incident.setdefault(b, []).append(i)
    best_len, best_path = 0, []
    for comp in _edge_components(edges, incident):
        comp_len = sum(edges[i][2] for i in comp)
        if comp_len <= best_len:
            continue
        cities = {c for i in comp for c in edges[i][:2]}
        odd = [c for c in sorted(cities) if len(incident[c]) % 2]
        if len(odd) <= 2:
            path = _euler_trail(edges, incident, comp, odd[0] if odd else edges[comp[0]][0])
            best_len, best_path = comp_len, path
            continue
        length, path = _search(edges, incident, odd, comp_len)
        if length > best_len:
            best_len, best_path = length, path
    return best_len, [edges[i][3] for i in best_path]


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


def _search(
    edges: Sequence[Edge], incident: dict[int, list[int]], starts: list[int], upper: int
) -> tuple[int, list[int]]:
    """Depth-first search of trails from each start city; stops early if a trail uses every edge."""
    ends = [(a, b) for a, b, _, _ in edges]
    lengths = [e[2] for e in edges]
    used = [False] * len(edges)
    path: list[int] = []
    best_len = 0
    best_path: list[int] = []

    def walk(city: int, total: int) -> bool:
        nonlocal best_len, best_path
        if total > best_len:
            best_len, best_path = total, list(path)
            if total == upper:
                return True
        for i in incident[city]:
            if not used[i]:
                used[i] = True
                path.append(i)
                a, b = ends[i]
                done = walk(b if a == city else a, total + lengths[i])
                path.pop()
                used[i] = False
                if done:
                    return True
        return False

    for start in starts:
        if walk(start, 0):
            break
    return best_len, best_path
