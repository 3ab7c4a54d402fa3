"""Build the ``data`` of interactions as a real client would, refusing what a real client could not send."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from localdiscord import payloads, permissions
from localdiscord.errors import ImpossibleInteraction
from localdiscord.form_errors import Problems
from localdiscord.ids import next_snowflake
from localdiscord.models import (
    BUTTON,
    SELECT_TYPES,
    Json,
    LocalChannel,
    LocalGuild,
    LocalRole,
    LocalUser,
    RecordedAttachment,
    RecordedMessage,
    SyncedCommand,
    walk_components,
)
from localdiscord.state import StandInState

SUBCOMMAND_TYPES = (1, 2)
LINK_STYLE = 5
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
TEXT_INPUT, LABEL = 4, 18
CHAT_INPUT, USER_COMMAND = 1, 2
MAX_COMMAND_NAME, MAX_DESCRIPTION = 32, 100
SLASH_NAME = re.compile(r"[-_\w]+")
"""A slash command's name: Discord's `[-_` letters digits`]`, 1-32 of them, lowercase where the script has case."""


class Resolved:
    """The ``resolved`` map of users, members, roles, channels and attachments an interaction in ``guild`` mentions."""

    def __init__(self, state: StandInState, guild: LocalGuild) -> None:
        self._state = state
        self.guild = guild
        self.data: dict[str, Json] = {}

    def add_user(self, person: LocalUser) -> str:
        """Resolve a user, and its member in the guild if it is one; return its id as Discord sends it."""
        self.data.setdefault("users", {})[str(person.id)] = payloads.user(person)
        if self._state.is_member(person, self.guild):
            member = payloads.member(self._state, person, self.guild, with_permissions=True)
            del member["user"]
            self.data.setdefault("members", {})[str(person.id)] = member
        return str(person.id)

    def add_role(self, role: LocalRole) -> str:
        """Resolve a role; return its id."""
        self.data.setdefault("roles", {})[str(role.id)] = payloads.role(self.guild, role, 1)
        return str(role.id)

    def add_channel(self, place: LocalChannel, viewer: LocalUser) -> str:
        """Resolve a channel with the viewer's permissions in it; return its id."""
        seen = permissions.in_channel(self._state, viewer, place)
        channel = payloads.channel(self._state, place) | {"permissions": str(seen)}
        self.data.setdefault("channels", {})[str(place.id)] = channel
        return str(place.id)

    def add_attachment(self, base_url: str, file: RecordedAttachment) -> str:
        """Resolve an uploaded file; return its id."""
        self.data.setdefault("attachments", {})[str(file.id)] = payloads.attachment(base_url, file)
        return str(file.id)


def command_data(
    state: StandInState,
    base_url: str,
    command: SyncedCommand,
    path: Sequence[str],
    options: Mapping[str, Any],
    user: LocalUser,
    guild: LocalGuild,
    *,
    focused: str | None = None,
    force: bool = False,
) -> Json:
    """Build APPLICATION_COMMAND (or, with ``focused``, AUTOCOMPLETE) data from the command as synced.

    ``path`` names the subcommand group and subcommand; option values are checked against the registered
    types, choices and bounds. A choice may be given by its value or by its displayed name.
    """
    specs = command.options
    layers: list[Json] = []
    where = f"/{command.name}"
    for name in path:
        spec = next((s for s in specs if s["name"] == name and s["type"] in SUBCOMMAND_TYPES), None)
        if spec is None:
            names = [s["name"] for s in specs if s["type"] in SUBCOMMAND_TYPES]
            raise ImpossibleInteraction(f"{where} has no subcommand {name!r}; it has {names}")
        layers.append(spec)
        specs = list(spec.get("options") or [])
        where += f" {name}"
    subcommands = [s["name"] for s in specs if s["type"] in SUBCOMMAND_TYPES]
    if subcommands:
        raise ImpossibleInteraction(f"{where} needs a subcommand: one of {subcommands}")
    resolved = Resolved(state, guild)
    built = _options(state, base_url, specs, options, resolved, user, focused=focused, force=force, where=where)
    for layer in reversed(layers):
        built = [{"name": layer["name"], "type": layer["type"], "options": built}]
    data: Json = {"id": str(command.id), "name": command.name, "type": command.type, "options": built}
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    if resolved.data:
        data["resolved"] = resolved.data
    return data


def user_command_data(state: StandInState, command: SyncedCommand, target: LocalUser, guild: LocalGuild) -> Json:
    """Build the APPLICATION_COMMAND data of a user context menu (type 2) run on ``target``: its ``target_id`` and
    the target resolved as a user and, in the guild, as a member."""
    resolved = Resolved(state, guild)
    data: Json = {
        "id": str(command.id),
        "name": command.name,
        "type": command.type,
        "target_id": resolved.add_user(target),
        "resolved": resolved.data,
    }
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data


def command_problems(payload: Json, index: int, problems: Problems) -> None:
    """Record what Discord refuses in one command of a bulk overwrite: a slash command's name is 1-32 lowercase
    letters, digits, `-` or `_` and it needs a description of 1-100 characters; a context menu's name is 1-32
    characters of any kind (spaces and capitals too) and it has no description."""
    kind = int(payload.get("type", 1))
    localized = payload.get("name_localizations") or {}
    names = {"name": payload.get("name"), **{f"name_localizations.{k}": v for k, v in localized.items()}}
    for field, name in names.items():
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_COMMAND_NAME:
            problems.add(f"{index}.{field}", f"Must be between 1 and {MAX_COMMAND_NAME} in length.")
        elif kind == CHAT_INPUT and (not SLASH_NAME.fullmatch(name) or name != name.lower()):
            problems.add(f"{index}.{field}", "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")
    description = payload.get("description") or ""
    if kind == CHAT_INPUT and not 1 <= len(description) <= MAX_DESCRIPTION:
        problems.add(f"{index}.description", f"Must be between 1 and {MAX_DESCRIPTION} in length.")
    elif kind != CHAT_INPUT and description:
        problems.add(f"{index}.description", "Context menu commands cannot have description")


def _options(
    state: StandInState,
    base_url: str,
    specs: list[Json],
    given: Mapping[str, Any],
    resolved: Resolved,
    user: LocalUser,
    *,
    focused: str | None,
    force: bool,
    where: str,
) -> list[Json]:
    by_name = {spec["name"]: spec for spec in specs}
    if focused is not None and focused not in given:
        raise ImpossibleInteraction(f"give the focused option {focused!r} the text typed so far, e.g. ''")
    built: list[Json] = []
    for name, value in given.items():
        spec = by_name.get(name)
        if spec is None:
            raise ImpossibleInteraction(f"{where} has no option {name!r}; it has {list(by_name)}")
        if name == focused:
            built.append({"name": name, "type": spec["type"], "value": str(value), "focused": True})
            continue
        converted = _option_value(state, base_url, spec, value, resolved, user, force=force, where=where)
        built.append({"name": name, "type": spec["type"], "value": converted})
    missing = [spec["name"] for spec in specs if spec.get("required") and spec["name"] not in given]
    if missing and focused is None and not force:
        raise ImpossibleInteraction(f"{where} needs the required options {missing}")
    return built


def _option_value(
    state: StandInState,
    base_url: str,
    spec: Json,
    value: Any,
    resolved: Resolved,
    user: LocalUser,
    *,
    force: bool,
    where: str,
) -> Any:
    kind = spec["type"]
    label = f"option {spec['name']!r} of {where}"
    value = _choice_value(spec, value, label, force=force)
    if kind == STRING:
        if not isinstance(value, str):
            raise ImpossibleInteraction(f"{label} takes text, not {value!r}")
        _check_bounds(len(value), spec.get("min_length"), spec.get("max_length"), f"length of {label}", force)
    elif kind in (INTEGER, NUMBER):
        whole_only = kind == INTEGER
        if isinstance(value, bool) or not isinstance(value, int if whole_only else (int, float)):
            raise ImpossibleInteraction(f"{label} takes {'an integer' if whole_only else 'a number'}, not {value!r}")
        _check_bounds(value, spec.get("min_value"), spec.get("max_value"), label, force)
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise ImpossibleInteraction(f"{label} takes True or False, not {value!r}")
    elif kind == USER:
        return resolved.add_user(state.user(value))
    elif kind == CHANNEL:
        place = state.channel(value, resolved.guild)
        allowed = spec.get("channel_types")
        if allowed and place.type not in allowed and not force:
            raise ImpossibleInteraction(f"{label} accepts channel types {allowed}, not {place.type}")
        return resolved.add_channel(place, user)
    elif kind == ROLE:
        return resolved.add_role(state.role(value, resolved.guild))
    elif kind == MENTIONABLE:
        try:
            return resolved.add_user(state.user(value))
        except KeyError:
            return resolved.add_role(state.role(value, resolved.guild))
    elif kind == ATTACHMENT:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ImpossibleInteraction(f"{label} takes a (filename, bytes) pair")
        filename, data = value
        file = RecordedAttachment(next_snowflake(), str(filename), bytes(data))
        state.uploads[file.id] = file
        return resolved.add_attachment(base_url, file)
    return value


def _choice_value(spec: Json, value: Any, label: str, *, force: bool) -> Any:
    choices = spec.get("choices") or []
    if not choices:
        return value
    for choice in choices:
        if value in (choice["value"], choice["name"]):
            return choice["value"]
    if force:
        return value
    raise ImpossibleInteraction(f"{value!r} is not a choice of {label}: {[c['value'] for c in choices]}")


def _check_bounds(value: float, low: float | None, high: float | None, label: str, force: bool) -> None:
    if force:
        return
    if low is not None and value < low:
        raise ImpossibleInteraction(f"{label} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ImpossibleInteraction(f"{label} must be at most {high}, got {value}")


def component_data(
    state: StandInState,
    message: RecordedMessage,
    custom_id: str,
    user: LocalUser,
    values: Sequence[Any] | None,
    *,
    force: bool,
) -> Json:
    """Build MESSAGE_COMPONENT data for a button click (``values`` None) or a select menu choice."""
    component = message.component(custom_id)
    action = "click" if values is None else "select"
    if component is None:
        if not force:
            known = [c["custom_id"] for c in message.walk_components() if "custom_id" in c]
            raise ImpossibleInteraction(f"message {message.id} has no component {custom_id!r}; it has {known}")
        component = {"type": BUTTON if values is None else 3, "custom_id": custom_id}
    kind = int(component["type"])
    if values is None and kind != BUTTON:
        raise ImpossibleInteraction(f"{custom_id!r} is a select menu: use select() with values")
    if values is not None and kind not in SELECT_TYPES:
        raise ImpossibleInteraction(f"{custom_id!r} is a button: use click()")
    if not force:
        if component.get("disabled"):
            raise ImpossibleInteraction(f"cannot {action} {custom_id!r}: it is disabled")
        if component.get("style") == LINK_STYLE:
            raise ImpossibleInteraction(f"{custom_id!r} is a link button: it sends no interaction")
    data: Json = {"custom_id": custom_id, "component_type": kind}
    if "id" in component:
        data["id"] = component["id"]
    if values is not None:
        guild = state.guild_of(state.channels[message.channel_id])
        data |= _select_values(state, guild, component, values, user, force=force)
    return data


def _select_values(
    state: StandInState, guild: LocalGuild, menu: Json, values: Sequence[Any], user: LocalUser, *, force: bool
) -> Json:
    kind = int(menu["type"])
    low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
    if not force and not low <= len(values) <= high:
        raise ImpossibleInteraction(f"select {menu['custom_id']!r} takes {low} to {high} values, got {len(values)}")
    if kind == 3:
        chosen: list[str] = []
        options = menu.get("options") or []
        for value in values:
            option = next((o for o in options if value in (o.get("value"), o.get("label"))), None)
            if option is None and not force:
                known = [o.get("value") for o in options]
                raise ImpossibleInteraction(f"{value!r} is not an option of {menu['custom_id']!r}: {known}")
            chosen.append(str(option["value"]) if option else str(value))
        return {"values": chosen}
    resolved = Resolved(state, guild)
    ids: list[str] = []
    for value in values:
        if kind == USER_SELECT or (kind == MENTIONABLE_SELECT and not isinstance(value, LocalRole)):
            ids.append(resolved.add_user(state.user(value)))
        elif kind in (ROLE_SELECT, MENTIONABLE_SELECT):
            ids.append(resolved.add_role(state.role(value, guild)))
        else:
            ids.append(resolved.add_channel(state.channel(value, guild), user))
    return {"values": ids, "resolved": resolved.data}


def modal_data(modal: Json | None, custom_id: str, fields: Mapping[str, str | Sequence[str]], *, force: bool) -> Json:
    """Build MODAL_SUBMIT data mirroring the modal the bot showed, with ``fields`` by custom id."""
    if modal is None:
        if not force:
            raise ImpossibleInteraction(f"no modal {custom_id!r} was shown to this user")
        rows = [
            {"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": k, "value": v}]} for k, v in fields.items()
        ]
        return {"custom_id": custom_id, "components": rows}
    inputs = {c["custom_id"]: c for c in walk_components(modal.get("components") or []) if "custom_id" in c}
    unknown = set(fields) - set(inputs)
    if unknown and not force:
        raise ImpossibleInteraction(f"modal {custom_id!r} has no fields {sorted(unknown)}; it has {list(inputs)}")
    if not force:
        for field_id, spec in inputs.items():
            _check_modal_field(spec, fields.get(field_id), field_id)
    components = [_submitted(component, fields) for component in modal.get("components") or []]
    return {"custom_id": custom_id, "components": [c for c in components if c is not None]}


def _check_modal_field(spec: Json, value: str | Sequence[str] | None, field_id: str) -> None:
    if spec.get("type") != TEXT_INPUT:
        return
    text = value if isinstance(value, str) else ""
    if spec.get("required", True) and not text:
        raise ImpossibleInteraction(f"modal field {field_id!r} is required")
    if text:
        _check_bounds(len(text), spec.get("min_length"), spec.get("max_length"), f"length of {field_id!r}", False)


def _submitted(component: Json, fields: Mapping[str, str | Sequence[str]]) -> Json | None:
    kind = component.get("type")
    if kind == 1:
        inner = [_submitted(child, fields) for child in component.get("components") or []]
        return {"type": 1, "components": [c for c in inner if c is not None]}
    if kind == LABEL and isinstance(component.get("component"), dict):
        inner_component = _submitted(component["component"], fields)
        return {"type": LABEL, "id": component.get("id"), "component": inner_component}
    if kind == TEXT_INPUT:
        value = fields.get(component["custom_id"], "")
        return {"type": TEXT_INPUT, "custom_id": component["custom_id"], "value": value}
    if kind in SELECT_TYPES:
        chosen = fields.get(component["custom_id"], [])
        values = [chosen] if isinstance(chosen, str) else list(chosen)
        return {"type": kind, "custom_id": component["custom_id"], "values": values}
    return None
