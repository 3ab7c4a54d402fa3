"""Rate limits by kind: a replay (seconds of a worker's time) once a minute per person, the pictures (private ones,
and the public /stats and /leaderboard) apart, and everything else as a command."""

from __future__ import annotations

from bot.ui.cooldowns import RATES, Cooldowns


def test_a_replay_is_allowed_once_a_minute_per_person() -> None:
    now = [0.0]
    limits = Cooldowns(clock=lambda: now[0])
    kind = Cooldowns.kind_of_command("replay")
    assert limits.retry_after(kind, 1) == 0
    assert 59 < limits.retry_after(kind, 1) <= 60
    assert limits.retry_after(kind, 2) == 0, "limits are per person"
    now[0] = 61.0
    assert limits.retry_after(kind, 1) == 0


def test_private_pictures_share_the_picture_limit_and_other_commands_the_command_limit() -> None:
    assert {Cooldowns.kind_of_command(name) for name in ("hand", "board", "score")} == {"picture"}
    assert {Cooldowns.kind_of_command(name) for name in ("history", "notify", "games")} == {"command"}


def test_stats_and_leaderboard_are_counted_with_the_pictures() -> None:
    limits = Cooldowns(clock=lambda: 0.0)
    uses, _ = RATES["picture"]
    asked = ["stats", "hand", "leaderboard", "board", "stats"][:uses]
    assert [limits.retry_after(Cooldowns.kind_of_command(name), 1) for name in asked] == [0.0] * uses
    assert limits.retry_after(Cooldowns.kind_of_command("leaderboard"), 1) > 0, "a public picture over the limit"
    assert limits.retry_after(Cooldowns.kind_of_command("hand"), 1) > 0, "and a private one after public ones"
    assert limits.retry_after(Cooldowns.kind_of_command("history"), 1) == 0, "other commands are counted apart"
    assert limits.retry_after(Cooldowns.kind_of_command("stats"), 2) == 0, "limits are per person"
