"""A toy discord.py bot using every capability of the local Discord stand-in: commands, components, modal, threads.

Its Components V2 layouts are in toy_layouts.py.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands

from tests.sandbox.toy_layouts import LayoutRecords, layout, png_bytes

ROUTES = ["Denver - Salt Lake City", "Denver - Omaha", "Seattle - Portland", "Omaha - Chicago"]
GAMES = [app_commands.Choice(name="Dice", value="dice"), app_commands.Choice(name="Ticket to Ride", value="ttr")]


def toy_client(interaction: discord.Interaction) -> ToyBot:
    """Return the toy bot that received ``interaction``."""
    client = interaction.client
    assert isinstance(client, ToyBot)
    return client


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:join:(?P<game>[a-z]+)"):
    """A persistent Join button: it works after a restart because it is rebuilt from its custom id."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"toy:join:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        """Rebuild the button from the custom id of the clicked message."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Seat the clicking player and tell them privately."""
        toy_client(interaction).joined.append((self.game, interaction.user.name))
        await interaction.response.send_message(f"{interaction.user.name} joined {self.game}", ephemeral=True)


class CloseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:close:(?P<game>[a-z]+)"):
    """Close the game: edit the message and drop all its components."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Close", custom_id=f"toy:close:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CloseButton:
        """Rebuild the button from its custom id."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Replace the message with a closed notice without buttons."""
        await interaction.response.edit_message(content=f"The {self.game} game is closed.", view=None)


class DealButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:deal:(?P<game>[a-z]+)"):
    """Refresh the clicking player's ephemeral hand, coping with an expired interaction token."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Deal", custom_id=f"toy:deal:{game}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DealButton:
        """Rebuild the button from its custom id."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the old /hand reply; if its token is dead, send a fresh private reply instead."""
        old = toy_client(interaction).hand_interactions.get(interaction.user.id)
        if old is not None:
            try:
                await old.edit_original_response(content="Your hand: green, yellow")
            except discord.NotFound:
                await interaction.response.send_message("Your old hand expired: green, yellow", ephemeral=True)
                return
        await interaction.response.send_message("Hand updated", ephemeral=True)


class RollButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:roll:(?P<game>[a-z]+)"):
    """Acknowledge with a deferred update, then edit the clicked message through the interaction."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Roll", custom_id=f"toy:roll:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RollButton:
        """Rebuild the button from its custom id."""
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the roll on the game message itself."""
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} rolled 4 in {self.game}")


class HandView(discord.ui.View):
    """An ephemeral view with a select menu (a non-persistent view: it gets discord.py's 15-minute timeout)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="toy:hand:pick",
        placeholder="Pick cards",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "blue", "locomotive")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[HandView]) -> None:
        """Update the ephemeral message in place with the choice."""
        await interaction.response.edit_message(content=f"You picked {', '.join(select.values)}")

    @discord.ui.button(label="Dismiss", custom_id="toy:hand:dismiss")
    async def dismiss(self, interaction: discord.Interaction, button: discord.ui.Button[HandView]) -> None:
        """Acknowledge without a message (a deferred update), then delete the ephemeral hand."""
        await interaction.response.defer()
        await interaction.delete_original_response()


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    """A one-field modal."""

    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(
        label="What do you think?", custom_id="toy:feedback:text", max_length=200
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user privately, quoting the field."""
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


class ToyTranslator(app_commands.Translator):
    """Translate one description into Russian, to check that localizations are synced."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        """Return the Russian description of /newgame."""
        if locale is discord.Locale.russian and string.message == "Start a game":
            return "Начать игру"
        return None


@app_commands.command(name="newgame", description="Start a game")
@app_commands.describe(game="Which game", seats="How many seats")
@app_commands.choices(game=GAMES)
async def newgame(
    interaction: discord.Interaction, game: app_commands.Choice[str], seats: app_commands.Range[int, 2, 5] = 4
) -> None:
    """Post a public game message with persistent buttons and a disabled Start button."""
    toy_client(interaction).seen.append(("newgame", game.value, seats, interaction.locale.value))
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game.value))
    view.add_item(CloseButton(game.value))
    view.add_item(DealButton(game.value))
    view.add_item(RollButton(game.value))
    view.add_item(discord.ui.Button(label="Start", custom_id=f"toy:start:{game.value}", disabled=True))
    await interaction.response.send_message(f"New {game.name} game for {seats} seats", view=view)


@app_commands.command(name="claim", description="Claim a route")
async def claim(interaction: discord.Interaction, route: str) -> None:
    """Claim a route privately."""
    await interaction.response.send_message(f"You claimed {route}", ephemeral=True)


@claim.autocomplete("route")
async def route_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the routes containing what was typed."""
    return [app_commands.Choice(name=r, value=r) for r in ROUTES if current.lower() in r.lower()]


@app_commands.command(name="hand", description="Show your hand")
async def hand(interaction: discord.Interaction) -> None:
    """Answer privately with a select menu, remembering the interaction to edit the reply later."""
    toy_client(interaction).hand_interactions[interaction.user.id] = interaction
    picture = discord.File(io.BytesIO(png_bytes(colour="white")), "hand.png")
    await interaction.response.send_message("Your hand: red, blue", file=picture, view=HandView(), ephemeral=True)


@app_commands.command(name="board", description="Show the board")
async def board(interaction: discord.Interaction) -> None:
    """Defer, follow up with a picture, then post and edit a scores message with an embed and a file."""
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("The board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
    legend = await interaction.followup.send("Legend", ephemeral=True, wait=True)
    await legend.edit(content="Legend (edited)")
    await legend.delete()
    assert isinstance(interaction.channel, discord.TextChannel)
    embed = discord.Embed(title="Scores", description="After turn 1").add_field(name="alice", value="12")
    scores = await interaction.channel.send(
        embed=embed, file=discord.File(io.BytesIO(png_bytes(colour="blue")), "scores.png")
    )
    extra = discord.File(io.BytesIO(png_bytes(colour="green")), "legend.png")
    await scores.edit(content="Final scores", attachments=[*scores.attachments, extra])


@app_commands.command(name="thread", description="Open threads")
async def thread(interaction: discord.Interaction, name: str) -> None:
    """Open a public thread on the reply and a private one in the channel, then archive the public one."""
    await interaction.response.send_message(f"Opening {name}")
    message = await interaction.original_response()
    public = await message.create_thread(name=name)
    await public.send("Welcome to the thread")
    assert isinstance(interaction.channel, discord.TextChannel)
    private = await interaction.channel.create_thread(name=f"{name}-private", type=discord.ChannelType.private_thread)
    await private.add_user(interaction.user)
    await public.edit(archived=True)
    fetched = await interaction.client.fetch_channel(public.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived


@app_commands.command(name="tidy", description="Delete old score messages")
async def tidy(interaction: discord.Interaction) -> None:
    """Defer privately, read the channel history and delete the score messages."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    deleted = 0
    async for message in interaction.channel.history(limit=20):
        if message.content == "Final scores":
            await (await interaction.channel.fetch_message(message.id)).delete()
            deleted += 1
    await interaction.followup.send(f"Deleted {deleted} messages", ephemeral=True)


@app_commands.command(name="feedback", description="Send feedback")
async def feedback(interaction: discord.Interaction) -> None:
    """Open a modal."""
    await interaction.response.send_modal(FeedbackModal(custom_id="toy:feedback"))


@app_commands.command(name="shout", description="Send too much text")
async def shout(interaction: discord.Interaction) -> None:
    """Answer with more than Discord's 2000 characters (the stand-in must refuse it)."""
    await interaction.response.send_message("A" * 2001)


@app_commands.command(name="slow", description="Answer when the test says so")
async def slow(interaction: discord.Interaction) -> None:
    """Answer only once the test sets ``go`` (to miss the acknowledgement deadline on purpose)."""
    await toy_client(interaction).go.wait()
    await interaction.response.send_message("Finally")


@app_commands.command(name="think", description="Think, then answer when the test says so")
async def think(interaction: discord.Interaction) -> None:
    """Defer with "thinking" at once, and fill it in only once the test sets ``go``."""
    await interaction.response.defer(thinking=True)
    await toy_client(interaction).go.wait()
    await interaction.followup.send("Thought it through")


config = app_commands.Group(
    name="config", description="Server settings", default_permissions=discord.Permissions(manage_guild=True)
)


@config.command(name="set", description="Set a server default")
async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
    """Store a setting and report whether Discord said the member may manage the server."""
    can_manage = interaction.permissions.manage_guild
    await interaction.response.send_message(f"{key} = {value} (manage_guild={can_manage})", ephemeral=True)


class ToyBot(discord.Client):
    """A small bot whose commands and components cover what the stand-in must support."""

    def __init__(self, guild_id: int, *, intents: discord.Intents | None = None) -> None:
        super().__init__(intents=intents or discord.Intents.default(), guild_ready_timeout=0.1)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        commands: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
            newgame, claim, hand, board, thread, tidy, feedback, shout, slow, think, config, layout
        ]  # fmt: skip
        for command in commands:
            self.tree.add_command(command)
        self.joined: list[tuple[str, str]] = []
        self.seen: list[tuple[Any, ...]] = []
        self.hand_interactions: dict[int, discord.Interaction] = {}
        self.go = asyncio.Event()
        self.layouts = LayoutRecords()

    async def setup_hook(self) -> None:
        """Register the persistent buttons and sync the commands globally and to the guild."""
        self.add_dynamic_items(JoinButton, CloseButton, DealButton, RollButton)
        await self.tree.set_translator(ToyTranslator())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync()
        await self.tree.sync(guild=guild)
