"""Seeded random playouts for 2, 3 and 4 players with the invariants checked after every step."""

from __future__ import annotations

import random

import pytest

from rules.cardgame.cards import COLORS, named_counts
from rules.cardgame.options import CardGameOptions
from rules.cardgame.state import CardGameState, Phase
from rules.engine import Event, IllegalAction

from .support import EN, ENGINE, FULL_DECK, card_totals, placeholders, playout

PRIVATE_EVENTS = {"drew_card", "tickets_offered", "you_kept_tickets", "dealt"}
MAX_STEPS = 3000


def scrambled(state: CardGameState, keep: int | None) -> CardGameState:
    """Change every hidden thing except seat `keep`'s own hand and tickets: hands, stacks, tickets, deck orders.

    Sizes stay, so a view that hides what it should cannot tell the two states apart.
    """
    players = []
    spare = list(range(1, 47))
    for seat, player in enumerate(state.players):
        if seat == keep:
            players.append(player.model_copy(update={"stack": (0,) * 8 + (sum(player.stack),)}))
            continue
        held = len(player.tickets) + len(player.offered)
        fake = tuple(reversed(spare))[:held]
        players.append(
            player.model_copy(
                update={
                    "hand": (sum(player.hand),) + (0,) * 8,
                    "stack": (0,) * 8 + (sum(player.stack),),
                    "tickets": fake[: len(player.tickets)],
                    "offered": fake[len(player.tickets) :],
                }
            )
        )
    return state.model_copy(
        update={
            "players": tuple(players),
            "deck": tuple(reversed(state.deck)),
            "ticket_deck": tuple(reversed(state.ticket_deck)),
            "rng": state.rng.model_copy(update={"seed": state.rng.seed + 1}),
        }
    )


def check_step(before: CardGameState, after: CardGameState, before_json: str, events: list[Event]) -> None:
    """Every invariant of one step."""
    assert before.model_dump_json() == before_json, "apply mutated its input"
    assert card_totals(after) == FULL_DECK
    assert ENGINE.load_state(after.model_dump_json()) == after
    tickets = [t for p in after.players for t in (*p.tickets, *p.offered)] + list(after.ticket_deck)
    assert len(tickets) == len(set(tickets))
    for event in events:
        name = event.key.removeprefix("cardgame.event.")
        assert (event.to is not None) == (name in PRIVATE_EVENTS)
    public = ENGINE.view(after, None)
    assert public.hand is None and public.tickets is None and public.offered is None
    assert public.stack is None and public.legal is None
    if after.phase is Phase.OVER:
        return
    assert public.final is None
    assert ENGINE.view(scrambled(after, None), None) == public, "the public view shows something hidden"
    for seat in range(after.n_players):
        own = ENGINE.view(after, seat)
        assert own.stack is None
        assert own.model_dump(exclude={"legal"}) == ENGINE.view(scrambled(after, seat), seat).model_dump(
            exclude={"legal"}
        ), "a seat view shows another seat's secrets or its own stack"


@pytest.mark.parametrize(
    ("n", "seed", "kind"),
    [(n, seed, kind) for n in (2, 3, 4) for seed, kind in ((1, "random"), (2, "random"), (3, "sensible"))],
)
def test_random_playout_invariants_every_step(n: int, seed: int, kind: str) -> None:
    options = CardGameOptions()
    log: list[tuple[int, str]] = []
    replayed = ENGINE.new_game(options, n, seed)
    final = replayed
    for steps, (before, seat, action, after, events) in enumerate(playout(n, seed, kind)):
        assert steps < MAX_STEPS, "the game does not end"
        assert action.encode() in {a.encode() for a in ENGINE.legal_actions(before, seat)}
        check_step(before, after, before.model_dump_json(), events)
        log.append((seat, action.encode()))
        assert len(log[-1][1]) < 40
        replayed, _ = ENGINE.apply(replayed, seat, ENGINE.parse_action(log[-1][1]))
        assert replayed == after
        final = after
    assert final.phase is Phase.OVER and ENGINE.result(final) is not None
    assert ENGINE.replay(options, n, seed, log) == final
    if n == 4:
        assert final.first_scoring is not None and final.deck_number == 2


def test_beginners_variant_shows_only_ones_own_stack() -> None:
    options = CardGameOptions(stack_visible_to_owner=True)
    for before, _, _, _, _ in playout(3, 5, "sensible", options):
        if before.phase is Phase.OVER or before.phase is Phase.OPENING:
            continue
        for seat in range(3):
            view = ENGINE.view(before, seat)
            assert view.stack == named_counts(before.players[seat].stack)
        assert ENGINE.view(before, None).stack is None


def candidate_moves(state: CardGameState, seat: int, rng: random.Random) -> list[str]:
    """A sample of moves, legal or not, from the whole move space."""
    names = [*COLORS, "locomotive"]
    offered = list(state.players[seat].offered)
    moves = ["draw:deck", "tickets", "keep:none", *(f"draw:{name}" for name in names)]
    moves += [f"play:{rng.choice(COLORS)}:{rng.randint(0, 5)}:{rng.randint(0, 3)}" for _ in range(12)]
    hand = state.players[seat].hand
    for color, name in enumerate(COLORS):
        if hand[color]:
            moves += [f"play:{name}:{hand[color]}:0", f"play:{name}:{hand[color]}:{hand[-1]}", f"play:{name}:1:1"]
    moves += ["play3:" + ",".join(rng.sample(names, 3)) for _ in range(6)]
    moves += (
        [f"keep:{','.join(map(str, sorted(rng.sample(offered, rng.randint(1, len(offered))))))}"] if offered else []
    )
    moves += [f"keep:{rng.randint(1, 46)}"]
    return moves


@pytest.mark.parametrize("n", [2, 3, 4])
def test_apply_accepts_exactly_the_legal_moves(n: int) -> None:
    rng = random.Random(n)
    for before, _, _, _, _ in playout(n, seed=40 + n):
        for seat in range(n):
            legal = {a.encode() for a in ENGINE.legal_actions(before, seat)}
            for text in candidate_moves(before, seat, rng):
                action = ENGINE.parse_action(text)
                try:
                    ENGINE.apply(before, seat, action)
                except IllegalAction as refused:
                    assert action.encode() not in legal, text
                    if refused.reason.value in EN:  # the game's own reasons: their words get their values
                        assert placeholders(EN[refused.reason.value]) <= set(refused.params), text
                else:
                    assert action.encode() in legal, text
