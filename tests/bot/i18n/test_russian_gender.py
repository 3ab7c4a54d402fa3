"""Russian that fits every player: no text about a player says whether that player is a man or a woman.

Russian marks a person's gender in the singular past tense (взял / взяла), in the third-person pronouns (его / её),
in short adjectives (должен / должна) and in role nouns (ведущий / ведущая). A name can be anyone's, so a text about
a player uses none of these: the present tense, "Имя: …", or a verb phrase ("игру ведёт Anna", 👑).

Which texts are about a player: every text with a placeholder that holds a person, and the picture lines drawn
beside a player's name, whose subject that player is. Whether a word is a past-tense singular verb is read from its
ending (-л, -ла, -ло, -лся, -лась, -лось, and the few verbs whose masculine past has no л): a text about a player may
hold none, whatever its subject, since a regular expression cannot tell who the subject is. The neuter forms listed
in IMPERSONAL are the exception: a neuter verb agrees with a thing or with nothing («осталось 3 хода», «было»),
never with a person. Words that only look like past-tense verbs (nouns and adverbs ending in -л, -ла, -ло) are
listed in NOT_VERBS.
"""

from __future__ import annotations

import re
import string

import pytest

import bot.games  # noqa: F401  (every game's own words join the tables)
from bot.i18n import table

PERSON_PLACEHOLDERS = frozenset(
    {"player", "players", "victim", "host", "inviter", "member", "name", "people", "voters", "watchers", "winners",
     "waiting", "yes", "no"}
)  # fmt: skip
"""Placeholders that hold a person's name or mention, or a list of them (a vote's «за: Ann, Ben»)."""
SAID_OF_A_PLAYER = ("ttr_picture.move.", "cardgame_picture.last.", "undo.asked.")
"""Texts drawn or said right after a player's name (the picture's "Last move: Ann | берёт 2 карты"): their subject is
that player, though no placeholder names them."""

PAST_SINGULAR = re.compile(r"\w+(?:л|ла|ло|лся|лась|лось)", re.IGNORECASE)
"""A singular past-tense verb by its ending: взял, взяла, открыл, не сходил, вышел, осталась, присоединился."""
PAST_WITHOUT_L = frozenset(
    {"мог", "смог", "помог", "лёг", "слёг", "нёс", "вёз", "рос", "вырос", "умер", "запер", "стёр", "достиг",
     "исчез", "привык", "сжёг"}
)  # fmt: skip
"""Masculine past-tense forms that end without -л (он смог; она смогла is caught by its ending)."""
IMPERSONAL: dict[str, str] = {
    "осталось": "«осталось 3 хода», «не осталось карт»: neuter, agrees with a count or a thing",
    "было": "«ничего не было»: neuter, agrees with a thing",
}
"""Neuter past-tense forms a text about a player may hold: a neuter verb is never about a person."""
NOT_VERBS = frozenset(
    {"стол", "сначала", "около", "мало", "число", "начало", "правила", "правил", "дела", "канал", "орёл"}
)  # fmt: skip
"""Words that end like a past-tense verb and are none (a table, first, about, few, number, a coin's heads, …)."""

PRONOUNS = frozenset(
    {"он", "она", "его", "её", "ее", "него", "неё", "нее", "ему", "нему", "ей", "ней", "нём", "сам", "сама",
     "самого", "самой", "самому"}
)  # fmt: skip
"""Third-person pronouns and «сам» in the singular, which say he or she («все, включая его»)."""
SHORT_FORMS = frozenset(
    {"должен", "должна", "готов", "готова", "рад", "рада", "занят", "занята", "согласен", "согласна", "уверен",
     "уверена", "исключён", "исключена", "приглашён", "приглашена", "первым", "последним"}
)  # fmt: skip
"""Short adjectives and participles, and predicative adjectives, that agree with a person («Anna исключён»,
«Первым ходит Anna»)."""
ROLE_NOUNS = re.compile(
    r"(?<!\w)(?:ведущ\w*|хозя(?:ин|ина|ину|ином|ине|йка|йки|йке|йку|йкой)|создател[ьяюе]м?|победител[ьяюе]м?"
    r"|соперник\w?|охотник\w?|собирател[ьяюе]м?|строител[ьяюе]м?)(?!\w)",
    re.IGNORECASE,
)
"""Nouns for a person's role that have a man's and a woman's form (ведущий / ведущая, хозяин / хозяйка, победитель /
победительница, соперник / соперница, and the bots' old names: охотник, собиратель, строитель): refused in every text,
about a player or not. Their plurals (победители) fit everyone."""
WORD = re.compile(r"\w+")


def russian_texts() -> dict[str, str]:
    """Every Russian text: the bot's tables and every game's own words (the picture words among them)."""
    return table("ru")


def about_a_player(key: str, template: str) -> bool:
    """Whether a text speaks of a player: a placeholder holds a person, or it is drawn beside a player's name."""
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return bool(names & PERSON_PLACEHOLDERS) or key.startswith(SAID_OF_A_PLAYER)


def words_of(template: str) -> list[str]:
    """The Russian words a template shows: placeholders and plural choices' names left out, their forms kept."""
    shown = []
    for literal, name, spec, _ in string.Formatter().parse(template):
        shown.append(literal)
        if name and spec and "=" in spec:
            shown.extend(form.split("=", 1)[1] for form in spec.split("|") if "=" in form)
    return [word.lower() for word in WORD.findall(" ".join(shown))]


def gendered(template: str) -> list[str]:
    """The words of a text about a player that tell the player's gender."""
    found = []
    for word in words_of(template):
        if word in IMPERSONAL or word in NOT_VERBS:
            continue
        if PAST_SINGULAR.fullmatch(word) or word in PAST_WITHOUT_L or word in PRONOUNS or word in SHORT_FORMS:
            found.append(word)
    return found


def test_no_text_about_a_player_says_whether_the_player_is_a_man_or_a_woman() -> None:
    texts = russian_texts()
    checked = {key: words for key, words in texts.items() if about_a_player(key, words)}
    assert len(checked) > 150, "the walk must reach the texts about players of every game"
    assert {key.split(".", 1)[0] for key in checked} >= {"admin", "bot", "cardgame", "dice", "ttr", "ttr_picture"}
    offending = {key: found for key, words in checked.items() if (found := gendered(words))}
    assert offending == {}


def test_no_text_names_a_role_with_a_man_s_or_a_woman_s_noun() -> None:
    offending = {key: ROLE_NOUNS.findall(words) for key, words in russian_texts().items() if ROLE_NOUNS.search(words)}
    assert offending == {}


@pytest.mark.parametrize(
    "template",
    [
        "{player} взял 2 карты из колоды.",
        "{player} взяла открытые карты.",
        "<@{player}> открыл игру.",
        "⌛ {player} не сходил за 5 мин: игра ждёт его.",
        "Все, включая него, делают ещё по ходу.",
        "{player} исключён из набора.",
        "{count:one=остался # вагончик|few=осталось # вагончика} у игрока {player}; {player} смог.",
    ],
)
def test_the_check_catches_a_player_told_as_a_man_or_a_woman(template: str) -> None:
    assert gendered(template) != []


@pytest.mark.parametrize(
    "template",
    [
        "{player} берёт 2 карты из колоды.",
        "У игрока {player} {cars:one=остаётся # вагончик|few=остаётся # вагончика}. Осталось 3 хода.",
        "⌛ {player}: 5 мин без хода, ход за игрока делает бот.",
        "{player} садится за стол; сначала — правила, около 5 мин.",
    ],
)
def test_the_check_lets_the_present_tense_and_things_pass(template: str) -> None:
    assert gendered(template) == []


def test_a_role_noun_is_caught_in_any_of_its_forms() -> None:
    caught = "1. Anna (ведущий) · Ведущая игры · хозяин стола · создатель игры · Победитель: Anna · сопернику · Охотник"
    assert ROLE_NOUNS.findall(caught) == [
        "ведущий",
        "Ведущая",
        "хозяин",
        "создатель",
        "Победитель",
        "сопернику",
        "Охотник",
    ]
    assert ROLE_NOUNS.findall("Победители: Anna, Boris · игру ведёт Anna · игроки") == []
