"""Who may see a game's records (its history entry, replay, watch and stats): the members who can view the channel
it is seen from (`SEEN_FROM`: where it was played, or the channel of the thread the bot opened for it).

Checked with the member's permissions there, as Discord shows the channel; a place the bot cannot find any more (a
deleted channel) shows nothing to anyone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.storage.games import GameRecord

if TYPE_CHECKING:
    from bot.ui.parts import Bot


async def can_see(bot: Bot, person: discord.Member | discord.User, record: GameRecord) -> bool:
    """Whether a person may see a game of their server: they can view the channel it is seen from."""
    return await visible_place(bot, person, record) is not None


async def visible_place(bot: Bot, person: discord.Member | discord.User, record: GameRecord) -> int | None:
    """The channel a game of the person's server is seen from, if they can view it; else None."""
    place = await bot.records.seen_from(record.id)
    return place if place is not None and await seen_places(person, [place]) else None


async def seen_places(person: discord.Member | discord.User, places: Iterable[int]) -> list[int]:
    """The places (channel ids of the person's server) this person can view, in the order given."""
    if not isinstance(person, discord.Member):
        return []
    places = list(places)
    views = await asyncio.gather(*(_views(person, place) for place in places))  # fetches go out together
    return [place for place, seen in zip(places, views, strict=True) if seen]


async def _views(member: discord.Member, place: int) -> bool:
    """Whether a member can view a channel or thread of their server (one not in the cache is fetched: an archived
    thread)."""
    channel: Any = member.guild.get_channel_or_thread(place)
    if channel is None:
        try:
            channel = await member.guild.fetch_channel(place)
        except (discord.HTTPException, discord.InvalidData):  # gone, or out of the bot's sight
            return False
    try:
        return bool(channel.permissions_for(member).view_channel)
    except discord.ClientException:  # a thread whose channel discord.py does not know
        return False
