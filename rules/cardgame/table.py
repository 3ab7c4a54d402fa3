"""The game's flow as pure functions: each builds the new state from what changed and appends what happened.

Validation happens before (in the engine's handlers); everything here assumes the move is legal. A move is one
`evolve` of the state with the fields it changed, and ending a turn one more; untouched players are shared.
Rules by number: step 1 (R-CG-5), drawing and the face-up row (R-CG-7), plays and robbery (R-CG-8, R-CG-9),
tickets (R-CG-10), the end of a deck (R-CG-11, R-CG-12) and the scorings (R-CG-13).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cardgame.cards import LOCOMOTIVE, N_COLORS, N_KINDS, cards_of, color_message
from rules.cardgame.options import CardGameOptions
from rules.cardgame.plays import has_legal_play, holder
from rules.cardgame.scoring import score_stack
from rules.cardgame.state import CardGameState, LastMove, MoveKind, Phase, PlayerState, PlayRecord
from rules.cardgame.tickets import load_data, ticket_message
from rules.engine import Event, Message, Param, Seat
from rules.models import build_unchecked, evolve

FACE_UP = 5
TICKETS_DRAWN = 4
SECOND_DECK_DEAL = 4
NO_YARD = (0,) * N_COLORS
NO_CARDS = (0,) * N_KINDS


def event(name: str, to: int | None = None, **params: Param) -> Event:
    """Build an event `cardgame.event.<name>`; public unless `to` names the one seat told."""
    return build_unchecked(Event, {"key": f"cardgame.event.{name}", "params": params, "to": to})


def ticket_list(tickets: Sequence[int]) -> list[str | int | Message]:
    """Tickets as translatable names, for event parameters."""
    return [ticket_message(t) for t in tickets]


def card_list(cards: Sequence[int]) -> list[str | int | Message]:
    """Cards as translatable colour names, for event parameters."""
    return [color_message(kind) for kind in cards]


def _with_player(players: tuple[PlayerState, ...], seat: Seat, player: PlayerState) -> tuple[PlayerState, ...]:
    """The players with `seat`'s replaced (the others shared)."""
    return (*players[:seat], player, *players[seat + 1 :])


def _added(counts: Sequence[int], kind: int, count: int = 1) -> tuple[int, ...]:
    """Per-kind counts with `count` more of `kind`."""
    changed = list(counts)
    changed[kind] += count
    return tuple(changed)


# Drawing (R-CG-7) ---------------------------------------------------------------------------------------------


def pick(state: CardGameState, seat: Seat, kind: int | None, events: list[Event]) -> CardGameState:
    """One pick: the deck's top card (`kind` None) or a face-up card, replaced at once; then a second pick or the
    turn's end (a face-up locomotive counts as both picks; an empty deck ends the draw early)."""
    deck, face_up, discard = list(state.deck), list(state.face_up), list(state.discard)
    player = state.players[seat]
    drawn = _drawing(state, seat)
    if kind is None:
        card = deck.pop()
        events.append(event("drew_from_deck", seat=seat))
        events.append(event("drew_card", to=seat, seat=seat, color=color_message(card)))
        drawn = evolve(drawn, {"blind": drawn.blind + 1})
    else:
        card = kind
        face_up[face_up.index(kind)] = deck.pop()  # drawing needs a non-empty deck, so a replacement is there
        events.append(event("drew_face_up", seat=seat, color=color_message(kind)))
        drawn = evolve(drawn, {"face_up": (*drawn.face_up, kind)})
        face_up = reset_row(state.options, face_up, deck, discard, events)
    ends = state.phase is Phase.SECOND_PICK or kind == LOCOMOTIVE or not deck
    state = evolve(
        state,
        {
            "deck": tuple(deck),
            "face_up": tuple(face_up),
            "discard": tuple(discard),
            "players": _with_player(state.players, seat, evolve(player, {"hand": _added(player.hand, card)})),
            "last_move": drawn,
            "phase": state.phase if ends else Phase.SECOND_PICK,
        },
    )
    return end_turn(state, events) if ends else state


def _drawing(state: CardGameState, seat: Seat) -> LastMove:
    """This turn's draw so far: the first pick's record at the second pick, else a new one."""
    last = state.last_move
    if last is not None and last.kind is MoveKind.DRAW and last.turn == state.turn and last.seat == seat:
        return last
    return LastMove(turn=state.turn, seat=seat, kind=MoveKind.DRAW)


def reset_row(
    options: CardGameOptions, face_up: list[int], deck: list[int], discard: list[int], events: list[Event]
) -> list[int]:
    """3 face-up locomotives: discard the row and turn 5 new cards, again if need be (R-CG-7, variant).

    Returns the row; the cards turned come off `deck` and the discarded ones are counted into `discard`.
    Ruling: a reset needs 5 cards in the deck to turn a new row; with fewer, the row stays as it is.
    """
    if not options.three_locomotive_reset:
        return face_up
    while len(face_up) == FACE_UP and face_up.count(LOCOMOTIVE) >= 3 and len(deck) >= FACE_UP:
        for kind in face_up:
            discard[kind] += 1
        turned = [deck.pop() for _ in range(FACE_UP)]
        events.append(event("face_up_reset", discarded=card_list(face_up), turned=card_list(turned)))
        face_up = turned
    return face_up


# Plays (R-CG-8, R-CG-9) ---------------------------------------------------------------------------------------


def play(
    state: CardGameState, seat: Seat, colors: tuple[int, ...], cards: int, locomotives: int, events: list[Event]
) -> CardGameState:
    """Move a legal play from hand to yard, robbing the yard that held its colour, if any; end the turn."""
    players = list(state.players)
    player = players[seat]
    hand, yard, yard_locomotives = list(player.hand), list(player.yard), list(player.yard_locomotives)
    discard = state.discard
    robbed_seat, robbed_cards = None, 0
    if len(colors) == 1:
        color = colors[0]
        robbed_seat = holder([p.yard for p in players], color, seat)
        if robbed_seat is not None:
            players[robbed_seat], robbed_cards, discard = _rob(players[robbed_seat], color, discard)
        hand[color] -= cards
        hand[LOCOMOTIVE] -= locomotives
        yard[color] = cards + locomotives
        yard_locomotives[color] = locomotives
        name = "played_group_locomotives" if locomotives else "played_group"
        events.append(event(name, seat=seat, color=color_message(color), count=cards, locomotives=locomotives))
    else:
        for color in colors:
            hand[color] -= 1
            yard[color] = 1
        events.append(event("played_three", seat=seat, colors=card_list(colors)))
    if robbed_seat is not None:
        events.append(
            event("robbed", seat=robbed_seat, robber=seat, color=color_message(colors[0]), count=robbed_cards)
        )
    players[seat] = evolve(
        player, {"hand": tuple(hand), "yard": tuple(yard), "yard_locomotives": tuple(yard_locomotives)}
    )
    record = build_unchecked(
        PlayRecord,
        {
            "turn": state.turn,
            "seat": seat,
            "colors": colors,
            "cards": cards,
            "locomotives": locomotives,
            "robbed_seat": robbed_seat,
            "robbed_cards": robbed_cards,
        },
    )
    state = evolve(
        state,
        {
            "players": tuple(players),
            "discard": discard,
            "plays": (*state.plays, record),
            "last_move": LastMove(turn=state.turn, seat=seat, kind=MoveKind.PLAY),
        },
    )
    return end_turn(state, events)


def _rob(victim: PlayerState, color: int, discard: tuple[int, ...]) -> tuple[PlayerState, int, tuple[int, ...]]:
    """Discard `victim`'s whole group of `color` (R-CG-9): the robbed player, the group's size, the discard."""
    size, locomotives = victim.yard[color], victim.yard_locomotives[color]
    discard = _added(_added(discard, color, size - locomotives), LOCOMOTIVE, locomotives)
    yard, yard_locomotives = list(victim.yard), list(victim.yard_locomotives)
    yard[color] = yard_locomotives[color] = 0
    return evolve(victim, {"yard": tuple(yard), "yard_locomotives": tuple(yard_locomotives)}), size, discard


# Tickets (R-CG-3, R-CG-10) ------------------------------------------------------------------------------------


def offer_tickets(state: CardGameState, seat: Seat, events: list[Event]) -> CardGameState:
    """Show `seat` the top 4 tickets (fewer if the deck has fewer) to choose from."""
    offered = state.ticket_deck[:TICKETS_DRAWN]
    events.append(event("drew_tickets", seat=seat, count=len(offered)))
    events.append(event("tickets_offered", to=seat, seat=seat, tickets=ticket_list(offered)))
    player = evolve(state.players[seat], {"offered": offered})
    return evolve(
        state,
        {
            "ticket_deck": state.ticket_deck[TICKETS_DRAWN:],
            "players": _with_player(state.players, seat, player),
            "phase": Phase.TICKETS,
            "last_move": LastMove(turn=state.turn, seat=seat, kind=MoveKind.TICKETS, tickets_drawn=len(offered)),
        },
    )


def _keep(player: PlayerState, seat: Seat, kept: tuple[int, ...], events: list[Event]) -> tuple[PlayerState, list[int]]:
    """Keep `kept` of the offered tickets: the player after, and the others (in the order they were offered)."""
    returned = [t for t in player.offered if t not in kept]
    events.append(event("kept_tickets", seat=seat, count=len(kept), returned=len(returned)))
    if kept:
        events.append(event("you_kept_tickets", to=seat, seat=seat, tickets=ticket_list(kept)))
    return evolve(player, {"tickets": (*player.tickets, *kept), "offered": ()}), returned


def keep_opening(state: CardGameState, seat: Seat, kept: tuple[int, ...], events: list[Event]) -> CardGameState:
    """Opening choice: keep, shuffle the rest back into the ticket deck; start play once all have chosen."""
    player, returned = _keep(state.players[seat], seat, kept, events)
    ticket_deck = [*state.ticket_deck, *returned]
    generator, rng = state.rng.next()
    generator.shuffle(ticket_deck)
    players = _with_player(state.players, seat, evolve(player, {"chose_opening": True}))
    state = evolve(state, {"players": players, "ticket_deck": tuple(ticket_deck), "rng": rng})
    if all(p.chose_opening for p in players):
        return _start_turn(state, state.first_player, events)
    return state


def keep_drawn(state: CardGameState, seat: Seat, kept: tuple[int, ...], events: list[Event]) -> CardGameState:
    """Turn choice: keep, put the rest under the ticket deck, end the turn."""
    player, returned = _keep(state.players[seat], seat, kept, events)
    last = state.last_move
    if last is not None and last.kind is MoveKind.TICKETS:
        last = evolve(last, {"tickets_kept": len(kept)})
    state = evolve(
        state,
        {
            "players": _with_player(state.players, seat, player),
            "ticket_deck": (*state.ticket_deck, *returned),
            "last_move": last,
        },
    )
    return end_turn(state, events)


# Turns, the end of a deck, scorings (R-CG-5, R-CG-11, R-CG-12, R-CG-13) ---------------------------------------


def end_turn(state: CardGameState, events: list[Event]) -> CardGameState:
    """End the current turn and start the next one (unless the game ended)."""
    state, following = _finish_turn(state, events)
    return state if following is None else _start_turn(state, following, events)


def _start_turn(state: CardGameState, seat: Seat, events: list[Event]) -> CardGameState:
    """Begin `seat`'s turn with the automatic step 1; a seat with no possible step 2 passes at once."""
    while True:
        turn = state.turn + 1
        events.append(event("turn_started", seat=seat, turn=turn))
        player = _yard_to_stack(state.players[seat], seat, events)
        update: dict[str, object] = {"current": seat, "turn": turn, "phase": Phase.TURN}
        if player is not state.players[seat]:
            update["players"] = _with_player(state.players, seat, player)
        state = evolve(state, update)
        if state.deck or state.ticket_deck or has_legal_play(player.hand, [p.yard for p in state.players], seat):
            return state
        events.append(event("no_move", seat=seat))
        state = evolve(state, {"last_move": LastMove(turn=turn, seat=seat, kind=MoveKind.PASS)})
        state, following = _finish_turn(state, events)
        if following is None:
            return state
        seat = following


def _yard_to_stack(player: PlayerState, seat: Seat, events: list[Event]) -> PlayerState:
    """Step 1: one card of each colour in the yard goes to the stack, a locomotive first (R-CG-5)."""
    if not any(player.yard):
        return player
    yard, yard_locomotives, stack = list(player.yard), list(player.yard_locomotives), list(player.stack)
    moved = []
    for color in range(N_COLORS):
        if not yard[color]:
            continue
        kind = LOCOMOTIVE if yard_locomotives[color] else color
        if kind == LOCOMOTIVE:
            yard_locomotives[color] -= 1
        yard[color] -= 1
        stack[kind] += 1
        moved.append(kind)
    events.append(event("yard_to_stack", seat=seat, cards=card_list(moved)))
    return evolve(player, {"yard": tuple(yard), "yard_locomotives": tuple(yard_locomotives), "stack": tuple(stack)})


def _finish_turn(state: CardGameState, events: list[Event]) -> tuple[CardGameState, Seat | None]:
    """Count down the last turns and run a scoring when due: the state, and who plays next (None: game over).

    The deck running out during a turn gives every player, that one included, one more turn (R-CG-11).
    """
    following = (state.current + 1) % state.n_players
    left = state.last_turns_left
    if left is None:
        if state.deck:
            return state, following
        events.append(event("last_round", seat=state.current))
        return evolve(state, {"last_turns_left": state.n_players}), following
    if left > 1:
        return evolve(state, {"last_turns_left": left - 1}), following
    state = evolve(state, {"last_turns_left": None})
    if state.n_players == 4 and state.deck_number == 1:
        return _first_scoring_and_new_deck(state, events), following
    return _final_scoring(state, events), None


def _first_scoring_and_new_deck(state: CardGameState, events: list[Event]) -> CardGameState:
    """4 players, first deck out: score completed tickets, set them aside, build and deal the second deck."""
    records, players = [], []
    pile = list(state.discard)
    for s, player in enumerate(state.players):
        record = score_stack(s, player.stack, player.tickets)
        records.append(record)
        done = {score.ticket for score in record.completed}
        events.append(
            event(
                "first_scoring",
                seat=s,
                points=sum(load_data().ticket(t).points for t in done),
                completed=ticket_list(sorted(done)),
            )
        )
        for color in range(N_COLORS):
            pile[color] += player.yard[color] - player.yard_locomotives[color]
            pile[LOCOMOTIVE] += player.yard_locomotives[color]
        for kind in range(N_KINDS):
            pile[kind] += player.stack[kind]
        players.append((player, tuple(t for t in player.tickets if t not in done)))
    deck = cards_of(pile)
    generator, rng = state.rng.next()
    generator.shuffle(deck)
    events.append(event("second_deck", count=len(deck)))
    hands = {}
    first = (state.current + 1) % state.n_players
    for offset in range(state.n_players):
        s = (first + offset) % state.n_players
        dealt = [deck.pop() for _ in range(min(SECOND_DECK_DEAL, len(deck)))]
        hands[s] = _added_cards(players[s][0].hand, dealt)
        events.append(event("dealt", to=s, seat=s, cards=card_list(dealt)))
    face_up, discard = list(state.face_up), [0] * N_KINDS
    while len(face_up) < FACE_UP and deck:
        face_up.append(deck.pop())
    face_up = reset_row(state.options, face_up, deck, discard, events)
    last_turns_left = None
    if not deck:
        # Ruling: a second deck used up by the deal runs out at once; the last turns follow.
        last_turns_left = state.n_players
        events.append(event("last_round", seat=state.current))
    cleared = {"yard": NO_YARD, "yard_locomotives": NO_YARD, "stack": NO_CARDS}
    return evolve(
        state,
        {
            "players": tuple(
                evolve(player, {**cleared, "tickets": tickets, "hand": hands[s]})
                for s, (player, tickets) in enumerate(players)
            ),
            "first_scoring": tuple(records),
            "deck": tuple(deck),
            "face_up": tuple(face_up),
            "discard": tuple(discard),
            "rng": rng,
            "deck_number": 2,
            "last_turns_left": last_turns_left,
        },
    )


def _added_cards(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """A hand with `cards` added."""
    counts = list(hand)
    for kind in cards:
        counts[kind] += 1
    return tuple(counts)


def _final_scoring(state: CardGameState, events: list[Event]) -> CardGameState:
    """Reveal every stack, score it, and end the game (R-CG-13)."""
    events.append(event("game_over"))
    records = tuple(score_stack(s, p.stack, p.tickets) for s, p in enumerate(state.players))
    return evolve(state, {"final_scoring": records, "phase": Phase.OVER})
