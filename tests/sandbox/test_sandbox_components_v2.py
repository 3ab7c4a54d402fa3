"""Components V2: layouts Discord accepts along every path, the ones it refuses, nested clicks and alt text."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from localdiscord import (
    MAX_HEIGHT,
    InteractionOutcome,
    LocalDiscord,
    Picture,
    RecordedMessage,
    RejectedResponse,
    ShownPicture,
)
from localdiscord.models import COMPONENTS_V2
from tests.sandbox.manual import RawApi
from tests.sandbox.test_sandbox_refusals import code_of
from tests.sandbox.toy_bot import ToyBot, png_bytes
from tests.sandbox.toy_layouts import ACCENT, BOARD, BOARD_ALT, PATHS

TURN_TEXT = "## Turn 1\nalice to play"
Json = dict[str, Any]


def text(content: str) -> Json:
    """A TextDisplay."""
    return {"type": 10, "content": content}


def row(*custom_ids: str) -> Json:
    """An action row of buttons."""
    buttons = [{"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id} for custom_id in custom_ids]
    return {"type": 1, "components": buttons}


def layout(*components: Json) -> Json:
    """A Components V2 message body."""
    return {"flags": COMPONENTS_V2, "components": list(components)}


def gallery(*names: str) -> Json:
    """A MediaGallery showing attached files."""
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}} for name in names]}


async def run_layout(local_discord: LocalDiscord, toy: ToyBot, path: str, flaw: str) -> InteractionOutcome:
    """Have the toy bot send its turn layout along ``path`` (clicking Draw for "update") and wait until it has
    finished; return the last interaction's outcome."""
    outcome = await local_discord.slash("alice", "layout", {"path": path, "flaw": flaw})
    if path == "update":
        assert outcome.message is not None
        outcome = await local_discord.click("boris", outcome.message, "toy:v2:draw")
    await toy.layouts.until_finished(2 if path == "update" else 1)
    return outcome


async def send_layout(local_discord: LocalDiscord, toy: ToyBot, path: str) -> RecordedMessage:
    """Have the toy bot send its turn layout along ``path``; return the message."""
    outcome = await run_layout(local_discord, toy, path, "none")
    if path in ("response", "update", "original"):
        assert outcome.message is not None
        return outcome.message
    return [m for m in local_discord.messages if m.v2][-1]


async def refused_layout(local_discord: LocalDiscord, toy: ToyBot, path: str, flaw: str) -> discord.HTTPException:
    """Have the toy bot send a flawed layout along ``path``; return the refusal as discord.py raised it."""
    if path in ("response", "update"):  # the interaction then stays unanswered
        with pytest.raises(RejectedResponse):
            await run_layout(local_discord, toy, path, flaw)
        await toy.layouts.until_finished(2 if path == "update" else 1)
    else:
        await run_layout(local_discord, toy, path, flaw)
    [refusal] = toy.layouts.refusals
    return refusal


async def test_a_turn_layout_is_recorded_with_its_text_and_pictures(local_discord: LocalDiscord, toy: ToyBot) -> None:
    message = await send_layout(local_discord, toy, "response")
    assert message.v2 and message.flags == COMPONENTS_V2
    assert (message.content, message.embeds) == ("", [])
    assert message.text == TURN_TEXT  # no button labels
    assert message.pictures == [Picture(BOARD, BOARD_ALT, len(png_bytes(width=11)))]
    assert message.attachments[0].description == BOARD_ALT
    [container] = message.components
    assert (container["type"], container["accent_color"]) == (17, ACCENT)
    assert [c["type"] for c in container["components"]] == [10, 12, 14, 9, 1]
    assert [b["custom_id"] for b in message.buttons()] == ["toy:v2:hint", "toy:v2:draw", "toy:v2:pass"]


async def test_discord_py_parses_the_layout_from_the_rest_answer_and_the_click(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    message = await send_layout(local_discord, toy, "update")
    answered, clicked = toy.layouts.parsed
    assert clicked.id == answered.id == message.id
    board = message.history[0].attachments[0]
    for parsed in (answered, clicked):  # the callback's answer, then the message INTERACTION_CREATE carried
        assert parsed.flags.components_v2
        [container] = parsed.components
        assert isinstance(container, discord.components.Container)
        assert container.accent_colour == discord.Colour(ACCENT)
        kinds = [type(c).__name__ for c in container.children]
        assert kinds == ["TextDisplay", "MediaGalleryComponent", "SeparatorComponent", "SectionComponent", "ActionRow"]
        shown = container.children[1].items[0]
        assert shown.media.url == f"{local_discord.base_url}/attachments/{board.id}/{BOARD}"
        assert (shown.media.attachment_id, shown.media.width, shown.media.height) == (board.id, 11, 8)
        assert shown.description == BOARD_ALT
        assert container.children[3].accessory.custom_id == "toy:v2:hint"


async def test_buttons_nested_in_a_container_and_a_section_answer_clicks(
    local_discord: LocalDiscord, toy: ToyBot
) -> None:
    outcome = await local_discord.slash("alice", "layout", {"path": "update"})
    game = outcome.message
    assert game is not None
    drawn = await local_discord.click("boris", game, "toy:v2:draw")  # in a row in the container
    assert (drawn.response_type, drawn.message) == (7, game)
    assert game.v2 and game.text == "## Turn 2\nalice to play"
    assert game.attachments[0].data == png_bytes(width=12) != game.history[0].attachments[0].data
    assert game.pictures[0].description == BOARD_ALT
    hint = await local_discord.click("boris", game, "toy:v2:hint")  # the section's accessory
    assert hint.ephemeral and hint.message is not None and hint.message.v2
    assert hint.text == "Claim a short route first"
    passed = await local_discord.click("boris", game, "toy:v2:pass")
    assert passed.response_type == 6
    await passed.edited()
    assert game.text.startswith("## Turn 3") and game.v2
    assert game.attachments == game.history[-1].attachments  # an edit without files keeps the board
    assert local_discord.rejected == []


@pytest.mark.parametrize("path", PATHS)
async def test_every_path_accepts_a_layout_with_its_pictures(
    local_discord: LocalDiscord, toy: ToyBot, path: str
) -> None:
    message = await send_layout(local_discord, toy, path)
    assert message.v2 and message.text.startswith("## Turn")
    assert [(p.filename, p.description) for p in message.pictures] == [(BOARD, BOARD_ALT)]
    assert (local_discord.rejected, toy.layouts.refusals) == ([], [])


async def test_an_edit_listing_kept_attachments_keeps_their_alt_text(local_discord: LocalDiscord, toy: ToyBot) -> None:
    message = await send_layout(local_discord, toy, "channel-edit")
    assert message.attachments == message.history[0].attachments
    assert message.attachments[0].description == BOARD_ALT


ROUTES = {
    "response": r"POST /api/v10/interactions/\d+/[\w-]+/callback",
    "update": r"POST /api/v10/interactions/\d+/[\w-]+/callback",
    "channel": r"POST /api/v10/channels/\d+/messages",
    "channel-edit": r"PATCH /api/v10/channels/\d+/messages/\d+",
    "followup": r"POST /api/v10/webhooks/\d+/[\w-]+",
    "followup-edit": r"PATCH /api/v10/webhooks/\d+/[\w-]+/messages/\d+",
    "original": r"PATCH /api/v10/webhooks/\d+/[\w-]+/messages/@original",
}


@pytest.mark.parametrize("path", PATHS)
async def test_every_path_refuses_a_layout_showing_a_file_it_lacks(
    local_discord: LocalDiscord, toy: ToyBot, path: str
) -> None:
    refusal = await refused_layout(local_discord, toy, path, "missing-file")
    assert (refusal.status, refusal.code) == (400, 50035)
    assert "components.0.components.1.items.0.media.url" in refusal.text
    assert "attachment://board.png names no attachment" in refusal.text
    [line] = local_discord.rejected
    assert re.match(ROUTES[path] + " -> 400 50035", line), line


FLAWS = {
    "content": ("content", "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"),
    "embed": ("embeds", "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"),
    "long-alt": ("attachments.0.description", "Must be 1024 or fewer in length."),
    "long-text": ("components", "The text displays hold at most 4000 characters in all; got 4022."),
    "colour": ("components.0.accent_color", "Must be an integer from 0 to 16777215"),
    "duplicate-id": ("components", "Component custom id cannot be duplicated: 'toy:v2:draw'"),
    "long-label": ("components.1.components.0.label", "Must be 80 or fewer in length."),
    "nested-container": ("components.0.components.5.type", "A component of type 17 cannot be placed here"),
    "loose-button": ("components.1.type", "A component of type 2 cannot be placed here"),
    "loose-thumbnail": ("components.1.type", "A component of type 11 cannot be placed here"),
    "empty-gallery": ("components.1.items", "Must be between 1 and 10 in length."),
    "crowded-gallery": ("components.1.items", "Must be between 1 and 10 in length."),
}


@pytest.mark.parametrize("flaw", FLAWS)
async def test_a_layout_discord_would_refuse_is_refused_with_its_form_error(
    local_discord: LocalDiscord, toy: ToyBot, flaw: str
) -> None:
    refusal = await refused_layout(local_discord, toy, "response", flaw)
    field, reason = FLAWS[flaw]
    assert (refusal.status, refusal.code) == (400, 50035)
    assert f"{field}: {reason}" in local_discord.rejected[-1]
    assert f"In {field}: {reason}" in refusal.text  # as discord.py shows Discord's nested errors


async def test_content_and_embeds_are_refused_with_discords_error_code(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")
    status, body = await raw.post(trains, layout(text("Turn 1")) | {"content": "Turn 1", "embeds": [{"title": "x"}]})
    assert (status, body["code"]) == (400, 50035)
    for key in ("content", "embeds"):
        assert body["errors"][key]["_errors"][0]["code"] == "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


async def test_the_flag_stays_on_a_layout_and_upgrading_needs_null_content(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")

    async def edit(message: Json, body: Json) -> int:
        return await code_of(raw.call("PATCH", f"/channels/{trains.id}/messages/{message['id']}", body))

    _, v2 = await raw.post(trains, layout(text("Turn 1"), row("go")))
    assert await edit(v2, {"flags": 0, "components": [row("go")]}) == 50035
    assert "flags: The IS_COMPONENTS_V2 flag cannot be removed" in local_discord.rejected[-1]
    assert await edit(v2, {"components": [text("Turn 2")]}) == 0  # only components: still a layout
    status, answer = await raw.call("GET", f"/channels/{trains.id}/messages/{v2['id']}")
    assert (status, answer["flags"], answer["components"]) == (200, COMPONENTS_V2, [text("Turn 2")])
    assert await edit(v2, {"content": "Turn 2"}) == 50035
    _, plain = await raw.post(trains, {"content": "Lobby"})
    assert await edit(plain, layout(text("Turn 1"))) == 50035  # the content would stay
    assert "content: The 'content' field cannot be used" in local_discord.rejected[-1]
    assert await edit(plain, layout(text("Turn 1")) | {"content": None}) == 0
    upgraded = local_discord.message(int(plain["id"]))
    assert upgraded.v2 and (upgraded.content, upgraded.text) == ("", "Turn 1")


async def test_layout_components_are_refused_without_the_flag(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    assert await code_of(raw.post(trains, {"components": [text("Turn 1")]})) == 50035
    assert "components.0.type: Top-level components must be action rows" in local_discord.rejected[-1]
    inside_row = {"type": 1, "components": [text("Turn 1")]}
    assert await code_of(raw.post(trains, {"components": [inside_row]})) == 50035
    assert "components.0.components: An action row holds only buttons or a select menu" in local_discord.rejected[-1]
    assert await code_of(raw.post(trains, layout(inside_row))) == 50035


async def test_a_layout_holds_at_most_40_components_nested_ones_and_the_container_included(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")

    def container(texts: int) -> Json:
        return {"type": 17, "components": [text(str(n)) for n in range(texts)]}

    assert await code_of(raw.post(trains, layout(container(39)))) == 0
    assert await code_of(raw.post(trains, layout(container(40)))) == 50035
    assert "at most 40 components, nested ones included; got 41" in local_discord.rejected[-1]
    section = {
        "type": 9,
        "components": [text("a")],
        "accessory": {"type": 2, "style": 1, "label": "b", "custom_id": "b"},
    }
    assert await code_of(raw.post(trains, layout(container(36), section))) == 0  # a section, its text, its button
    assert await code_of(raw.post(trains, layout(container(37), section))) == 50035


async def test_a_link_button_needs_a_web_address_of_at_most_512_characters_and_no_custom_id(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")

    async def code(**button: Any) -> int:
        link = {"type": 2, "style": 5, "label": "Open the board"} | button
        return await code_of(raw.post(trains, layout(text("Turn 1"), {"type": 1, "components": [link]})))

    address = "https://conductor.example/b/"
    assert await code(url=address + "x" * (512 - len(address))) == 0
    posted = [m for m in local_discord.messages if m.v2][-1]
    assert [b["url"] for b in posted.buttons()] == [address + "x" * (512 - len(address))]
    assert await code(url=address + "x" * (513 - len(address))) == 50035
    assert "url: Must be 512 or fewer in length." in local_discord.rejected[-1]
    assert await code(url="ftp://conductor.example/b/1") == 50035
    assert await code(url="https://conductor.example/b/1", custom_id="board") == 50035
    assert await code() == 50035


async def test_text_displays_hold_4000_characters_in_all(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    section = {
        "type": 9,
        "components": [text("b" * 1000)],
        "accessory": {"type": 2, "style": 1, "label": "b", "custom_id": "b"},
    }
    assert await code_of(raw.post(trains, layout(text("a" * 3000), section))) == 0
    assert await code_of(raw.post(trains, layout(text("a" * 3001), section))) == 50035
    assert await code_of(raw.post(trains, layout(text("")))) == 50035


async def test_sections_rows_colours_and_galleries_keep_discords_shapes(
    local_discord: LocalDiscord, raw: RawApi
) -> None:
    trains = local_discord.channel("trains")
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    thumbnail = {"type": 11, "media": {"url": "attachment://board.png"}, "description": "The board"}
    files = {"board.png": png_bytes()}

    async def code(*components: Json, with_files: bool = False) -> int:
        return await code_of(raw.post(trains, layout(*components), files=files if with_files else None))

    assert await code({"type": 9, "components": [text("a")] * 3, "accessory": thumbnail}, with_files=True) == 0
    assert await code({"type": 9, "components": [text("a")] * 4, "accessory": button}) == 50035
    assert await code({"type": 9, "components": [text("a")]}) == 50035  # no accessory
    assert await code({"type": 9, "components": [text("a")], "accessory": text("b")}) == 50035
    assert await code({"type": 9, "components": [row("x")], "accessory": button}) == 50035
    assert await code(row("a", "b", "c", "d", "e")) == 0
    assert await code(row("a", "b", "c", "d", "e", "f")) == 50035
    assert await code({"type": 17, "accent_color": 0xFFFFFF, "components": [text("a")]}) == 0
    assert await code({"type": 17, "accent_color": -1, "components": [text("a")]}) == 50035
    assert await code({"type": 17, "accent_color": "red", "components": [text("a")]}) == 50035
    assert await code(gallery(*["board.png"] * 10), with_files=True) == 0
    assert await code({"type": 12, "items": [{"media": {"url": "https://example.com/a.png"}}]}) == 0
    assert await code({"type": 12, "items": [{"media": {"url": "ftp://example.com/a.png"}}]}) == 50035
    assert await code({"type": 13, "file": {"url": "attachment://board.png"}}, with_files=True) == 0
    assert await code({"type": 13, "file": {"url": "https://example.com/board.png"}}) == 50035
    assert await code({"type": 14, "spacing": 3}) == 50035
    assert await code(text("a"), {"type": 4, "custom_id": "typed", "style": 1, "label": "x"}) == 50035
    long_id = "x" * 101
    assert await code(row(long_id)) == 50035
    assert await code({"type": 10, "content": "a", "id": 7}, {"type": 10, "content": "b", "id": 7}) == 50035


async def test_a_layout_shows_attachments_only_through_its_components(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    files = {"board.png": png_bytes()}
    assert await code_of(raw.post(trains, layout(), files=files)) == 50006  # a file alone shows nothing
    assert await code_of(raw.post(trains, layout(gallery("board.png")))) == 50035
    _, kept = await raw.post(trains, layout(gallery("board.png")), files=files)
    path = f"/channels/{trains.id}/messages/{kept['id']}"
    assert await code_of(raw.call("PATCH", path, {"components": [text("Turn 2"), gallery("board.png")]})) == 0
    assert await code_of(raw.call("PATCH", path, {"attachments": []})) == 50035  # the gallery still shows it
    assert await code_of(raw.call("PATCH", path, {"attachments": [], "components": [text("no picture")]})) == 0


async def test_alt_text_is_recorded_checked_and_kept_across_edits(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    files = {"board.png": png_bytes(), "notes.txt": b"no picture"}
    described = [{"id": 0, "filename": "board.png", "description": "The board"}, {"id": 1, "filename": "notes.txt"}]
    too_long = [{"id": 0, "filename": "board.png", "description": "x" * 1025}]
    assert await code_of(raw.post(trains, {"content": "Board", "attachments": too_long}, files=files)) == 50035
    assert "attachments.0.description: Must be 1024 or fewer in length." in local_discord.rejected[-1]
    _, posted = await raw.post(trains, {"content": "Board", "attachments": described}, files=files)
    message = local_discord.message(int(posted["id"]))
    assert message.pictures == [Picture("board.png", "The board", len(png_bytes()))]  # the text file is no picture
    assert posted["attachments"][0]["description"] == "The board"
    path = f"/channels/{trains.id}/messages/{posted['id']}"
    assert await code_of(raw.call("PATCH", path, {"content": "Board, edited"})) == 0
    kept = [{"id": posted["attachments"][0]["id"]}]
    assert await code_of(raw.call("PATCH", path, {"content": "Board only", "attachments": kept})) == 0
    assert message.pictures == [Picture("board.png", "The board", len(png_bytes()))]
    assert [a.filename for a in message.attachments] == ["board.png"]


async def test_a_gallery_items_alt_text_is_the_pictures_alt_text(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    item = {"media": {"url": "attachment://board.png"}, "description": "Shown board"}
    body = layout({"type": 12, "items": [item]}) | {"attachments": [{"id": 0, "description": "File board"}]}
    _, posted = await raw.post(trains, body, files={"board.png": png_bytes()})
    assert local_discord.message(int(posted["id"])).pictures[0].description == "Shown board"
    item["description"] = "x" * 1025
    assert (
        await code_of(raw.post(trains, layout({"type": 12, "items": [item]}), files={"board.png": png_bytes()}))
        == 50035
    )


async def test_text_reads_embeds_and_layouts_alike(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    embed = {
        "author": {"name": "Ticket to Ride"},
        "title": "Turn 1",
        "description": "alice to play",
        "fields": [{"name": "alice", "value": "12 points"}],
        "footer": {"text": "2 players"},
    }
    _, classic = await raw.post(trains, {"content": "Hello", "embeds": [embed], "components": [row("go")]})
    assert (
        local_discord.message(int(classic["id"])).text
        == "Hello\nTicket to Ride\nTurn 1\nalice to play\nalice: 12 points\n2 players"
    )
    section = {"type": 9, "components": [text("alice"), text("12 points")], "accessory": row("go")["components"][0]}
    _, v2 = await raw.post(trains, layout({"type": 17, "components": [text("Turn 1"), section]}, row("pass")))
    message = local_discord.message(int(v2["id"]))
    assert (message.v2, message.text) == (True, "Turn 1\nalice\n12 points")
    assert not local_discord.message(int(classic["id"])).v2


async def test_describe_shows_a_layout_readably(local_discord: LocalDiscord, toy: ToyBot, raw: RawApi) -> None:
    message = await send_layout(local_discord, toy, "response")
    size = len(png_bytes(width=11))
    assert local_discord.describe(message).splitlines() == [
        "Conductor (answering /layout path:response flaw:none by alice):",
        "  > [accent #3498db]",
        "  > ## Turn 1",
        f'  > picture: board.png ({size} bytes, alt text: "{BOARD_ALT}")',
        "  > ---",
        "  > alice to play",
        "  > [Hint]",
        "  > [Draw] [Pass]",
    ]
    trains = local_discord.channel("trains")
    _, unseen = await raw.post(trains, layout(text("Scores")), files={"scores.png": png_bytes()})
    lines = local_discord.describe(int(unseen["id"])).splitlines()
    assert lines[1:] == [
        "  Scores",
        f"  file: scores.png ({len(png_bytes())} bytes, no alt text) (not shown: no component of the layout shows it)",
    ]
    assert f"picture: board.png ({size} bytes" in local_discord.transcript("trains")


async def test_shown_says_how_the_chat_lays_out_each_gallery(local_discord: LocalDiscord, raw: RawApi) -> None:
    trains = local_discord.channel("trains")
    files = {
        "wide.png": png_bytes(900, 450),
        "tall.png": png_bytes(900, 1800),
        "left.png": png_bytes(900, 600),
        "right.png": png_bytes(900, 600),
    }
    body = layout(gallery("wide.png"), gallery("tall.png"), gallery("left.png", "right.png"))
    _, posted = await raw.post(trains, body, files=files)
    wide, tall, pair = local_discord.message(int(posted["id"])).shown(column=450)
    assert wide == [ShownPicture("wide.png", 450, 225, whole=True)], "a wide picture fills the column"
    assert tall == [ShownPicture("tall.png", 175, MAX_HEIGHT, whole=True)], "a tall one is capped by its height"
    assert [(p.filename, p.width, p.whole) for p in pair] == [("left.png", 225, False), ("right.png", 225, False)], (
        "two in one gallery: side by side, half the column each, cropped to their tiles"
    )
    _, small = await raw.post(trains, {"content": "Scores"}, files={"scores.png": png_bytes(300, 100)})
    assert local_discord.message(int(small["id"])).shown() == [[ShownPicture("scores.png", 300, 100, whole=True)]], (
        "a classic message's lone image, never enlarged"
    )
