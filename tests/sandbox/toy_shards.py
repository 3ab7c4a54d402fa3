"""A toy sharded bot (discord.py's AutoShardedClient) that says which client and shard answered, and can be killed."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands


def shard_client(interaction: discord.Interaction) -> ShardedToy:
    """Return the sharded toy that received ``interaction``."""
    client = interaction.client
    assert isinstance(client, ShardedToy)
    return client


def whereabouts(interaction: discord.Interaction) -> str:
    """Which client, shard and guild an interaction reached, as the answers say it."""
    guild = interaction.guild
    assert guild is not None
    return f"{shard_client(interaction).name} on shard {guild.shard_id} in {guild.name}"


class WhereButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:where"):
    """A persistent button answering privately with who handled the click."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Where", custom_id="toy:where"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> WhereButton:
        """Rebuild the button from its custom id."""
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        """Note the click and say who took it."""
        shard_client(interaction).heard.append(("click", interaction.guild_id))
        await interaction.response.send_message(f"clicked: {whereabouts(interaction)}", ephemeral=True)


@app_commands.command(name="where", description="Say which bot process and shard answers")
async def where(interaction: discord.Interaction) -> None:
    """Answer publicly with the client and shard, and a Where button."""
    shard_client(interaction).heard.append(("where", interaction.guild_id))
    view = discord.ui.View(timeout=None)
    view.add_item(WhereButton())
    await interaction.response.send_message(whereabouts(interaction), view=view)


class ShardedToy(discord.AutoShardedClient):
    """One bot process holding ``shard_ids`` of ``shard_count`` (both None: as many as /gateway/bot recommends)."""

    def __init__(self, name: str, *, shard_ids: list[int] | None = None, shard_count: int | None = None) -> None:
        super().__init__(
            intents=discord.Intents.default(), guild_ready_timeout=0.1, shard_ids=shard_ids, shard_count=shard_count
        )
        self.name = name
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(where)
        self.heard: list[tuple[str, int | None]] = []
        self._closing = asyncio.Event()

    async def setup_hook(self) -> None:
        """Register the persistent button and sync the command globally (every process syncs the same)."""
        self.add_dynamic_items(WhereButton)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify at once: the stand-in's max_concurrency (16) lets every shard identify together."""

    def kill(self) -> None:
        """Drop every gateway socket without a close frame and never connect again, as a process killed by SIGKILL.

        discord.py would resume on a new socket: its connection attempts hang until the client is closed.
        """
        self.http.ws_connect = self._never_connect  # type: ignore[method-assign]
        for info in self.shards.values():
            info._parent.ws.socket._response.connection.transport.abort()  # type: ignore[union-attr]

    async def _never_connect(self, url: str, *, compress: int = 0) -> Any:
        await self._closing.wait()
        raise ConnectionError("this client was killed")

    async def close(self) -> None:
        """Close as discord.py does, first ending the connection attempts of a killed client."""
        self._closing.set()
        await super().close()
