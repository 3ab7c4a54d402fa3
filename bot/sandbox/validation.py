"""Discord's documented limits on what a bot sends, so a payload Discord would refuse fails here too."""

from __future__ import annotations

from typing import Any

from bot.sandbox.models import BUTTON, COMPONENTS_V2, SELECT_TYPES, Json, MessageRevision, walk_components

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_FILES = 10
LINK_BUTTON_STYLE = 5
PREMIUM_BUTTON_STYLE = 6


class Problems:
    """Collect form errors by dotted path, in the nested shape Discord answers with (code 50035)."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        """Record that the value at ``path`` breaks a rule."""
        self.items.append((path, message))

    def max_length(self, path: str, value: Any, limit: int) -> None:
        """Record a problem if the string ``value`` is longer than ``limit``."""
        if isinstance(value, str) and len(value) > limit:
            self.add(path, f"Must be {limit} or fewer in length.")

    def errors_json(self) -> Json:
        """Return the problems as Discord's nested ``errors`` object."""
        root: Json = {}
        for path, message in self.items:
            node = root
            for part in path.split("."):
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": "INVALID_FORM_BODY", "message": message})
        return root

    def summary(self) -> str:
        """Return the problems as one readable line."""
        return "; ".join(f"{path}: {message}" for path, message in self.items)


def check_message(
    payload: Json, file_sizes: list[int], problems: Problems, *, prefix: str = "", kept_flags: int = 0
) -> None:
    """Check a message body (create or edit) against Discord's limits; ``kept_flags`` are an edited message's."""
    problems.max_length(f"{prefix}content", payload.get("content"), 2000)
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        problems.add(f"{prefix}embeds", "Must be 10 or fewer in length.")
    for index, embed in enumerate(embeds):
        _check_embed(embed, problems, f"{prefix}embeds.{index}.")
    if sum(_embed_characters(embed) for embed in embeds) > 6000:
        problems.add(f"{prefix}embeds", "Embed size exceeds maximum size of 6000")
    components = payload.get("components") or []
    if (int(payload.get("flags") or 0) | kept_flags) & COMPONENTS_V2:
        if payload.get("content") or embeds:
            problems.add(f"{prefix}content", "Cannot send content or embeds with components v2.")
    else:
        _check_action_rows(components, problems, prefix)
    _check_custom_ids(components, problems, prefix)
    if len(file_sizes) > MAX_FILES:
        problems.add(f"{prefix}attachments", f"Must be {MAX_FILES} or fewer in length.")


def is_empty_message(payload: Json, file_count: int) -> bool:
    """Whether a new message would show nothing (Discord answers 50006 "Cannot send an empty message")."""
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return file_count == 0 and not any(payload.get(key) for key in keys)


def shows_nothing(revision: MessageRevision) -> bool:
    """Whether a message as an edit would leave it shows nothing (Discord refuses such an edit with 50006)."""
    return not (revision.content or revision.embeds or revision.components or revision.attachments)


def too_large(file_sizes: list[int]) -> bool:
    """Whether any upload is over the attachment size limit (Discord answers 413, code 40005)."""
    return any(size > ATTACHMENT_SIZE_LIMIT for size in file_sizes)


def check_choices(choices: list[Json], problems: Problems) -> None:
    """Check an autocomplete answer: at most 25 choices, names of 1 to 100 characters."""
    if len(choices) > 25:
        problems.add("data.choices", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        name = str(choice.get("name", ""))
        if not 1 <= len(name) <= 100:
            problems.add(f"data.choices.{index}.name", "Must be between 1 and 100 in length.")
        problems.max_length(f"data.choices.{index}.value", choice.get("value"), 100)


def check_modal(data: Json, problems: Problems) -> None:
    """Check a modal: a custom id, a title of 1 to 45 characters and 1 to 5 components."""
    title = str(data.get("title") or "")
    if not 1 <= len(title) <= 45:
        problems.add("data.title", "Must be between 1 and 45 in length.")
    if not data.get("custom_id"):
        problems.add("data.custom_id", "This field is required")
    problems.max_length("data.custom_id", data.get("custom_id"), 100)
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.add("data.components", "Must be between 1 and 5 in length.")


def _check_embed(embed: Json, problems: Problems, prefix: str) -> None:
    problems.max_length(f"{prefix}title", embed.get("title"), 256)
    problems.max_length(f"{prefix}description", embed.get("description"), 4096)
    problems.max_length(f"{prefix}footer.text", (embed.get("footer") or {}).get("text"), 2048)
    problems.max_length(f"{prefix}author.name", (embed.get("author") or {}).get("name"), 256)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.add(f"{prefix}fields", "Must be 25 or fewer in length.")
    for index, embed_field in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            value = embed_field.get(key)
            if not value:
                problems.add(f"{prefix}fields.{index}.{key}", "This field is required")
            problems.max_length(f"{prefix}fields.{index}.{key}", value, limit)


def _embed_characters(embed: Json) -> int:
    texts = [embed.get("title"), embed.get("description")]
    texts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for embed_field in embed.get("fields") or []:
        texts += [embed_field.get("name"), embed_field.get("value")]
    return sum(len(text) for text in texts if isinstance(text, str))


def _check_action_rows(components: list[Json], problems: Problems, prefix: str) -> None:
    if len(components) > 5:
        problems.add(f"{prefix}components", "Must be 5 or fewer in length.")
    for row_index, row in enumerate(components):
        path = f"{prefix}components.{row_index}"
        if row.get("type") != 1:
            problems.add(f"{path}.type", "Top-level components must be action rows without the components v2 flag.")
            continue
        children = row.get("components") or []
        buttons = [c for c in children if c.get("type") == BUTTON]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children or len(buttons) > 5 or len(selects) > 1 or (buttons and selects):
            problems.add(f"{path}.components", "An action row holds 1 to 5 buttons or exactly one select menu.")
        for index, child in enumerate(children):
            _check_item(child, problems, f"{path}.components.{index}")


def _check_item(item: Json, problems: Problems, path: str) -> None:
    if item.get("type") == BUTTON:
        problems.max_length(f"{path}.label", item.get("label"), 80)
        style = item.get("style")
        if style == LINK_BUTTON_STYLE:
            if not item.get("url") or item.get("custom_id"):
                problems.add(f"{path}.url", "A link button needs a url and no custom id.")
        elif style != PREMIUM_BUTTON_STYLE and not item.get("custom_id"):
            problems.add(f"{path}.custom_id", "This field is required")
        if style != PREMIUM_BUTTON_STYLE and not item.get("label") and not item.get("emoji"):
            problems.add(f"{path}.label", "A button needs a label or an emoji.")
    elif item.get("type") in SELECT_TYPES:
        problems.max_length(f"{path}.placeholder", item.get("placeholder"), 150)
        options = item.get("options") or []
        if item.get("type") == 3 and not 1 <= len(options) <= 25:
            problems.add(f"{path}.options", "Must be between 1 and 25 in length.")
        for index, option in enumerate(options):
            for key in ("label", "value", "description"):
                problems.max_length(f"{path}.options.{index}.{key}", option.get(key), 100)
        if int(item.get("max_values", 1)) > max(1, len(options) if item.get("type") == 3 else 25):
            problems.add(f"{path}.max_values", "Must be no more than the number of options.")


def _check_custom_ids(components: list[Json], problems: Problems, prefix: str) -> None:
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if not 1 <= len(str(custom_id)) <= 100:
            problems.add(f"{prefix}components", f"custom_id {custom_id!r} must be 1 to 100 characters long.")
        if custom_id in seen:
            problems.add(f"{prefix}components", f"Component custom id cannot be duplicated: {custom_id!r}")
        seen.add(custom_id)
