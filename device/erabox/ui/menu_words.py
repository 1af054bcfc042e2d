"""The settings menu's words: how its screen says a value (a colour, a language, a game by its
own name), an item's label, and its notes ("swapped with seat 2", a game that cannot be
played). Pure; `plans._plan_settings` lays them out."""

from __future__ import annotations

from erabox.core.settings import SAY_COLOUR, SAY_GAME, SAY_LANGUAGE, SAY_WORD, MenuItem

from .panel import Panel
from .strings import LANGUAGE_NAMES, colour_name, era_name, say
from .text import drawable, text_width


def menu_value(row: MenuItem, value: str, language: str,
               names: tuple[str, str] | None = None) -> str:
    """A settings value as the screen says it (`MenuItem.says`); a game profile by its own
    name in `language` (`names`: English, Japanese), else by its file's name."""
    if row.says == SAY_COLOUR:
        return colour_name(value, language)
    if row.says == SAY_LANGUAGE:
        return LANGUAGE_NAMES.get(value, value)
    if row.says == SAY_GAME:
        if value and names is not None:
            return names[1] if language == "ja" else names[0]
        return value or say(language, "value_time_of_empires")
    if row.says == SAY_WORD:
        return say(language, f"value_{value}") if value in row.words else value
    return say(language, row.says, n=value)


def menu_label(row: MenuItem, number: int, language: str) -> str:
    return (say(language, row.label, n=number, era=era_name(number, language)) if number
            else say(language, row.label))


def small_menu_note(note: str, value: str, language: str) -> str:
    """The menu's note on a 128x32 panel, where it stands in for the value: a game that
    cannot be played for this many players is named with its range where that fits the
    line ("Lords of Xidit: for 3-5 players"), else the note alone."""
    kind, _, rest = note.partition(":")
    if kind == "game_players" and value:
        named = say(language, "note_game_players_named", game=value, n=_span(rest, language))
        if text_width(drawable(named)) <= Panel(height=32).inner:  # panels differ in height only
            return named
    return menu_note(note, language)


def _span(fewest_most: str, language: str) -> str:
    """"3:5" as the screen says a players' range: "3-5", or "3" when both are the same."""
    fewest, _, most = fewest_most.partition(":")
    return fewest if fewest == most else say(language, "players_span", a=fewest, b=most)


def menu_note(note: str, language: str) -> str:
    """A note of the menu: "defaults_done", or "swapped_<seat>" (a seat took the colour of
    that seat, which took the old one); on "Game", why the game cannot be played (the hint
    row says what to change): "game_players:<fewest>:<most>" or "game_broken:<file:line>"."""
    seat = note.removeprefix("swapped_")
    if seat != note and seat.isdigit():
        return say(language, "note_swapped", n=seat)
    kind, _, rest = note.partition(":")
    if kind == "game_players":
        return say(language, "note_game_players", n=_span(rest, language))
    if kind == "game_broken":
        return say(language, "note_game_broken", file=rest)
    return say(language, f"note_{note}")
