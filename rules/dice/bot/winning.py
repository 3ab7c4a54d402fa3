"""What a turn's points are worth in the game: the chance to win, not the points themselves.

Every rival is modelled as playing each turn for the most points on average (`turn_distribution`). Against one
rival in a race the chance to win is exact for that model (a dynamic programme over both totals, like the
classic analysis of Pig); against several it is the product of the chances against each. In the elimination game
a turn must beat the bar, then each rival still in must fail to beat the new one.
"""

from __future__ import annotations

from functools import cache, lru_cache

from rules.dice.bot.turn_model import turn_distribution
from rules.dice.options import GameMode
from rules.dice.state import DiceState
from rules.engine import Seat

TOP_POINTS = 240
"""Utilities are tabulated for turn scores 0 … TOP_POINTS; a bigger score is worth as much as this one."""
TIE_BREAK = 1e-4
"""A sliver of utility per point, so that among equally winning plays the bot still takes the bigger score."""
RARE = 1e-7
"""Turn scores less likely than this are folded into the nearest lower score kept: they change nothing."""


@cache
def rival_turn() -> tuple[tuple[int, float], ...]:
    """The modelled distribution of a rival's turn score, rare scores folded down, best first after zero."""
    kept: dict[int, float] = {}
    for score, chance in turn_distribution():
        if chance >= RARE or not kept:
            kept[score] = kept.get(score, 0.0) + chance
        else:
            top = max(kept)
            kept[top] += chance
    return tuple(sorted(kept.items()))


def _beats(mine: int, theirs: int) -> float:
    """My share of the win when the game ends with these totals (a tie is shared)."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@lru_cache(maxsize=4)
def race_tables(target: int) -> tuple[list[list[float]], list[list[float]]]:
    """Chances of the player who starts each round, both below `target`: F[a][b] at the round's start, and
    G[a][b] after their turn (a may be past the target), the second player to play the round's last turn."""
    chances = rival_turn()
    zero = dict(chances).get(0, 0.0)
    scoring = [(score, chance) for score, chance in chances if score > 0]
    top = max(score for score, _ in chances)
    rows = target + top + 1
    f = [[0.0] * target for _ in range(target)]
    g = [[0.0] * target for _ in range(rows)]
    for a in range(target, rows):
        for b in range(target):
            g[a][b] = sum(chance * _beats(a, b + score) for score, chance in chances)
    for a in range(target - 1, -1, -1):
        row_g = g[a]
        row_f = f[a]
        after_first = [0.0] * target
        for score, chance in scoring:
            later = g[a + score]
            for b in range(target):
                after_first[b] += chance * later[b]
        for b in range(target - 1, -1, -1):
            # The second player reaching the target ends the round and wins (they pass a first player below it).
            after_second = sum(chance * row_f[b + score] for score, chance in scoring if b + score < target)
            value = (zero * after_second + after_first[b]) / (1 - zero * zero)
            row_f[b] = value
            row_g[b] = zero * value + after_second
    return f, g


def win_utility(state: DiceState, seat: Seat) -> list[float]:
    """The worth of each possible score of `seat`'s turn now, as a chance to win (plus a tie-breaking sliver)."""
    if state.options.mode is GameMode.ELIMINATION:
        base = _elimination_utility(state, seat)
    else:
        base = _race_utility(state, seat)
    return [value + TIE_BREAK * points / TOP_POINTS for points, value in enumerate(base)]


def _race_utility(state: DiceState, seat: Seat) -> list[float]:
    """Product over rivals of the chance to finish ahead of each, for each score of this turn."""
    target = state.options.target
    order = [(state.first + i) % state.n_players for i in range(state.n_players)]
    mine = state.total(seat)
    utility = [1.0] * (TOP_POINTS + 1)
    chances = rival_turn()
    for rival in order:
        if rival == seat or not state.in_play(rival):
            continue
        theirs = state.total(rival)
        after_me = order.index(rival) > order.index(seat)
        for points in range(TOP_POINTS + 1):
            total = mine + points
            if after_me and (state.last_round or total >= target):
                share = sum(chance * _beats(total, theirs + score) for score, chance in chances)
            elif after_me:
                share = race_tables(target)[1][total][theirs]
            elif state.last_round or total >= target or theirs >= target:
                share = _beats(total, theirs)
            else:
                share = 1.0 - race_tables(target)[0][theirs][total]
            utility[points] *= share
    return utility


def _elimination_utility(state: DiceState, seat: Seat) -> list[float]:
    """Out at or below the bar; otherwise the chance that no rival still in beats the new bar on their turn."""
    chances = rival_turn()
    rivals = sum(1 for other in range(state.n_players) if other != seat and state.in_play(other))
    utility = []
    for points in range(TOP_POINTS + 1):
        if state.bar is not None and points <= state.bar:
            utility.append(0.0)
            continue
        bar = points if state.bar is None or points > state.bar else state.bar
        fail = sum(chance for score, chance in chances if score <= bar)
        utility.append(fail**rivals if points or state.bar is not None else 0.5 * fail**rivals)
    return utility
