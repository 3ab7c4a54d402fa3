"""Channels as readable text: who said what, with embeds, layouts, buttons, select menus and files."""

from __future__ import annotations

from localdiscord.models import (
    ACTION_ROW,
    ATTACHMENT_SCHEME,
    BUTTON,
    CONTAINER,
    FILE,
    MEDIA_GALLERY,
    SECTION,
    SELECT_TYPES,
    SEPARATOR,
    TEXT_DISPLAY,
    THUMBNAIL,
    Json,
    LocalChannel,
    RecordedAttachment,
    RecordedMessage,
    media_references,
)
from localdiscord.state import StandInState

INDENT = "  "


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
    files = {file.filename: file for file in message.attachments}
    lines += [INDENT + line for line in _component_lines(message.components, files)]
    shown = {url.removeprefix(ATTACHMENT_SCHEME) for url, _ in media_references(message.components)}
    for file in message.attachments:
        if not message.v2:
            lines.append(f"{INDENT}file: {_file(file)}")
        elif file.filename not in shown:
            lines.append(f"{INDENT}file: {_file(file)} (not shown: no component of the layout shows it)")
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
        first, *more = str(embed_field.get("value", "")).splitlines() or [""]
        lines.append(f"| {embed_field.get('name', '')}: {first}")
        lines += [f"| {line}" for line in more]
    if (embed.get("image") or {}).get("url"):
        lines.append(f"| image: {embed['image']['url']}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"| {embed['footer']['text']}")
    return lines


def _component_lines(components: list[Json], files: dict[str, RecordedAttachment]) -> list[str]:
    lines: list[str] = []
    for component in components:
        kind = component.get("type")
        if kind == ACTION_ROW:
            lines.append(" ".join(_item(child) for child in component.get("components") or []))
        elif kind == TEXT_DISPLAY:
            lines += str(component.get("content", "")).splitlines()
        elif kind == SECTION:
            lines += _component_lines(component.get("components") or [], files)
            if isinstance(component.get("accessory"), dict):
                lines += _component_lines([component["accessory"]], files)
        elif kind == CONTAINER:
            colour = component.get("accent_color")
            inner = _component_lines(component.get("components") or [], files)
            accent = [] if colour is None else [f"[accent #{int(colour):06x}]"]
            lines += [f"> {line}" for line in [*accent, *inner]]
        elif kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                lines.append("picture: " + _medium(item.get("media"), item.get("description"), files))
        elif kind == THUMBNAIL:
            lines.append("thumbnail: " + _medium(component.get("media"), component.get("description"), files))
        elif kind == FILE:
            lines.append("file: " + _medium(component.get("file"), None, files))
        elif kind == SEPARATOR and component.get("divider", True):
            lines.append("---")
        else:
            lines.append(_item(component))
    return [line for line in lines if line]


def _medium(media: object, description: str | None, files: dict[str, RecordedAttachment]) -> str:
    """A medium of a layout: the attached file it shows (with its alt text) or its URL."""
    url = str(media.get("url") or "") if isinstance(media, dict) else ""
    file = files.get(url.removeprefix(ATTACHMENT_SCHEME)) if url.startswith(ATTACHMENT_SCHEME) else None
    if file is None:
        return url + (f', alt text: "{description}"' if description else "")
    return _file(file, description)


def _file(file: RecordedAttachment, description: str | None = None) -> str:
    """An attached file: its name, size and alt text (the layout's when it gives one)."""
    alt = description or file.description
    return f"{file.filename} ({file.size} bytes" + (f', alt text: "{alt}")' if alt else ", no alt text)")


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
