"""The REST half of the stand-in: the /api/v10 routes a slash-command bot calls, answered like Discord."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import BodyPartReader, web

from bot.sandbox import payloads, validation
from bot.sandbox.gateway import Gateway
from bot.sandbox.ids import next_snowflake
from bot.sandbox.models import (
    EPHEMERAL,
    LOADING,
    InteractionType,
    Json,
    LocalChannel,
    MessageKind,
    RecordedInteraction,
    RecordedMessage,
)
from bot.sandbox.state import StandInState, UploadedFile

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


def json_response(data: object, status: int = 200) -> web.Response:
    """Answer with JSON and exactly ``Content-Type: application/json`` (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class RestApi:
    """Route handlers over the shared state: bot routes check the bot token, interaction routes theirs."""

    def __init__(self, state: StandInState, gateway: Gateway, *, token: str, base_url: Callable[[], str]) -> None:
        self._state = state
        self._gateway = gateway
        self._token = token
        self._base_url = base_url

    def routes(self) -> list[web.RouteDef]:
        """Every route the stand-in serves; anything else is a recorded 404."""
        channel = f"{API}/channels/{{channel_id}}"
        webhook = f"{API}/webhooks/{{app_id}}/{{token}}"
        return [
            web.get(f"{API}/users/@me", self.get_me),
            web.get(f"{API}/users/{{user_id}}", self.get_user),
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
            web.get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member),
            web.get("/attachments/{attachment_id}/{filename}", self.get_attachment),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Log each request and send its answer before waking waiting tests.

        So when a test sees that the bot answered, the bot already holds the answer (say, the message id a
        View is stored under) and the test's next interaction cannot overtake it.
        """
        line = f"{request.method} {request.path_qs}"
        self._state.requests.append(line)
        if request.path == GATEWAY_PATH:
            return await handler(request)
        with self._state.notifications_held():
            response = await self._answer(request, handler, line)
            await response.prepare(request)
            await response.write_eof()
        return response

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
    ) -> web.Response:
        line = f"{request.method} {request.path} -> {status} {code} {message}"
        self._state.rejected.append(line)
        if interaction is not None:
            interaction.rejections.append(line)
        self._state.notify()
        body: Json = {"message": message, "code": code}
        if errors is not None:
            body["errors"] = errors
        return json_response(body, status)

    def _unauthorized(self, request: web.Request) -> web.Response | None:
        if request.headers.get("Authorization") == f"Bot {self._token}":
            return None
        return self._error(request, 401, 0, "401: Unauthorized")

    def _message_json(self, message: RecordedMessage) -> Json:
        return payloads.message(self._state, self._base_url(), message)

    def _channel(self, request: web.Request) -> LocalChannel | None:
        place = self._state.channels.get(_snowflake(request.match_info["channel_id"]))
        return None if place is None or place.deleted else place

    def _channel_message(self, request: web.Request, place: LocalChannel) -> RecordedMessage | None:
        message = self._state.messages.get(_snowflake(request.match_info["message_id"]))
        if message is None or message.deleted or message.ephemeral or message.channel_id != place.id:
            return None
        return message

    def _check_message(
        self,
        request: web.Request,
        body: Json,
        files: list[UploadedFile],
        *,
        creating: bool,
        interaction: RecordedInteraction | None = None,
    ) -> web.Response | None:
        sizes = [len(upload.data) for upload in files]
        if validation.too_large(sizes):
            return self._error(request, 413, 40005, "Request entity too large", interaction=interaction)
        if creating and validation.is_empty_message(body, len(files)):
            return self._error(request, 400, 50006, "Cannot send an empty message", interaction=interaction)
        problems = validation.Problems()
        validation.check_message(body, sizes, problems)
        if problems.items:
            message = f"Invalid Form Body: {problems.summary()}"
            return self._error(request, 400, 50035, message, errors=problems.errors_json(), interaction=interaction)
        return None

    # --- login and commands ------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user (401 with a wrong token: discord.py raises LoginFailure)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        return json_response(payloads.user(self._state.bot_user) | {"verified": True, "flags": 0})

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        try:
            person = self._state.user(_snowflake(request.match_info["user_id"]))
        except KeyError:
            return self._error(request, 404, 10013, "Unknown User")
        return json_response(payloads.user(person))

    async def get_application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        return json_response(payloads.application(self._state))

    def _command_scope(self, request: web.Request) -> int | web.Response | None:
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        if _snowflake(request.match_info["app_id"]) != self._state.application_id:
            return self._error(request, 403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return None
        if _snowflake(request.match_info["guild_id"]) != self._state.guild_id:
            return self._error(request, 403, 50001, "Missing Access")
        return self._state.guild_id

    async def get_commands(self, request: web.Request) -> web.Response:
        """GET the registered commands of the application or of the guild."""
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        return json_response([payloads.command(self._state, c) for c in self._state.scope_commands(scope)])

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) the commands of the application or of the guild: what tree.sync() does."""
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        body = await request.json()
        if not isinstance(body, list):
            return self._error(request, 400, 50035, "Invalid Form Body: expected a list of commands")
        synced = self._state.sync_commands(scope, body)
        return json_response([payloads.command(self._state, c) for c in synced])

    # --- interaction callbacks ---------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """POST /interactions/{id}/{token}/callback: the bot's one answer to an interaction."""
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
        refused = self._check_callback(request, interaction, response_type, data, files)
        if refused is not None:
            return refused
        message = self._apply_callback(interaction, response_type, data, files, source)
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
    ) -> web.Response | None:
        if response_type in (4, 7):
            return self._check_message(request, data, files, creating=response_type == 4, interaction=interaction)
        problems = validation.Problems()
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
        interaction = self._state.interaction_by_token(request.match_info["token"])
        if (
            interaction is None
            or _snowflake(request.match_info["app_id"]) != self._state.application_id
            or self._state.token_expired(interaction)
        ):
            return self._error(request, 404, 10015, "Unknown Webhook")
        if not interaction.answered:
            return self._error(request, 404, 10015, "Unknown Webhook (the interaction is not acknowledged yet)")
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

    async def execute_webhook(self, request: web.Request) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a follow-up (the first after a "thinking" defer fills it in)."""
        interaction = self._webhook_interaction(request)
        if isinstance(interaction, web.Response):
            return interaction
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, creating=True)
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

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """GET /webhooks/{app}/{token}/messages/{id or @original}."""
        interaction = self._webhook_interaction(request)
        if isinstance(interaction, web.Response):
            return interaction
        message = self._webhook_message(request, interaction)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return json_response(self._message_json(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """PATCH /webhooks/{app}/{token}/messages/{id or @original}: edit a response or follow-up."""
        interaction = self._webhook_interaction(request)
        if isinstance(interaction, web.Response):
            return interaction
        message = self._webhook_message(request, interaction)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, creating=False)
        if refused is not None:
            return refused
        self._state.edit_message(message, body, files)
        return json_response(self._message_json(message))

    async def delete_webhook_message(self, request: web.Request) -> web.StreamResponse:
        """DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        interaction = self._webhook_interaction(request)
        if isinstance(interaction, web.Response):
            return interaction
        message = self._webhook_message(request, interaction)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        self._state.delete_message(message)
        return web.Response(status=204)

    # --- channels and their messages ---------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}: a text channel or thread."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        return json_response(payloads.channel(self._state, place))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: rename, archive or lock; every edit is kept in ``LocalChannel.edits``."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        body = await request.json()
        place.edits.append(body)
        for key in ("name", "archived", "locked", "invitable", "auto_archive_duration", "topic"):
            if key in body:
                setattr(place, key, body[key])
        self._state.notify()
        data = payloads.channel(self._state, place)
        await self._gateway.notify_bot("THREAD_UPDATE" if place.is_thread else "CHANNEL_UPDATE", data)
        return json_response(data)

    async def delete_channel(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}: only threads (the stand-in's channels are fixed)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        if not place.is_thread:
            return self._error(request, 403, 50013, "Missing Permissions")
        place.deleted = True
        self._state.notify()
        data = payloads.channel(self._state, place)
        event = {
            "id": data["id"],
            "guild_id": data["guild_id"],
            "parent_id": data["parent_id"],
            "type": place.type,
        }
        await self._gateway.notify_bot("THREAD_DELETE", event)
        return json_response(data)

    async def list_messages(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages: newest first, with limit, before and after."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        found = list(reversed(self._state.channel_messages(place)))
        if "before" in request.query:
            found = [m for m in found if m.id < _snowflake(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > _snowflake(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        return json_response([self._message_json(m) for m in found[:limit]])

    async def create_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages: a plain message from the bot (a reply if it has a reference)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, creating=True)
        if refused is not None:
            return refused
        if place.locked:
            return self._error(request, 403, 50083, "Thread is archived")
        place.archived = False
        message_type = 19 if body.get("message_reference") else 0
        message = self._state.create_message(place, body, files, kind=MessageKind.CHANNEL, message_type=message_type)
        return json_response(self._message_json(message))

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/{id}."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        message = self._channel_message(request, place) if place else None
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return json_response(self._message_json(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}/messages/{id}: edit a message the bot sent."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        message = self._channel_message(request, place) if place else None
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        body, files = await read_body(request)
        refused = self._check_message(request, body, files, creating=False)
        if refused is not None:
            return refused
        self._state.edit_message(message, body, files)
        return json_response(self._message_json(message))

    async def delete_message(self, request: web.Request) -> web.StreamResponse:
        """DELETE /channels/{id}/messages/{id}."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        message = self._channel_message(request, place) if place else None
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        self._state.delete_message(message)
        return web.Response(status=204)

    # --- threads -----------------------------------------------------------------------------------------

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{id}/threads: a public thread with the message's id, as on Discord."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        message = self._channel_message(request, place) if place else None
        if place is None or message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        if message.thread_id is not None:
            return self._error(request, 400, 160004, "A thread has already been created for this message")
        body = await request.json()
        thread = self._new_thread(place, body, thread_id=message.id, thread_type=11)
        thread.starter_message_id = message.id
        message.thread_id = thread.id
        message.flags |= HAS_THREAD
        return await self._announce_thread(thread)

    async def thread_in_channel(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads: a thread with no starter message (private unless ``type`` is 11)."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None or place.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        body = await request.json()
        thread = self._new_thread(place, body, thread_id=next_snowflake(), thread_type=int(body.get("type", 12)))
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
        )
        self._state.channels[thread.id] = thread
        self._state.notify()
        return thread

    async def _announce_thread(self, thread: LocalChannel) -> web.Response:
        data = payloads.channel(self._state, thread)
        await self._gateway.notify_bot("THREAD_CREATE", data | {"newly_created": True})
        return json_response(data, 201)

    async def add_thread_member(self, request: web.Request) -> web.StreamResponse:
        """PUT /channels/{thread}/thread-members/{user or @me}."""
        return await self._change_thread_member(request, add=True)

    async def remove_thread_member(self, request: web.Request) -> web.StreamResponse:
        """DELETE /channels/{thread}/thread-members/{user or @me}."""
        return await self._change_thread_member(request, add=False)

    async def _change_thread_member(self, request: web.Request, *, add: bool) -> web.StreamResponse:
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        place = self._channel(request)
        if place is None or not place.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        raw = request.match_info["user_id"]
        try:
            person = self._state.bot_user if raw == "@me" else self._state.user(_snowflake(raw))
        except KeyError:
            return self._error(request, 404, 10013, "Unknown User")
        if add:
            place.member_ids.add(person.id)
        else:
            place.member_ids.discard(person.id)
        self._state.notify()
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.StreamResponse:
        """POST /channels/{id}/typing: accepted and ignored."""
        refused = self._unauthorized(request)
        return refused or web.Response(status=204)

    # --- guild members and files -------------------------------------------------------------------------

    async def get_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{id}."""
        refused = self._unauthorized(request)
        if refused is not None:
            return refused
        try:
            person = self._state.user(_snowflake(request.match_info["user_id"]))
        except KeyError:
            return self._error(request, 404, 10007, "Unknown Member")
        return json_response(payloads.member(self._state, person))

    async def get_attachment(self, request: web.Request) -> web.Response:
        """GET an uploaded file's bytes (attachment URLs point here)."""
        file = self._state.attachment(_snowflake(request.match_info["attachment_id"]))
        if file is None:
            return self._error(request, 404, 0, "404: Not Found")
        return web.Response(body=file.data, content_type=file.content_type or "application/octet-stream")


async def read_body(request: web.Request) -> tuple[Json, list[UploadedFile]]:
    """Read a JSON body, or a multipart one with ``payload_json`` and ``files[n]`` parts."""
    if request.content_type.startswith("multipart/"):
        body: Json = {}
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.name and part.name.startswith("files[") and part.name.endswith("]"):
                index = int(part.name[len("files[") : -1])
                files.append(UploadedFile(index, part.filename or f"file{index}", bytes(await part.read())))
        return body, files
    text = await request.text()
    return (json.loads(text) if text else {}), []


def _snowflake(raw: str) -> int:
    """Parse a snowflake from a URL; 0 (never a real id) when it is not a number."""
    return int(raw) if raw.isdigit() else 0
