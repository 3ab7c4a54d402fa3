"""Turn messages as Components V2 payloads: within Discord's limits, controls in rows, a finished turn stripped."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.components import button, select
from bot.ui.controller import MAX_TEXT, TurnMessage
from bot.ui.custom_ids import ComponentId
from bot.ui.pictures import Picture

MAX_COMPONENTS = 40
"""Discord's limit on the components of one message, nested ones included."""


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found.extend(_walk(component.get("components", [])))
        if "accessory" in component:
            found.append(component["accessory"])
    return found


def _cid(verb: str, arg: str = "") -> ComponentId:
    return ComponentId("ticket-to-ride", 7, 3, verb, arg)


def _message(lines: int = 3, buttons: int = 8) -> TurnMessage:
    return TurnMessage(
        heading="### Ticket to Ride · USA · Anna",
        call="<@1>, your turn.",
        blocks=["\n".join(f"Move {n}: a long line of narration about what happened." for n in range(lines))],
        pictures=[Picture("board.png", b"png", "The board: Anna to play.")],
        status=["⚠️ **Last round**", "🔴 **Anna** · 3 points"],
        hint="Take two cards, claim a route, or draw tickets.",
        controls=[button(_cid("act", f"draw:{n}"), f"Card {n}", row=0 if n < 5 else 1) for n in range(buttons)],
        accent=0xC81E28,
        footer="Game #7",
    )


def test_a_turn_message_is_one_container_with_text_gallery_and_rows() -> None:
    payload = _message().layout().to_components()
    container, footer = payload
    assert container["type"] == 17 and container["accent_color"] == 0xC81E28
    kinds = [c["type"] for c in container["components"]]
    assert kinds[:2] == [10, 12], "the heading, then the picture right under it"
    assert kinds.count(1) == 2, "face-up cards in one row, the rest in the next"
    gallery = container["components"][1]
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
    assert gallery["items"][0]["description"] == "The board: Anna to play."
    assert footer == {"type": 10, "content": "-# Game #7"}


def test_each_picture_is_a_gallery_of_its_own_in_the_order_given() -> None:
    pictures = [Picture(name, b"png", name) for name in ("scores.png", "board.png", "score-detail.png")]
    message = TurnMessage(heading="### The end", blocks=["Anna wins."], pictures=pictures)
    shown = message.layout().to_components()[0]["components"]
    assert [c["type"] for c in shown] == [10, 12, 12, 12, 10], "under the heading, one picture after another"
    assert [[item["media"]["url"] for item in c["items"]] for c in shown if c["type"] == 12] == [
        ["attachment://scores.png"],
        ["attachment://board.png"],
        ["attachment://score-detail.png"],
    ], "never two side by side: Discord gives a gallery of two half the column each"


def test_the_text_is_cut_to_discords_limit_and_the_components_counted() -> None:
    payload = _message(lines=400, buttons=10).layout().to_components()
    texts = [c["content"] for c in _walk(payload) if c["type"] == 10]
    assert sum(len(t) for t in texts) <= MAX_TEXT
    assert len(_walk(payload)) <= MAX_COMPONENTS


def test_a_select_gets_a_row_of_its_own_and_rows_keep_the_order_asked_for() -> None:
    menu = select(_cid("keep"), "Keep which?", [discord.SelectOption(label="A", value="1")], row=0)
    hand = button(_cid("hand"), "My hand", row=1)
    message = TurnMessage(heading="h", controls=[hand, menu, button(_cid("act", "x"), "X", row=0)])
    rows = [c for c in message.layout().to_components()[0]["components"] if c["type"] == 1]
    assert [[item["type"] for item in row["components"]] for row in rows] == [[3], [2], [2]]


def test_a_finished_turn_tells_its_story_with_its_picture_but_not_its_call_status_or_controls() -> None:
    done = _message().finished(["Move 0: Boris drew.", "Anna claimed Denver – Omaha: +4 points."])
    payload = done.layout().to_components()
    texts = "\n".join(c["content"] for c in _walk(payload) if c["type"] == 10)
    assert "Anna claimed Denver – Omaha" in texts and "Move 0: Boris drew." in texts and "Move 1" not in texts
    assert "Move 1" in "\n".join(
        c["content"] for c in _walk(_message().finished().layout().to_components()) if c["type"] == 10
    )
    assert "your turn" not in texts and "Last round" not in texts and "Take two cards" not in texts
    assert not [c for c in _walk(payload) if c["type"] in (1, 2, 3)]
    assert [c["type"] for c in _walk(payload)].count(12) == 1
    assert done.ping is False


def test_a_new_turn_pings_only_the_person_mentioned() -> None:
    message = _message()
    message.ping = True
    mentions = message.send_kwargs()["allowed_mentions"]
    assert mentions.users is True and mentions.roles is False and mentions.everyone is False
    assert _message().send_kwargs()["allowed_mentions"].users is False
