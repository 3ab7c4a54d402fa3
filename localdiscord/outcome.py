"""What a test gets back from an interaction: the bot's answer now, and awaitables for what comes later."""

from __future__ import annotations

from localdiscord.models import Choice, Json, RecordedInteraction, RecordedMessage
from localdiscord.state import StandInState

RESPONSE_NAMES = {
    4: "message",
    5: "deferred message",
    6: "deferred update",
    7: "update",
    8: "autocomplete choices",
    9: "modal",
}


class InteractionOutcome:
    """How the bot answered one interaction.

    ``response_type`` is Discord's callback type: 4 message, 5 deferred message ("thinking"), 6 deferred
    update, 7 update of the clicked message, 8 autocomplete choices, 9 modal. ``message`` is the message the
    answer created (4, 5) or updates (6, 7), in its current state; after a 5 the driving methods return only
    once the bot has filled it in. ``interaction.ack_seconds`` is how long the bot took to acknowledge.
    """

    def __init__(self, state: StandInState, interaction: RecordedInteraction, timeout: float) -> None:
        self._state = state
        self._timeout = timeout
        self.interaction = interaction

    def __repr__(self) -> str:
        return f"<InteractionOutcome {self.interaction.description!r} -> {self.response_name}>"

    @property
    def response_type(self) -> int:
        """The callback type the bot answered with (see the class docstring)."""
        if self.interaction.response_type is None:
            raise AssertionError(f"the bot has not answered {self.interaction.description}")
        return self.interaction.response_type

    @property
    def response_name(self) -> str:
        """The callback type in words, for messages."""
        return RESPONSE_NAMES.get(self.interaction.response_type or 0, "no answer")

    @property
    def message(self) -> RecordedMessage | None:
        """The message the answer created or updates, in its current state (None for choices and modals)."""
        return self._state.messages.get(self.interaction.original_message_id or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the answer's message is visible only to the user who interacted."""
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str:
        """The answer message's content ("" when there is none; a layout has none: see ``text``)."""
        return self.message.content if self.message is not None else ""

    @property
    def text(self) -> str:
        """Everything the answer message says, whatever its form (see ``RecordedMessage.text``)."""
        return self.message.text if self.message is not None else ""

    @property
    def choices(self) -> list[Choice]:
        """The autocomplete choices offered (type 8)."""
        data = self.interaction.response_data or {}
        return [Choice(str(c["name"]), c["value"]) for c in data.get("choices") or []]

    @property
    def modal(self) -> Json | None:
        """The modal shown (type 9): its ``custom_id``, ``title`` and ``components``."""
        return self.interaction.response_data if self.interaction.response_type == 9 else None

    @property
    def followups(self) -> list[RecordedMessage]:
        """The follow-up messages sent so far, in order (current states)."""
        return [self._state.messages[i] for i in self.interaction.followup_ids]

    async def followup(self, index: int = 0, *, timeout: float | None = None) -> RecordedMessage:
        """Wait for follow-up number ``index`` (0 is the first) and return it.

        After a "thinking" defer, Discord turns the first follow-up into the deferred message itself, so
        that follow-up is also ``message``.
        """

        def arrived() -> RecordedMessage | None:
            ids = self.interaction.followup_ids
            return self._state.messages[ids[index]] if len(ids) > index else None

        what = f"follow-up #{index} to {self.interaction.description}"
        return await self._state.wait_until(arrived, timeout=timeout or self._timeout, what=what)

    async def edited(self, *, timeout: float | None = None) -> RecordedMessage:
        """Wait until the answer's message is edited after the answer (e.g. after a defer); return it."""

        def changed() -> RecordedMessage | None:
            message = self.message
            if message is None or len(message.history) <= self.interaction.revisions_at_response:
                return None
            return message

        what = f"an edit of the answer to {self.interaction.description}"
        return await self._state.wait_until(changed, timeout=timeout or self._timeout, what=what)

    async def private_answer(self, timeout: float | None = None) -> RecordedMessage:
        """Wait for the message that answered the person privately, and return it.

        That is the answer's own message when it is ephemeral: a message (4), a "thinking" message once filled
        in (5), or the private message a click updated (7) or, after a deferred update (6), edited. Otherwise
        (a public answer, or an update of a public message) it is the first ephemeral follow-up.
        """
        kind = self.response_type
        if kind not in (4, 5, 6, 7):
            raise AssertionError(f"the bot answered {self.interaction.description} with {self.response_name}")
        own = self.message
        if kind != 6 and own is not None and own.ephemeral and not own.loading:
            return own

        def answered() -> RecordedMessage | None:
            if own is not None and own.ephemeral and len(own.history) > self.interaction.revisions_at_response:
                return own
            return next((m for m in self.followups if m.ephemeral and m is not own), None)

        what = f"a private answer to {self.interaction.description}"
        return await self._state.wait_until(answered, timeout=timeout or self._timeout, what=what)
