"""Why the services refuse a request, as an enum like the engines' reasons, so callers compare reasons, not text."""

from __future__ import annotations

from enum import StrEnum

from rules.engine import Message, Param


class ServiceReason(StrEnum):
    """Why a service refuses a request (values are translation keys, `<namespace>.reason.<name>`)."""

    ALREADY_JOINED = "bot.reason.already_joined"
    ALREADY_STARTED = "bot.reason.already_started"
    BAD_OPTIONS = "bot.reason.bad_options"
    CHANNEL_BUSY = "bot.reason.channel_busy"
    GAME_CLOSED = "bot.reason.game_closed"
    HOST_CANNOT_LEAVE = "bot.reason.host_cannot_leave"
    LOBBY_FULL = "bot.reason.lobby_full"
    NO_BOT_TO_REMOVE = "bot.reason.no_bot_to_remove"
    NO_GAME_HERE = "bot.reason.no_game_here"
    NOT_A_PLAYER = "bot.reason.not_a_player"
    NOT_IN_LOBBY = "bot.reason.not_in_lobby"
    NOT_RUNNING = "bot.reason.not_running"
    NOT_STARTED = "bot.reason.not_started"
    ONLY_HOST = "bot.reason.only_host"
    STALE = "bot.reason.stale"
    STALE_LOBBY = "bot.reason.stale_lobby"
    TOO_FEW_PLAYERS = "bot.reason.too_few_players"
    UNKNOWN_BOT_KIND = "bot.reason.unknown_bot_kind"
    UNKNOWN_GAME = "bot.reason.unknown_game"

    NOT_SEATED = "lobby_control.reason.not_seated"
    NOT_YOURSELF = "lobby_control.reason.not_yourself"
    REMOVED_BY_HOST = "lobby_control.reason.removed"

    GAME_HINTS_BUSY = "players.reason.game_hints_busy"
    HINT_FAILED = "players.reason.hint_failed"
    HINT_PENDING = "players.reason.hint_pending"
    HINTS_OFF = "players.reason.hints_off"
    NOT_YOUR_MOVE = "players.reason.not_your_move"
    THINKING_BUSY = "players.reason.thinking_busy"

    ALREADY_OPEN = "undo.reason.already_open"
    ALREADY_PAUSED = "undo.reason.already_paused"
    VOTE_CLOSED = "undo.reason.closed"
    COOLDOWN = "undo.reason.cooldown"
    MOVED_ON = "undo.reason.moved_on"
    NOT_A_VOTER = "undo.reason.not_a_voter"
    NOT_PAUSED = "undo.reason.not_paused"
    NOT_YOUR_LAST = "undo.reason.not_your_last"
    OWN_VOTE = "undo.reason.own_vote"
    GAME_PAUSED = "undo.reason.paused"

    BELOW_MINIMUM = "admin.reason.below_minimum"
    CAP_GAMES_PER_PERSON = "admin.reason.cap_games_per_person"
    HAND_OVER_CANNOT_BE_OFF = "admin.reason.hand_over_cannot_be_off"
    NOT_A_CHOICE = "admin.reason.not_a_choice"
    NOT_A_CREATOR = "admin.reason.not_a_creator"
    NOT_A_NUMBER = "admin.reason.not_a_number"
    NOT_YES_NO = "admin.reason.not_yes_no"
    OPTION_LOCKED = "admin.reason.option_locked"
    OUT_OF_RANGE = "admin.reason.out_of_range"
    TIMEOUT_NOT_AFTER_REMINDER = "admin.reason.timeout_not_after_reminder"
    TIMER_CANNOT_BE_OFF = "admin.reason.timer_cannot_be_off"
    TIMERS_LOCKED = "admin.reason.timers_locked"
    UNKNOWN_OPTION = "admin.reason.unknown_option"


class ServiceError(Exception):
    """A request a service refuses, with a translatable reason for the person who made it: a `ServiceReason`, a
    reason enum of the rules (`UndoReason`), or a message worded elsewhere (where a game is played instead)."""

    def __init__(self, reason: StrEnum | Message, **params: Param) -> None:
        self.reason = None if isinstance(reason, Message) else reason
        """The reason as an enum member, to compare with (None for a message worded elsewhere)."""
        self.message = reason if isinstance(reason, Message) else Message(key=reason.value, params=params)
        super().__init__(self.message.key)
