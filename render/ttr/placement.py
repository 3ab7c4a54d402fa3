"""City placement: start from the projection, then nudge cities apart until every track has room for its cars.

A small relaxation: each city is pulled back to its projected spot, pushed away from cities that are too close,
pushed apart along any track too short for its cars, and pushed off any track line that runs over it. The result
keeps the geography recognisable while giving crowded corners (the north-east of the USA, the Low Countries)
the room the cars need.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from render.ttr.geometry import Point

ITERATIONS = 400
ANCHOR_PULL = 0.008
PUSH = 0.3


def nudge(
    anchors: Mapping[str, Point],
    links: Sequence[tuple[str, str, float]],
    min_gap: float,
    clearance: float,
    box: tuple[float, float, float, float],
) -> dict[str, Point]:
    """Return city positions near `anchors` with every link (a, b, needed length) at least that long.

    Cities stay `min_gap` apart and `clearance` off the straight line of any link they are not on, inside `box`.
    """
    ids = sorted(anchors)
    pos = {c: list(anchors[c]) for c in ids}
    x0, y0, x1, y1 = box
    near: list[tuple[str, str]] = []
    crossings: list[tuple[str, str, str]] = []
    for step in range(ITERATIONS):
        if step % 40 == 0:
            near = _near_pairs(pos, ids, min_gap * 1.6)
            crossings = _near_links(pos, links, clearance * 2.5)
        move = {c: [ANCHOR_PULL * (anchors[c][0] - pos[c][0]), ANCHOR_PULL * (anchors[c][1] - pos[c][1])] for c in ids}
        for a, b in near:
            _repel(pos, move, a, b, min_gap)
        for a, b, need in links:
            _repel(pos, move, a, b, need)
        for a, b, c in crossings:
            _clear_line(pos, move, a, b, c, clearance)
        for c in ids:
            pos[c][0] = min(max(pos[c][0] + move[c][0], x0), x1)
            pos[c][1] = min(max(pos[c][1] + move[c][1], y0), y1)
    return {c: (pos[c][0], pos[c][1]) for c in ids}


def _near_pairs(pos: Mapping[str, list[float]], ids: Sequence[str], reach: float) -> list[tuple[str, str]]:
    """City pairs close enough to matter for the next rounds."""
    return [
        (a, b)
        for i, a in enumerate(ids)
        for b in ids[i + 1 :]
        if abs(pos[a][0] - pos[b][0]) < reach and abs(pos[a][1] - pos[b][1]) < reach
    ]


def _near_links(
    pos: Mapping[str, list[float]], links: Sequence[tuple[str, str, float]], reach: float
) -> list[tuple[str, str, str]]:
    """(link end a, link end b, city) for cities within `reach` of a link's bounding box."""
    found: list[tuple[str, str, str]] = []
    for a, b, _ in links:
        (ax, ay), (bx, by) = pos[a], pos[b]
        lo_x, hi_x, lo_y, hi_y = min(ax, bx) - reach, max(ax, bx) + reach, min(ay, by) - reach, max(ay, by) + reach
        found.extend(
            (a, b, c) for c, (cx, cy) in pos.items() if c not in (a, b) and lo_x < cx < hi_x and lo_y < cy < hi_y
        )
    return found


def _repel(pos: Mapping[str, list[float]], move: dict[str, list[float]], a: str, b: str, want: float) -> None:
    """Push two cities apart when they are closer than `want`."""
    dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
    d = math.hypot(dx, dy)
    if d >= want:
        return
    if d < 1e-6:
        dx, dy, d = 1.0, 0.0, 1.0
    push = PUSH * (want - d) / 2
    ux, uy = dx / d, dy / d
    move[a][0] -= ux * push
    move[a][1] -= uy * push
    move[b][0] += ux * push
    move[b][1] += uy * push


def _clear_line(
    pos: Mapping[str, list[float]], move: dict[str, list[float]], a: str, b: str, c: str, clearance: float
) -> None:
    """Push city `c` off the straight line a–b (and the line off `c`) when it lies closer than `clearance`."""
    (ax, ay), (bx, by), (cx, cy) = pos[a], pos[b], pos[c]
    dx, dy = bx - ax, by - ay
    seg = dx * dx + dy * dy
    if seg == 0:
        return
    t = ((cx - ax) * dx + (cy - ay) * dy) / seg
    if not 0.05 < t < 0.95:
        return
    px, py = ax + t * dx, ay + t * dy
    ox, oy = cx - px, cy - py
    d = math.hypot(ox, oy)
    if d >= clearance:
        return
    if d < 1e-6:
        length = math.sqrt(seg)
        ox, oy, d = -dy / length, dx / length, 1.0
    push = PUSH * (clearance - d) / 2
    ux, uy = ox / d, oy / d
    move[c][0] += ux * push
    move[c][1] += uy * push
    for end, share in ((a, 1 - t), (b, t)):
        move[end][0] -= ux * push * share
        move[end][1] -= uy * push * share
