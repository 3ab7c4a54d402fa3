"""Discord's documented limits on what a bot sends, so a payload Discord would refuse fails here too."""

from __future__ import annotations

from localdiscord.component_rules import MAX_ALT_TEXT, check_components
from localdiscord.form_errors import Problems
from localdiscord.models import COMPONENTS_V2, Json, MessageRevision

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_FILES = 10
LEGACY_FIELDS_WITH_V2 = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def check_message(
    payload: Json,
    file_sizes: list[int],
    problems: Problems,
    *,
    result: MessageRevision,
    flags_before: int | None = None,
    prefix: str = "",
) -> None:
    """Check a message body (create or edit) against Discord's limits.

    ``result`` is the message as the body would leave it (an edit keeps what it does not send);
    ``flags_before`` are an edited message's flags (None for a new message).
    """
    problems.max_length(f"{prefix}content", payload.get("content"), 2000)
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        problems.add(f"{prefix}embeds", "Must be 10 or fewer in length.")
    for index, embed in enumerate(embeds):
        _check_embed(embed, problems, f"{prefix}embeds.{index}.")
    if sum(_embed_characters(embed) for embed in embeds) > 6000:
        problems.add(f"{prefix}embeds", "Embed size exceeds maximum size of 6000")
    layout = bool(result.flags & COMPONENTS_V2)
    if flags_before is not None and flags_before & COMPONENTS_V2 and not layout:
        problems.add(f"{prefix}flags", "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
    if layout:
        _check_no_legacy_fields(result, problems, prefix)
    filenames = {attachment.filename for attachment in result.attachments}
    check_components(result.components, problems, prefix, layout=layout, filenames=filenames)
    if len(file_sizes) > MAX_FILES:
        problems.add(f"{prefix}attachments", f"Must be {MAX_FILES} or fewer in length.")
    for index, entry in enumerate(payload.get("attachments") or []):
        problems.max_length(f"{prefix}attachments.{index}.description", entry.get("description"), MAX_ALT_TEXT)


def _check_no_legacy_fields(result: MessageRevision, problems: Problems, prefix: str) -> None:
    """A layout has no content and no embeds (an edit adding the flag must clear them, with null)."""
    for key, value in (("content", result.content), ("embeds", result.embeds)):
        if value:
            message = f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"
            problems.add(f"{prefix}{key}", message, LEGACY_FIELDS_WITH_V2)


def is_empty_message(payload: Json, file_count: int) -> bool:
    """Whether a new message would show nothing (Discord answers 50006 "Cannot send an empty message").

    A layout (IS_COMPONENTS_V2) shows only its components: files alone do not make one.
    """
    if int(payload.get("flags") or 0) & COMPONENTS_V2:
        return not payload.get("components")
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return file_count == 0 and not any(payload.get(key) for key in keys)


def shows_nothing(revision: MessageRevision) -> bool:
    """Whether a message as an edit would leave it shows nothing (Discord refuses such an edit with 50006)."""
    if revision.flags & COMPONENTS_V2:
        return not revision.components
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
