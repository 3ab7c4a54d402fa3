"""Sync the slash commands to Discord only when they changed: Discord limits command writes per day, so a start
compares a hash of what a sync would send with the one stored at the last sync and, when equal, only reads the ids."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.abc import Snowflake
from discord.ext import commands

from bot.settings import Settings
from bot.storage.command_syncs import CommandSyncStore

log = logging.getLogger(__name__)

GLOBAL_SCOPE = "global"
"""The scope of commands synced to every server; a dev server's scope is its id."""


async def sync_commands(
    bot: commands.Bot | commands.AutoShardedBot, store: CommandSyncStore, settings: Settings
) -> dict[str, int]:
    """Put the bot's commands on Discord (in the dev server if one is set, else globally) unless they are what was
    last synced there, or the operator asks for a sync every start; return each command's id by name, for mentions."""
    application_id = bot.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    guild = None if settings.dev_guild_id is None else discord.Object(id=settings.dev_guild_id)
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    sent = await payloads(bot.tree, guild)
    digest = command_hash(application_id, sent)
    scope = GLOBAL_SCOPE if guild is None else str(guild.id)
    last = await store.last(application_id, scope)
    if settings.sync_commands == "auto" and last is not None and last.hash == digest:
        registered = await registered_ids(bot.tree, guild, sent)
        if registered is not None:
            log.info("slash commands (%s) unchanged since their sync at %s: not synced", scope, last.synced_at)
            return registered
        log.warning("slash commands (%s) on Discord are not the ones last synced from here: syncing them", scope)
    synced = await bot.tree.sync(guild=guild)
    await store.record(application_id, scope, digest)
    log.info("synced %d slash commands (%s)", len(synced), scope)
    return {command.name: command.id for command in synced}


async def payloads(tree: app_commands.CommandTree[Any], guild: Snowflake | None) -> list[dict[str, Any]]:
    """Each command of the scope as `CommandTree.sync` sends it: translated when the tree has a translator."""
    translator = tree.translator
    scoped = tree._get_all_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in scoped]
    return [await command.get_translated_payload(tree, translator) for command in scoped]


async def registered_ids(
    tree: app_commands.CommandTree[Any], guild: Snowflake | None, sent: list[dict[str, Any]]
) -> dict[str, int] | None:
    """Read the ids of the commands Discord holds in the scope (a GET, no write); None when they are not the ones
    `sent` names: another deployment of the application, with a store of its own, may have synced since."""
    registered = await tree.fetch_commands(guild=guild)
    if {(c.name, c.type.value) for c in registered} != {(p["name"], p["type"]) for p in sent}:
        return None
    return {command.name: command.id for command in registered}


def command_hash(application_id: int, sent: list[dict[str, Any]]) -> str:
    """A hash of the commands an application sends to a scope, the same whatever order the extensions load in."""
    ordered = sorted(sent, key=lambda payload: (payload["type"], payload["name"]))
    text = json.dumps({"application_id": application_id, "commands": ordered}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
