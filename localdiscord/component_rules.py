"""Message components as Discord checks them: action rows, buttons and selects, and Components V2 layouts."""

from __future__ import annotations

from localdiscord.form_errors import Problems
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
    walk_components,
)

LINK_BUTTON_STYLE = 5
PREMIUM_BUTTON_STYLE = 6
LINK_SCHEMES = ("http://", "https://", "discord://")
MAX_LINK_URL = 512
MAX_ROWS = 5
MAX_LAYOUT_COMPONENTS = 40
MAX_LAYOUT_TEXT = 4000
MAX_GALLERY_ITEMS = 10
MAX_ALT_TEXT = 1024
MAX_COLOUR = 0xFFFFFF
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
TOP_LEVEL = IN_CONTAINER | {CONTAINER}
SECTION_ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
SEPARATOR_SPACINGS = (1, 2)


def check_components(
    components: list[Json], problems: Problems, prefix: str, *, layout: bool, filenames: set[str]
) -> None:
    """Check a message's components: up to 5 action rows, or with ``layout`` (IS_COMPONENTS_V2) a layout.

    A layout may show only files of ``filenames`` (the message's attachments) through ``attachment://``.
    """
    path = f"{prefix}components"
    if layout:
        _check_layout(components, problems, path, filenames)
    else:
        if len(components) > MAX_ROWS:
            problems.add(path, f"Must be {MAX_ROWS} or fewer in length.")
        for index, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                problems.add(
                    f"{path}.{index}.type",
                    "Top-level components must be action rows without the components v2 flag.",
                )
            else:
                _check_row(row, problems, f"{path}.{index}")
    _check_identifiers(components, problems, path)


def _check_layout(components: list[Json], problems: Problems, path: str, filenames: set[str]) -> None:
    count = sum(1 for _ in walk_components(components))
    if count > MAX_LAYOUT_COMPONENTS:
        limit = MAX_LAYOUT_COMPONENTS
        problems.add(path, f"A message holds at most {limit} components, nested ones included; got {count}.")
    texts = [c.get("content") for c in walk_components(components) if c.get("type") == TEXT_DISPLAY]
    length = sum(len(text) for text in texts if isinstance(text, str))
    if length > MAX_LAYOUT_TEXT:
        problems.add(path, f"The text displays hold at most {MAX_LAYOUT_TEXT} characters in all; got {length}.")
    for index, component in enumerate(components):
        _check_placed(component, TOP_LEVEL, problems, f"{path}.{index}", filenames)


def _check_placed(component: Json, allowed: frozenset[int], problems: Problems, path: str, filenames: set[str]) -> None:
    """Check one component of a layout and what it holds; ``allowed`` are the types that may stand here."""
    kind = component.get("type")
    if kind not in allowed:
        problems.add(f"{path}.type", f"A component of type {kind} cannot be placed here (allowed: {sorted(allowed)}).")
        return
    if kind == ACTION_ROW:
        _check_row(component, problems, path)
    elif kind == CONTAINER:
        _check_colour(component.get("accent_color"), problems, f"{path}.accent_color")
        for index, child in enumerate(component.get("components") or []):
            _check_placed(child, IN_CONTAINER, problems, f"{path}.components.{index}", filenames)
    elif kind == SECTION:
        _check_section(component, problems, path, filenames)
    elif kind == TEXT_DISPLAY:
        if not isinstance(component.get("content"), str) or not component["content"]:
            problems.add(f"{path}.content", "This field is required")
    elif kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            problems.add(f"{path}.items", f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.")
        for index, item in enumerate(items):
            _check_media(item.get("media"), problems, f"{path}.items.{index}.media", filenames)
            problems.max_length(f"{path}.items.{index}.description", item.get("description"), MAX_ALT_TEXT)
    elif kind == THUMBNAIL:
        _check_media(component.get("media"), problems, f"{path}.media", filenames)
        problems.max_length(f"{path}.description", component.get("description"), MAX_ALT_TEXT)
    elif kind == FILE:
        url = str((component.get("file") or {}).get("url") or "")
        if not url.startswith(ATTACHMENT_SCHEME):
            problems.add(f"{path}.file.url", "A file component shows an attachment: its url must be attachment://.")
        _check_media(component.get("file"), problems, f"{path}.file", filenames)
    elif kind == SEPARATOR and component.get("spacing", 1) not in SEPARATOR_SPACINGS:
        problems.add(f"{path}.spacing", f"Value must be one of {SEPARATOR_SPACINGS}.")


def _check_section(section: Json, problems: Problems, path: str, filenames: set[str]) -> None:
    texts = section.get("components") or []
    if not 1 <= len(texts) <= 3:
        problems.add(f"{path}.components", "Must be between 1 and 3 in length.")
    for index, text in enumerate(texts):
        _check_placed(text, frozenset({TEXT_DISPLAY}), problems, f"{path}.components.{index}", filenames)
    accessory = section.get("accessory")
    if not isinstance(accessory, dict):
        problems.add(f"{path}.accessory", "This field is required")
    elif accessory.get("type") == BUTTON:
        _check_item(accessory, problems, f"{path}.accessory")
    else:
        _check_placed(accessory, SECTION_ACCESSORIES, problems, f"{path}.accessory", filenames)


def _check_colour(colour: object, problems: Problems, path: str) -> None:
    if colour is None:
        return
    if isinstance(colour, bool) or not isinstance(colour, int) or not 0 <= colour <= MAX_COLOUR:
        problems.add(path, f"Must be an integer from 0 to {MAX_COLOUR} (0xFFFFFF).")


def _check_media(media: object, problems: Problems, path: str, filenames: set[str]) -> None:
    """A media item needs a url; ``attachment://name`` must name one of the message's files."""
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        problems.add(f"{path}.url", "This field is required")
    elif url.startswith(ATTACHMENT_SCHEME):
        if url.removeprefix(ATTACHMENT_SCHEME) not in filenames:
            known = sorted(filenames)
            problems.add(f"{path}.url", f"{url} names no attachment of this message (it has {known}).")
    elif not url.startswith(("https://", "http://")):
        problems.add(f"{path}.url", "Scheme must be one of ('http', 'https', 'attachment').")


def _check_row(row: Json, problems: Problems, path: str) -> None:
    children = row.get("components") or []
    buttons = [c for c in children if c.get("type") == BUTTON]
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if len(buttons) + len(selects) < len(children):
        problems.add(f"{path}.components", "An action row holds only buttons or a select menu.")
    if not children or len(buttons) > 5 or len(selects) > 1 or (buttons and selects):
        problems.add(f"{path}.components", "An action row holds 1 to 5 buttons or exactly one select menu.")
    for index, child in enumerate(children):
        _check_item(child, problems, f"{path}.components.{index}")


def _check_item(item: Json, problems: Problems, path: str) -> None:
    if item.get("type") == BUTTON:
        problems.max_length(f"{path}.label", item.get("label"), 80)
        style = item.get("style")
        if style == LINK_BUTTON_STYLE:
            url = item.get("url")
            if not url or item.get("custom_id"):
                problems.add(f"{path}.url", "A link button needs a url and no custom id.")
            elif not str(url).startswith(LINK_SCHEMES):
                problems.add(f"{path}.url", "Scheme must be one of ('http', 'https', 'discord').")
            problems.max_length(f"{path}.url", url, MAX_LINK_URL)
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


def _check_identifiers(components: list[Json], problems: Problems, path: str) -> None:
    """Custom ids of 1 to 100 characters, unique in the message, and unique numeric ``id`` fields."""
    seen: set[str] = set()
    numbers: set[int] = set()
    for component in walk_components(components):
        number = component.get("id")
        if number is not None:
            if number in numbers:
                problems.add(path, f"Component id {number} is used more than once.")
            numbers.add(number)
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if not 1 <= len(str(custom_id)) <= 100:
            problems.add(path, f"custom_id {custom_id!r} must be 1 to 100 characters long.")
        if custom_id in seen:
            problems.add(path, f"Component custom id cannot be duplicated: {custom_id!r}")
        seen.add(custom_id)
