"""The rules' caches: bounded, counted, listed; and a memo answers what computing afresh would, before and after it
turns over."""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest

import rules
from rules.caches import BoundedCache, all_caches
from rules.ttr import moves
from rules.ttr.board import LOCO, board_for
from rules.ttr.cards import DECK_COMPOSITION

FIXED_KEY_SPACE = {
    "rules.ttr.board.board_for": "one entry per bundled map",
    "rules.ttr.maps.load_map": "one entry per bundled map",
    "rules.models._fields_set": "one entry per model class",
    "rules.cardgame.cards.color_message": "9 card kinds",
    "rules.cardgame.actions.draw_action": "9 card kinds and the deck",
    "rules.cardgame.actions.group_play": "8 colours × ≤ 10 cards × ≤ 16 locomotives",
    "rules.cardgame.actions.three_play": "56 colour triples",
    "rules.cardgame.tickets.load_data": "no arguments",
    "rules.cardgame.tickets.ticket_message": "the game's tickets",
    "rules.cardgame.tickets.ticket_needs": "no arguments",
    "rules.ttr.bots.plan._adjacency": "one entry per bundled map",
    "rules.ttr.bots.plan._free_weights": "one entry per bundled map and planning overhead (0 or 3)",
    "rules.ttr.bots.search._engine": "no arguments",
    "rules.dice.bot.turn_model.outcomes": "1 to 6 dice",
    "rules.dice.bot.turn_model.turn_distribution": "no arguments",
    "rules.dice.bot.winning.rival_turn": "no arguments",
}
"""functools caches left unbounded on purpose, and why their keys cannot grow."""


def _import_all_rules() -> None:
    for found in pkgutil.walk_packages(rules.__path__, "rules."):
        importlib.import_module(found.name)


def test_every_cache_of_the_rules_is_bounded_or_over_a_fixed_key_space() -> None:
    _import_all_rules()
    listed = all_caches()
    names = [c.name for c in listed]
    assert len(names) == len(set(names))
    assert {"rules.ttr.moves.affordable_classes", "rules.ttr.moves.colored_classes"} <= set(names)
    unbounded = {c.name for c in listed if c.budget is None}
    assert unbounded <= set(FIXED_KEY_SPACE), f"bound these caches or say why their keys are few: {unbounded}"


def test_a_cache_turns_over_in_generations_and_never_outgrows_its_budget() -> None:
    cache: BoundedCache[int, str] = BoundedCache("test.generations", 10)
    for key in range(5):
        cache.put(key, f"v{key}")
    assert cache.size == 5 and cache.weight == 5
    cache.put(5, "v5")  # the young generation is full: it becomes the old one, and 5 starts a new one
    assert cache.size == 6 and cache.weight == 6
    assert cache.get(0) == "v0"  # found in the old generation: kept on in the young one
    for key in range(6, 10):
        cache.put(key, f"v{key}")  # the young generation fills again: the old one (1–4) is dropped whole
    assert cache.get(1) is None and cache.get(4) is None
    assert cache.get(0) == "v0" and cache.get(9) == "v9"
    assert cache.weight <= cache.budget
    assert (cache.hits, cache.misses) == (3, 2)
    assert cache.stats().hit_rate == pytest.approx(0.6)


def test_weights_count_against_the_budget() -> None:
    cache: BoundedCache[int, bytes] = BoundedCache("test.weights", 1000, unit="bytes")
    for key in range(100):
        cache.put(key, b"x", weight=60)
        assert cache.weight <= 1000
    assert cache.size <= 2 * 500 // 60 + 1
    assert cache.get(99) == b"x" and cache.get(0) is None


def test_a_cache_made_and_dropped_is_not_listed() -> None:
    cache: BoundedCache[int, int] = BoundedCache("test.dropped", 4)
    assert "test.dropped" in {c.name for c in all_caches()}
    del cache
    assert "test.dropped" not in {c.name for c in all_caches()}


def _random_hands(seed: int, count: int) -> list[tuple[int, ...]]:
    rnd = random.Random(seed)
    hands = []
    for _ in range(count):
        size = rnd.randint(0, 45)
        cards = rnd.sample([kind for kind, n in enumerate(DECK_COMPOSITION) for _ in range(n)], size)
        hands.append(tuple(cards.count(kind) for kind in range(LOCO + 1)))
    return hands


@pytest.mark.parametrize("map_id", ["usa", "europe"])
def test_the_affordable_memo_answers_as_computing_afresh_would_while_it_turns_over(
    map_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    small: BoundedCache[tuple[str, tuple[int, ...]], tuple[moves.PaymentClass, ...]] = BoundedCache(
        "test.affordable", 200_000, unit="bytes"
    )
    monkeypatch.setattr(moves, "_affordable", small)
    hands = _random_hands(7, 300)
    for hand in [h for each in hands for h in (each, each)] + hands:  # each hand twice, then all again
        assert moves._affordable_classes(map_id, hand) == moves._payment_classes_for(map_id, hand)[0]
        assert small.weight <= small.budget
    assert small.hits >= len(hands), "a hand just seen is answered from memory"
    assert small.misses > len(hands), "the first hands were dropped as it turned over, and computed again"


def test_coloured_payments_stay_a_small_table_one_generation_holds() -> None:
    for map_id in ("usa", "europe"):
        for hand in _random_hands(3, 300):
            moves._affordable_classes(map_id, hand)
    classes = sum(color >= 0 for m in ("usa", "europe") for color, _, _, _ in board_for(m).payment_classes)
    cards, locomotives = DECK_COMPOSITION[0] + 1, DECK_COMPOSITION[LOCO] + 1
    stats = next(c for c in all_caches() if c.name == "rules.ttr.moves.colored_classes")
    assert stats.size <= classes * cards * locomotives <= (stats.budget or 0) // 2


def test_the_bench_can_print_every_cache() -> None:
    _import_all_rules()
    for stats in all_caches():
        assert stats.size >= 0 and stats.hits >= 0 and stats.misses >= 0 and 0.0 <= stats.hit_rate <= 1.0
        assert stats.unit in ("entries", "bytes")
