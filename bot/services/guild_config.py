"""Per-server settings as a typed model: language, threads, who may create games, bot players, turn timers, and the
default of every variant option of every game, built generically from each engine's options model.

The settings are one JSON document per server (`GuildSettingsStore`). They apply to games opened after a change:
a game copies its options and its timer policy when its lobby opens.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, Literal

from annotated_types import Ge, Le
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.game_entry import GameInfo
from bot.i18n import FALLBACK, LANGUAGES, fit, table, text
from bot.services.errors import ServiceError, ServiceReason
from bot.storage.guild_settings import GuildSettingsStore
from rules.engine import Level, Message

log = logging.getLogger(__name__)

MAX_MINUTES = 7 * 24 * 60
"""The longest wait a timer may be set to: a week."""
MAX_MISSED = 20
"""The most timed-out turns in a row a server may allow before a bot player takes the seat."""
MIN_MINUTES = 5
"""The shortest reminder or timeout (0 still means none): shorter ones ping people every few breaths and, with the
pause policy, count a whole game's worth of missed turns during one coffee."""
MAX_LOBBIES_PER_PERSON = 25
MAX_GAMES_PER_PERSON = 50
MAX_GAMES_PER_SERVER = 500
"""The highest caps an admin may set: far above any friends' server, still a bound."""
ECHO_LIMIT = 100
"""User input quoted back in a refusal is cut to this many characters (no real value is longer)."""

_YES = frozenset({"yes", "y", "true", "on", "1", "да", "д", "вкл"})
_NO = frozenset({"no", "n", "false", "off", "0", "нет", "н", "выкл"})


class Language(StrEnum):
    """A language the bot speaks in public messages."""

    EN = "en"
    RU = "ru"


class AfkPolicy(StrEnum):
    """What happens when a turn times out."""

    BOT = "bot"
    PAUSE = "pause"


class TimerPolicy(BaseModel):
    """Turn timers: a reminder, then a timeout with a policy, then the seat handed to a bot after repeated misses."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reminder_minutes: int = Field(
        default=10, ge=0, le=MAX_MINUTES, description="Minutes until the player to act is reminded (0: never)."
    )
    timeout_minutes: int = Field(
        default=60, ge=0, le=MAX_MINUTES, description="Minutes until the turn times out (0: never)."
    )
    on_timeout: AfkPolicy = Field(
        default=AfkPolicy.BOT, description="When a turn times out: a bot player plays it, or the game waits."
    )
    missed_limit: int = Field(
        default=3,
        ge=0,
        le=MAX_MISSED,
        description="Timed-out turns in a row after which a bot player takes the seat for good (0: never).",
    )

    @model_validator(mode="after")
    def _timeout_after_reminder(self) -> TimerPolicy:
        if self.reminder_minutes and self.timeout_minutes and self.timeout_minutes <= self.reminder_minutes:
            raise ValueError("the timeout must come later than the reminder")
        return self


class LobbyLimits(BaseModel):
    """Bounds on opening games, so one person (or a script) cannot fill a server with lobbies and threads.

    The defaults fit a server of friends and stop abuse: a person hosts at most 2 open lobbies at once (one to
    fill, one more in another channel); sits in at most 5 open games (slow board games run for days, several in
    parallel); a server runs at most 25 open games (each costs memory and pictures; a busy server of friends has a
    handful); and a lobby nobody joins, leaves or changes for 60 minutes is cancelled (people who are coming come
    within the hour; the host opens a new one with one command).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    lobbies_per_person: int = Field(
        default=2, ge=1, le=MAX_LOBBIES_PER_PERSON, description="Open lobbies one person may host at once."
    )
    games_per_person: int = Field(
        default=5, ge=1, le=MAX_GAMES_PER_PERSON, description="Open games (lobby or running) one person may sit in."
    )
    games_per_server: int = Field(
        default=25, ge=1, le=MAX_GAMES_PER_SERVER, description="Open games (lobby or running) on the server."
    )
    lobby_expiry_minutes: int = Field(
        default=60,
        ge=MIN_MINUTES,
        le=MAX_MINUTES,
        description="Minutes without any change after which a lobby expires.",
    )


LIMIT_BOUNDS = {
    "lobbies_per_person": (1, MAX_LOBBIES_PER_PERSON),
    "games_per_person": (1, MAX_GAMES_PER_PERSON),
    "games_per_server": (1, MAX_GAMES_PER_SERVER),
    "lobby_expiry_minutes": (MIN_MINUTES, MAX_MINUTES),
}
"""Each limit and the values an admin may give it."""


class GuildConfig(BaseModel):
    """One server's settings; the defaults are how the bot behaves on a server that never changed anything."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    language: Language | None = Field(default=None, description="Language of public messages (None: the bot's).")
    threads: bool | None = Field(
        default=None,
        description="Open every new game in a thread of its own (None, never chosen: where the bot may open one).",
    )
    creator_role_id: int | None = Field(default=None, description="Only this role may create games (None: all).")
    bots_allowed: bool = Field(default=True, description="Whether bot players may be seated in a lobby.")
    afk_level: Level = Field(
        default=Level.NORMAL,
        description="The level of the bot player that plays for an absent person, or takes their seat for good.",
    )
    hints: bool = Field(default=True, description="Whether players may ask for a hint (/hint).")
    timers: TimerPolicy = Field(default_factory=TimerPolicy)
    timers_locked: bool = Field(default=False, description="Whether hosts must keep the server's turn timers.")
    limits: LobbyLimits = Field(default_factory=LobbyLimits)
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Per game, the variant options set here (JSON values)."
    )
    locked: dict[str, list[str]] = Field(
        default_factory=dict, description="Per game, the options a host may not change for one game."
    )

    def option_value(self, spec: OptionSpec) -> Any:
        """The value in force here for a new game: the server's choice, else the printed rule."""
        return self.options.get(spec.game, {}).get(spec.name, spec.default)

    def is_locked(self, spec: OptionSpec) -> bool:
        """Whether hosts must keep the server's value of this option."""
        return spec.name in self.locked.get(spec.game, [])


@dataclass(frozen=True)
class OptionSpec:
    """One variant option of one game, as the engine's options model declares it."""

    game: str
    namespace: str
    name: str
    kind: Literal["bool", "int", "choice"]
    default: Any
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def label(self) -> Message:
        """The option's name, to be worded in a language."""
        return Message(key=f"{self.namespace}.option.{self.name}.name")

    def description(self) -> Message:
        """What the option does, to be worded in a language."""
        return Message(key=f"{self.namespace}.option.{self.name}.description")

    def value_word(self, value: Any) -> Message:
        """A value as words: yes/no, a number, or the translated name of a choice."""
        if isinstance(value, Enum):
            value = value.value
        if self.kind == "bool":
            return Message(key="bot.word.yes" if value else "bot.word.no")
        if self.kind == "choice":
            key = choice_key(self.namespace, self.name, str(value))
            if key is not None:
                return Message(key=key)
        return Message(key="admin.word.plain", params={"value": str(value)})

    def allowed(self) -> Message:
        """The values this option takes, to be shown with a refusal or in a description."""
        if self.kind == "int":
            return Message(key="admin.word.range", params={"low": str(self.low), "high": str(self.high)})
        values: list[str | int | Message] = (
            [self.value_word(True), self.value_word(False)]
            if self.kind == "bool"
            else [self.value_word(c) for c in self.choices]
        )
        return Message(key="admin.word.plain", params={"value": values})

    def parse(self, raw: Any) -> Any:
        """Read a value typed by a person (in English or Russian) or given typed; refuse it with the reason."""
        given = raw.value if isinstance(raw, Enum) else raw
        if self.kind == "bool":
            return self._parse_bool(given)
        if self.kind == "int":
            return self._parse_int(given)
        return self._parse_choice(given)

    def _parse_bool(self, given: Any) -> bool:
        if isinstance(given, bool):
            return given
        word = str(given).strip().lower()
        if word in _YES or word in _words("bot.word.yes"):
            return True
        if word in _NO or word in _words("bot.word.no"):
            return False
        raise ServiceError(ServiceReason.NOT_YES_NO, option=self.label(), value=echo(given))

    def _parse_int(self, given: Any) -> int:
        try:
            number = int(str(given).strip()) if not isinstance(given, int) or isinstance(given, bool) else given
        except ValueError:
            raise ServiceError(ServiceReason.NOT_A_NUMBER, option=self.label(), value=echo(given)) from None
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            raise ServiceError(
                ServiceReason.OUT_OF_RANGE, option=self.label(), value=number, low=self.low or 0, high=self.high or 0
            )
        return number

    def _parse_choice(self, given: Any) -> str:
        word = str(given).strip().lower()
        for choice in self.choices:
            key = choice_key(self.namespace, self.name, choice)
            names = {choice.lower(), *(_words(key) if key else ())}
            if word in names:
                return choice
        raise ServiceError(ServiceReason.NOT_A_CHOICE, option=self.label(), value=echo(given), allowed=self.allowed())


def echo(value: Any) -> str:
    """User input as a refusal quotes it: cut to ECHO_LIMIT characters, so no answer outgrows Discord's limits."""
    return fit(str(value), ECHO_LIMIT)


def choice_key(namespace: str, field: str, value: str) -> str | None:
    """The table key that words an option's choice (the tables use two layouts), or None when unworded."""
    for key in (f"{namespace}.option.{field}.value.{value}", f"{namespace}.option.{field}.{value}"):
        if key in table(FALLBACK):
            return key
    return None


def _words(key: str) -> set[str]:
    """A key's text in every language, lower case: what a person may type for it."""
    return {text(language, key).strip().lower() for language in LANGUAGES}


def option_specs(game: str, info: GameInfo) -> list[OptionSpec]:
    """Every variant option of a game from its engine's options model, in the model's order."""
    specs = []
    for name, field in info.engine.options_model.model_fields.items():
        annotation, default = field.annotation, field.default
        if annotation is bool:
            specs.append(OptionSpec(game, info.namespace, name, "bool", bool(default)))
        elif annotation is int:
            low = next((int(m.ge) for m in field.metadata if isinstance(m, Ge)), None)  # type: ignore[call-overload]
            high = next((int(m.le) for m in field.metadata if isinstance(m, Le)), None)  # type: ignore[call-overload]
            specs.append(OptionSpec(game, info.namespace, name, "int", int(default), low=low, high=high))
        elif isinstance(annotation, type) and issubclass(annotation, Enum):
            choices = tuple(str(member.value) for member in annotation)
            specs.append(OptionSpec(game, info.namespace, name, "choice", str(default.value), choices=choices))
        else:
            raise TypeError(f"{game}.{name}: options are bools, bounded ints or string enums, not {annotation}")
    return specs


class GuildConfigService:
    """Reads, checks and changes servers' settings; every change is validated before it is stored."""

    def __init__(self, store: GuildSettingsStore, games: Mapping[str, GameInfo]) -> None:
        self.store = store
        self.games = dict(games)
        self._specs = {game: option_specs(game, info) for game, info in games.items()}
        self._locks: dict[int, asyncio.Lock] = {}

    # ---- the options of the games -------------------------------------------------------------------------

    def specs(self, game: str) -> list[OptionSpec]:
        """The variant options of a game."""
        if game not in self._specs:
            raise ServiceError(ServiceReason.UNKNOWN_GAME)
        return self._specs[game]

    def spec(self, game: str, name: str) -> OptionSpec:
        """One option of a game, or a refusal naming the game's options."""
        found = next((s for s in self.specs(game) if s.name == name), None)
        if found is None:
            names: list[str | int | Message] = [s.label() for s in self.specs(game)]
            raise ServiceError(ServiceReason.UNKNOWN_OPTION, option=echo(name), options=names)
        return found

    # ---- reading and changing -----------------------------------------------------------------------------

    async def get(self, guild_id: int | None) -> GuildConfig:
        """A server's settings; outside a server, and for a server that never changed any, the defaults."""
        if guild_id is None:
            return GuildConfig()
        return self.load(await self.store.get(guild_id))

    def load(self, document: Mapping[str, Any]) -> GuildConfig:
        """Read a stored document, dropping (and logging) what no longer fits the games' options."""
        try:
            config = GuildConfig.model_validate(document)
        except ValidationError:
            log.warning("server settings do not validate; using the defaults: %s", dict(document))
            return GuildConfig()
        options: dict[str, dict[str, Any]] = {}
        for game, values in config.options.items():
            kept = {}
            for name, value in values.items():
                try:
                    kept[name] = self.spec(game, name).parse(value)
                except ServiceError:
                    log.warning("dropping the stored option %s.%s = %r: it no longer fits", game, name, value)
            if kept:
                options[game] = kept
        locked = {
            g: [n for n in names if g in self._specs and n in {s.name for s in self._specs[g]}]
            for g, names in config.locked.items()
        }
        return config.model_copy(update={"options": options, "locked": {g: n for g, n in locked.items() if n}})

    async def change(self, guild_id: int, edit: Callable[[GuildConfig], GuildConfig]) -> GuildConfig:
        """Apply `edit` to a server's settings and store the result (one change at a time per server)."""
        lock = self._locks.setdefault(guild_id, asyncio.Lock())
        async with lock:
            changed = edit(await self.get(guild_id))
            await self.store.put(guild_id, changed.model_dump(mode="json"))
            return changed

    def with_option(
        self, config: GuildConfig, game: str, name: str, raw: Any, *, locked: bool | None = None
    ) -> GuildConfig:
        """The settings with a game's option default set (and locked or unlocked for hosts); refused if invalid."""
        spec = self.spec(game, name)
        value = spec.parse(raw)
        values = {**config.options.get(game, {}), name: value}
        try:
            self.games[game].engine.load_options(values)
        except ValidationError as error:
            raise ServiceError(ServiceReason.BAD_OPTIONS, detail=_first_error(error)) from error
        if value == spec.default:
            del values[name]
        options = {g: v for g, v in {**config.options, game: values}.items() if v}
        names = set(config.locked.get(game, []))
        if locked is not None:
            names = names | {name} if locked else names - {name}
        locks = {g: n for g, n in {**config.locked, game: sorted(names)}.items() if n}
        return config.model_copy(update={"options": options, "locked": locks})

    def without_options(self, config: GuildConfig, game: str | None) -> GuildConfig:
        """The settings with one game's option defaults and locks (or every game's) back to the printed rules."""
        if game is None:
            return config.model_copy(update={"options": {}, "locked": {}})
        self.specs(game)
        options = {g: v for g, v in config.options.items() if g != game}
        return config.model_copy(
            update={"options": options, "locked": {g: n for g, n in config.locked.items() if g != game}}
        )

    @staticmethod
    def with_timers(policy: TimerPolicy, **changes: Any) -> TimerPolicy:
        """A timer policy with some values changed; refused with the reason when a value or the pair is wrong.

        A reminder or timeout given here is 0 (none) or at least MIN_MINUTES; values already in `policy` are
        kept as they are (a server set before the minimum existed still saves its other changes).
        """
        given = {k: v for k, v in changes.items() if v is not None}
        values = {**policy.model_dump(), **given}
        for name in ("reminder_minutes", "timeout_minutes"):
            if not 0 <= int(values[name]) <= MAX_MINUTES:
                raise ServiceError(
                    ServiceReason.OUT_OF_RANGE,
                    option=Message(key=f"admin.timers.{name}"),
                    value=int(values[name]),
                    low=0,
                    high=MAX_MINUTES,
                )
            if name in given and 0 < int(given[name]) < MIN_MINUTES:
                raise ServiceError(
                    ServiceReason.BELOW_MINIMUM,
                    option=Message(key=f"admin.timers.{name}"),
                    value=int(given[name]),
                    minimum=MIN_MINUTES,
                )
        if not 0 <= int(values["missed_limit"]) <= MAX_MISSED:
            raise ServiceError(
                ServiceReason.OUT_OF_RANGE,
                option=Message(key="admin.timers.missed_limit"),
                value=int(values["missed_limit"]),
                low=0,
                high=MAX_MISSED,
            )
        if values["on_timeout"] not in {p.value for p in AfkPolicy}:
            allowed: list[str | int | Message] = [Message(key=f"admin.timers.policy.{p.value}") for p in AfkPolicy]
            raise ServiceError(
                ServiceReason.NOT_A_CHOICE,
                option=Message(key="admin.timers.on_timeout"),
                value=echo(values["on_timeout"]),
                allowed=Message(key="admin.word.plain", params={"value": allowed}),
            )
        reminder, timeout = int(values["reminder_minutes"]), int(values["timeout_minutes"])
        if reminder and timeout and timeout <= reminder:
            raise ServiceError(ServiceReason.TIMEOUT_NOT_AFTER_REMINDER, reminder=reminder, timeout=timeout)
        return TimerPolicy.model_validate(values)

    @staticmethod
    def with_limits(limits: LobbyLimits, **changes: int | None) -> LobbyLimits:
        """Caps and lobby expiry with some values changed; refused with the reason when one is out of bounds."""
        given = {k: v for k, v in changes.items() if v is not None}
        for name, value in given.items():
            low, high = LIMIT_BOUNDS[name]
            if not low <= int(value) <= high:
                raise ServiceError(
                    ServiceReason.OUT_OF_RANGE,
                    option=Message(key=f"admin.limits.{name}"),
                    value=int(value),
                    low=low,
                    high=high,
                )
        return limits.model_copy(update={k: int(v) for k, v in given.items()})

    # ---- new games ----------------------------------------------------------------------------------------

    def options_for_new_game(self, config: GuildConfig, game: str, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """A new game's options: the server's defaults with the host's choices, which may not touch a locked one."""
        locked: list[str | int | Message] = [
            self.spec(game, name).label() for name in chosen if name in config.locked.get(game, [])
        ]
        if locked:
            raise ServiceError(ServiceReason.OPTION_LOCKED, options=locked)
        values = dict(config.options.get(game, {}))
        for name, raw in chosen.items():
            values[name] = self.spec(game, name).parse(raw)
        return values

    def timers_for_new_game(self, config: GuildConfig, overrides: Mapping[str, Any]) -> TimerPolicy:
        """A new game's timers: the server's, with the host's overrides for this one game, within what it allows.

        Hosts may not override locked timers, switch off (0) a reminder, timeout or hand-over the server has on,
        or go below MIN_MINUTES; each refusal says why.
        """
        given = {name: value for name, value in overrides.items() if value is not None}
        if not given:
            return config.timers
        if config.timers_locked:
            raise ServiceError(ServiceReason.TIMERS_LOCKED)
        server = config.timers
        for name in ("reminder_minutes", "timeout_minutes", "missed_limit"):
            if name in given and int(given[name]) == 0 and getattr(server, name):
                key = (
                    ServiceReason.HAND_OVER_CANNOT_BE_OFF
                    if name == "missed_limit"
                    else ServiceReason.TIMER_CANNOT_BE_OFF
                )
                raise ServiceError(key, option=Message(key=f"admin.timers.{name}"), value=getattr(server, name))
        return self.with_timers(server, **given)

    @staticmethod
    def may_create_games(config: GuildConfig, role_ids: Collection[int], *, admin: bool) -> bool:
        """Whether a member may open a lobby: admins always; others when no role is required or they hold it."""
        return admin or config.creator_role_id is None or config.creator_role_id in role_ids


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    return f"{where}: {first.get('msg', '')}".strip(": ")
