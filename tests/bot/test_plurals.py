"""Every message with a number reads right in English and Russian: plural choices by CLDR rules, never "(s)"."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import pytest

from bot.i18n import LANGUAGES, format_template, render, set_command_ids, table, text
from rules.engine import Message

COUNT_NAMES = frozenset(
    {
        "count", "points", "turns", "cars", "kept", "returned", "extra", "minutes", "seconds", "n", "min", "max",
        "limit", "missed", "locomotives", "total", "offered", "minimum", "needed", "length", "stations",
    }
)  # fmt: skip
"""Placeholders that always hold a number some noun depends on: each must go through a plural choice."""
SAMPLES = (0, 1, 2, 5, 21)
"""0 and 5 are Russian `many`, 1 and 21 `one`, 2 `few`; English `one` is 1 alone."""
SENTINEL = 8_888_888
FORMS = {"en": {"one", "other"}, "ru": {"one", "few", "many", "other"}}
"""The CLDR plural categories of each language (`other` is also the form for fractions)."""
REQUIRED_FORMS = {"en": {"one", "other"}, "ru": {"one", "few", "many"}}
HEDGE = re.compile(r"\((?:s|es|а|я|и|ы|ов|ев|ей|ь)\)")
"""An "(s)", "(ов)" or "выбрал(а)": a form guessed at instead of chosen."""

# Where a count may stand bare, and why. Nothing else may show a count without a plural choice.
UNIT = re.compile(r"\{(\w+)\} (?:min|мин|s|с)\b")
"""`{minutes} min`, `{seconds} с`: an abbreviated unit has one form for every number."""
TALLY = re.compile(r"\{(\w+)\}(?= ×)|(?<=×)\s?\{(\w+)\}")
"""`{count} × {color}`, `{color} ×{count}`: a tally of a colour, with no noun to agree with the number."""
SHARED_NOUN = re.compile(r"\{(\w+)\}(?= (?:of|из|to) (?:these )?\{)|(?<=от )\{(\w+)\}(?= до \{)")
"""`at least {minimum} of these {offered:…}`, `{min} to {max:…}`: the noun belongs to the number after it."""
NOUN_ONLY = re.compile(r"\{\w+:[^{}#]*\}")
"""A whole template that is one choice without `#` (`{count:one=point|other=points}`) words a number shown beside it."""
NOT_SHOWN: dict[tuple[str, str], str] = {
    ("ttr_picture.banner.over", "count"): "“winners: Ann, Ben”: the count of the names listed only picks the noun",
}
BARE: dict[tuple[str, str], str] = {
    ("bot.lobby.players", "n"): "“Players 2/6”: a counter after its label",
    ("bot.lobby.players", "max"): "“Players 2/6”: a counter after its label",
    ("ttr_bot.button.deck", "count"): "“Deck (45)”: a counter on a button after its label",
    ("ttr_bot.button.tickets", "count"): "“Destination tickets (30)”: a counter on a button after its label",
    ("cardgame_bot.button.deck", "count"): "“Deck (45)”: a counter on a button after its label",
    ("cardgame_bot.button.tickets", "count"): "“Tickets (30)”: a counter on a button after its label",
    ("ttr.ticket", "points"): "“Boston – Miami (12)”: a ticket's value in brackets, as printed on the card",
    ("cardgame.ticket.name", "points"): "“Boston – Miami (12)”: a ticket's value in brackets, as printed on the card",
    ("ttr.track", "length"): "“Boston – New York (2)”: a route's length in brackets, as printed on the board",
    ("ttr.event.kept_tickets", "returned"): "“keeps 2 tickets and returns 1”: the noun was just said",
    ("cardgame.event.kept_tickets", "returned"): "“keeps 2 tickets and returns 1”: the noun was just said",
    ("dice.picture.roll", "max"): "“Roll 1 of 3”: an ordinal and its total after the label",
}


def fields(template: str) -> Iterator[tuple[str, str]]:
    """Each placeholder of a template, with its format spec; command mentions (`{/draw}`) left out."""
    for _, name, spec, _ in string.Formatter().parse(template):
        if name and not name.startswith("/"):
            yield name, spec or ""


def choices(template: str) -> dict[str, list[dict[str, str]]]:
    """The plural choices of a template: placeholder → the forms of each choice made on it."""
    found: dict[str, list[dict[str, str]]] = {}
    for name, spec in fields(template):
        if "=" in spec:
            found.setdefault(name, []).append(dict(part.split("=", 1) for part in spec.split("|")))
    return found


def numeric(template: str) -> set[str]:
    """The placeholders that hold a number: those with a plural choice and those named like a count."""
    return set(choices(template)) | {name for name, _ in fields(template) if name in COUNT_NAMES}


def allowed_bare(key: str, template: str) -> set[str]:
    """The count placeholders this template may show without a plural choice (see UNIT, TALLY, SHARED_NOUN, BARE)."""
    patterns = (UNIT, TALLY, SHARED_NOUN)
    by_pattern = {
        name for pattern in patterns for found in pattern.finditer(template) for name in found.groups() if name
    }
    return by_pattern | {name for k, name in BARE if k == key}


def sample(template: str, number: str, value: int) -> dict[str, object]:
    """Parameters for a template: `value` for the placeholder `number`, other numbers 7, words in guillemets."""
    counts = numeric(template)
    return {name: value if name == number else 7 if name in counts else f"‹{name}›" for name, _ in fields(template)}


def occurrences(rendered: str, value: int) -> int:
    """How often `value` stands as a whole number in a text."""
    return len(re.findall(rf"(?<!\d){value}(?!\d)", rendered))


def every_key() -> list[tuple[str, str]]:
    """Every (language, key) of every table, the ones other engineers word included."""
    return [(language, key) for language in LANGUAGES for key in sorted(table(language))]


@pytest.fixture(autouse=True)
def plain_commands() -> Iterator[None]:
    """Render `{/draw}` as the plain `/draw`, whatever a bot started earlier in this process synced."""
    set_command_ids({})
    yield
    set_command_ids({})


@pytest.mark.parametrize(("language", "key"), every_key())
def test_a_count_is_worded_through_a_plural_choice_with_every_form_of_its_language(language: str, key: str) -> None:
    template = table(language)[key]
    assert not HEDGE.search(template), f"a hedge instead of a plural choice: {template}"
    for name, made in choices(template).items():
        for forms in made:
            assert set(forms) <= FORMS[language], f"{{{name}}}: {sorted(set(forms) - FORMS[language])} in {language}"
            assert REQUIRED_FORMS[language] <= set(forms), f"{{{name}}} lacks {REQUIRED_FORMS[language] - set(forms)}"
    bare = {name for name, _ in fields(template) if name in COUNT_NAMES} - set(choices(template))
    assert bare <= allowed_bare(key, template), f"{sorted(bare - allowed_bare(key, template))} without a choice"


@pytest.mark.parametrize(("language", "key"), every_key())
def test_every_count_renders_with_its_number_and_nothing_left_over(language: str, key: str) -> None:
    template = table(language)[key]
    for number in sorted(numeric(template)):
        shows_numbers = not NOUN_ONLY.fullmatch(template) and (key, number) not in NOT_SHOWN
        without = format_template(language, template, **sample(template, number, SENTINEL))
        for value in SAMPLES:
            rendered = format_template(language, template, **sample(template, number, value))
            assert "{" not in rendered and "}" not in rendered, rendered
            assert not HEDGE.search(rendered), rendered
            if shows_numbers:
                assert occurrences(rendered, value) > occurrences(without, value), f"{value} not shown: {rendered}"


def test_the_walk_finds_the_counts_of_every_game() -> None:
    counted = [(language, key) for language, key in every_key() if choices(table(language)[key])]
    assert len(counted) > 100, "the walk must reach the plural choices of both languages"
    assert {key.split(".", 1)[0] for _, key in counted} >= {"admin", "bot", "cardgame", "dice", "ttr", "ttr_bot"}


SPOT_CHECKS: dict[tuple[str, str], tuple[dict[str, object], str, tuple[str, str, str, str]]] = {
    # (language, key): (the other params, the count's name, the text for 1, 2, 5 and 21)
    ("en", "ttr_turn.last_round"): (
        {},
        "turns",
        (
            "⚠️ **Last round:** 1 turn left, this one included.",
            "⚠️ **Last round:** 2 turns left, this one included.",
            "⚠️ **Last round:** 5 turns left, this one included.",
            "⚠️ **Last round:** 21 turns left, this one included.",
        ),
    ),
    ("ru", "ttr_turn.last_round"): (
        {},
        "turns",
        (
            "⚠️ **Последний раунд:** остался 1 ход, считая этот.",
            "⚠️ **Последний раунд:** осталось 2 хода, считая этот.",
            "⚠️ **Последний раунд:** осталось 5 ходов, считая этот.",
            "⚠️ **Последний раунд:** остался 21 ход, считая этот.",
        ),
    ),
    ("en", "ttr_bot.final.player"): (
        {"player": "Ann"},
        "points",
        ("Ann: 1 point", "Ann: 2 points", "Ann: 5 points", "Ann: 21 points"),
    ),
    ("ru", "ttr_bot.final.player"): (
        {"player": "Ann"},
        "points",
        ("Ann: 1 очко", "Ann: 2 очка", "Ann: 5 очков", "Ann: 21 очко"),
    ),
    ("en", "cardgame.event.kept_tickets"): (
        {"player": "Ann", "returned": 0},
        "count",
        (
            "Ann keeps 1 ticket and returns 0.",
            "Ann keeps 2 tickets and returns 0.",
            "Ann keeps 5 tickets and returns 0.",
            "Ann keeps 21 tickets and returns 0.",
        ),
    ),
    ("ru", "cardgame.event.kept_tickets"): (
        {"player": "Ann", "returned": 0},
        "count",
        (
            "Ann оставляет 1 карту Маршрута и возвращает 0.",
            "Ann оставляет 2 карты Маршрутов и возвращает 0.",
            "Ann оставляет 5 карт Маршрутов и возвращает 0.",
            "Ann оставляет 21 карту Маршрута и возвращает 0.",
        ),
    ),
    ("en", "admin.limits.lobbies_per_person_line"): (
        {},
        "value",
        (
            "👤 A person may host **1** open lobby at once.",
            "👤 A person may host **2** open lobbies at once.",
            "👤 A person may host **5** open lobbies at once.",
            "👤 A person may host **21** open lobbies at once.",
        ),
    ),
    ("ru", "admin.limits.games_per_server_line"): (
        {},
        "value",
        (
            "🏠 На сервере не больше **1** открытой игры.",
            "🏠 На сервере не больше **2** открытых игр.",
            "🏠 На сервере не больше **5** открытых игр.",
            "🏠 На сервере не больше **21** открытой игры.",
        ),
    ),
    ("en", "bot.reason.too_few_players"): (
        {},
        "min",
        (
            "At least 1 player is needed to start.",
            "At least 2 players are needed to start.",
            "At least 5 players are needed to start.",
            "At least 21 players are needed to start.",
        ),
    ),
    ("ru", "bot.reason.too_few_players"): (
        {},
        "min",
        (
            "Чтобы начать, нужно не меньше 1 игрока.",
            "Чтобы начать, нужно не меньше 2 игроков.",
            "Чтобы начать, нужно не меньше 5 игроков.",
            "Чтобы начать, нужно не меньше 21 игрока.",
        ),
    ),
    ("ru", "dice.event.won"): (
        {"player": "Ann"},
        "total",
        (
            "Побеждает Ann с 1 очком!",
            "Побеждает Ann с 2 очками!",
            "Побеждает Ann с 5 очками!",
            "Побеждает Ann с 21 очком!",
        ),
    ),
    ("ru", "ttr.event.tunnel_revealed"): (
        {"player": "Ann", "track": "A – B", "cards": "red"},
        "extra",
        (
            "Ann прокладывает туннель A – B: открыты red; нужна ещё 1 карта.",
            "Ann прокладывает туннель A – B: открыты red; нужны ещё 2 карты.",
            "Ann прокладывает туннель A – B: открыты red; нужно ещё 5 карт.",
            "Ann прокладывает туннель A – B: открыты red; нужна ещё 21 карта.",
        ),
    ),
}


@pytest.mark.parametrize(("language", "key"), SPOT_CHECKS)
def test_spot_checks_read_right(language: str, key: str) -> None:
    params, count, expected = SPOT_CHECKS[language, key]
    assert [text(language, key, **params, **{count: n}) for n in (1, 2, 5, 21)] == list(expected)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Ann claims Boston – Miami (2) with 2 × red: +1 point."),
        ("ru", "Ann проходит перегон Бостон – Майами (2), сыграв красный × 2: +1 очко."),
    ],
)
def test_an_engine_event_with_nested_messages_picks_its_forms(language: str, expected: str) -> None:
    track = Message(
        key="ttr.track",
        params={"from": Message(key="ttr.city.boston"), "to": Message(key="ttr.city.miami"), "length": 2},
    )
    cards = Message(key="ttr.cards.plain", params={"count": 2, "color": Message(key="ttr.color.red")})
    claimed = Message(key="ttr.event.claimed", params={"seat": 0, "track": track, "cards": cards, "points": 1})
    assert render(language, claimed, {0: "Ann"}) == expected
