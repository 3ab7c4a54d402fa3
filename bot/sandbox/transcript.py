"""Channels as readable text: who said what, with embeds, buttons, select menus and files."""

from __future__ import annotations

from bot.sandbox.models import BUTTON, SELECT_TYPES, Json, LocalChannel, RecordedMessage
from bot.sandbox.state import StandInState

INDENT = "  "
TEXT_DISPLAY, SECTION, MEDIA_GALLERY, FILE, CONTAINER = 10, 9, 12, 13, 17


def channel_transcript(state: StandInState, place: LocalChannel, *, include_ephemeral: bool = False) -> str:
    """Render a channel's messages oldest first; ephemeral ones only if asked, marked with who sees them."""
    messages = [
        m
        for m in state.messages.values()
        if m.channel_id == place.id and not m.deleted and (include_ephemeral or not m.ephemeral)
    ]
    blocks = [f"#{place.name}"] + [format_message(state, m) for m in messages]
    return "\n\n".join(blocks) + "\n"


def format_message(state: StandInState, message: RecordedMessage) -> str:
    """Render one message: a header line, then its content, embeds, components and files, indented."""
    header = message.author_name
    interaction = state.interactions.get(message.interaction_id or 0)
    if interaction is not None:
        header += f" (answering {interaction.description})"
    if message.ephemeral and message.recipient_id is not None:
        header += f" [only {state.user(message.recipient_id).name} sees this]"
    if message.edited:
        header += " (edited)"
    lines = [header + ":"]
    if message.loading:
        lines.append(f"{INDENT}(thinking...)")
    lines += [INDENT + line for line in message.content.splitlines()]
    for embed in message.embeds:
        lines += [INDENT + line for line in _embed_lines(embed)]
    lines += [INDENT + line for line in _component_lines(message.components)]
    for file in message.attachments:
        lines.append(f"{INDENT}file: {file.filename} ({file.size} bytes)")
    if message.thread_id is not None and message.thread_id in state.channels:
        thread = state.channels[message.thread_id]
        lines.append(f"{INDENT}thread: #{thread.name}{' (archived)' if thread.archived else ''}")
    return "\n".join(lines)


def _embed_lines(embed: Json) -> list[str]:
    lines: list[str] = []
    if (embed.get("author") or {}).get("name"):
        lines.append(f"| {embed['author']['name']}")
    if embed.get("title"):
        lines.append(f"| **{embed['title']}**")
    lines += [f"| {line}" for line in str(embed.get("description") or "").splitlines()]
    for embed_field in embed.get("fields") or []:
        lines.append(f"| {embed_field.get('name', '')}: {embed_field.get('value', '')}")
    if (embed.get("image") or {}).get("url"):
        lines.append(f"| image: {embed['image']['url']}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"| {embed['footer']['text']}")
    return lines


def _component_lines(components: list[Json]) -> list[str]:
    lines: list[str] = []
    for component in components:
        kind = component.get("type")
        if kind == 1:
            lines.append(" ".join(_item(child) for child in component.get("components") or []))
        elif kind == TEXT_DISPLAY:
            lines += str(component.get("content", "")).splitlines()
        elif kind == SECTION:
            lines += _component_lines(component.get("components") or [])
            if isinstance(component.get("accessory"), dict):
                lines.append(_item(component["accessory"]))
        elif kind == CONTAINER:
            lines += [f"> {line}" for line in _component_lines(component.get("components") or [])]
        elif kind == MEDIA_GALLERY:
            lines.append(f"[gallery of {len(component.get('items') or [])}]")
        elif kind == FILE:
            lines.append(f"file: {(component.get('file') or {}).get('url', '')}")
        else:
            lines.append(_item(component))
    return [line for line in lines if line]


def _item(component: Json) -> str:
    kind = component.get("type")
    if kind == BUTTON:
        label = component.get("label") or (component.get("emoji") or {}).get("name") or "?"
        if component.get("url"):
            label += f" -> {component['url']}"
        return f"[{label}{' (disabled)' if component.get('disabled') else ''}]"
    if kind in SELECT_TYPES:
        name = component.get("placeholder") or component.get("custom_id", "")
        options = " | ".join(
            f"{o.get('label', '')}{' *' if o.get('default') else ''}" for o in component.get("options") or []
        )
        disabled = " (disabled)" if component.get("disabled") else ""
        return f"<{name}{disabled}: {options}>" if options else f"<{name}{disabled}>"
    return ""
