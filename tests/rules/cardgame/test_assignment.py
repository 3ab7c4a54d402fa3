"""The exact best assignment of stack cards to tickets (R-CG-13), checked against brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from rules.cardgame.assignment import best_assignment, fits
from rules.cardgame.cards import LOCOMOTIVE
from rules.cardgame.tickets import Ticket, load_data

from .support import kinds

TICKETS = load_data().tickets


def tickets(*ids: int) -> list[Ticket]:
    """Tickets by id."""
    return [load_data().ticket(t) for t in ids]


def brute_force(stack: tuple[int, ...], held: list[Ticket]) -> tuple[int, ...]:
    """Try every subset: best (points, count, big-city names, includes the lowest id where sets differ)."""
    ordered = sorted(held, key=lambda t: t.id)
    best: tuple[object, tuple[int, ...]] | None = None
    for size in range(len(ordered) + 1):
        for subset in itertools.combinations(ordered, size):
            if not fits(stack, [t.need for t in subset]):
                continue
            chosen = {t.id for t in subset}
            key = (
                sum(t.points for t in subset),
                len(subset),
                sum(len(t.big_cities) for t in subset),
                tuple(t.id in chosen for t in ordered),
            )
            if best is None or key > best[0]:  # type: ignore[operator]
                best = (key, tuple(sorted(chosen)))
    assert best is not None
    return best[1]


def test_r_cg_13_locomotives_are_wild_and_each_card_serves_one_ticket() -> None:
    result = best_assignment(kinds(yellow=1, locomotive=1), tickets(1, 3))
    assert result.completed == (3,)  # Chicago–Dallas (6: yellow + green, the locomotive as green) beats 5
    assert sorted(result.cards[3]) == [2, LOCOMOTIVE]
    assert result.unused == kinds()
    result = best_assignment(kinds(yellow=1), tickets(1, 6))
    assert result.completed == (1,) and result.unused == kinds()


def test_r_cg_13_maximises_points_first() -> None:
    result = best_assignment(kinds(yellow=1, blue=1), tickets(1, 2, 4))
    assert result.completed == (1, 2)  # 5 + 5 beats New York–Sault St. Marie's 6


def test_r_cg_13_then_more_completed_tickets() -> None:
    result = best_assignment(kinds(blue=1, purple=1, locomotive=1), tickets(1, 2, 18))
    assert result.completed == (1, 2)  # 10 points either way; two tickets beat one


def test_r_cg_13_then_more_big_city_names() -> None:
    result = best_assignment(kinds(yellow=1, white=1, locomotive=1), tickets(16, 32, 15))
    assert result.completed == (15,)  # Los Angeles–Dallas names two big cities, LA–Vancouver one


def test_r_cg_13_then_a_fixed_order() -> None:
    result = best_assignment(kinds(yellow=1, blue=1, locomotive=1), tickets(11, 10, 38))
    assert result.completed == (10,)  # a full tie: the lower ticket id


def test_r_cg_13_nothing_fits_and_empty_stack() -> None:
    assert best_assignment(kinds(), tickets(1, 2)).completed == ()
    assert best_assignment(kinds(red=3), []).completed == ()


@pytest.mark.parametrize("seed", range(6))
def test_r_cg_13_equals_brute_force_on_random_hands(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        held = rng.sample(list(TICKETS), rng.randint(1, 11))
        top = rng.randint(0, 4)
        stack = (*(rng.randint(0, top) for _ in range(8)), rng.randint(0, 4))
        result = best_assignment(stack, held)
        assert result.completed == brute_force(stack, held)
        spent = [0] * 9
        for ticket in tickets(*result.completed):
            cards = result.cards[ticket.id]
            assert len(cards) == sum(ticket.need)
            assert all(c == LOCOMOTIVE or cards.count(c) <= ticket.need[c] for c in cards)
            for card in cards:
                spent[card] += 1
        assert all(s + u == k for s, u, k in zip(spent, result.unused, stack, strict=True))


def test_r_cg_13_large_hands_give_a_fitting_maximal_set() -> None:
    rng = random.Random(99)
    for _ in range(3):
        held = rng.sample(list(TICKETS), 40)
        stack = (*(rng.randint(0, 6) for _ in range(8)), rng.randint(0, 10))
        result = best_assignment(stack, held)
        chosen = tickets(*result.completed)
        assert fits(stack, [t.need for t in chosen])
        # No single unused ticket can be added: the set is at least maximal.
        for ticket in held:
            if ticket.id not in result.completed:
                assert not fits(stack, [t.need for t in (*chosen, ticket)])
