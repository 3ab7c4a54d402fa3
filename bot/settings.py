"""Settings read from the environment and `.env` (every key is listed in `.env.example`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.shards import ShardSet
from bot.workers import default_workers


def listen_address(address: str) -> tuple[str, int]:
    """Read a `host:port` setting (`[::1]:8080` for IPv6; no host: every address; port 0: a free one)."""
    parts = urlsplit(f"//{address}")
    try:
        port = parts.port
    except ValueError as error:
        raise ValueError(f"{address!r} is not host:port ({error})") from None
    if port is None:
        raise ValueError(f"{address!r} is not host:port")
    return parts.hostname or "0.0.0.0", port


class Settings(BaseSettings):
    """How this bot instance runs; variants of the games live in per-server settings, not here."""

    model_config = SettingsConfigDict(env_prefix="CONDUCTOR_", env_file=".env", env_ignore_empty=True, extra="ignore")

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token. Without one, `python -m bot` plays a sandbox game offline."
    )
    database_path: Path = Field(default=Path("conductor.sqlite3"), description="The SQLite file for all games.")
    art_folder: Path | None = Field(
        default=None,
        description="Where the games' static art is kept once drawn, for every process and restart of this version"
        " (default: `conductor-art` beside the database file).",
    )
    database_url: SecretStr | None = Field(
        default=None,
        description="A postgresql:// URL: keep the games on that PostgreSQL database instead of the SQLite file"
        " (needed to run several processes on one store).",
    )
    shard_count: int = Field(
        default=1, ge=1, description="How many shards the bot's gateway connection is split into, in all processes."
    )
    shard_ids: Annotated[frozenset[int] | None, NoDecode] = Field(
        default=None,
        description="The shards this process holds, e.g. `0,1` (all of them when unset); the others run elsewhere.",
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this one server at start (instant), not globally."
    )
    sync_commands: Literal["auto", "always"] = Field(
        default="auto",
        description="`auto`: sync slash commands at start only when they changed since the last sync (its hash is"
        " kept in the store); `always`: at every start.",
    )
    language: str = Field(default="en", description="Language of public messages where a server chose none.")
    bot_move_delay: float = Field(
        default=1.5,
        ge=0,
        le=30,
        description="Seconds a bot player waits before moving, so people can follow.",
    )
    bot_think_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="Seconds of thought a bot player (and a /hint) may spend on one move, in a thinking worker.",
    )
    thinking_workers: int = Field(
        default_factory=default_workers,
        ge=1,
        le=64,
        description="How many worker processes think for bot players and hints (unset: one per core, at least two).",
    )
    guild_ready_timeout: float = Field(
        default=2.0, ge=0, description="discord.py's wait for servers at start; tests use 0.1."
    )
    cooldowns: bool = Field(
        default=True,
        description="Limit how often one person may ask for pictures and commands (the sandbox turns it off).",
    )
    vote_cooldown_minutes: float = Field(
        default=5,
        ge=0,
        le=1440,
        description="Minutes before a person may ask again for a vote or an undo of the same kind in a game after"
        " theirs was refused or lapsed (0: at once).",
    )
    log_level: str = Field(default="INFO", description="Python logging level name.")
    backup_every_hours: float = Field(
        default=24,
        ge=0,
        description="Hours between backups of the SQLite file, taken while the bot runs (0: none; PostgreSQL: use"
        " pg_dump).",
    )
    backup_keep: int = Field(default=7, ge=1, description="How many of the newest backups to keep.")
    backup_folder: Path | None = Field(
        default=None, description="Where backups are written (default: `backups` beside the database file)."
    )
    web_listen: str | None = Field(
        default=None,
        description="`host:port` where the bot serves the live board pages, health and metrics (off when unset).",
    )
    web_url: str | None = Field(
        default=None,
        max_length=400,
        pattern=r"^https?://",
        description="The public base URL of those pages, for links in Discord (default: `http://` + `web_listen`;"
        " at most 400 characters, so a signed link stays within Discord's 512).",
    )
    web_secret: SecretStr | None = Field(
        default=None, description="The secret that signs board links (needed with `web_listen`; keep it private)."
    )
    web_streams_per_game: int = Field(
        default=100, ge=1, description="Live board pages that may follow one game at once (more are refused)."
    )
    web_streams: int = Field(
        default=2000, ge=1, description="Live board pages that may follow games at once, in all (more are refused)."
    )
    ops_listen: str | None = Field(
        default=None,
        description="`host:port` for health and metrics alone when the board pages are off (`/healthz`, `/metrics`).",
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """Read `0,1` (the environment's way) as well as a list."""
        if isinstance(value, str):
            return frozenset(int(part) for part in value.replace(" ", "").split(",") if part) or None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        self.shards()  # refuses ids outside the count
        return self

    @field_validator("web_listen", "ops_listen")
    @classmethod
    def _host_and_port(cls, value: str | None) -> str | None:
        if value is not None:
            listen_address(value)
        return value

    @model_validator(mode="after")
    def _web_signed(self) -> Settings:
        if self.web_listen is not None and self.web_secret is None:
            raise ValueError("web_listen needs web_secret: board links are signed with it")
        return self

    def art(self) -> Path:
        """The folder of the static art: the setting, else `conductor-art` beside the database file."""
        return self.art_folder or self.database_path.parent / "conductor-art"

    def backups(self) -> Path:
        """The folder of the SQLite file's backups: the setting, else `backups` beside the database file."""
        return self.backup_folder or self.database_path.parent / "backups"

    def shards(self) -> ShardSet:
        """The shards this process holds."""
        return ShardSet(self.shard_count, self.shard_ids or frozenset(range(self.shard_count)))
