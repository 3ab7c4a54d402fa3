"""How the offline runner makes a Ticket to Ride move as a person would (loaded by the runner only, by the name
the game's entry gives)."""

from __future__ import annotations

from bot.sandbox.table import ScriptedTable, click_on_turn_message, controls, select_with, ticket_choice
from bot.storage.games import GameRecord
from localdiscord.models import LocalUser
from rules.ttr.maps import load_map


async def play_move(table: ScriptedTable, record: GameRecord, person: LocalUser, code: str) -> None:
    """Make a Ticket to Ride move as a person would: cards and tickets on the turn message; claims, stations,
    ticket choices and tunnels in their private messages (opening My hand when they have none at hand)."""
    verb, _, rest = code.partition(":")
    discord = table.discord
    if verb in ("draw", "tickets", "pass"):
        await click_on_turn_message(table, record, person, code)
        return
    wanted = {"pay": {"act"}, "withdraw": {"act"}}.get(verb, {"route", "city", "station"})
    if verb == "keep":
        private = ticket_choice(table, person, rest.split(","))
    else:
        private = table.own_controls(record, person, wanted)
    if private is None:
        public = await table.turn_message(record.id)
        hand = next(str(c["custom_id"]) for found, c in controls(public) if found == "hand")
        private = (await table.timed("menu", discord.click(person, public, hand))).message
    assert private is not None, "My hand answered with nothing"
    if verb == "keep":
        custom_id = next(str(c["custom_id"]) for found, c in controls(private) if found == "keep")
        await table.timed(verb, discord.select(person, private, custom_id, rest.split(",")))
        return
    if verb in ("pay", "withdraw"):
        custom_id = next(str(c["custom_id"]) for found, c in controls(private) if c["custom_id"].endswith(code))
        await table.timed(verb, discord.click(person, private, custom_id))
        return
    target, menu = rest.split(":")[0], "route" if verb == "claim" else "station"
    if verb == "claim" and select_with(private, "route", target) is None:
        board = table.bot.service.view(record.id, None)
        ends = _track_ends(board.map, int(target))  # type: ignore[attr-defined]
        city = next(c for c in ends if select_with(private, "city", c) is not None)
        by_city = select_with(private, "city", city)
        assert by_city is not None
        private = (await table.timed("menu", discord.select(person, private, by_city, [city]))).message
    chosen = select_with(private, menu, target)
    assert private is not None and chosen is not None, f"no {menu} menu offers {target} to {person.name}"
    answer = await table.timed(verb, discord.select(person, private, chosen, [target]))
    for _ in range(2):  # how to pay, when there is a choice: maybe the colour first, then the cards
        paying = select_with(answer.message, "act", code)
        colour = select_with(answer.message, "paycolor", code.split(":")[2])
        if paying is None and colour is None:
            return
        table.timings[-1] = ("menu", table.timings[-1][1])
        assert answer.message is not None
        if paying is not None:
            await table.timed(verb, discord.select(person, answer.message, paying, [code]))
            return
        assert colour is not None
        answer = await table.timed(verb, discord.select(person, answer.message, colour, [code.split(":")[2]]))


def _track_ends(map_id: str, track_id: int) -> tuple[str, str]:
    """The two cities of a Ticket to Ride track."""
    found = next(t for t in load_map(map_id).tracks if t.id == track_id)
    return found.a, found.b
