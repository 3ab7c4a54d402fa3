"""Bot levels, playstyle agents and the coach: legal, deterministic, blind to hidden data (R-V1 … R-V3)."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rules.engine import Budget, Message
from rules.rng import Rng
from rules.ttr.actions import Claim, KeepTickets
from rules.ttr.board import board_for
from rules.ttr.bots import KINDS, search
from rules.ttr.bots.agents import AGENTS
from rules.ttr.bots.coach import reason
from rules.ttr.bots.plan import joint_plan, longest_gain, open_tickets, target_tracks
from rules.ttr.bots.search import determinize
from rules.ttr.cards import TOTAL_CARDS
from rules.ttr.graph import longest_trail
from rules.ttr.scoring import final_scores, own_edges
from rules.ttr.state import Phase, TtrState

from .ttr_support import ENGINE, hand, playout, started, track_index

QUICK = Budget(seconds=0.005)
"""Hard cut short after its first sampled world: legal moves, fast tests."""
ROOMY = Budget(seconds=60.0)
"""Hard always finishes its fixed iterations: the move depends on the rng alone."""
I18N = Path(__file__).parents[3] / "bot" / "i18n"
HEURISTIC_KINDS = [kind for kind in KINDS if kind != "hard"]
NORMAL_FLOOR = 0.35
"""The least win share `normal` keeps against any playstyle agent, head to head over both maps."""


@pytest.fixture
def few_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions sized for a tenth of a second, down to two worlds: the same search over fewer worlds, for tests of
    what it may see and say rather than how well it plays."""
    monkeypatch.setattr(search, "DECISION_SECONDS", 0.1)
    monkeypatch.setattr(search, "MIN_WORLDS", 2)


def _scrambled(state: TtrState, seat: int, rnd: random.Random) -> TtrState:
    """The state as `seat` sees it with every hidden part dealt anew: the deck and the other hands (their sizes
    kept), the other seats' tickets and offers and the ticket deck (their counts kept), the seed."""
    cards = list(state.deck)
    for other in range(state.n_players):
        if other != seat:
            cards += [card for card, n in enumerate(state.hands[other]) for _ in range(n)]
    rnd.shuffle(cards)
    hands = list(state.hands)
    for other in range(state.n_players):
        if other != seat:
            size = sum(state.hands[other])
            hand = [0] * 9
            for card in cards[:size]:
                hand[card] += 1
            del cards[:size]
            hands[other] = tuple(hand)
    pool = list(state.ticket_deck)
    for other in range(state.n_players):
        if other != seat:
            pool += [*state.tickets[other], *state.offers[other]]
    rnd.shuffle(pool)
    tickets, offers = list(state.tickets), list(state.offers)
    for other in range(state.n_players):
        if other != seat:
            n, m = len(state.tickets[other]), len(state.offers[other])
            tickets[other], offers[other], pool = tuple(pool[:n]), tuple(pool[n : n + m]), pool[n + m :]
    return state.model_copy(
        update={
            "deck": tuple(cards),
            "hands": tuple(hands),
            "tickets": tuple(tickets),
            "offers": tuple(offers),
            "ticket_deck": tuple(pool),
            "rng": Rng(seed=rnd.getrandbits(40)),
        }
    )


def _sampled(map_id: str, n_players: int, seed: int, every: int) -> Iterator[tuple[TtrState, int]]:
    """Every `every`-th decision of a game of normal players, with the seat to move."""
    for i, (before, seat, _, _, _) in enumerate(playout(map_id, n_players, seed, ["normal"])):
        if i % every == 0:
            yield before, seat


@pytest.mark.parametrize("map_id", ["usa", "europe"])
@pytest.mark.parametrize("n_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4, 5))])
def test_every_kind_plays_legal_moves_to_the_end(map_id: str, n_players: int) -> None:
    kinds = [*KINDS, "sensible"]
    for seed in range(2):
        seated = [kinds[(seed * n_players + i + n_players) % len(kinds)] for i in range(n_players)]
        if n_players in (2, 4) and seed == 0:
            seated[0] = "hard"
        state = ENGINE.new_game(ENGINE.load_options({"map": map_id}), n_players, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if ENGINE.is_over(state):
                break
            for seat in sorted(ENGINE.to_act(state)):
                action = ENGINE.bot_action(state, seat, rng, seated[seat], QUICK)
                assert action.encode() in {a.encode() for a in ENGINE.legal_actions(state, seat)}
                state, _ = ENGINE.apply(state, seat, action)
        assert ENGINE.is_over(state), f"{seated} did not finish on {map_id}"


@pytest.mark.parametrize("kind", HEURISTIC_KINDS)
def test_r_v2_r_v3_a_heuristic_kind_moves_alike_whatever_the_hidden_parts(kind: str) -> None:
    rnd = random.Random(3)
    checked = 0
    for map_id, n_players in (("usa", 2), ("europe", 4)):
        for state, seat in _sampled(map_id, n_players, 11, every=4):
            seen = ENGINE.bot_action(state, seat, random.Random(5), kind).encode()
            assert ENGINE.bot_action(state, seat, random.Random(5), kind).encode() == seen, "not deterministic"
            scrambled = _scrambled(state, seat, rnd)
            assert ENGINE.bot_action(scrambled, seat, random.Random(5), kind).encode() == seen
            checked += 1
    assert checked > 40


@pytest.mark.slow
@pytest.mark.usefixtures("few_worlds")
def test_r_v2_r_v3_hard_moves_alike_whatever_the_hidden_parts() -> None:
    rnd = random.Random(4)
    checked = 0
    for map_id, n_players in (("usa", 2), ("europe", 3)):
        for state, seat in _sampled(map_id, n_players, 12, every=23):
            seen = ENGINE.bot_action(state, seat, random.Random(6), "hard", ROOMY).encode()
            assert ENGINE.bot_action(state, seat, random.Random(6), "hard", ROOMY).encode() == seen, "not deterministic"
            scrambled = _scrambled(state, seat, rnd)
            assert ENGINE.bot_action(scrambled, seat, random.Random(6), "hard", ROOMY).encode() == seen
            checked += 1
    assert checked >= 6


def test_r_c1_a_sampled_world_keeps_every_card_and_every_visible_fact() -> None:
    for state, seat in _sampled("europe", 4, 13, every=17):
        world = determinize(state, seat, random.Random(1))
        held = sum(sum(hand) for hand in world.hands)
        assert held + len(world.deck) + len(world.discard) + len(world.market) == TOTAL_CARDS - (
            len(state.tunnel.revealed) if state.tunnel else 0
        )
        assert [sum(h) for h in world.hands] == [sum(h) for h in state.hands]
        assert world.hands[seat] == state.hands[seat] and world.tickets[seat] == state.tickets[seat]
        assert [len(t) for t in world.tickets] == [len(t) for t in state.tickets]
        assert len(world.ticket_deck) == len(state.ticket_deck)
        assert (world.market, world.discard, world.owners) == (state.market, state.discard, state.owners)


def test_legacy_sensible_is_normal_and_unknown_kinds_are_refused() -> None:
    for state, seat in _sampled("usa", 3, 14, every=9):
        normal = ENGINE.bot_action(state, seat, random.Random(1), "normal")
        assert ENGINE.bot_action(state, seat, random.Random(1), "sensible") == normal
    state, seat = next(_sampled("usa", 2, 14, every=1))
    with pytest.raises(ValueError, match="unknown bot kind"):
        ENGINE.bot_action(state, seat, random.Random(1), "genius")


def _win_share(map_id: str, kinds: list[str], games: int) -> float:
    """The first kind's share of wins over seeded 2-player games, seats alternating."""
    won = 0.0
    for seed in range(games):
        seated = kinds if seed % 2 == 0 else kinds[::-1]
        *_, (_, _, _, last, _) = playout(map_id, 2, 100 + seed, seated)
        result = ENGINE.result(last)
        assert result is not None
        me = seated.index(kinds[0])
        won += 1 / len(result.winners) if me in result.winners else 0.0
    return won / games


def test_normal_beats_easy() -> None:
    assert _win_share("usa", ["normal", "easy"], 40) + _win_share("europe", ["normal", "easy"], 40) >= 2 * 0.6


@pytest.mark.slow
@pytest.mark.parametrize("agent", AGENTS)
def test_normal_holds_its_own_against_each_playstyle_agent(agent: str) -> None:
    """The rollout policy of `hard` is no pushover for any yardstick (it once lost most games to the One Step
    Thinker); how far `hard` beats them is for `bench.levels` to measure, over hundreds of games."""
    assert _win_share("usa", ["normal", agent], 10) + _win_share("europe", ["normal", agent], 10) >= 2 * NORMAL_FLOOR


def test_normal_never_spends_a_first_pick_on_a_face_up_locomotive() -> None:
    """A face-up locomotive costs the whole turn: two cards from the deck are worth more to `normal`."""
    drawn = 0
    for map_id, n_players in (("usa", 2), ("europe", 4)):
        for state, seat in _sampled(map_id, n_players, 16, every=1):
            if state.phase is Phase.TURN:
                action = ENGINE.bot_action(state, seat, random.Random(1), "normal")
                assert action.encode() != "draw:locomotive"
                drawn += action.encode().startswith("draw:")
    assert drawn > 40


def _messages(value: object) -> Iterator[Message]:
    """Every message nested in a parameter value."""
    if isinstance(value, Message):
        yield value
        for param in value.params.values():
            yield from _messages(param)
    elif isinstance(value, list):
        for item in value:
            yield from _messages(item)


def _keys(language: str) -> set[str]:
    data = tomllib.loads((I18N / language / "ttr_hint.toml").read_text(encoding="utf-8"))
    return {f"ttr_hint.{key}" for key in data}


@pytest.mark.slow
@pytest.mark.usefixtures("few_worlds")
def test_the_hint_is_a_legal_move_with_a_worded_reason_naming_only_what_the_seat_knows() -> None:
    keys = _keys("en")
    assert keys == _keys("ru")
    rnd = random.Random(7)
    reasons = set()
    for map_id, n_players in (("usa", 2), ("europe", 4)):
        board = board_for(map_id)
        for state, seat in _sampled(map_id, n_players, 15, every=17):
            hint = ENGINE.hint(state, seat, random.Random(2), ROOMY)
            assert hint.action.encode() in {a.encode() for a in ENGINE.legal_actions(state, seat)}
            assert hint.reason.key in keys
            reasons.add(hint.reason.key)
            mine = [board.ticket_message(t) for t in (*state.tickets[seat], *state.offers[seat])]
            for message in _messages(hint.reason):
                if message.key == "ttr.ticket":
                    assert message in mine, "the hint names a ticket the seat does not hold"
            if state.phase is not Phase.OPENING or seat == 0:
                again = ENGINE.hint(_scrambled(state, seat, rnd), seat, random.Random(2), ROOMY)
                assert again == hint
    assert len(reasons) >= 4


def _ticket(board_map: str, a: str, b: str) -> int:
    """The id of the ticket between these two cities."""
    board = board_for(board_map)
    return next(t for t, (x, y, _) in board.tickets.items() if {board.city_ids[x], board.city_ids[y]} == {a, b})


def test_normal_plans_its_tickets_together_so_they_share_tracks() -> None:
    """Seattle – New York and Vancouver – Montreal can run side by side: planned together they need 15 cars fewer
    than each ticket's own cheapest path, and the joint plan still connects both."""
    board = board_for("usa")
    state = started("usa", 2, 1)
    tickets = (_ticket("usa", "seattle", "new_york"), _ticket("usa", "vancouver", "montreal"))
    state = state.model_copy(update={"tickets": (tickets, state.tickets[1])})
    joint = joint_plan(state, 0, board)
    separate = target_tracks(state, 0, board)
    assert sum(board.track_len[t] for t in joint) + 15 == sum(board.track_len[t] for t in separate)
    built = state.model_copy(update={"owners": tuple(0 if t in joint else o for t, o in enumerate(state.owners))})
    assert open_tickets(built, 0, board) == []


@pytest.mark.parametrize("players", [2, 4])
def test_r_eu_6_normal_plans_around_a_long_tunnel_at_a_table_of_three_or_more(players: int) -> None:
    """Stockholm – Wien: through the 8-car tunnel to Petrograd the way takes 19 cars and its long routes score 21
    points more, so counted back (`POINTS_EARNED`) it weighs 15 against 16 for the plain way through København,
    Essen and Berlin (11 cars). At a table of 3 or more a tunnel weighs 2 cars more in a plan (its reveal may ask
    for more cards while rivals take the ways around): the plan takes the plain way, and still connects the ticket.
    Head to head the tunnel way stands."""
    board = board_for("europe")
    state = started("europe", players, 1)
    ticket = _ticket("europe", "stockholm", "wien")
    state = state.model_copy(update={"tickets": ((ticket,), *state.tickets[1:])})
    plan = joint_plan(state, 0, board)
    tunnel = track_index("europe", "petrograd", "stockholm")
    if players == 2:
        assert tunnel in plan
    else:
        assert tunnel not in plan
        assert not any(board.track_tunnel[t] for t in plan)
        assert sum(board.track_len[t] for t in plan) == 11
    built = state.model_copy(update={"owners": tuple(0 if t in plan else o for t, o in enumerate(state.owners))})
    assert open_tickets(built, 0, board) == []


@pytest.mark.parametrize("bonus", [True, False])
def test_r_p3_normal_spends_its_hand_on_the_route_that_takes_the_longest_path_bonus(bonus: bool) -> None:
    """No tickets and too few cars for new ones, so normal spends its hand. Its trail (Calgary – Helena, 4) is
    shorter than its rival's (El Paso – Los Angeles, 6): a route that joins it to 6 or more earns the 10-point bonus
    and is worth more than any 5-car route (10 points). Without the bonus in play, the 5-car route is."""
    board = board_for("usa")
    state = started("usa", 2, 1, longest_bonus=bonus)
    owners = list(state.owners)
    owners[track_index("usa", "calgary", "helena")] = 0
    owners[track_index("usa", "el_paso", "los_angeles")] = 1
    state = state.model_copy(
        update={
            "owners": tuple(owners),
            "tickets": ((), ()),
            "cars": (10, 30),
            "hands": (hand(purple=3, blue=5), state.hands[1]),
        }
    )
    action = ENGINE.bot_action(state, 0, random.Random(1), "normal")
    assert isinstance(action, Claim)
    track = board.track_ids.index(action.track)
    after, _ = ENGINE.apply(state, 0, action)
    score = final_scores(after)[0]
    if bonus:
        assert score.longest_bonus and score.trail_length >= 6
        assert board.track_points[track] < 10, "a 5-car route would have scored more on its own"
        said = reason(state, 0, action)
        assert said.key == "ttr_hint.claim_longest" and said.params["points"] == 10
    else:
        assert board.track_len[track] == 5


@pytest.mark.parametrize(("map_id", "n_players"), [("usa", 2), ("europe", 4)])
def test_r_p3_what_a_claim_does_for_the_longest_path_bonus_is_counted_as_the_trails_would_be(
    map_id: str, n_players: int
) -> None:
    """Over the states of a seeded game, for every seat and free route: the whole bonus exactly when the seat's trail
    with the route reaches the longest rival's and did not before, half when the seat already leads and the route
    touches an end of its longest trail (an end: a city the trail's routes touch an odd number of times)."""
    board = board_for(map_id)
    bonus = board.game_map.rules.longest_bonus
    checked = 0
    for step, (state, _, _, _, _) in enumerate(playout(map_id, n_players, 17, ["normal"] * n_players)):
        if step % 9:
            continue
        for seat in range(n_players):
            lengths = [longest_trail(own_edges(board, state.owners, s)) for s in range(n_players)]
            own, path = lengths[seat]
            rival = max(n for s, (n, _) in enumerate(lengths) if s != seat)
            cities = [
                c for t in path for c in (board.track_a[board.track_index[t]], board.track_b[board.track_index[t]])
            ]
            ends = {c for c in cities if cities.count(c) % 2} or set(cities[:1])
            for track in (t for t, o in enumerate(state.owners) if o < 0):
                owners = (*state.owners[:track], seat, *state.owners[track + 1 :])
                after = longest_trail(own_edges(board, owners, seat))[0]
                touches_end = board.track_a[track] in ends or board.track_b[track] in ends
                expected = bonus if own < rival <= after else bonus // 2 if rival <= own and touches_end else 0
                assert longest_gain(state, seat, board, track) == expected
                checked += 1
    assert checked > 1000


def test_r_p3_the_coach_says_a_claim_lengthens_the_lead_for_the_longest_path() -> None:
    """Seat 0's trail (Calgary – Helena – Salt Lake City, 7) is already longer than its rival's (6): a claim at its
    end is worth half the bonus, and the hint says the lead grows; a claim elsewhere is worth its points alone."""
    board = board_for("usa")
    state = started("usa", 2, 1)
    owners = list(state.owners)
    owners[track_index("usa", "calgary", "helena")] = 0
    owners[track_index("usa", "helena", "salt_lake_city")] = 0
    owners[track_index("usa", "el_paso", "los_angeles")] = 1
    state = state.model_copy(update={"owners": tuple(owners), "tickets": ((), ())})
    lengthens = track_index("usa", "denver", "salt_lake_city", "red")
    assert longest_gain(state, 0, board, lengthens) == 5
    assert longest_gain(state, 0, board, track_index("usa", "atlanta", "miami")) == 0
    action = Claim(track=board.track_ids[lengthens], color="red", locomotives=0)
    said = reason(state, 0, action)
    assert said.key == "ttr_hint.claim_longest_lead" and said.params["points"] == 10


@pytest.mark.parametrize(("n_players", "more"), [(2, False), (4, True)])
def test_normal_keeps_the_tickets_its_plan_can_take_in(n_players: int, more: bool) -> None:
    """Holding Seattle – New York (planned along Helena, Duluth, Toronto and Montreal), `normal` keeps Vancouver –
    Montreal (1 more car for 20 points) in any game; Dallas – New York (7 for 11) and Boston – Miami (12 for 12)
    only with 3 or more players, where more tickets measured better."""
    state = started("usa", n_players, 1)
    cheap = _ticket("usa", "vancouver", "montreal")
    dear = {_ticket("usa", "dallas", "new_york"), _ticket("usa", "boston", "miami")}
    state = state.model_copy(
        update={
            "phase": Phase.TICKETS,
            "tickets": ((_ticket("usa", "seattle", "new_york"),), *state.tickets[1:]),
            "offers": (tuple(sorted({cheap, *dear})), *state.offers[1:]),
        }
    )
    action = ENGINE.bot_action(state, 0, random.Random(1), "normal")
    assert isinstance(action, KeepTickets)
    assert set(action.tickets) == ({cheap, *dear} if more else {cheap})


def test_hard_samples_more_worlds_as_the_game_shortens(monkeypatch: pytest.MonkeyPatch) -> None:
    """A playout's cost follows the cars still in play, so a late decision affords more sampled worlds."""
    worlds: list[int] = []
    original = search.determinize

    def counted(state: TtrState, seat: int, rng: random.Random) -> TtrState:
        worlds[-1] += 1
        return original(state, seat, rng)

    monkeypatch.setattr(search, "determinize", counted)
    early = started("usa", 2, 3)
    late = early.model_copy(update={"cars": (12, 14)})
    for state in (early, late):
        worlds.append(0)
        ENGINE.bot_action(state, 0, random.Random(5), "hard", ROOMY)
    assert search.world_count(early, 5, ROOMY) < search.world_count(late, 5, ROOMY)
    assert search.MIN_EVIDENCE <= worlds[0] < worlds[1] <= search.MAX_WORLDS


def test_hard_plays_the_second_half_of_its_worlds_only_for_moves_that_gained_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After half its worlds the search drops the candidates that did worse than the heuristic's move there and
    spends their playouts on the rest: the one that gains is judged over more worlds, and chosen."""
    state = started("usa", 2, 3)
    board = board_for("usa")
    moves = search.move_set(state, 0)
    candidates = search.candidate_moves(state, 0, moves, board, search.normal(state, 0, moves, board, random.Random(1)))
    assert len(candidates) >= 3
    worth = {candidates[0]: 0.0, candidates[1]: 10.0}
    played = {action: 0 for action in candidates}

    def fixed(rules: search.Rules, world: TtrState, seat: int, action: object, seed: int) -> float:
        played[action] += 1
        return worth.get(action, -5.0)

    monkeypatch.setattr(search, "rollout", fixed)
    pick, _ = search.best_by_rollouts(ENGINE, state, 0, candidates, random.Random(2), ROOMY)
    worlds = search.world_count(state, len(candidates), ROOMY)
    half = max(search.MIN_EVIDENCE, worlds // 2)
    assert pick == candidates[1]
    assert all(played[action] == half for action in candidates[2:])
    assert played[candidates[0]] == played[candidates[1]] > worlds


@pytest.fixture
def stand_in_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The search's CPU clock, a stand-in that only playouts move, by 0.06 s each (they play nothing): `[seconds]`."""
    clock = [0.0]

    def playout_costs_time(rules: search.Rules, world: TtrState, seat: int, action: object, seed: int) -> float:
        clock[0] += 0.06
        return 0.0

    monkeypatch.setattr(search, "rollout", playout_costs_time)
    monkeypatch.setattr(search, "time", SimpleNamespace(process_time=lambda: clock[0]))
    return clock


def test_hard_starts_no_sampled_world_that_would_overrun_its_budget(stand_in_clock: list[float]) -> None:
    """On a machine too slow for its world count, the search stops before a world that would end past the budget,
    rather than finishing one begun just before it ran out (a playout takes 0.06 s of the stand-in clock)."""
    clock = stand_in_clock
    state = started("usa", 2, 3)
    board = board_for("usa")
    moves = search.move_set(state, 0)
    candidates = search.candidate_moves(state, 0, moves, board, search.normal(state, 0, moves, board, random.Random(1)))
    assert len(candidates) == 4 and search.world_count(state, 4, Budget(seconds=1.0)) > 5
    search.best_by_rollouts(ENGINE, state, 0, candidates, random.Random(2), Budget(seconds=1.0))
    assert clock[0] == pytest.approx(0.96), "four worlds of 0.24 s; a fifth would end at 1.2 s"


def test_hard_counts_its_budget_from_the_start_of_the_move(
    monkeypatch: pytest.MonkeyPatch, stand_in_clock: list[float]
) -> None:
    """Working out `normal`'s move and the candidates is thinking too: the search's deadline runs from before them
    (stand-in clock: `normal`'s move takes 0.5 s, a playout 0.06 s, so after 2 worlds of 4 candidates a third would
    end at 1.22 s)."""
    clock = stand_in_clock
    heuristic = search.normal

    def slow_normal(*args: Any) -> object:
        clock[0] += 0.5
        return heuristic(*args)

    monkeypatch.setattr(search, "normal", slow_normal)
    state = started("usa", 2, 3)
    search.hard(ENGINE, state, 0, search.move_set(state, 0), board_for("usa"), random.Random(1), Budget(seconds=1.0))
    assert clock[0] == pytest.approx(0.98)


def test_the_hint_names_the_ticket_a_jointly_planned_track_serves() -> None:
    """Nashville – Pittsburgh lies on no ticket's cheapest way in cars, but the plan runs Boston – Miami along longer
    routes that score more, through it: the hint names that ticket rather than only counting the route's points."""
    board = board_for("usa")
    state = started("usa", 2, 1)
    boston_miami = _ticket("usa", "boston", "miami")
    tickets = (boston_miami, _ticket("usa", "calgary", "phoenix"))
    state = state.model_copy(update={"tickets": (tickets, state.tickets[1])})
    track = track_index("usa", "nashville", "pittsburgh")
    assert track in joint_plan(state, 0, board) and track not in target_tracks(state, 0, board)
    action = Claim(track=board.track_ids[track], color="yellow", locomotives=0)
    said = reason(state, 0, action)
    assert said.key == "ttr_hint.claim_toward"
    assert said.params["ticket"] == board.ticket_message(boston_miami)
