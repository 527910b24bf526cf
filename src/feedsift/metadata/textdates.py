"""Dates as people write them in bylines and meta lines, in the main languages of the web.

Structured metadata writes ISO 8601; a page's visible text writes "15 July, 2021",
"15th of July 2021", "15-Jul-2021", "15. Juli 2021", "15 juillet 2021", "15 de julio de 2021",
"15 июля 2021 г.", "15 Temmuz 2021", "2021. július 15.", "15 tháng 7, 2021", "July 15th, 2021",
"2021年7月15日", "2021년 7월 15일", "15.07.2021" or "2021/07/15". :func:`find_text_date`
finds the first such date in a short text. Numeric dates with the day and month both at
most 12 are read day first (most of the world; a US page usually also declares its date
in its metadata, which is read first).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

from feedsift.metadata.dates import MAX_FUTURE, MIN_YEAR

__all__ = [
    "MONTH_NAMES", "dated", "find_text_date", "introduces_update", "opens_with_date_word",
    "written_dates",
]  # fmt: skip

#: Month names and their usual abbreviations, by month: English, German, French, Spanish,
#: Catalan, Italian, Portuguese, Dutch, the Scandinavian languages, Romanian, Indonesian and
#: Malay, Turkish, Finnish, Hungarian, Polish, Czech, Russian and Ukrainian (lower case,
#: accents kept; the Slavic and Finnish ones as a date writes them, "15 июля", "15. heinäkuuta").
MONTH_NAMES: dict[int, tuple[str, ...]] = {
    1: ("january", "jan", "januar", "janvier", "janv", "enero", "ene", "gennaio", "gen",
        "janeiro", "januari", "jänner", "jän", "gener", "ianuarie", "ocak", "tammikuuta",
        "január", "stycznia", "ledna", "января", "янв", "січня"),
    2: ("february", "feb", "februar", "février", "fevrier", "févr", "fevr", "febrero",
        "febbraio", "fevereiro", "fev", "februari", "febrer", "februarie", "şubat", "subat",
        "helmikuuta", "február", "lutego", "února", "unora", "февраля", "фев", "лютого"),
    3: ("march", "mar", "märz", "maerz", "mars", "marzo", "março", "marco", "maart", "mrt",
        "març", "martie", "maret", "mac", "mart", "maaliskuuta", "március", "marca",
        "března", "brezna", "марта", "мар", "березня"),
    4: ("april", "apr", "avril", "avr", "abril", "abr", "aprile", "aprilie", "nisan",
        "huhtikuuta", "április", "kwietnia", "dubna", "апреля", "апр", "квітня"),
    5: ("may", "mai", "mayo", "maggio", "mag", "maio", "mei", "maj", "maig", "mayıs", "mayis",
        "toukokuuta", "május", "maja", "května", "kvetna", "мая", "травня"),
    6: ("june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho", "juny", "iunie",
        "haziran", "kesäkuuta", "június", "czerwca", "června", "cervna", "июня", "июн",
        "червня"),
    7: ("july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho", "juliol",
        "iulie", "julai", "temmuz", "heinäkuuta", "július", "lipca", "července", "cervence",
        "июля", "июл", "липня"),
    8: ("august", "aug", "août", "aout", "agosto", "ago", "augustus", "agost", "agustus",
        "ogos", "ağustos", "agustos", "elokuuta", "augusztus", "sierpnia", "srpna", "августа",
        "авг", "серпня"),
    9: ("september", "sep", "sept", "septembre", "septiembre", "settembre", "set", "setembro",
        "setembre", "septembrie", "eylül", "eylul", "syyskuuta", "szeptember", "września",
        "wrzesnia", "září", "zari", "сентября", "сен", "вересня"),
    10: ("october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott",
         "outubro", "out", "octombrie", "ekim", "lokakuuta", "október", "października",
         "pazdziernika", "října", "rijna", "октября", "окт", "жовтня"),
    11: ("november", "nov", "novembre", "noviembre", "novembro", "noiembrie", "kasım",
         "kasim", "marraskuuta", "listopada", "listopadu", "ноября", "ноя", "листопада"),
    12: ("december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre",
         "dic", "dicembre", "dezembro", "desember", "desembre", "decembrie", "disember",
         "aralık", "aralik", "joulukuuta", "grudnia", "prosince", "декабря", "дек", "грудня"),
}  # fmt: skip
_BY_NAME = {name: month for month, names in MONTH_NAMES.items() for name in names}
_MONTH = "(" + "|".join(sorted(map(re.escape, _BY_NAME), key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|º|°)?\.?"
_YEAR = r"((?:19|20)\d\d)(?!\d)"

#: Between a day and a month name: spaces, "de" / "of" ("15 de julio", "15th of July") or
#: one dash or slash ("15-Jul-2021").
_DAY_MONTH = r"(?:\s*(?:de\s+|of\s+)?|[-/])"
#: Between a month name and a year: a comma, spaces, "de", or one dash or slash.
_MONTH_YEAR = r"(?:,?\s*(?:de\s+)?|[-/])"

#: A day, month and two-digit year written with dots and leading zeros ("Do 25.04.24 |
#: 14:07 Uhr": German and Central European news bylines); the zeros and the dots keep version
#: numbers (3.10.12) and decimals out, and the year is this century's.
SHORT_YEAR_DATE = r"(?<![\d.])([0-3]\d)\.([01]\d)\.(\d\d)(?!\d|\.\d)"

#: Each pattern with the order of its (day, month, year) groups.
_PATTERNS: tuple[tuple[re.Pattern[str], tuple[int, int, int]], ...] = (
    (re.compile(rf"(?<!\d){_DAY}{_DAY_MONTH}{_MONTH}{_MONTH_YEAR}{_YEAR}", re.I), (1, 2, 3)),
    (re.compile(rf"(?<![\w]){_MONTH}\s+{_DAY},?\s+{_YEAR}", re.I), (2, 1, 3)),
    # Hungarian and Lithuanian write the year first: "2021. július 15.".
    (re.compile(rf"(?<!\d){_YEAR}[.,]\s*{_MONTH}\s+(\d{{1,2}})(?!\d)", re.I), (3, 2, 1)),
    # Vietnamese: "15 tháng 7, 2021", "ngày 15 tháng 7 năm 2021".
    (re.compile(r"(?<!\d)(\d{1,2})\s+tháng\s+(\d{1,2}),?\s+(?:năm\s+)?((?:19|20)\d\d)(?!\d)",
                re.I), (1, 2, 3)),
    (re.compile(r"(?<!\d)((?:19|20)\d\d)\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})"), (3, 2, 1)),
    (re.compile(r"(?<!\d)((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)"), (3, 2, 1)),
    (re.compile(r"(?<!\d)(\d{1,2})([./-])(\d{1,2})\2((?:19|20)\d\d)(?!\d)"), (1, 3, 4)),
    (re.compile(SHORT_YEAR_DATE), (1, 2, 3)),
)  # fmt: skip
#: The year every one of :data:`_PATTERNS` needs (four digits, or a dotted date's two):
#: most lines have none, and one search for it spares them the eight searches (the
#: month-name alternation is long).
_ANY_YEAR = re.compile(rf"(?:19|20)\d\d|{SHORT_YEAR_DATE}")


def _month(value: str) -> int:
    return int(value) if value.isdigit() else _BY_NAME[value.lower()]


def _full_year(year: str) -> int:
    """A year as written, or this century's for two digits ("24": 2024)."""
    return int(year) + (2000 if len(year) == 2 else 0)


def _date(day: str, month: str, year: str) -> datetime | None:
    number = _month(month)
    if not month.isdigit() or number <= 12:
        day_number = int(day)
    else:  # "07/15/2021": the second number cannot be a month
        number, day_number = int(day), number
    try:
        value = datetime(_full_year(year), number, day_number, tzinfo=UTC)
    except ValueError:
        return None
    if value.year < MIN_YEAR or value > datetime.now(UTC) + MAX_FUTURE:
        return None
    return value


#: Words that say the date after them is an update, not the publication ("Last updated on"),
#: and words that say it is the publication; the last of them before a date decides.
_UPDATED_WORDS = (
    r"updated|modified|edited|revised|mis à jour|modifié|aktualisiert|geändert|actualizado|"
    r"modificado|aggiornato|atualizado|bijgewerkt|gewijzigd|uppdaterad|oppdatert|opdateret|"
    r"zaktualizowano|обновлено|изменено|更新|修改|수정"
)
_POSTED_WORDS = (
    r"posted|published|written|created|publié|veröffentlicht|erstellt|publicado|pubblicato|"
    r"gepubliceerd|publicerad|publisert|opublikowano|опубликовано|发表|發表|发布|發佈|投稿|公開|"
    r"작성|게시"
)
_INTRO = re.compile(rf"(?P<updated>{_UPDATED_WORDS})|{_POSTED_WORDS}", re.IGNORECASE)
_OPENING = re.compile(rf"\s*(?:last\s+)?(?:{_UPDATED_WORDS}|{_POSTED_WORDS})", re.IGNORECASE)
#: How far before a date the word that introduces it is looked for (characters).
INTRO_CHARS = 40


def opens_with_date_word(text: str) -> bool:
    """Whether ``text`` opens with a word that introduces a date ("Posted", "发表于",
    "Last updated"): a date line, however long its other words."""
    return _OPENING.match(text) is not None


def introduces_update(text: str) -> bool:
    """Whether the last date-introducing word of ``text`` says "updated" (in any of the
    languages above): the date that follows is not the publication's."""
    words = list(_INTRO.finditer(text))
    return bool(words) and words[-1].group("updated") is not None


def dated(text: str, within: int | None = None) -> tuple[datetime, bool] | None:
    """The first plausible date written in ``text`` that is not introduced as an update,
    else the first one; with whether it is an update. With ``within``, only a date that
    starts in the text's first ``within`` characters counts."""
    end = len(text) if within is None else within + 40
    if _ANY_YEAR.search(text, 0, end) is None:
        return None
    update = None
    for pattern, (d, m, y) in _PATTERNS:
        for match in pattern.finditer(text, 0, end):
            found = _date(match.group(d), match.group(m), match.group(y))
            if found is None or (within is not None and match.start() > within):
                continue
            if not introduces_update(text[max(0, match.start() - INTRO_CHARS) : match.start()]):
                return found, False
            update = update or found
    return (update, True) if update is not None else None


def written_dates(text: str) -> Iterator[datetime]:
    """Every plausible date written in ``text``, pattern by pattern (not in text order)."""
    for pattern, (d, m, y) in _PATTERNS:
        for match in pattern.finditer(text):
            found = _date(match.group(d), match.group(m), match.group(y))
            if found is not None:
                yield found


def find_text_date(text: str) -> datetime | None:
    """The first plausible date written in ``text`` (midnight UTC) that is not introduced as
    an update ("Updated 20 Aug 2021 · Published 15 Jul 2021"), else the first one, or ``None``."""
    found = dated(text)
    return found[0] if found is not None else None
