"""Settings read from the environment and `.env` (every key is listed in `.env.example`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """How this bot instance runs; variants of the games live in per-server settings, not here."""

    model_config = SettingsConfigDict(env_prefix="CONDUCTOR_", env_file=".env", env_ignore_empty=True, extra="ignore")

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token. Without one, `python -m bot` plays a sandbox game offline."
    )
    database_path: Path = Field(default=Path("conductor.sqlite3"), description="The SQLite file for all games.")
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this one server at start (instant), not globally."
    )
    language: str = Field(default="en", description="Language of public messages where a server chose none.")
    bot_move_delay: float = Field(
        default=1.5,
        ge=0,
        le=30,
        description="Seconds a bot player waits before moving, so people can follow.",
    )
    guild_ready_timeout: float = Field(
        default=2.0, ge=0, description="discord.py's wait for servers at start; tests use 0.1."
    )
    cooldowns: bool = Field(
        default=True,
        description="Limit how often one person may ask for pictures and commands (the sandbox turns it off).",
    )
    log_level: str = Field(default="INFO", description="Python logging level name.")
