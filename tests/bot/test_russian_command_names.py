"""Russian texts name commands as a Russian client shows them: a command written out (in a command's description,
where Discord shows no mentions, or in a footer) is its Russian name, spelled right, never its English one."""

from __future__ import annotations

import re

from bot.i18n import table

COMMAND_NAME = re.compile(r"commands\.([a-z]+)\.name")
WRITTEN_COMMAND = re.compile(r"(?<![\w<{}/])/([^\W\d_][\w-]*)")
"""A command written out, `/подсказка`: not a mention placeholder (`{/hint}`), a fraction (`{n}/2`) or a link."""


def names_shown_in(language: str) -> dict[str, str]:
    """English name → the name a client in `language` shows, of every top-level command."""
    english = {m[1]: name for key, name in table("en").items() if (m := COMMAND_NAME.fullmatch(key))}
    own = {m[1]: name for key, name in table(language).items() if (m := COMMAND_NAME.fullmatch(key))}
    return {english[command]: own.get(command, english[command]) for command in english}


def test_every_command_written_out_in_russian_is_named_as_a_russian_client_shows_it() -> None:
    shown = names_shown_in("ru")
    written = [(key, name) for key, words in table("ru").items() for name in WRITTEN_COMMAND.findall(words)]
    assert len(written) >= 4, "the scan must find the commands written out"
    english = [(key, f"/{name} (say /{shown[name]})") for key, name in written if name in shown and shown[name] != name]
    assert english == [], "a Russian text names a command in English"
    unknown = [(key, f"/{name}") for key, name in written if name not in shown.values()]
    assert unknown == [], "a Russian text names a command that does not exist (mis-spelled?)"
