"""Components V2 for the toy bot: a turn layout sent along every path a message takes, with or without a flaw.

``/layout path:<how> flaw:<what>`` sends the turn layout of ``TurnLayout`` the way ``path`` names; the last
step carries ``flaw`` (a mistake Discord refuses, or "none"). The bot notes each refusal in ``records``.
"""

from __future__ import annotations

import asyncio
import io
from functools import partial
from typing import Any

import discord
from discord import app_commands, ui
from PIL import Image

BOARD = "board.png"
BOARD_ALT = "The board: alice leads with 12 points"
ACCENT = 0x3498DB
PATHS = ["response", "update", "channel", "channel-edit", "followup", "followup-edit", "original"]
FLAWS = [
    "none",
    "content",
    "embed",
    "missing-file",
    "long-alt",
    "long-text",
    "colour",
    "duplicate-id",
    "long-label",
    "nested-container",
    "loose-button",
    "loose-thumbnail",
    "empty-gallery",
    "crowded-gallery",
]


def png_bytes(width: int = 12, height: int = 8, colour: str = "red") -> bytes:
    """Return a small PNG picture."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def board_file(turn: int, *, description: str = BOARD_ALT) -> discord.File:
    """The turn's board picture, with its alt text."""
    return discord.File(io.BytesIO(png_bytes(width=10 + turn)), BOARD, description=description)


class LayoutRecords:
    """What the toy bot noted while sending layouts: Discord's refusals and messages as discord.py parsed them."""

    def __init__(self) -> None:
        self.refusals: list[discord.HTTPException] = []
        self.parsed: list[discord.Message] = []
        self.finished = 0
        self._changed = asyncio.Event()

    def finish(self) -> None:
        """Note that a handler is done, refused or not."""
        self.finished += 1
        self._changed.set()

    async def until_finished(self, count: int, timeout: float = 5.0) -> None:
        """Wait until ``count`` handlers are done (their last request may come after the interaction's answer)."""
        async with asyncio.timeout(timeout):
            while self.finished < count:
                self._changed.clear()
                await self._changed.wait()


def records(interaction: discord.Interaction) -> LayoutRecords:
    """The records of the bot that received ``interaction``."""
    found = getattr(interaction.client, "layouts", None)
    assert isinstance(found, LayoutRecords)
    return found


class TurnLayout(ui.LayoutView):
    """A turn: in a coloured container, a title, the board, a line, the player with a Hint button, Draw and Pass.

    Draw answers with an update of this message (type 7) carrying ``flaw_on_draw``; Pass defers and then
    edits the message; Hint answers privately with a layout.
    """

    def __init__(self, turn: int, *, flaw_on_draw: str = "none") -> None:
        super().__init__(timeout=None)
        self.turn = turn
        self.flaw_on_draw = flaw_on_draw
        hint = ui.Button[TurnLayout](label="Hint", custom_id="toy:v2:hint")
        hint.callback = self.hint
        draw = ui.Button[TurnLayout](label="Draw", custom_id="toy:v2:draw", style=discord.ButtonStyle.primary)
        draw.callback = self.draw
        skip = ui.Button[TurnLayout](label="Pass", custom_id="toy:v2:pass")
        skip.callback = self.skip
        self.container = ui.Container[TurnLayout](
            ui.TextDisplay(f"## Turn {turn}"),
            ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{BOARD}", description=BOARD_ALT)),
            ui.Separator(),
            ui.Section(ui.TextDisplay("alice to play"), accessory=hint),
            ui.ActionRow(draw, skip),
            accent_colour=ACCENT,
        )
        self.add_item(self.container)

    async def hint(self, interaction: discord.Interaction) -> None:
        """Answer privately with a one-line layout."""
        view = ui.LayoutView()
        view.add_item(ui.TextDisplay("Claim a short route first"))
        await interaction.response.send_message(view=view, ephemeral=True)

    async def draw(self, interaction: discord.Interaction) -> None:
        """Update the message to the next turn with a new board (or with the flaw the test asked for)."""
        assert interaction.message is not None
        records(interaction).parsed.append(interaction.message)
        view, files, extra = draft(self.flaw_on_draw, self.turn + 1)
        try:
            await interaction.response.edit_message(view=view, attachments=files, **extra)
        except discord.HTTPException as error:
            records(interaction).refusals.append(error)
        finally:
            records(interaction).finish()

    async def skip(self, interaction: discord.Interaction) -> None:
        """Acknowledge, then move the message to the next turn keeping its board."""
        await interaction.response.defer()
        await interaction.edit_original_response(view=TurnLayout(self.turn + 1))


def draft(flaw: str, turn: int) -> tuple[TurnLayout, list[discord.File], dict[str, Any]]:
    """The layout, files and other arguments of a turn message with ``flaw`` ("none": as Discord wants it)."""
    view = TurnLayout(turn)
    files = [board_file(turn)]
    extra: dict[str, Any] = {}
    if flaw == "content":
        extra["content"] = f"Turn {turn}"
    elif flaw == "embed":
        extra["embed"] = discord.Embed(title=f"Turn {turn}")
    elif flaw == "missing-file":
        files = []
    elif flaw == "long-alt":
        files = [board_file(turn, description="x" * 1025)]
    elif flaw == "long-text":
        view.add_item(ui.TextDisplay("x" * 4000))
    elif flaw == "colour":
        view.container.accent_colour = 0x1000000
    elif flaw == "duplicate-id":
        view.add_item(ui.ActionRow(ui.Button(label="Draw again", custom_id="toy:v2:draw")))
    elif flaw == "long-label":
        view.add_item(ui.ActionRow(ui.Button(label="x" * 81, custom_id="toy:v2:long")))
    elif flaw == "nested-container":
        view.container.add_item(ui.Container(ui.TextDisplay("inside")))
    elif flaw == "loose-button":
        view.add_item(ui.Button(label="Loose", custom_id="toy:v2:loose"))
    elif flaw == "loose-thumbnail":
        view.add_item(ui.Thumbnail(f"attachment://{BOARD}"))
    elif flaw == "empty-gallery":
        view.add_item(ui.MediaGallery())
    elif flaw == "crowded-gallery":
        view.add_item(ui.MediaGallery(*[discord.MediaGalleryItem(f"attachment://{BOARD}") for _ in range(11)]))
    return view, files, extra


@app_commands.command(name="layout", description="Send a turn layout")
@app_commands.choices(
    path=[app_commands.Choice(name=p, value=p) for p in PATHS],
    flaw=[app_commands.Choice(name=f, value=f) for f in FLAWS],
)
async def layout(interaction: discord.Interaction, path: str, flaw: str = "none") -> None:
    """Send the turn layout along ``path``; its last request carries ``flaw``; note a refusal."""
    try:
        await _send(interaction, path, flaw)
    except discord.HTTPException as error:
        records(interaction).refusals.append(error)
    finally:
        records(interaction).finish()


async def _send(interaction: discord.Interaction, path: str, flaw: str) -> None:
    """Send the turn layout along ``path``: a correct one first where the flaw goes into an edit."""
    view, files, extra = draft(flaw, 1)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    noted = records(interaction).parsed
    if path == "response":
        await interaction.response.send_message(view=view, files=files, **extra)
        noted.append(await interaction.original_response())
    elif path == "update":
        await interaction.response.send_message(view=TurnLayout(1, flaw_on_draw=flaw), files=[board_file(1)])
        noted.append(await interaction.original_response())
    elif path == "original":
        await interaction.response.send_message(view=TurnLayout(1), files=[board_file(1)])
        original = await interaction.original_response()
        attachments = _kept_or_new(original, flaw, files)
        noted.append(await interaction.edit_original_response(view=view, attachments=attachments, **extra))
    else:
        await interaction.response.send_message("Posting", ephemeral=True)
        if path == "channel":
            noted.append(await channel.send(view=view, files=files, **extra))
        elif path == "followup":
            noted.append(await interaction.followup.send(view=view, files=files, wait=True, **extra))
        else:
            send = channel.send if path == "channel-edit" else partial(interaction.followup.send, wait=True)
            message = await send(view=TurnLayout(1), files=[board_file(1)])
            attachments = _kept_or_new(message, flaw, files)
            noted.append(await message.edit(view=view, attachments=attachments, **extra))


def _kept_or_new(message: discord.Message, flaw: str, files: list[discord.File]) -> list[Any]:
    """What an edit lists as attachments: the message's own (so the layout may still show them) unless the
    flaw is about files, which then brings its own (none for "missing-file")."""
    return files if flaw in ("missing-file", "long-alt") else list(message.attachments)
