"""The REST half of the stand-in: the /api/v10 routes a slash-command bot calls, answered like Discord."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from functools import wraps
from typing import TypeVar

from aiohttp import web

from localdiscord import interaction_data, payloads, validation
from localdiscord.faults import FailedRequests, Faults
from localdiscord.form_errors import Problems
from localdiscord.gateway import Gateway
from localdiscord.ids import next_snowflake
from localdiscord.models import (
    EPHEMERAL,
    LOADING,
    InteractionType,
    Json,
    LocalChannel,
    LocalGuild,
    LocalUser,
    MessageKind,
    RecordedInteraction,
    RecordedMessage,
)
from localdiscord.permissions import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    in_channel,
    names,
    send_permission,
)
from localdiscord.state import StandInState, UploadedFile

_log = logging.getLogger(__name__)

API = "/api/v10"
GATEWAY_PATH = "/gateway"
HAS_THREAD = 1 << 5
ALLOWED_CALLBACKS = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Found = TypeVar("Found")


def guarded(
    guard: Callable[[RestApi, web.Request], Found | web.Response],
) -> Callable[
    [Callable[[RestApi, web.Request, Found], Awaitable[web.StreamResponse]]],
    Callable[[RestApi, web.Request], Awaitable[web.StreamResponse]],
]:
    """Route decorator: ``guard`` checks the request first (the token, the guild, the channel, …); its refusal is
    the answer, else the route is called with what it found."""

    def decorate(
        route: Callable[[RestApi, web.Request, Found], Awaitable[web.StreamResponse]],
    ) -> Callable[[RestApi, web.Request], Awaitable[web.StreamResponse]]:
        @wraps(route)
        async def checked(api: RestApi, request: web.Request) -> web.StreamResponse:
            found = guard(api, request)
            if isinstance(found, web.Response):
                return found
            return await route(api, request, found)

        return checked

    return decorate


def json_response(data: object, status: int = 200) -> web.Response:
    """Answer with JSON and exactly ``Content-Type: application/json`` (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class RestApi:
    """Route handlers over the shared state: bot routes check the bot token, interaction routes theirs.

    Bot routes on channels also check that the bot is in the guild and has the permissions Discord asks for;
    interaction callbacks and webhooks need no channel permission, as on Discord.
    """

    def __init__(
        self, state: StandInState, gateway: Gateway, faults: Faults, *, token: str, base_url: Callable[[], str]
    ) -> None:
        self._state = state
        self._gateway = gateway
        self._faults = faults
        self._token = token
        self._base_url = base_url

    def routes(self) -> list[web.RouteDef]:
        """Every route the stand-in serves; anything else is a recorded 404."""
        channel = f"{API}/channels/{{channel_id}}"
        webhook = f"{API}/webhooks/{{app_id}}/{{token}}"
        return [
            web.get(f"{API}/users/@me", self.get_me),
            web.get(f"{API}/users/{{user_id}}", self.get_user),
            web.post(f"{API}/users/@me/channels", self.create_dm),
            web.get(f"{API}/oauth2/applications/@me", self.get_application),
            web.get(f"{API}/applications/{{app_id}}/commands", self.get_commands),
            web.put(f"{API}/applications/{{app_id}}/commands", self.put_commands),
            web.get(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.get_commands),
            web.put(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.put_commands),
            web.post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback),
            web.post(webhook, self.execute_webhook),
            web.get(f"{webhook}/messages/{{message_id}}", self.get_webhook_message),
            web.patch(f"{webhook}/messages/{{message_id}}", self.edit_webhook_message),
            web.delete(f"{webhook}/messages/{{message_id}}", self.delete_webhook_message),
            web.get(channel, self.get_channel),
            web.patch(channel, self.edit_channel),
            web.delete(channel, self.delete_channel),
            web.get(f"{channel}/messages", self.list_messages),
            web.post(f"{channel}/messages", self.create_message),
            web.get(f"{channel}/messages/{{message_id}}", self.get_message),
            web.patch(f"{channel}/messages/{{message_id}}", self.edit_message),
            web.delete(f"{channel}/messages/{{message_id}}", self.delete_message),
            web.post(f"{channel}/messages/{{message_id}}/threads", self.thread_from_message),
            web.post(f"{channel}/threads", self.thread_in_channel),
            web.put(f"{channel}/thread-members/{{user_id}}", self.add_thread_member),
            web.delete(f"{channel}/thread-members/{{user_id}}", self.remove_thread_member),
            web.post(f"{channel}/typing", self.typing),
            web.get(f"{API}/gateway/bot", self.get_gateway_bot),
            web.get(f"{API}/guilds/{{guild_id}}", self.get_guild),
            web.get(f"{API}/guilds/{{guild_id}}/channels", self.get_guild_channels),
            web.get(f"{API}/guilds/{{guild_id}}/roles", self.get_roles),
            web.get(f"{API}/guilds/{{guild_id}}/members", self.list_members),
            web.get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member),
            web.get("/attachments/{attachment_id}/{filename}", self.get_attachment),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Log each request, hold it if the test asks, and send its answer before waking waiting tests.

        So when a test sees that the bot answered, the bot already holds the answer (say, the message id a
        View is stored under) and the test's next interaction cannot overtake it. A held request keeps its
        body, so it can still be served after the bot that sent it has gone.
        """
        line = f"{request.method} {request.path_qs}"
        self._state.requests.append(line)
        if request.path == GATEWAY_PATH:
            return await handler(request)
        path = request.path.removeprefix(API)
        hold = self._faults.hold(request.method, path)
        if hold is not None:
            await buffer_body(request)
            if not await hold.hold():
                return self._drop(request, line)
        with self._state.notifications_held():
            failure = self._faults.failure(request.method, path)
            if failure is not None:
                response: web.StreamResponse = self._injected(request, failure)
            else:
                response = await self._answer(request, handler, line)
            with suppress(ConnectionError):  # the bot went away while its request was held
                await response.prepare(request)
                await response.write_eof()
        return response

    def _drop(self, request: web.Request, line: str) -> web.StreamResponse:
        """Abort a held request's connection: the bot's HTTP client sees the server disconnect."""
        self._state.rejected.append(f"{line} -> dropped (connection aborted)")
        self._state.notify()
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=499)  # never sent: aiohttp skips writing to an aborted connection

    def _injected(self, request: web.Request, failure: FailedRequests) -> web.Response:
        """The error a fail_requests rule answers with (a 429 carries ``retry_after`` and ``Via``, as Discord's)."""
        extra: Json = {}
        headers: dict[str, str] = {}
        if failure.status == 429:
            extra = {"retry_after": failure.retry_after or 0.0, "global": False}
            headers["Via"] = "1.1 google"
        if failure.retry_after is not None:
            headers["Retry-After"] = str(failure.retry_after)
        return self._error(
            request, failure.status, failure.code, failure.message, note=" (injected)", extra=extra, headers=headers
        )

    async def _answer(self, request: web.Request, handler: Handler, line: str) -> web.StreamResponse:
        """Run the handler; unknown routes become a recorded JSON 404 and crashes a recorded 400."""
        try:
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self._state.unhandled.append(line)
            self._state.notify()
            message = f"404: Not Found (the local Discord stand-in does not implement {line})"
            return json_response({"message": message, "code": 0}, 404)
        except Exception as error:
            # Not a 5xx: discord.py would sleep and retry those, slowing every test that hits a stand-in bug.
            _log.exception("the local Discord stand-in failed on %s", line)
            self._state.unhandled.append(f"{line} crashed the stand-in: {error!r}")
            self._state.notify()
            return json_response({"message": f"local Discord stand-in error: {error!r}", "code": 0}, 400)

    # --- helpers -----------------------------------------------------------------------------------------

    def _error(
        self,
        request: web.Request,
        status: int,
        code: int,
        message: str,
        *,
        errors: Json | None = None,
        interaction: RecordedInteraction | None = None,
        note: str = "",
        extra: Json | None = None,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        """Refuse a request as Discord would, recording it (``note`` only in the record, for the reader)."""
        line = f"{request.method} {request.path} -> {status} {code} {message}{note}"
        self._state.rejected.append(line)
        if interaction is not None:
            interaction.rejections.append(line)
        self._state.notify()
        body: Json = {"message": message, "code": code, **(extra or {})}
        if errors is not None:
            body["errors"] = errors
        response = json_response(body, status)
        response.headers.update(headers or {})
        return response

    def _unauthorized(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") == f"Bot {self._token}":
            return None
        return self._error(request, 401, 0, "401: Unauthorized")

    def _bot_user(self, request: web.Request) -> LocalUser | web.Response:
        """The bot, for a call with its token; else 401."""
        return self._unauthorized(request) or self._state.bot_user

    def _message_json(self, message: RecordedMessage) -> Json:
        return payloads.message(self._state, self._base_url(), message)

    def _bot_guild(self, request: web.Request) -> LocalGuild | web.Response:
        """The guild of a bot call on /guilds/{id}, or the refusal: wrong token, or a guild the bot is not in (403
        50001, as Discord answers for a guild it cannot see)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        guild = self._state.guilds.get(_snowflake(request.match_info["guild_id"]))
        if guild is None or not guild.bot_present:
            return self._error(request, 403, 50001, "Missing Access", note=" (the bot is not in that guild)")
        return guild

    def _bot_place(self, request: web.Request) -> LocalChannel | web.Response:
        """The channel of a bot call on /channels/{id}, or the refusal: wrong token, not in the channel's guild
        (50001), unknown or deleted channel (10003), or a channel the bot cannot see (50001)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._state.channels.get(_snowflake(request.match_info["channel_id"]))
        if place is not None and not self._state.guild_of(place).bot_present:
            return self._error(request, 403, 50001, "Missing Access", note=" (the bot is no longer in the guild)")
        if place is None or place.deleted:
            return self._error(request, 404, 10003, "Unknown Channel")
        return self._lacking(request, place, VIEW_CHANNEL) or place

    def _lacking(self, request: web.Request, place: LocalChannel, needed: int) -> web.Response | None:
        """403 if the bot lacks any of ``needed`` in ``place``: 50001 Missing Access without View Channel, else
        50013 Missing Permissions."""
        missing = needed & ~in_channel(self._state, self._state.bot_user, place)
        if not missing:
            return None
        note = f" (the bot lacks {', '.join(names(missing))} in #{place.name})"
        if missing & VIEW_CHANNEL:
            return self._error(request, 403, 50001, "Missing Access", note=note)
        return self._error(request, 403, 50013, "Missing Permissions", note=note)

    def _channel_message(self, request: web.Request, place: LocalChannel) -> RecordedMessage | None:
        message = self._state.messages.get(_snowflake(request.match_info["message_id"]))
        if message is None or message.deleted or message.ephemeral or message.channel_id != place.id:
            return None
        return message

    def _bot_message(self, request: web.Request) -> tuple[LocalChannel, RecordedMessage] | web.Response:
        """The channel and message of a bot call on /channels/{id}/messages/{id}: as ``_bot_place``, then 404
        10008 for a message not (or no longer) in that channel."""
        place = self._bot_place(request)
        if isinstance(place, web.Response):
            return place
        message = self._channel_message(request, place)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return place, message

    def _message_place(self, request: web.Request) -> LocalChannel | web.Response:
        """Where a new message goes: a DM channel (for a call with the bot's token), else as ``_bot_place``."""
        dm = self._state.dm_place(_snowflake(request.match_info["channel_id"]))
        if dm is None:
            return self._bot_place(request)
        return self._unauthorized(request) or dm

    def _check_message(
        self,
        request: web.Request,
        body: Json,
        files: list[UploadedFile],
        *,
        edited: RecordedMessage | None = None,
        interaction: RecordedInteraction | None = None,
    ) -> web.Response | None:
        """Refuse a message Discord would refuse: files too large, nothing to show, limits broken.

        ``edited`` is the message an edit applies to: the edit is checked by what it would leave (not empty,
        still a layout if it was one, files named by the layout still there).
        """
        sizes = [len(upload.data) for upload in files]
        if validation.too_large(sizes):
            return self._error(request, 413, 40005, "Request entity too large", interaction=interaction)
        if edited is None:
            result = self._state.preview_create(body, files)
            empty = validation.is_empty_message(body, len(files))
        else:
            result = self._state.preview_edit(edited, body, files)
            empty = validation.shows_nothing(result)
        if empty:
            return self._error(request, 400, 50006, "Cannot send an empty message", interaction=interaction)
        problems = Problems()
        validation.check_message(body, sizes, problems, result=result, flags_before=edited.flags if edited else None)
        if problems.items:
            message = f"Invalid Form Body: {problems.summary()}"
            return self._error(request, 400, 50035, message, errors=problems.errors_json(), interaction=interaction)
        return None

    # --- login and commands ------------------------------------------------------------------------------

    @guarded(_bot_user)
    async def get_me(self, request: web.Request, me: LocalUser) -> web.Response:
        """GET /users/@me: the bot user (401 with a wrong token: discord.py raises LoginFailure)."""
        return json_response(payloads.user(me) | {"verified": True, "flags": 0})

    @guarded(_bot_user)
    async def get_user(self, request: web.Request, _me: LocalUser) -> web.Response:
        """GET /users/{id}."""
        try:
            person = self._state.user(_snowflake(request.match_info["user_id"]))
        except KeyError:
            return self._error(request, 404, 10013, "Unknown User")
        return json_response(payloads.user(person))

    @guarded(_bot_user)
    async def get_application(self, request: web.Request, _me: LocalUser) -> web.Response:
        """GET /oauth2/applications/@me."""
        return json_response(payloads.application(self._state))

    def _command_scope(self, request: web.Request) -> int | web.Response | None:
        """The guild of a command route (None: the application's global commands), or the refusal."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        if _snowflake(request.match_info["app_id"]) != self._state.application_id:
            return self._error(request, 403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return None
        guild = self._bot_guild(request)
        return guild if isinstance(guild, web.Response) else guild.id

    @guarded(_command_scope)
    async def get_commands(self, request: web.Request, scope: int | None) -> web.Response:
        """GET the registered commands of the application or of the guild."""
        return json_response([payloads.command(self._state, c) for c in self._state.scope_commands(scope)])

    @guarded(_command_scope)
    async def put_commands(self, request: web.Request, scope: int | None) -> web.Response:
        """PUT (bulk overwrite) the commands of the application or of the guild: what tree.sync() does."""
        body = await request.json()
        if not isinstance(body, list):
            return self._error(request, 400, 50035, "Invalid Form Body: expected a list of commands")
        problems = Problems()
        for index, command in enumerate(body):
            interaction_data.command_problems(command, index, problems)
        if problems.items:
            return self._error(request, 400, 50035, "Invalid Form Body", errors=problems.errors_json())
        synced = self._state.sync_commands(scope, body)
        return json_response([payloads.command(self._state, c) for c in synced])

    # --- interaction callbacks ---------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """POST /interactions/{id}/{token}/callback: the bot's one answer, due within the acknowledgement deadline."""
        interaction = self._state.interactions.get(_snowflake(request.match_info["interaction_id"]))
        if (
            interaction is None
            or interaction.token != request.match_info["token"]
            or self._state.token_expired(interaction)
        ):
            return self._error(request, 404, 10062, "Unknown interaction", interaction=interaction)
        if interaction.answered:
            return self._error(
                request, 400, 40060, "Interaction has already been acknowledged.", interaction=interaction
            )
        elapsed = time.monotonic() - interaction.dispatched_at
        deadline = self._state.ack_deadline
        if deadline is not None and elapsed > deadline:
            interaction.ack_seconds = elapsed
            note = f" (acknowledged after {elapsed:.2f} s, past Discord's {deadline:g}-second deadline)"
            return self._error(request, 404, 10062, "Unknown interaction", interaction=interaction, note=note)
        body, files = await read_body(request)
        response_type = int(body.get("type", 0))
        data: Json = body.get("data") or {}
        source = self._state.messages.get(interaction.source_message_id or 0)
        allowed = set(ALLOWED_CALLBACKS[interaction.type])
        if interaction.type is InteractionType.MODAL_SUBMIT and source is None:
            allowed -= {6, 7}
        if response_type not in allowed:
            reason = f"Invalid Form Body: callback type {response_type} cannot answer a {interaction.type.name}"
            return self._error(request, 400, 50035, reason, interaction=interaction)
        refused = self._check_callback(request, interaction, response_type, data, files, source)
        if refused is not None:
            return refused
        message = self._apply_callback(interaction, response_type, data, files, source)
        interaction.ack_seconds = elapsed
        interaction.response_type = response_type
        interaction.response_data = data
        if message is not None:
            interaction.original_message_id = message.id
            interaction.revisions_at_response = len(message.history)
        self._state.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        return json_response(self._callback_json(interaction, response_type, message))

    def _check_callback(
        self,
        request: web.Request,
        interaction: RecordedInteraction,
        response_type: int,
        data: Json,
        files: list[UploadedFile],
        source: RecordedMessage | None,
    ) -> web.Response | None:
        if response_type in (4, 7):
            edited = source if response_type == 7 else None
            return self._check_message(request, data, files, edited=edited, interaction=interaction)
        problems = Problems()
        if response_type == 8:
            validation.check_choices(list(data.get("choices") or []), problems)
        elif response_type == 9:
            validation.check_modal(data, problems)
        if problems.items:
            message = f"Invalid Form Body: {problems.summary()}"
            return self._error(request, 400, 50035, message, errors=problems.errors_json(), interaction=interaction)
        return None

    def _apply_callback(
        self,
        interaction: RecordedInteraction,
        response_type: int,
        data: Json,
        files: list[UploadedFile],
        source: RecordedMessage | None,
    ) -> RecordedMessage | None:
        place = self._state.channels[interaction.channel_id]
        command_reply = interaction.type is InteractionType.APPLICATION_COMMAND
        message_type = 20 if command_reply else 0
        if response_type == 4:
            return self._state.create_message(
                place,
                data,
                files,
                kind=MessageKind.RESPONSE,
                interaction=interaction,
                message_type=message_type,
            )
        if response_type == 5:
            placeholder = {"content": "", "flags": LOADING | (int(data.get("flags") or 0) & EPHEMERAL)}
            return self._state.create_message(
                place,
                placeholder,
                [],
                kind=MessageKind.RESPONSE,
                interaction=interaction,
                message_type=message_type,
            )
        if response_type == 7 and source is not None:
            self._state.edit_message(source, data, files)
        return source if response_type in (6, 7) else None

    def _callback_json(
        self, interaction: RecordedInteraction, response_type: int, message: RecordedMessage | None
    ) -> Json:
        summary: Json = {
            "id": str(interaction.id),
            "type": int(interaction.type),
            "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": response_type == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: Json = {"type": response_type}
        if message is not None and response_type in (4, 5, 7):
            resource["message"] = self._message_json(message)
        return {"interaction": summary, "resource": resource}

    # --- interaction webhooks (follow-ups and edits) -----------------------------------------------------

    def _webhook_interaction(self, request: web.Request) -> RecordedInteraction | web.Response:
        """The interaction whose token the URL carries; refusals are also noted on it, for the waiting test."""
        interaction = self._state.interaction_by_token(request.match_info["token"])
        if (
            interaction is None
            or _snowflake(request.match_info["app_id"]) != self._state.application_id
            or self._state.token_expired(interaction)
        ):
            return self._error(request, 404, 10015, "Unknown Webhook", interaction=interaction)
        if not interaction.answered:
            note = " (the interaction is not acknowledged yet)"
            return self._error(request, 404, 10015, "Unknown Webhook", interaction=interaction, note=note)
        return interaction

    def _webhook_message(self, request: web.Request, interaction: RecordedInteraction) -> RecordedMessage | None:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message_id = interaction.original_message_id
        else:
            message_id = _snowflake(raw)
            if message_id not in [interaction.original_message_id, *interaction.followup_ids]:
                return None
        message = self._state.messages.get(message_id or 0)
        return None if message is None or message.deleted else message

    def _webhook_target(self, request: web.Request) -> tuple[RecordedInteraction, RecordedMessage] | web.Response:
        """The interaction and the message a webhook message route names: as ``_webhook_interaction``, then 404
        10008 for a message that is not its response or one of its follow-ups."""
        interaction = self._webhook_interaction(request)
        if isinstance(interaction, web.Response):
            return interaction
        message = self._webhook_message(request, interaction)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message", interaction=interaction)
        return interaction, message

    @guarded(_webhook_interaction)
    async def execute_webhook(self, request: web.Request, interaction: RecordedInteraction) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a follow-up (the first after a "thinking" defer fills it in)."""
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, interaction=interaction)
        if refused is not None:
            return refused
        original = self._state.messages.get(interaction.original_message_id or 0)
        if interaction.response_type == 5 and original is not None and original.loading and not original.deleted:
            # Discord: the first follow-up after a "thinking" defer replaces it, keeping its ephemerality.
            self._state.edit_message(original, body, files)
            message = original
        else:
            place = self._state.channels.get(_snowflake(request.query.get("thread_id", "")))
            place = place or self._state.channels[interaction.channel_id]
            message = self._state.create_message(place, body, files, kind=MessageKind.FOLLOWUP, interaction=interaction)
        interaction.followup_ids.append(message.id)
        self._state.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self._message_json(message))
        return web.Response(status=204)

    @guarded(_webhook_target)
    async def get_webhook_message(
        self, request: web.Request, target: tuple[RecordedInteraction, RecordedMessage]
    ) -> web.Response:
        """GET /webhooks/{app}/{token}/messages/{id or @original}."""
        _, message = target
        return json_response(self._message_json(message))

    @guarded(_webhook_target)
    async def edit_webhook_message(
        self, request: web.Request, target: tuple[RecordedInteraction, RecordedMessage]
    ) -> web.Response:
        """PATCH /webhooks/{app}/{token}/messages/{id or @original}: edit a response or follow-up."""
        interaction, message = target
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, edited=message, interaction=interaction)
        if refused is not None:
            return refused
        self._state.edit_message(message, body, files)
        return json_response(self._message_json(message))

    @guarded(_webhook_target)
    async def delete_webhook_message(
        self, request: web.Request, target: tuple[RecordedInteraction, RecordedMessage]
    ) -> web.StreamResponse:
        """DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        _, message = target
        self._state.delete_message(message)
        return web.Response(status=204)

    # --- channels and their messages ---------------------------------------------------------------------

    @guarded(_bot_place)
    async def get_channel(self, request: web.Request, place: LocalChannel) -> web.Response:
        """GET /channels/{id}: a text channel or thread."""
        return json_response(payloads.channel(self._state, place))

    @guarded(_bot_place)
    async def edit_channel(self, request: web.Request, place: LocalChannel) -> web.Response:
        """PATCH /channels/{id}: rename, archive or lock; every edit is kept in ``LocalChannel.edits``."""
        body = await request.json()
        refused = self._lacking(request, place, self._edit_needs(place, body))
        if refused is not None:
            return refused
        place.edits.append(body)
        for key in ("name", "archived", "locked", "invitable", "auto_archive_duration", "topic"):
            if key in body:
                setattr(place, key, body[key])
        self._state.notify()
        data = payloads.channel(self._state, place)
        await self._gateway.notify_bot("THREAD_UPDATE" if place.is_thread else "CHANNEL_UPDATE", data, place.guild_id)
        return json_response(data)

    def _edit_needs(self, place: LocalChannel, body: Json) -> int:
        """Manage Channels to edit a channel; Manage Threads to lock a thread or to change one the bot did not
        open or that is locked (the bot may archive its own thread)."""
        if not place.is_thread:
            return MANAGE_CHANNELS
        own = place.owner_id == self._state.bot_user.id and not place.locked
        locking = "locked" in body and bool(body["locked"]) != place.locked
        return MANAGE_THREADS if locking or not own else 0

    @guarded(_bot_place)
    async def delete_channel(self, request: web.Request, place: LocalChannel) -> web.Response:
        """DELETE /channels/{id}: only threads, with Manage Threads (the stand-in's channels are fixed)."""
        if not place.is_thread:
            return self._error(request, 403, 50013, "Missing Permissions", note=" (the stand-in's channels are fixed)")
        refused = self._lacking(request, place, MANAGE_THREADS)
        if refused is not None:
            return refused
        self._state.delete_channel(place)
        await self._gateway.notify_bot(*payloads.deletion(self._state, place), place.guild_id)
        return json_response(payloads.channel(self._state, place))

    @guarded(_bot_place)
    async def list_messages(self, request: web.Request, place: LocalChannel) -> web.Response:
        """GET /channels/{id}/messages: newest first, with limit, before and after (none without Read History)."""
        if not in_channel(self._state, self._state.bot_user, place) & READ_MESSAGE_HISTORY:
            return json_response([])
        found = list(reversed(self._state.channel_messages(place)))
        if "before" in request.query:
            found = [m for m in found if m.id < _snowflake(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > _snowflake(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        return json_response([self._message_json(m) for m in found[:limit]])

    @guarded(_message_place)
    async def create_message(self, request: web.Request, place: LocalChannel) -> web.Response:
        """POST /channels/{id}/messages: a plain message from the bot (a reply if it has a reference).

        It needs Send Messages (in Threads, in a thread), and Attach Files, Embed Links and Read Message
        History for files, embeds and replies.
        """
        if place.recipient_id is not None:
            return await self._send_dm(request, place)
        body, files = await read_body(request)
        needed = send_permission(place)
        needed |= ATTACH_FILES if files else 0
        needed |= EMBED_LINKS if body.get("embeds") else 0
        needed |= READ_MESSAGE_HISTORY if body.get("message_reference") else 0
        refused = self._lacking(request, place, needed) or self._check_message(request, body, files)
        if refused is not None:
            return refused
        if place.locked:
            return self._error(request, 403, 50083, "Thread is archived")
        place.archived = False
        message_type = 19 if body.get("message_reference") else 0
        message = self._state.create_message(place, body, files, kind=MessageKind.CHANNEL, message_type=message_type)
        return json_response(self._message_json(message))

    @guarded(_bot_user)
    async def create_dm(self, request: web.Request, _me: LocalUser) -> web.Response:
        """POST /users/@me/channels: open (or find) the DM channel with ``recipient_id``; closed DMs only refuse
        the messages sent there, as on Discord."""
        body, _ = await read_body(request)
        try:
            person = self._state.user(_snowflake(str(body.get("recipient_id", ""))))
        except KeyError:
            return self._error(request, 400, 50035, "Invalid Form Body", note=" (no such recipient)")
        place = self._state.dm_channel(person)
        recipients = [payloads.user(person)]
        return json_response({"id": str(place.id), "type": 1, "last_message_id": None, "recipients": recipients})

    async def _send_dm(self, request: web.Request, place: LocalChannel) -> web.Response:
        """POST /channels/{dm}/messages: a direct message, refused with 50007 to a person whose DMs are closed."""
        body, files = await read_body(request)
        refused = self._check_message(request, body, files)
        if refused is not None:
            return refused
        person = self._state.user(place.recipient_id or 0)
        if person.dms_closed or person.bot:
            return self._error(request, 403, 50007, "Cannot send messages to this user")
        message = self._state.create_message(place, body, files, kind=MessageKind.CHANNEL)
        payload = {
            "id": str(message.id),
            "channel_id": str(place.id),
            "author": payloads.user(self._state.bot_user),
            "content": message.content,
            "timestamp": payloads.iso(message.created_at),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [payloads.attachment(self._base_url(), a) for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": 0,
            "flags": message.flags,
        }
        return json_response(payload)

    @guarded(_bot_place)
    async def get_message(self, request: web.Request, place: LocalChannel) -> web.Response:
        """GET /channels/{id}/messages/{id}: needs Read Message History."""
        refused = self._lacking(request, place, READ_MESSAGE_HISTORY)
        if refused is not None:
            return refused
        message = self._channel_message(request, place)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return json_response(self._message_json(message))

    @guarded(_bot_message)
    async def edit_message(self, request: web.Request, found: tuple[LocalChannel, RecordedMessage]) -> web.Response:
        """PATCH /channels/{id}/messages/{id}: edit a message the bot sent (new files need Attach Files)."""
        place, message = found
        body, files = await read_body(request)
        refused = self._lacking(request, place, ATTACH_FILES if files else 0)
        refused = refused or self._check_message(request, body, files, edited=message)
        if refused is not None:
            return refused
        self._state.edit_message(message, body, files)
        return json_response(self._message_json(message))

    @guarded(_bot_message)
    async def delete_message(
        self, request: web.Request, found: tuple[LocalChannel, RecordedMessage]
    ) -> web.StreamResponse:
        """DELETE /channels/{id}/messages/{id}: the bot's own message."""
        _, message = found
        self._state.delete_message(message)
        return web.Response(status=204)

    # --- threads -----------------------------------------------------------------------------------------

    @guarded(_bot_message)
    async def thread_from_message(
        self, request: web.Request, found: tuple[LocalChannel, RecordedMessage]
    ) -> web.Response:
        """POST /channels/{id}/messages/{id}/threads: a public thread with the message's id, as on Discord."""
        place, message = found
        refused = self._lacking(request, place, CREATE_PUBLIC_THREADS)
        if refused is not None:
            return refused
        if message.thread_id is not None:
            return self._error(request, 400, 160004, "A thread has already been created for this message")
        body = await request.json()
        thread = self._new_thread(place, body, thread_id=message.id, thread_type=11)
        thread.starter_message_id = message.id
        message.thread_id = thread.id
        message.flags |= HAS_THREAD
        return await self._announce_thread(thread)

    @guarded(_bot_place)
    async def thread_in_channel(self, request: web.Request, place: LocalChannel) -> web.Response:
        """POST /channels/{id}/threads: a thread with no starter message (private unless ``type`` is 11)."""
        if place.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        body = await request.json()
        thread_type = int(body.get("type", 12))
        needed = CREATE_PUBLIC_THREADS if thread_type == 11 else CREATE_PRIVATE_THREADS
        refused = self._lacking(request, place, needed)
        if refused is not None:
            return refused
        thread = self._new_thread(place, body, thread_id=next_snowflake(), thread_type=thread_type)
        return await self._announce_thread(thread)

    def _new_thread(self, parent: LocalChannel, body: Json, *, thread_id: int, thread_type: int) -> LocalChannel:
        thread = LocalChannel(
            name=str(body.get("name", "thread")),
            id=thread_id,
            type=thread_type,
            parent_id=parent.id,
            owner_id=self._state.bot_user.id,
            invitable=bool(body.get("invitable", True)),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            member_ids={self._state.bot_user.id},
            created_at=self._state.created_at,
            guild_id=parent.guild_id,
        )
        self._state.channels[thread.id] = thread
        self._state.notify()
        return thread

    async def _announce_thread(self, thread: LocalChannel) -> web.Response:
        data = payloads.channel(self._state, thread)
        await self._gateway.notify_bot("THREAD_CREATE", data | {"newly_created": True}, thread.guild_id)
        return json_response(data, 201)

    @guarded(_bot_place)
    async def add_thread_member(self, request: web.Request, place: LocalChannel) -> web.StreamResponse:
        """PUT /channels/{thread}/thread-members/{user or @me}: adding someone else needs Send Messages in
        Threads."""
        return await self._change_thread_member(request, place, add=True)

    @guarded(_bot_place)
    async def remove_thread_member(self, request: web.Request, place: LocalChannel) -> web.StreamResponse:
        """DELETE /channels/{thread}/thread-members/{user or @me}: removing someone else needs Manage Threads,
        unless the bot opened the private thread."""
        return await self._change_thread_member(request, place, add=False)

    async def _change_thread_member(
        self, request: web.Request, place: LocalChannel, *, add: bool
    ) -> web.StreamResponse:
        if not place.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        raw = request.match_info["user_id"]
        try:
            person = self._state.bot_user if raw == "@me" else self._state.user(_snowflake(raw))
        except KeyError:
            return self._error(request, 404, 10013, "Unknown User")
        refused = self._lacking(request, place, self._membership_needs(place, person, add=add))
        if refused is not None:
            return refused
        if add:
            place.member_ids.add(person.id)
        else:
            place.member_ids.discard(person.id)
        self._state.notify()
        return web.Response(status=204)

    def _membership_needs(self, place: LocalChannel, person: LocalUser, *, add: bool) -> int:
        """What changing ``person``'s membership of a thread needs (the bot joining or leaving needs nothing)."""
        if person is self._state.bot_user:
            return 0
        if add:
            return SEND_MESSAGES_IN_THREADS
        opened_private = place.type == 12 and place.owner_id == self._state.bot_user.id
        return 0 if opened_private else MANAGE_THREADS

    @guarded(_bot_place)
    async def typing(self, request: web.Request, _place: LocalChannel) -> web.StreamResponse:
        """POST /channels/{id}/typing: accepted and ignored."""
        return web.Response(status=204)

    # --- guilds, their members and files ----------------------------------------------------------------

    @guarded(_bot_user)
    async def get_gateway_bot(self, request: web.Request, _me: LocalUser) -> web.Response:
        """GET /gateway/bot: where to connect, how many shards Discord recommends and the session start limits."""
        return json_response(self._gateway.bot_gateway())

    @guarded(_bot_guild)
    async def get_guild(self, request: web.Request, guild: LocalGuild) -> web.Response:
        """GET /guilds/{id} (``with_counts`` or not: the approximate member count is always there)."""
        return json_response(payloads.guild(guild))

    @guarded(_bot_guild)
    async def get_guild_channels(self, request: web.Request, guild: LocalGuild) -> web.Response:
        """GET /guilds/{id}/channels: the text channels, not threads (Discord lists those elsewhere)."""
        places = [c for c in self._state.channels.values() if c.guild_id == guild.id and not c.deleted]
        return json_response([payloads.channel(self._state, c) for c in places if not c.is_thread])

    @guarded(_bot_guild)
    async def get_roles(self, request: web.Request, guild: LocalGuild) -> web.Response:
        """GET /guilds/{id}/roles."""
        return json_response(payloads.roles(guild))

    @guarded(_bot_guild)
    async def list_members(self, request: web.Request, guild: LocalGuild) -> web.Response:
        """GET /guilds/{id}/members: by id after ``after``, at most ``limit`` (1 by default, as on Discord)."""
        after = _snowflake(request.query.get("after", "0"))
        people = sorted([*self._state.members(guild), self._state.bot_user], key=lambda person: person.id)
        found = [person for person in people if person.id > after][: int(request.query.get("limit", 1))]
        return json_response([payloads.member(self._state, person, guild) for person in found])

    @guarded(_bot_guild)
    async def get_member(self, request: web.Request, guild: LocalGuild) -> web.Response:
        """GET /guilds/{id}/members/{id}: 404 10007 for someone not in that guild."""
        user_id = _snowflake(request.match_info["user_id"])
        person = next((p for p in [*self._state.members(guild), self._state.bot_user] if p.id == user_id), None)
        if person is None:
            return self._error(request, 404, 10007, "Unknown Member")
        return json_response(payloads.member(self._state, person, guild))

    async def get_attachment(self, request: web.Request) -> web.Response:
        """GET an uploaded file's bytes (attachment URLs point here)."""
        file = self._state.attachment(_snowflake(request.match_info["attachment_id"]))
        if file is None:
            return self._error(request, 404, 0, "404: Not Found")
        return web.Response(body=file.data, content_type=file.content_type or "application/octet-stream")


async def buffer_body(request: web.Request) -> None:
    """Read the whole body into the request now (aiohttp keeps it), so it can be served after a disconnect."""
    if request.content_type.startswith("multipart/"):
        await request.post()
    else:
        await request.read()


async def read_body(request: web.Request) -> tuple[Json, list[UploadedFile]]:
    """Read a JSON body, or a multipart one with ``payload_json`` and ``files[n]`` parts."""
    if request.content_type.startswith("multipart/"):
        body: Json = {}
        files: list[UploadedFile] = []
        for name, value in (await request.post()).items():
            if isinstance(value, web.FileField):
                if name.startswith("files[") and name.endswith("]"):
                    index = int(name[len("files[") : -1])
                    files.append(UploadedFile(index, value.filename or f"file{index}", value.file.read()))
            elif name == "payload_json":
                body = json.loads(value)
        return body, files
    text = await request.text()
    return (json.loads(text) if text else {}), []


def _snowflake(raw: str) -> int:
    """Parse a snowflake from a URL; 0 (never a real id) when it is not a number."""
    return int(raw) if raw.isdigit() else 0
