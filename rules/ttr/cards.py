"""Train cards: the 110-card deck, drawing with reshuffles, the face-up market, and exact payments.

A payment is a pair (colour, locomotives): `locomotives` wild cards plus `length - locomotives` cards of `colour`;
an all-locomotive payment is written with colour 8 (LOCO). Every distinct affordable payment is one choice.
"""

from __future__ import annotations

from rules.engine import Event
from rules.ttr.board import LOCO
from rules.ttr.state import Draft

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


def draw_from_deck(dr: Draft, events: list[Event]) -> int:
    """Take the top card, first shuffling the discards into a new deck when the deck is empty (R-T4); -1 if none."""
    if not dr.deck:
        if not dr.discard:
            return -1
        pile = list(dr.discard)
        rnd, dr.rng = dr.rng.next()
        rnd.shuffle(pile)
        dr.deck = tuple(pile)
        dr.discard = ()
        events.append(Event(key="ttr.event.reshuffled", params={"cards": len(pile)}))
    card = dr.deck[-1]
    dr.deck = dr.deck[:-1]
    return card


def refill_market(dr: Draft, events: list[Event]) -> None:
    """Fill empty face-up places from the deck, then apply the three-locomotive reset (R-T3).

    The reset repeats while the new row again shows 3 locomotives; it is not tried at all when the cards outside the
    hands cannot make a row with fewer (`market_needs_reset`), so it never loops for ever.
    """
    refill_market_once(dr, events)
    while market_needs_reset(dr.deck, dr.discard, dr.market):
        dr.discard = dr.discard + dr.market
        dr.market = ()
        events.append(Event(key="ttr.event.market_reset"))
        refill_market_once(dr, events)


def settle_market(dr: Draft, events: list[Event]) -> None:
    """End of a turn: top up a short row (R-T4) and reset a row of 3 locomotives that can be fixed now (R-T3).

    A row left with 3 locomotives because no better row could be made (see `market_needs_reset`) stays until cards
    come back to the deck or discards (a claim or a station pays into the discards); the check runs at the end of
    every turn, so such a row never outlives the turn in which a reset became possible.
    """
    market = dr.market
    if (len(market) < MARKET_SIZE and (dr.deck or dr.discard)) or market.count(LOCO) >= MARKET_LOCO_LIMIT:
        refill_market(dr, events)


def refill_market_once(dr: Draft, events: list[Event]) -> None:
    """Turn up cards until 5 are face up or nothing is left, without the reset check."""
    market = list(dr.market)
    while len(market) < MARKET_SIZE:
        card = draw_from_deck(dr, events)
        if card < 0:
            break
        market.append(card)
    dr.market = tuple(market)


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


def take_face_up(dr: Draft, card: int, events: list[Event]) -> None:
    """Remove one face-up card of this code and turn up its replacement in the same place (R-T1)."""
    market = list(dr.market)
    place = market.index(card)
    replacement = draw_from_deck(dr, events)
    if replacement < 0:
        del market[place]
    else:
        market[place] = replacement
    dr.market = tuple(market)
    refill_market(dr, events)
