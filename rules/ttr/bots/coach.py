"""Why the coach suggests a move, in one translatable sentence (`ttr_hint.*`), from the seat's own view only.

The parameters name the board's tracks and cities, the seat's own cards and tickets, and public figures; nothing
of another seat's hand or tickets ever appears.
"""

from __future__ import annotations

from rules.engine import Message, Param
from rules.ttr.actions import (
    DECK,
    BuildStation,
    Claim,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TtrAction,
    Withdraw,
)
from rules.ttr.board import CARD_CODES, COLOR_MESSAGES, LOCO, Board, board_for
from rules.ttr.graph import components
from rules.ttr.state import TtrState
from rules.ttr.view import describe_action

from .plan import joint_plan, longest_gain, open_tickets, own_score, ticket_plan, track_color
from .rivals import deepest_cut


def _hint(reason: str, **params: Param) -> Message:
    return Message(key=f"ttr_hint.{reason}", params=params)


def reason(state: TtrState, seat: int, action: TtrAction) -> Message:
    """Say why `action` is a good move for `seat` now."""
    board = board_for(state.map_id)
    if isinstance(action, Claim):
        return _claim_reason(state, seat, board, action)
    if isinstance(action, DrawCard):
        return _draw_reason(state, seat, board, action)
    if isinstance(action, DrawTickets):
        if not open_tickets(state, seat, board):
            return _hint("tickets_done", cars=state.cars[seat])
        return _hint("tickets_more", cars=state.cars[seat])
    if isinstance(action, KeepTickets):
        return _keep_reason(state, seat, board, action)
    if isinstance(action, PayTunnel):
        extra = state.tunnel.extra if state.tunnel is not None else 0
        return _hint("pay_tunnel", extra=extra)
    if isinstance(action, Withdraw):
        return _hint("withdraw")
    if isinstance(action, Pass):
        return _hint("pass")
    if isinstance(action, BuildStation) and action.city in board.city_index:
        return _station_reason(state, seat, board, board.city_index[action.city])
    return _hint("best_found", action=describe_action(board, action))


def _claim_reason(state: TtrState, seat: int, board: Board, action: Claim) -> Message:
    """A claim completes a ticket, lies on a ticket's path, wins or widens the longest path, cuts a rival's way, or
    simply scores."""
    track = board.track_index[action.track]
    move = describe_action(board, action)
    pairs = [(board.track_a[i], board.track_b[i]) for i, o in enumerate(state.owners) if o == seat or i == track]
    labels = components(len(board.city_ids), pairs)
    points = board.track_points[track]
    unfinished = open_tickets(state, seat, board)
    done = [t for t in unfinished if labels[board.tickets[t][0]] == labels[board.tickets[t][1]]]
    if done:
        best = max(done, key=lambda t: (board.tickets[t][2], -t))
        total = points + sum(board.tickets[t][2] for t in done)
        return _hint("claim_completes", move=move, ticket=board.ticket_message(best), points=total)
    served = _served_by(state, seat, board, track, unfinished)
    if served is not None:
        return _hint("claim_toward", move=move, ticket=board.ticket_message(served))
    gain = longest_gain(state, seat, board, track)
    if gain:
        bonus = board.game_map.rules.longest_bonus
        return _hint("claim_longest" if gain == bonus else "claim_longest_lead", move=move, points=bonus)
    cut = deepest_cut(state, seat, [track])
    if cut is not None:
        return _hint("claim_cuts", move=move, seat=cut[1])
    return _hint("claim_points", move=move, points=points)


def _station_reason(state: TtrState, seat: int, board: Board, city: int) -> Message:
    """The ticket a station completes by borrowing a rival's route (R-EU-8), worth more than the 4 points an unused
    station keeps; else that it keeps a way open for the seat's tickets."""
    before = _completed(state, seat, state.stations)
    after = _completed(state, seat, (*state.stations[:city], seat, *state.stations[city + 1 :]))
    saved = sorted(after - before)
    if saved:
        best = max(saved, key=lambda t: (board.tickets[t][2], -t))
        return _hint("station_saves", city=board.city_messages[city], ticket=board.ticket_message(best))
    return _hint("station", city=board.city_messages[city])


def _completed(state: TtrState, seat: int, stations: tuple[int, ...]) -> set[int]:
    """The seat's tickets its routes, and routes its stations would borrow, join now."""
    return {t for t, done in own_score(state, seat, stations=stations).tickets if done}


def _served_by(state: TtrState, seat: int, board: Board, track: int, unfinished: list[int]) -> int | None:
    """The first unfinished ticket the seat's plan needs this track for: its own routes and the planned ones join
    the ticket's cities with the track and not without it."""
    plan = set(joint_plan(state, seat, board))
    if track not in plan:
        return None
    built = [i for i, o in enumerate(state.owners) if o == seat or i in plan]
    ends = [(board.track_a[i], board.track_b[i]) for i in built]
    with_track = components(len(board.city_ids), ends)
    without = components(len(board.city_ids), [e for i, e in zip(built, ends, strict=True) if i != track])
    for ticket in unfinished:
        a, b, _ = board.tickets[ticket]
        if with_track[a] == with_track[b] and without[a] != without[b]:
            return ticket
    return None


def _draw_reason(state: TtrState, seat: int, board: Board, action: DrawCard) -> Message:
    """Which track of the plan the card is for, and how many more of its colour it needs."""
    hand = state.hands[seat]
    targets = joint_plan(state, seat, board)
    if action.source == DECK:
        wants = _wants(board, targets, hand)
        if not wants:
            return _hint("draw_deck")
        color, track, missing = wants[0]
        return _hint("draw_deck_for", color=COLOR_MESSAGES[color], count=missing, track=board.track_message(track))
    code = CARD_CODES[action.source]
    if code == LOCO:
        return _hint("draw_locomotive")
    for color, track, missing in _wants(board, targets, hand):
        if color == code:
            return _hint("draw_color", color=COLOR_MESSAGES[code], count=missing, track=board.track_message(track))
    return _hint("draw_face_up", color=COLOR_MESSAGES[code])


def _wants(board: Board, targets: list[int], hand: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(colour, track, cards missing) for each target track still short of cards, the nearest to done first."""
    out = []
    for track in targets:
        color = track_color(board, track, hand)
        missing = board.track_len[track] - hand[color] - hand[LOCO]
        if missing > 0:
            out.append((color, track, missing))
    return sorted(out, key=lambda w: (w[2], -board.track_len[w[1]], w[1]))


def _keep_reason(state: TtrState, seat: int, board: Board, action: KeepTickets) -> Message:
    """Kept tickets that share tracks with each other or with the plan, else the cheapest to connect."""
    tickets: list[str | int | Message] = [board.ticket_message(t) for t in action.tickets]
    plan = set(joint_plan(state, seat, board))
    paths = []
    cars = 0
    for ticket in action.tickets:
        cost, path = ticket_plan(state, seat, board, ticket)
        paths.append(set(path or ()))
        cars += cost if path is not None else 0
    shared = any(p & plan for p in paths) or any(a & b for i, a in enumerate(paths) for b in paths[i + 1 :])
    if shared:
        return _hint("keep_shared", tickets=tickets)
    return _hint("keep_cheapest", tickets=tickets, cars=cars)
