"""The string catalogues: complete in both languages, drawable with the bundled font, wrapped."""

from __future__ import annotations

import string
from importlib import resources

import pytest
from fontTools.ttLib import TTFont

from erabox.ui import strings as catalogue
from erabox.ui.strings import (
    COLOUR_NAMES_JA,
    LANGUAGES,
    SAMPLE_VALUES,
    STRINGS,
    check_language,
    clock_text,
    colour_name,
    era_name,
    filled,
    say,
)
from erabox.ui.text import (
    BREAK_HINT,
    ELLIPSIS,
    MISSING,
    fit_text,
    has_glyph,
    text_width,
    unsupported_characters,
    wrap,
)


@pytest.fixture(scope="module")
def font_characters() -> set[str]:
    """Every character the bundled font maps, read from its cmap (independent of Pillow)."""
    font_file = resources.files("erabox.ui") / "fonts" / "misaki_gothic.ttf"
    with resources.as_file(font_file) as path:
        return {chr(code) for code in TTFont(str(path)).getBestCmap()}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def every_displayed_string() -> list[tuple[str, str, str]]:
    """(language, key, text) for each catalogue string filled with sample values, plus the
    era names, translated colours and clocks the renderer puts into them."""
    shown = [
        (language, key, filled(template))
        for language, table in STRINGS.items()
        for key, template in table.items()
    ]
    for language in LANGUAGES:
        shown += [(language, f"era {era}", era_name(era, language)) for era in range(1, 10)]
        shown += [
            (language, f"colour {colour}", colour_name(colour, language))
            for colour in COLOUR_NAMES_JA
        ]
    shown += [("en", "clock", clock_text(seconds)) for seconds in (0, 59, 540, 600, None)]
    return shown


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    assert set(STRINGS) == set(LANGUAGES)
    assert STRINGS["en"].keys() == STRINGS["ja"].keys()
    for key, english in STRINGS["en"].items():
        assert placeholders(english) == placeholders(STRINGS["ja"][key]), key
        assert placeholders(english) <= SAMPLE_VALUES.keys(), key


def test_no_string_is_left_untranslated() -> None:
    blanks = dict.fromkeys(SAMPLE_VALUES, "")
    same = [
        key
        for key, english in STRINGS["en"].items()
        if english == STRINGS["ja"][key] and any(ch.isalpha() for ch in english.format(**blanks))
    ]
    assert same == []


@pytest.mark.parametrize("term", ["学者の任命", "入門の時代", "ラウンド", "スタートプレイヤー",
                                  "得点計算フェイズ", "新たなゲーム", "次ラウンド", "ゲームの再開",
                                  "銅鑼", "時代"])
def test_japanese_uses_the_rulebook_terms(term: str) -> None:
    assert any(term in text for text in STRINGS["ja"].values())


# Where a screen once said it otherwise: (key, language, what the rulebook's wording needs).
RULEBOOK_WORDING = [
    ("sound_cry", "ja", "赤ん坊の泣き声"),  # the soundtrack's call, not a "scholars' signal"
    ("sound_cry", "en", "baby's cry"),
    ("tie_title", "ja", "同数"),  # a tie of totals, as the end of the game calls it
    ("prep_extra_leader", "ja", "ランダムに"),  # the fourth player's extra leader is random
    ("prep_extra_leader", "en", "random"),
    ("prep_wonder", "ja", "箱に戻す"),  # the era's other wonder cards leave the game
    ("prep_wonder", "en", "back in the box"),
    ("prep_scholars", "ja", "文化（青）区画"),  # whose scholar symbols count
    ("prep_scholars", "en", "culture (blue) section"),
    ("scoring_4", "ja", "学者"),  # step 4 ends by removing every scholar
    ("scoring_4", "en", "scholars"),
    ("hint_final_scoring", "ja", "ゲーム終了"),  # the game ends after Era III's scoring
    ("game_over", "ja", "ゲーム終了"),
]


@pytest.mark.parametrize(("key", "language", "words"), RULEBOOK_WORDING)
def test_screens_say_it_as_the_rulebook_does(key: str, language: str, words: str) -> None:
    assert words in STRINGS[language][key]


@pytest.mark.parametrize("not_the_rulebooks", ["学者の合図", "同点", "最終得点計算"])
def test_japanese_avoids_terms_the_rulebook_does_not_use(not_the_rulebooks: str) -> None:
    assert not [k for k, text in STRINGS["ja"].items() if not_the_rulebooks in text]


def test_every_displayed_character_is_in_the_font(font_characters: set[str]) -> None:
    missing = {
        (language, key, char)
        for language, key, text in every_displayed_string()
        for char in text
        if char not in font_characters and char not in " " + BREAK_HINT
    }
    assert missing == set()
    # The replacement marks are drawable too.
    assert {ELLIPSIS, MISSING} <= font_characters


def test_runtime_glyph_check_agrees_with_the_cmap(font_characters: set[str]) -> None:
    """`has_glyph` (Pillow, against the .notdef box) must match the font's real cmap."""
    probes = set("".join(text for _, _, text in every_displayed_string()))
    probes |= set("…◀▶🟥€ÄéЖ한\ue000")  # some present, most absent
    for char in probes - {" ", BREAK_HINT}:
        assert has_glyph(char) == (char in font_characters), repr(char)


def test_every_displayed_string_wraps_within_the_screen() -> None:
    for language, key, text in every_displayed_string():
        for scale in (1, 2):
            lines = wrap(text, 128, scale)
            assert all(text_width(line, scale) <= 128 for line in lines), (language, key, lines)
            # Wrapping loses no character (only the spaces it broke at and break hints).
            assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace(
                BREAK_HINT, ""
            ), (language, key)


def test_japanese_breaks_at_the_hint_rather_than_inside_a_word() -> None:
    assert wrap(say("ja", "question_restart_era"), 128, 2) == ["この時代を", "やり直す？"]


def test_a_line_never_starts_with_closing_punctuation() -> None:
    # 8 kana then "？": at 2x the question mark does not fit, so a kana moves down with it.
    lines = wrap("あいうえおかきく？", 128, 2)
    assert lines == ["あいうえおかき", "く？"]


def test_text_too_long_is_abbreviated_visibly() -> None:
    block = fit_text("pass the box left to the player sitting there " * 4, 128, ((1, 2),))
    assert block.abbreviated
    assert len(block.lines) == 2
    assert block.lines[-1].endswith(ELLIPSIS)
    assert all(text_width(line) <= 128 for line in block.lines)


def test_a_character_the_font_lacks_is_shown_as_a_question_mark() -> None:
    assert unsupported_characters("🟥 starts") == {"🟥"}
    assert fit_text("🟥 starts", 128, ((1, 1),)).lines == ("? starts",)


def test_colour_names() -> None:
    assert colour_name("red", "ja") == "赤"
    assert colour_name("Blue", "ja") == "青"
    assert colour_name("turquoise", "ja") == "turquoise"  # unknown: shown as given
    assert colour_name("red", "en") == "red"


def test_era_names_and_clock() -> None:
    assert era_name(2, "en") == "Era II"
    assert era_name(3, "ja") == "時代Ⅲ"
    assert era_name(7, "en") == "Era VII"  # a game's profile may have up to nine eras
    assert era_name(12, "en") == "Era 12"  # beyond them still shows something true
    assert [clock_text(s) for s in (540, 600, 61.9, 0, -3, None)] == [
        "9:00", "10:00", "1:01", "0:00", "0:00", "-:--"
    ]


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"'de'.*en, ja"):
        check_language("de")
    with pytest.raises(ValueError, match="'de'"):
        catalogue.say("de", "paused")
