"""Action texts, option models and bot players (they only see their own seat, always act legally)."""

from __future__ import annotations

import random

import pytest

from rules.engine import CommonReason, IllegalAction
from rules.ttr.actions import BuildStation, Claim, DrawCard, KeepTickets, Pass, PayTunnel, TtrAction, Withdraw
from rules.ttr.board import CARD_CODES, board_for
from rules.ttr.bots.plan import TUNNEL_RISK, tunnel_risk, unseen_cards
from rules.ttr.options import TtrOptions
from rules.ttr.state import Phase, TtrState

from .ttr_support import ENGINE, playout, started


@pytest.mark.parametrize(
    "action",
    [
        DrawCard(source="deck"),
        DrawCard(source="red"),
        Claim(track=57, color="blue", locomotives=1),
        PayTunnel(locomotives=0),
        Withdraw(),
        KeepTickets(tickets=(3, 17)),
        BuildStation(city="wien", color="red", locomotives=1),
        Pass(),
    ],
)
def test_action_text_round_trip(action: TtrAction) -> None:
    text = action.encode()
    assert len(text) < 40 and ENGINE.parse_action(text) == action
    assert action.describe().key.startswith("ttr.action.")


def test_action_texts_are_the_documented_ones() -> None:
    assert Claim(track=57, color="blue", locomotives=1).encode() == "claim:57:blue:1"
    assert BuildStation(city="wien", color="red", locomotives=1).encode() == "station:wien:red:1"
    assert KeepTickets(tickets=(3, 17)).encode() == "keep:3,17"
    assert ENGINE.parse_action("tickets").encode() == "tickets"


@pytest.mark.parametrize(
    "text", ["", "draw", "draw:pink", "claim:1:red", "claim:x:red:1", "keep:", "keep:3,3", "keep:5,2", "pay:-1", "fly"]
)
def test_malformed_actions_rejected(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        ENGINE.parse_action(text)
    assert err.value.reason is CommonReason.MALFORMED_ACTION


def test_options_default_to_the_printed_rules_and_describe_every_field() -> None:
    options = TtrOptions()
    assert options.model_dump(mode="json") == {
        "map": "usa",
        "open_doubles": False,
        "returned_tickets": "bottom",
        "first_player": "random",
        "longest_bonus": True,
    }
    assert all(field.description for field in TtrOptions.model_fields.values())
    assert ENGINE.load_options('{"map": "europe"}').map == "europe"


def _scrambled(state: TtrState, seat: int, rnd: random.Random) -> TtrState:
    """The same state as `seat` sees it, with every hidden thing changed: deck order, other hands and tickets."""
    deck = list(state.deck)
    rnd.shuffle(deck)
    hands = list(state.hands)
    others = [s for s in range(state.n_players) if s != seat]
    if len(others) > 1:
        a, b = others[0], others[1]
        if sum(hands[a]) == sum(hands[b]):
            hands[a], hands[b] = hands[b], hands[a]
    tickets = list(state.tickets)
    for s in others:
        tickets[s] = tuple(reversed(tickets[s]))
    return state.model_copy(update={"deck": tuple(deck), "hands": tuple(hands), "tickets": tuple(tickets)})


@pytest.mark.parametrize("kind", ["random", "sensible"])
def test_bots_decide_only_from_what_their_seat_sees(kind: str) -> None:
    rnd = random.Random(2)
    checked = 0
    for before, seat, _text, _, _ in playout("europe", 4, 21, ["sensible", "random"]):
        if before.phase is Phase.OPENING or before.turn % 5:
            continue
        seen = ENGINE.bot_action(before, seat, random.Random(9), kind).encode()
        assert ENGINE.bot_action(_scrambled(before, seat, rnd), seat, random.Random(9), kind).encode() == seen
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("n_players", [2, 5])
def test_sensible_bots_alone_finish_the_game(n_players: int) -> None:
    for map_id in ("usa", "europe"):
        steps = list(playout(map_id, n_players, 8, ["sensible"]))
        assert ENGINE.is_over(steps[-1][3]) and len(steps) < 2000


def test_sensible_bot_plays_toward_its_tickets() -> None:
    state = started(n_players=2)
    wins = 0
    for seed in range(12):
        last = None
        for *_, after, _ in playout("usa", 2, seed, ["sensible", "random"]):
            last = after
        assert last is not None
        result = ENGINE.result(last)
        assert result is not None
        wins += 0 in result.winners
    assert wins >= 10 and state.phase is Phase.TURN


def test_unknown_bot_kind_rejected() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        ENGINE.bot_action(started(), 0, random.Random(1), "genius")


def test_r_eu_6_the_sensible_bot_tries_a_tunnel_only_with_a_spare_card_or_a_safe_reveal() -> None:
    board = board_for("europe")
    tried = 0
    for seed in range(12):
        state = started("europe", 3, seed=seed)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            seat = min(ENGINE.to_act(state))
            action = ENGINE.bot_action(state, seat, rng, "sensible")
            if isinstance(action, Claim) and board.track_tunnel[board.track_index[action.track]]:
                track = board.track_index[action.track]
                hand = state.hands[seat]
                length = board.track_len[track]
                loco, color = CARD_CODES["locomotive"], CARD_CODES[action.color]
                used = length if color == loco else length - action.locomotives
                held = hand[loco] if color == loco else hand[color] + hand[loco] - action.locomotives
                risk = tunnel_risk(board, track, (color, action.locomotives), hand, unseen_cards(state, seat))
                safe = held - used >= 1 or risk <= TUNNEL_RISK or state.final_turns >= 0
                assert safe, f"seed {seed}: a tunnel tried with no spare card and a risky reveal"
                tried += 1
            state, _ = ENGINE.apply(state, seat, action)
    assert tried > 0, "the games must try some tunnels for this test to mean anything"
