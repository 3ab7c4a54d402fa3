"""Per-server settings: built from the engines' options, checked with reasons, stored in SQLite, given to new games."""

from __future__ import annotations

import logging

import pytest

from bot.games import GAMES
from bot.i18n import render
from bot.services.errors import ServiceError
from bot.services.guild_config import (
    ECHO_LIMIT,
    MIN_MINUTES,
    AfkPolicy,
    GuildConfig,
    GuildConfigService,
    Language,
    LobbyLimits,
    TimerPolicy,
    option_specs,
)
from bot.storage.database import Database
from bot.storage.guild_settings import GuildSettingsStore

GUILD = 77


def service(db: Database) -> GuildConfigService:
    return GuildConfigService(GuildSettingsStore(db), GAMES)


def refusal(error: pytest.ExceptionInfo[ServiceError], language: str = "en") -> str:
    return render(language, error.value.message)


def test_every_option_of_every_engine_is_described_with_its_kind_default_and_bounds() -> None:
    for game, info in GAMES.items():
        specs = option_specs(game, info)
        assert [s.name for s in specs] == list(info.engine.options_model.model_fields)
        defaults = info.engine.options_model().model_dump(mode="json")
        assert {s.name: s.default for s in specs} == defaults
    target = next(s for s in option_specs("dice", GAMES["dice"]) if s.name == "target")
    assert (target.kind, target.low, target.high, target.default) == ("int", 10, 500, 100)
    mode = next(s for s in option_specs("dice", GAMES["dice"]) if s.name == "mode")
    assert mode.kind == "choice" and mode.choices == ("race", "elimination")


async def test_settings_round_trip_through_sqlite(db: Database) -> None:
    first = service(db)
    await first.change(GUILD, lambda c: first.with_option(c, "dice", "target", "150", locked=True))
    await first.change(GUILD, lambda c: first.with_option(c, "dice", "mode", "На выбывание"))
    await first.change(
        GUILD,
        lambda c: c.model_copy(
            update={
                "language": Language.RU,
                "threads": True,
                "creator_role_id": 555,
                "bots_allowed": False,
                "timers": first.with_timers(c.timers, reminder_minutes=5, timeout_minutes=30, on_timeout="pause"),
            }
        ),
    )
    again = await service(db).get(GUILD)  # a new service reads the file afresh
    assert again == GuildConfig(
        language=Language.RU,
        threads=True,
        creator_role_id=555,
        bots_allowed=False,
        timers=TimerPolicy(reminder_minutes=5, timeout_minutes=30, on_timeout=AfkPolicy.PAUSE, missed_limit=3),
        options={"dice": {"target": 150, "mode": "elimination"}},
        locked={"dice": ["target"]},
    )
    stored = await GuildSettingsStore(db).get(GUILD)
    assert stored["language"] == "ru" and stored["options"] == {"dice": {"target": 150, "mode": "elimination"}}


async def test_a_server_that_never_changed_anything_has_the_printed_rules(db: Database) -> None:
    config = await service(db).get(GUILD)
    assert config == GuildConfig()
    assert service(db).options_for_new_game(config, "dice", {}) == {}


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("target", "5", "Target score must be from 10 to 500; 5 is outside that."),
        ("target", "a lot", "Target score takes a whole number, not “a lot”."),
        ("mode", "sprint", "Game mode cannot be “sprint”. Choose one of: Race to the target, Elimination."),
        (
            "colour",
            "red",
            "This game has no option “colour”. Its options are: Target score, Game mode, Tie for the lead.",
        ),
    ],
)
async def test_bad_values_are_refused_with_the_reason_and_nothing_is_stored(
    db: Database, option: str, value: str, expected: str
) -> None:
    svc = service(db)
    with pytest.raises(ServiceError) as refused:
        await svc.change(GUILD, lambda c: svc.with_option(c, "dice", option, value))
    assert refusal(refused) == expected
    assert await GuildSettingsStore(db).get(GUILD) == {}


async def test_a_refusal_is_worded_in_russian_for_a_russian_reader(db: Database) -> None:
    svc = service(db)
    with pytest.raises(ServiceError) as refused:
        svc.with_option(GuildConfig(), "dice", "target", "1000")
    assert refusal(refused, "ru") == "Цель: нужно число от 10 до 500; 1000 не подходит."


def test_yes_and_no_are_read_in_english_and_russian() -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]  # reading values needs no store
    spec = svc.spec("ticket-to-ride", "open_doubles")
    assert [spec.parse(word) for word in ("yes", "Да", "off", "нет", True)] == [True, True, False, False, True]
    with pytest.raises(ServiceError) as refused:
        spec.parse("maybe")
    assert "neither yes nor no" in refusal(refused)


def test_a_value_equal_to_the_printed_rule_is_not_kept_as_a_change() -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]
    changed = svc.with_option(GuildConfig(), "dice", "target", "150")
    back = svc.with_option(changed, "dice", "target", "100")
    assert changed.options == {"dice": {"target": 150}} and back.options == {}


def test_a_host_override_applies_on_top_of_the_server_defaults_unless_locked() -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]
    config = svc.with_option(GuildConfig(), "dice", "target", "150", locked=True)
    config = svc.with_option(config, "dice", "mode", "elimination")
    assert svc.options_for_new_game(config, "dice", {"mode": "race"}) == {"target": 150, "mode": "race"}
    with pytest.raises(ServiceError) as refused:
        svc.options_for_new_game(config, "dice", {"target": 200})
    assert refusal(refused) == "This server fixes Target score: a host cannot change that for one game."
    unlocked = svc.with_option(config, "dice", "target", "150", locked=False)
    assert svc.options_for_new_game(unlocked, "dice", {"target": 200})["target"] == 200


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"reminder_minutes": 30, "timeout_minutes": 20},
            "The timeout (20 min) must come later than the reminder (30 min).",
        ),
        ({"timeout_minutes": 99999}, "Timeout must be from 0 to 10080; 99999 is outside that."),
        ({"missed_limit": 21}, "Missed turns before a bot takes over must be from 0 to 20; 21 is outside that."),
        (
            {"on_timeout": "sleep"},
            "On timeout cannot be “sleep”. Choose one of: a bot player plays the turn for them, "
            "the game waits for them.",
        ),
    ],
)
def test_a_timer_policy_that_makes_no_sense_is_refused(changes: dict[str, object], expected: str) -> None:
    with pytest.raises(ServiceError) as refused:
        GuildConfigService.with_timers(TimerPolicy(), **changes)
    assert refusal(refused) == expected


def test_zero_switches_a_timer_off_and_then_any_other_may_be_set() -> None:
    policy = GuildConfigService.with_timers(TimerPolicy(), reminder_minutes=0, timeout_minutes=5)
    assert (policy.reminder_minutes, policy.timeout_minutes) == (0, 5)


async def test_stored_settings_that_no_longer_fit_an_engine_are_dropped_not_fatal(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    await GuildSettingsStore(db).put(
        GUILD,
        {"options": {"dice": {"target": 150, "gone": 1}, "chess": {"x": 1}}, "locked": {"dice": ["gone", "target"]}},
    )
    with caplog.at_level(logging.WARNING):
        config = await service(db).get(GUILD)
    assert config.options == {"dice": {"target": 150}} and config.locked == {"dice": ["target"]}
    assert "gone" in caplog.text


def test_only_the_chosen_role_or_an_admin_may_create_games_when_a_role_is_set() -> None:
    anyone, role_only = GuildConfig(), GuildConfig(creator_role_id=9)
    may = GuildConfigService.may_create_games
    assert may(anyone, set(), admin=False)
    assert may(role_only, {9}, admin=False) and may(role_only, set(), admin=True)
    assert not may(role_only, {8}, admin=False)


def test_a_timer_below_the_minimum_is_refused_but_zero_still_switches_it_off() -> None:
    with pytest.raises(ServiceError) as refused:
        GuildConfigService.with_timers(TimerPolicy(), timeout_minutes=2)
    assert refusal(refused) == f"Timeout must be at least {MIN_MINUTES} min; 2 min is too short."
    with pytest.raises(ServiceError) as russian:
        GuildConfigService.with_timers(TimerPolicy(), reminder_minutes=1)
    assert refusal(russian, "ru") == f"Напоминание: не меньше {MIN_MINUTES} мин; 1 мин — слишком мало."
    assert GuildConfigService.with_timers(TimerPolicy(), reminder_minutes=0).reminder_minutes == 0
    legacy = TimerPolicy(reminder_minutes=2, timeout_minutes=60)  # stored before the minimum existed
    assert GuildConfigService.with_timers(legacy, missed_limit=5).reminder_minutes == 2, "other changes still save"


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"timeout_minutes": 0}, "Timeout is on here (60 min): a host cannot switch it off for one game."),
        ({"reminder_minutes": 0}, "Reminder is on here (10 min): a host cannot switch it off for one game."),
        (
            {"missed_limit": 0},
            "Missed turns before a bot takes over: this server hands a seat to a bot player after 3 missed turns;"
            " a host cannot switch that off for one game.",
        ),
        ({"timeout_minutes": 2}, f"Timeout must be at least {MIN_MINUTES} min; 2 min is too short."),
    ],
)
def test_a_host_cannot_switch_off_the_servers_timers_or_go_below_the_minimum(
    overrides: dict[str, object], expected: str
) -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]
    with pytest.raises(ServiceError) as refused:
        svc.timers_for_new_game(GuildConfig(), overrides)
    assert refusal(refused) == expected


def test_a_host_may_change_timers_within_the_servers_rules_unless_they_are_locked() -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]
    config = GuildConfig(timers=TimerPolicy(reminder_minutes=0, timeout_minutes=30, missed_limit=0))
    longer = svc.timers_for_new_game(config, {"reminder_minutes": 5, "timeout_minutes": 90, "on_timeout": "pause"})
    assert (longer.reminder_minutes, longer.timeout_minutes, longer.on_timeout) == (5, 90, AfkPolicy.PAUSE)
    off_here = svc.timers_for_new_game(config, {"reminder_minutes": 0, "missed_limit": 0})
    assert off_here == config.timers, "switching off what the server has off is no change"
    assert svc.timers_for_new_game(config, {"reminder_minutes": None}) == config.timers
    locked = config.model_copy(update={"timers_locked": True})
    assert svc.timers_for_new_game(locked, {}) == config.timers
    with pytest.raises(ServiceError) as refused:
        svc.timers_for_new_game(locked, {"timeout_minutes": 90})
    assert refusal(refused) == "This server fixes the turn timers: a host cannot change them for one game."


async def test_limits_have_sensible_defaults_are_checked_and_stored(db: Database) -> None:
    svc = service(db)
    assert GuildConfig().limits == LobbyLimits(
        lobbies_per_person=2, games_per_person=5, games_per_server=25, lobby_expiry_minutes=60
    )
    with pytest.raises(ServiceError) as refused:
        svc.with_limits(LobbyLimits(), lobby_expiry_minutes=1)
    assert refusal(refused) == f"Lobby expiry must be from {MIN_MINUTES} to 10080; 1 is outside that."
    with pytest.raises(ServiceError) as zero:
        svc.with_limits(LobbyLimits(), games_per_server=0)
    assert refusal(zero) == "Open games on the server must be from 1 to 500; 0 is outside that."
    await svc.change(GUILD, lambda c: c.model_copy(update={"limits": svc.with_limits(c.limits, lobbies_per_person=1)}))
    await svc.change(GUILD, lambda c: c.model_copy(update={"timers_locked": True}))
    again = await service(db).get(GUILD)
    assert again.limits == LobbyLimits(lobbies_per_person=1) and again.timers_locked


def test_over_long_input_is_cut_when_a_refusal_quotes_it() -> None:
    svc = GuildConfigService(None, GAMES)  # type: ignore[arg-type]
    typed = "x" * 5000
    for option, value in (("target", typed), ("mode", typed), (typed, "1")):
        with pytest.raises(ServiceError) as refused:
            svc.with_option(GuildConfig(), "dice", option, value)
        said = refusal(refused)
        assert "x" * ECHO_LIMIT not in said and "x" * (ECHO_LIMIT - 1) + "…" in said and len(said) < 400
