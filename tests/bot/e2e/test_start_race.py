"""Start raced by a second interaction on the same game (a click on its lobby, a command in its channel) shows the
game once: one opening or first-turn message, one ping per person, and no "the channel had fallen behind".

The second interaction brings a channel that does not show its game's newest version up to date (a catch-up); a
game just started is such a game until Start has shown it, so whichever of the two comes first must show it."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable

import pytest

from bot.app import Conductor
from localdiscord import InteractionOutcome, LocalChannel, LocalDiscord, RecordedMessage
from tests.bot.e2e.helpers import Running, verb_id

LOBBIES = 20
GAMES = ("dice", "ticket-to-ride", "ticket-to-ride-cards")
"""Every game is raced once with the catch-up forced first; dice and Ticket to Ride many times (the latter slow)."""
FALLEN_BEHIND = "fallen behind"
"""What a channel that missed moves is told (bot.catch_up.shown); a game just started missed nothing."""
DRAWN = 60.0
"""Seconds a wait may last when the bot draws a picture first (slow on a busy machine)."""
HOST_ANSWERS = {"dice": 0, "ticket-to-ride": 1, "ticket-to-ride-cards": 1}
"""The follow-ups Start answers the host with once the game is shown: a table game's hand, with its opening choice."""

Second = Callable[[LocalDiscord, RecordedMessage], Awaitable[InteractionOutcome]]


async def join_again(stand_in: LocalDiscord, lobby: RecordedMessage) -> InteractionOutcome:
    """Ben clicks Join on the lobby once more, in a client that has not seen Start's edit yet."""
    return await stand_in.click("Ben", lobby, verb_id(lobby, "join"), force=True)


async def ask_for_help(stand_in: LocalDiscord, lobby: RecordedMessage) -> InteractionOutcome:
    """Ben types /help in the game's channel (answered at once, privately)."""
    return await stand_in.slash("Ben", "help", channel=lobby.channel_id)


SECONDS: dict[str, Second] = {"lobby click": join_again, "command": ask_for_help}


async def allow_many_games(bot: Conductor, guild_id: int) -> None:
    """Let Ann and Ben sit in all the test's games at once (an admin's `/config limits`)."""
    await bot.config.change(
        guild_id,
        lambda config: config.model_copy(
            update={"limits": config.limits.model_copy(update={"games_per_person": LOBBIES + 1})}
        ),
    )


async def open_lobby(stand_in: LocalDiscord, game: str, channel: LocalChannel) -> RecordedMessage:
    """Ann's lobby of `game` in `channel`, Ben seated, ready to start."""
    opened = (await stand_in.slash("Ann", f"newgame {game}", channel=channel)).message
    assert opened is not None
    await stand_in.click("Ben", opened, verb_id(opened, "join"))
    return stand_in.message(opened.id)


async def start(stand_in: LocalDiscord, lobby: RecordedMessage, game: str) -> InteractionOutcome:
    """Ann clicks Start; returns once the answers a shown start gets are in (the host's hand)."""
    started = await stand_in.click("Ann", lobby, verb_id(lobby, "start"))
    if HOST_ANSWERS[game]:
        await started.followup(HOST_ANSWERS[game] - 1, timeout=DRAWN)
    return started


async def once_start_is_stored(stand_in: LocalDiscord, lobby: RecordedMessage, second: Second) -> InteractionOutcome:
    """The second interaction, made after Start is stored and before Start shows the game: Discord holds the bot's
    answer to Start (its edit of the lobby) until the second one has brought the channel up to date."""
    clicked = await stand_in.wait_for(
        lambda: next(
            (i for i in stand_in.interactions if i.source_message_id == lobby.id and i.user.name == "Ann"), None
        ),
        what="Ann's click on Start",
    )
    async with stand_in.hold_requests("POST", rf"^/interactions/{clicked.id}/") as held:
        await held.arrived()
        outcome = await second(stand_in, lobby)
        await stand_in.wait_for_message(channel=lobby.channel_id, after=lobby, timeout=DRAWN)
    return outcome


def assert_shown_once(stand_in: LocalDiscord, lobby: RecordedMessage) -> None:
    """The lobby's channel shows its game in one message after the lobby, which pings each person once and does not
    say the channel fell behind."""
    shown = [m for m in stand_in.channel_messages(lobby.channel_id) if m.id != lobby.id]
    assert len(shown) == 1, [m.text for m in shown]
    pings = Counter(person for message in shown for person in message.pinged)
    assert pings and set(pings.values()) == {1}, pings
    assert FALLEN_BEHIND not in shown[0].text


@pytest.mark.parametrize("second", SECONDS)
@pytest.mark.parametrize("game", ["dice", pytest.param("ticket-to-ride", marks=pytest.mark.slow)])
async def test_start_raced_by_another_interaction_shows_the_game_once(
    stand_in: LocalDiscord, running: Running, game: str, second: str
) -> None:
    lobbies: list[RecordedMessage] = []
    async with running() as bot:
        await allow_many_games(bot, stand_in.guild_id)
        for number in range(LOBBIES):
            lobby = await open_lobby(stand_in, game, stand_in.add_channel(f"table-{number}"))
            lobbies.append(lobby)
            await asyncio.gather(start(stand_in, lobby, game), SECONDS[second](stand_in, lobby))
            await stand_in.wait_for_message(channel=lobby.channel_id, after=lobby, timeout=DRAWN)
    # the bot has stopped, its handlers finished: every post of the races is in
    for lobby in lobbies:
        assert_shown_once(stand_in, lobby)


@pytest.mark.parametrize("second", SECONDS)
@pytest.mark.parametrize("game", GAMES)
async def test_a_catch_up_that_shows_a_game_before_its_start_does_leaves_start_nothing_to_post(
    stand_in: LocalDiscord, running: Running, game: str, second: str
) -> None:
    stand_in.ack_deadline = None  # Start's answer is held on purpose
    async with running():
        lobby = await open_lobby(stand_in, game, stand_in.add_channel("table"))
        await asyncio.gather(start(stand_in, lobby, game), once_start_is_stored(stand_in, lobby, SECONDS[second]))
    assert_shown_once(stand_in, lobby)


@pytest.mark.parametrize("game", GAMES)
async def test_a_start_that_could_not_be_posted_is_shown_once_later_as_start_shows_it(
    stand_in: LocalDiscord, running: Running, game: str
) -> None:
    async with running():
        lobby = await open_lobby(stand_in, game, stand_in.add_channel("table"))
        stand_in.fail_requests("POST", r"/channels/\d+/messages$", status=503, times=1)
        started = await start(stand_in, lobby, game)
        told = await started.followup(0)
        assert told.ephemeral and "recorded" in told.text
        if HOST_ANSWERS[game]:  # after the failure: its last answer is one later
            await started.followup(HOST_ANSWERS[game], timeout=DRAWN)
        assert [m.id for m in stand_in.channel_messages(lobby.channel_id)] == [lobby.id]
        for _ in range(2):  # the first brings the channel up to date; the second finds nothing to show
            await ask_for_help(stand_in, lobby)
            await stand_in.wait_for_message(channel=lobby.channel_id, after=lobby, timeout=DRAWN)
    assert_shown_once(stand_in, lobby)
