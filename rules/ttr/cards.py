"""Train cards: the 110-card deck, drawing with reshuffles, the face-up market, and exact payments.

A payment is a pair (colour, locomotives): `locomotives` wild cards plus `length - locomotives` cards of `colour`;
an all-locomotive payment is written with colour 8 (LOCO). Every distinct affordable payment is one choice.
"""

from __future__ import annotations

from typing import Any

from rules.engine import Event
from rules.rng import Rng
from rules.ttr.board import LOCO
from rules.ttr.state import TtrState

DECK_COMPOSITION: tuple[int, ...] = (12,) * 8 + (14,)
"""R-C1: 12 cards of each of 8 colours and 14 locomotives."""
TOTAL_CARDS = sum(DECK_COMPOSITION)
MARKET_SIZE = 5
MARKET_LOCO_LIMIT = 3

Payment = tuple[int, int]


def new_deck() -> list[int]:
    """Return the 110 card codes in a fixed order (shuffle before use)."""
    return [code for code, count in enumerate(DECK_COMPOSITION) for _ in range(count)]


def payments(color: int, length: int, min_locos: int, hand: tuple[int, ...]) -> tuple[Payment, ...]:
    """Every distinct affordable way to pay `length` cards of `color` (-1: any one colour), ≥ `min_locos` wild."""
    locos = hand[LOCO]
    out: list[Payment] = []
    if min_locos < length:
        for c in range(8) if color < 0 else (color,):
            have = hand[c]
            if have:
                low = length - have
                if low < min_locos:
                    low = min_locos
                high = length - 1 if locos >= length else locos
                for j in range(low, high + 1):
                    out.append((c, j))
    if locos >= length:
        out.append((LOCO, length))
    return tuple(out)


def is_affordable(
    color: int, length: int, min_locos: int, hand: tuple[int, ...], pay_color: int, pay_locos: int
) -> bool:
    """Whether (pay_color, pay_locos) is one of `payments(color, length, min_locos, hand)`."""
    if pay_color == LOCO:
        return pay_locos == length and hand[LOCO] >= length
    if not 0 <= pay_color < LOCO or (color >= 0 and pay_color != color):
        return False
    return min_locos <= pay_locos < length and hand[LOCO] >= pay_locos and hand[pay_color] >= length - pay_locos


def extra_payments(hand: tuple[int, ...], color: int, locos_laid: int, length: int, extra: int) -> list[int]:
    """Locomotive counts that pay a tunnel's `extra` cards from what is left after the laid cards (R-EU-6)."""
    locos_left = hand[LOCO] - locos_laid
    if color == LOCO:
        return [extra] if locos_left >= extra else []
    color_left = hand[color] - (length - locos_laid)
    return list(range(max(0, extra - color_left), min(extra, locos_left) + 1))


def spend(hand: tuple[int, ...], pay_color: int, pay_locos: int, length: int) -> tuple[list[int], list[int]]:
    """Return the hand after a payment and the cards paid (for the discard pile)."""
    new = list(hand)
    paid = [LOCO] * pay_locos
    if pay_color != LOCO:
        n = length - pay_locos
        new[pay_color] -= n
        paid += [pay_color] * n
    new[LOCO] -= pay_locos
    return new, paid


class Piles:
    """The deck, discards, face-up row and generator while one move deals cards: the fields a deal changes together.

    Built from a state (or a move's changes so far) and written back with `save`; nothing else of the state is copied.
    """

    __slots__ = ("deck", "discard", "market", "rng")

    def __init__(self, state: TtrState, changes: dict[str, Any]) -> None:
        get = changes.get
        self.deck: tuple[int, ...] = get("deck", state.deck)
        self.discard: tuple[int, ...] = get("discard", state.discard)
        self.market: tuple[int, ...] = get("market", state.market)
        self.rng: Rng = get("rng", state.rng)

    def save(self, changes: dict[str, Any]) -> None:
        """Record the piles in a move's changes."""
        changes["deck"] = self.deck
        changes["discard"] = self.discard
        changes["market"] = self.market
        changes["rng"] = self.rng


def draw_from_deck(piles: Piles, events: list[Event]) -> int:
    """Take the top card, first shuffling the discards into a new deck when the deck is empty (R-T4); -1 if none."""
    if not piles.deck:
        if not piles.discard:
            return -1
        pile = list(piles.discard)
        rnd, piles.rng = piles.rng.next()
        rnd.shuffle(pile)
        piles.deck = tuple(pile)
        piles.discard = ()
        events.append(Event(key="ttr.event.reshuffled", params={"cards": len(pile)}))
    card = piles.deck[-1]
    piles.deck = piles.deck[:-1]
    return card


def refill_market(piles: Piles, events: list[Event]) -> None:
    """Fill empty face-up places from the deck, then apply the three-locomotive reset (R-T3).

    The reset repeats while the new row again shows 3 locomotives; it is not tried at all when the cards outside the
    hands cannot make a row with fewer (`market_needs_reset`), so it never loops for ever.
    """
    refill_market_once(piles, events)
    while market_needs_reset(piles.deck, piles.discard, piles.market):
        piles.discard = piles.discard + piles.market
        piles.market = ()
        events.append(Event(key="ttr.event.market_reset"))
        refill_market_once(piles, events)


def market_unsettled(deck: tuple[int, ...], discard: tuple[int, ...], market: tuple[int, ...]) -> bool:
    """Whether the end of a turn must touch the row: it is short and cards are left (R-T4), or shows 3 locomotives
    (R-T3; `refill_market` then resets it only if a better row can be made)."""
    return (len(market) < MARKET_SIZE and bool(deck or discard)) or market.count(LOCO) >= MARKET_LOCO_LIMIT


def settle_market(piles: Piles, events: list[Event]) -> None:
    """End of a turn: top up a short row (R-T4) and reset a row of 3 locomotives that can be fixed now (R-T3).

    A row left with 3 locomotives because no better row could be made (see `market_needs_reset`) stays until cards
    come back to the deck or discards (a claim or a station pays into the discards); the check runs at the end of
    every turn, so such a row never outlives the turn in which a reset became possible.
    """
    if market_unsettled(piles.deck, piles.discard, piles.market):
        refill_market(piles, events)


def refill_market_once(piles: Piles, events: list[Event]) -> None:
    """Turn up cards until 5 are face up or nothing is left, without the reset check."""
    market = list(piles.market)
    while len(market) < MARKET_SIZE:
        card = draw_from_deck(piles, events)
        if card < 0:
            break
        market.append(card)
    piles.market = tuple(market)


def market_needs_reset(deck: tuple[int, ...], discard: tuple[int, ...], market: tuple[int, ...]) -> bool:
    """Whether the row must be reset now (R-T3): 3 or more locomotives face up, and a row with fewer can be made.

    Ruling: the five face-up cards go to the discards before the new row is turned, so the cards that can make it
    are the deck, the discards and the row itself (everything outside the hands). A row of `min(5, those cards)`
    with at most 2 locomotives needs that many cards minus 2 that are not locomotives; when there are fewer, the
    row is left as it is (no endless loop). When there are enough, each new row is dealt from the deck and, once the
    deck runs out, from the reshuffled discards; every reshuffle is a new random order (from the state's seed and
    draw counter) that can give a legal row, so the repeats end.
    """
    if market.count(LOCO) < MARKET_LOCO_LIMIT:
        return False
    available = len(deck) + len(discard) + len(market)
    locos = deck.count(LOCO) + discard.count(LOCO) + market.count(LOCO)
    size = min(MARKET_SIZE, available)
    return available - locos >= size - (MARKET_LOCO_LIMIT - 1)


def take_face_up(piles: Piles, card: int, events: list[Event]) -> None:
    """Remove one face-up card of this code and turn up its replacement in the same place (R-T1)."""
    market = list(piles.market)
    place = market.index(card)
    replacement = draw_from_deck(piles, events)
    if replacement < 0:
        del market[place]
    else:
        market[place] = replacement
    piles.market = tuple(market)
    refill_market(piles, events)
