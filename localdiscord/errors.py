"""Errors the stand-in raises in the TEST, never inside the bot: each says what went wrong and why."""


class LocalDiscordError(Exception):
    """Base class of every error raised by the local Discord stand-in."""


class StandInTimeout(LocalDiscordError, TimeoutError):
    """Something awaited (a bot answer, a follow-up, a ready bot) did not happen in time."""


class ImpossibleInteraction(LocalDiscordError):
    """A real Discord client could not do this (unknown custom id, disabled button, missing permission...).

    Pass ``force=True`` to the driving method to send it anyway, e.g. to simulate a stale or forged click.
    """


class NotConnected(LocalDiscordError):
    """No bot session is connected to the gateway, so an interaction cannot be delivered."""


class RejectedResponse(LocalDiscordError):
    """The stand-in refused the bot's answer to an interaction, as Discord would (e.g. content too long)."""


class MissedDeadline(RejectedResponse, StandInTimeout):
    """The bot did not acknowledge an interaction within Discord's 3 seconds ("This interaction failed")."""
