"""How the offline runner makes a card-game move as a person would (loaded by the runner only, by the name the
game's entry gives)."""

from __future__ import annotations

from bot.sandbox.table import ScriptedTable, click_on_turn_message, controls, select_with, ticket_choice
from bot.storage.games import GameRecord
from localdiscord.models import LocalUser


async def play_move(table: ScriptedTable, record: GameRecord, person: LocalUser, code: str) -> None:
    """Make a card-game move as a person would: cards and tickets on the turn message; ticket choices in their
    private choice; plays through My hand: the colour, then the cards (or how many, then the locomotives), or
    three colours at once."""
    verb, _, rest = code.partition(":")
    discord = table.discord
    if verb in ("draw", "tickets"):
        await click_on_turn_message(table, record, person, code)
        return
    ids = [] if rest == "none" else rest.split(",")
    private = ticket_choice(table, person, ids) if verb == "keep" and ids else None
    if verb == "keep" and not ids:
        private = table.own_controls(record, person, {"act"})
    if private is None or verb != "keep":
        public = await table.turn_message(record.id)
        hand = next(str(c["custom_id"]) for found, c in controls(public) if found == "hand")
        private = (await table.timed("menu", discord.click(person, public, hand))).message
    assert private is not None, "My hand answered with nothing"
    if verb == "keep":
        if ids:
            custom_id = next(str(c["custom_id"]) for found, c in controls(private) if found == "keep")
            await table.timed(verb, discord.select(person, private, custom_id, ids))
        else:
            custom_id = next(str(c["custom_id"]) for _, c in controls(private) if c["custom_id"].endswith(code))
            await table.timed(verb, discord.click(person, private, custom_id))
        return
    colour = "three" if verb == "play3" else rest.split(":")[0]
    by_colour = select_with(private, "color", colour)
    assert by_colour is not None, f"My hand offers {person.name} no way to play {colour}"
    answer = await table.timed("menu", discord.select(person, private, by_colour, [colour]))
    assert answer.message is not None
    if verb == "play3":
        three = next(str(c["custom_id"]) for found, c in controls(answer.message) if found == "three")
        await table.timed(verb, discord.select(person, answer.message, three, rest.split(",")))
        return
    natural, locomotives = (int(n) for n in rest.split(":")[1:])
    size = select_with(answer.message, "size", str(natural + locomotives))
    if size is not None:
        answer = await table.timed(verb, discord.select(person, answer.message, size, [str(natural + locomotives)]))
    exact = select_with(answer.message, "act", code)
    if exact is not None and answer.message is not None:
        if size is not None:
            table.timings[-1] = ("menu", table.timings[-1][1])
        await table.timed(verb, discord.select(person, answer.message, exact, [code]))
