"""Names are shown without invisible characters, and two seats whose names look the same are told apart by their
seat number: on the final sheet (its text and its picture's alt text) and in /history."""

from __future__ import annotations

from localdiscord import LocalDiscord, LocalUser
from tests.bot.e2e.helpers import Running, table

HIDDEN = "\u200b\u200f\u202e\u2066\ufeff"
"""Zero-width space, a right-to-left mark, a right-to-left override, an isolate, a byte order mark."""


def without_hidden(text: str) -> bool:
    """Whether text holds none of the invisible characters a name tried to smuggle in."""
    return not any(c in text for c in HIDDEN)


async def test_a_name_with_zero_width_characters_is_shown_without_them_and_told_apart_from_its_look_alike(
    stand_in: LocalDiscord, running: Running
) -> None:
    stand_in.add_user(LocalUser(name="A\u200bnn"))
    stand_in.add_user(LocalUser(name="\u202eB\ufeffen\u2066"))
    async with running() as bot:
        players = table(stand_in, bot, "A\u200bnn", "Ann", "\u202eB\ufeffen\u2066")
        record = await players.open("dice", options={"target": 10})
        seats = {s.user_id: s.seat + 1 for s in record.seats}
        fake, real = (seats[stand_in.user(name).id] for name in ("A\u200bnn", "Ann"))
        await players.play_to_the_end(record.id)
        where = await bot.shown.message(record.id, "final")
        assert where is not None
        final = stand_in.message(where[1])
        history = await stand_in.slash("Ann", "history")

    sheet = final.text
    assert f"Ann (#{fake})" in sheet and f"Ann (#{real})" in sheet, sheet
    assert "Ben" in sheet and "Ben (#" not in sheet, "a name with no look-alike keeps its plain form"
    alt = " ".join(str(a.description) for a in final.attachments)
    assert f"Ann (#{fake})" in alt and f"Ann (#{real})" in alt, alt
    assert without_hidden(sheet) and without_hidden(alt)

    assert history.message is not None
    [entry] = history.message.embeds[0]["description"].split("\n\n")
    assert f"Ann (#{fake})" in entry and f"Ann (#{real})" in entry and "Ben" in entry, entry
    assert without_hidden(entry)
