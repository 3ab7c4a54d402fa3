"""The lobby message: who sits, the rules in effect, and the buttons to join and start."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.games import GameInfo
from bot.i18n import escaped, text
from bot.storage.games import GameRecord
from bot.ui.components import button, select, view_of
from bot.ui.custom_ids import ComponentId
from bot.ui.hints import kind_about, kind_name
from bot.ui.options_text import rules_in_effect

_COLOUR = discord.Colour.from_rgb(46, 125, 50)


def lobby_embed(
    language: str,
    info: GameInfo,
    record: GameRecord,
    *,
    timers: Sequence[str] = (),
    expired_after: int | None = None,
) -> discord.Embed:
    """Draw the lobby as an embed; its wording follows the record's status; `timers` words the turn timers;
    `expired_after` (minutes) says a cancelled lobby expired for want of activity. Names are shown literally."""
    engine = info.engine
    title = text(language, f"bot.game.{info.namespace}")
    status_key = {"lobby": "bot.lobby.open", "active": "bot.lobby.started", "cancelled": "bot.lobby.cancelled"}
    key = "admin.lobby.expired" if expired_after is not None else status_key.get(record.status, "bot.lobby.started")
    embed = discord.Embed(
        title=text(language, "bot.lobby.title", game=title),
        description=text(
            language,
            key,
            host=f"<@{record.host_id}>",
            min=engine.min_players,
            max=engine.max_players,
            minutes=expired_after,
        ),
        colour=_COLOUR,
    )
    players = [
        f"{s.seat + 1}. {escaped(s.display_name)}"
        + (text(language, "players.lobby.level_mark", level=kind_name(language, s.bot_kind)) if s.bot_kind else "")
        + (text(language, "bot.lobby.host_mark") if s.user_id == record.host_id else "")
        for s in record.seats
    ]
    embed.add_field(
        name=text(language, "bot.lobby.players", n=len(record.seats), max=engine.max_players),
        value="\n".join(players),
        inline=True,
    )
    rules = rules_in_effect(language, info.namespace, engine.load_options(record.options))
    if rules:
        embed.add_field(name=text(language, "bot.lobby.rules"), value="\n".join(rules), inline=True)
    if timers:
        embed.add_field(name=text(language, "admin.summary.timers"), value="\n".join(timers), inline=False)
    embed.set_footer(text=text(language, "bot.lobby.footer", id=record.id))
    return embed


def lobby_view(
    language: str, info: GameInfo, record: GameRecord, *, bots_allowed: bool = True
) -> discord.ui.View | None:
    """The lobby's buttons while it is open; none once started or cancelled."""
    if record.status != "lobby":
        return None
    full = len(record.seats) >= info.engine.max_players
    has_bot = any(s.is_bot for s in record.seats)
    others = any(s.user_id not in (None, record.host_id) for s in record.seats)

    def cid(verb: str) -> ComponentId:
        return ComponentId("lobby", record.id, record.version, verb)

    return view_of(
        [
            button(cid("join"), text(language, "bot.lobby.join"), style=discord.ButtonStyle.primary, disabled=full),
            button(cid("leave"), text(language, "bot.lobby.leave")),
            button(cid("bot"), text(language, "bot.lobby.add_bot"), emoji="🤖", disabled=full or not bots_allowed),
            button(cid("unbot"), text(language, "bot.lobby.remove_bot"), disabled=not has_bot),
            button(cid("start"), text(language, "bot.lobby.start"), style=discord.ButtonStyle.success, row=1),
            button(cid("cancel"), text(language, "bot.lobby.cancel"), style=discord.ButtonStyle.danger, row=1),
            button(cid("kick"), text(language, "lobby_control.button.remove"), disabled=not others, row=1),
        ]
    )


def bot_kind_view(language: str, info: GameInfo, record: GameRecord) -> discord.ui.View:
    """The private choice of a bot player to seat: every kind the game offers, named and described; the choice
    carries the lobby's version, so it is refused if the lobby changed meanwhile."""
    options = [
        discord.SelectOption(
            label=kind_name(language, kind)[:100], value=str(kind), description=kind_about(language, kind)[:100]
        )
        for kind in info.engine.bot_kinds
    ]
    cid = ComponentId("lobby", record.id, record.version, "botkind")
    return view_of([select(cid, text(language, "players.lobby.placeholder"), options)])
