"""Every screen of every shipped game profile drawn (ui/screens.py): both panel sizes,
both languages. Each item keeps 2 px from the edges (measured on its ink), no two items
overlap, the font draws every character of the profiles' texts, and on 128x64 no title, step
or note of a shipped profile has to be abbreviated. The box's marks (no sound, cannot save,
a missing sound file) and the NEXT+ERA hold's bar keep the same rules on every screen."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from erabox.core.machine import step
from erabox.core.play import PlayScreen, State, new_play, screen
from erabox.files.games import available_games, load_game
from erabox.ui.game_words import word
from erabox.ui.panel import MARGIN, Panel
from erabox.ui.play_samples import E_PRESS, N_PRESS, every_screen
from erabox.ui.screens import Marks, Placed, layout_play, render_play
from erabox.ui.strings import LANGUAGES, colour_name
from erabox.ui.text import line_image, unsupported_characters

PANELS = (Panel(), Panel(height=32))


PROFILES = {name: load_game(name, []) for name in available_games([])
            if name != "time-of-empires"}  # the box's own game, in eras


@cache
def cases() -> list[tuple[str, int, PlayScreen]]:
    """(profile, index, screen) of every screen of every shipped profile (built once)."""
    return [(name, index, shown) for name, profile in sorted(PROFILES.items())
            for index, shown in enumerate(every_screen(profile))]


def test_every_kind_of_screen_is_drawn() -> None:
    kinds = {shown.kind for _, _, shown in cases()}
    assert kinds == {"setup", "round", "special", "event", "scoring", "game_over", "confirm"}
    assert len(cases()) > 100


def test_the_font_draws_every_text_of_the_shipped_profiles() -> None:
    for name, profile in PROFILES.items():
        texts = [profile.name, profile.round_name, *profile.notes]
        for group in (profile.phases, profile.specials, profile.events):
            for item in group:
                texts += [item.label, *item.steps]
        texts += [c.label for c in profile.categories] + [v.label for v in profile.variants]
        texts += [r.label for r in profile.solo_ranks]
        for label in texts:
            for language in LANGUAGES:
                missing = unsupported_characters(label.text(language))
                assert not missing, (name, label.text(language), missing)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_keeps_its_margins_and_items_apart(panel: Panel, language: str) -> None:
    for name, index, shown in cases():
        image = render_play(shown, panel, language)
        assert image.size == panel.size and image.mode == "1"
        assert image.getbbox() is not None
        items = layout_play(shown, panel, language)
        assert {"hint", "footer", "places"} & {i.role for i in items} or shown.kind in (
            "setup", "scoring", "confirm"), (name, shown.kind)
        for item in items:
            ink = item.mask.getbbox()
            assert ink is not None, (name, index, item.role)
            if item.lit:  # a lit bar (a question on 128x32, the ranking's verdict) runs edge
                # to edge, as Time of Empires'; a lit status label ("Resumed") from the edge
                assert item.x == 0, (name, index, item.role)
                assert item.mask.width == panel.width or item.role == "status", (name, index)
                continue
            left, top = item.x + ink[0], item.y + ink[1]
            right, bottom = item.x + ink[2], item.y + ink[3]
            assert left >= MARGIN and top >= MARGIN, (name, index, item.role, language)
            assert right <= panel.width - MARGIN, (name, index, item.role, language)
            assert bottom <= panel.height - MARGIN, (name, index, item.role, language)
            if not panel.compact and item.role in ("title", "step", "notes", "variant"):
                assert not item.abbreviated, (name, shown.kind, item.role, language)
        for a, b in combinations(items, 2):
            ax0, ay0, ax1, ay1 = a.box
            bx0, by0, bx1, by1 = b.box
            apart = ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
            assert apart, (name, index, a.role, b.role, language)


ALL_MARKS = Marks(no_sound=True, no_save=True, no_file=True)
MARK_ROLES = {"no_sound", "no_save", "no_file"}


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("held", [None, 0.5])
def test_the_boxs_marks_and_the_holds_bar_keep_margins_and_stand_apart(
        panel: Panel, language: str, held: float | None) -> None:
    marks = Marks(no_sound=True, no_save=True, no_file=True, hold_progress=held)
    for name, index, shown in cases():
        items = layout_play(shown, panel, language, marks)
        roles = [i.role for i in items]
        assert set(roles) >= MARK_ROLES, (name, index, shown.kind)
        for item in items:
            if item.role in MARK_ROLES:
                assert item.y == MARGIN and item.x + item.mask.width <= panel.width - MARGIN
        if held is None or shown.kind == "confirm":
            assert "hold" not in roles
        else:  # the lit bar runs edge to edge across the hint row; nothing else is there
            (bar,) = [i for i in items if i.role == "hold"]
            assert (bar.x, bar.y + bar.mask.height) == (0, panel.height - MARGIN)
            assert bar.mask.width == panel.width and not bar.abbreviated
            assert all(i.y + i.mask.height <= bar.y for i in items if i is not bar), (
                name, index, [(i.role, i.y) for i in items])
        for item in items:
            if item.role == "hold" or item.lit:  # a lit bar runs edge to edge
                continue
            ink = item.mask.getbbox()
            assert ink is not None, (name, index, item.role)
            assert item.x + ink[0] >= MARGIN and item.y + ink[1] >= MARGIN
            assert item.x + ink[2] <= panel.width - MARGIN, (name, index, item.role)
        for a, b in combinations(items, 2):
            ax0, ay0, ax1, ay1 = a.box
            bx0, by0, bx1, by1 = b.box
            apart = ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
            assert apart, (name, index, a.role, b.role, language)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
def test_the_holds_bar_fills_as_the_hold_goes_on(panel: Panel) -> None:
    shown = next(s for _, _, s in cases() if s.kind == "round")
    dark = []  # the bar is lit; each filled block is text ink, so fewer lit pixels
    for sixths in range(7):
        (bar,) = [i for i in layout_play(shown, panel, "en", Marks(hold_progress=sixths / 6))
                  if i.role == "hold"]
        dark.append(bar.mask.width * bar.mask.height - bar.mask.convert("L").histogram()[255])
    assert dark == sorted(dark) and len(set(dark)) == 7


def test_without_marks_a_screen_is_drawn_as_before() -> None:
    for _, _, shown in cases()[:40]:
        for panel in PANELS:
            plain = render_play(shown, panel, "en")
            assert render_play(shown, panel, "en", Marks()).tobytes() == plain.tobytes()
            marked = render_play(shown, panel, "en", ALL_MARKS)
            assert marked.tobytes() != plain.tobytes()


def _hadrian_over(players: tuple[str, ...], sheet: list[list[int]]) -> PlayScreen:
    """Hadrian's Wall played to its ranking: six years of NEXT, then `sheet` (per category,
    per player) entered with NEXT presses and confirmed with ERA."""
    play = new_play(PROFILES["hadrians-wall"], players)
    play, _ = step(play, E_PRESS, 0.0)
    while play.spot.state is not State.SCORING:
        play, _ = step(play, N_PRESS, 0.0)
    for row in sheet:
        for value in row:
            for _ in range(value):
                play, _ = step(play, N_PRESS, 0.0)
            play, _ = step(play, E_PRESS, 0.0)
    assert play.spot.state is State.GAME_OVER
    return screen(play, 0.0)


def _lines(items: list[Placed] | tuple[Placed, ...], role: str) -> list[bytes]:
    return [i.mask.tobytes() for i in items if i.role == role]


@pytest.mark.parametrize(("sheet", "status", "place"), [
    # 10 honour, 9 disdain (-22): -12 points; the rules summary rates no score below 0
    ([[10], [0], [0], [0], [9], [0]], {"en": "Score -12", "ja": "得点 -12"}, "1 {} -12"),
    ([[1], [0], [0], [0], [9], [0]], {"en": "Score -21", "ja": "得点 -21"}, "1 {} -21"),
    ([[0], [0], [0], [0], [0], [0]], {"en": "Score 0: Miles", "ja": "得点 0：Miles"}, "1 {} 0"),
    ([[25], [20], [0], [0], [1], [1]],
     {"en": "Score 45: Centurion", "ja": "得点 45：Centurion"}, "1 {} 45"),
])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_solo_game_says_the_score_and_its_rank_not_a_winner(
        sheet: list[list[int]], status: dict[str, str], place: str, language: str) -> None:
    shown = _hadrian_over(("red",), sheet)
    items = layout_play(shown, Panel(), language)  # the verdict lit, as Time of Empires'
    assert [(i.text, i.lit) for i in items if i.role == "title"] == [(status[language], True)]
    assert [i.text for i in items if i.role == "status"] == [word(language, "ranking")]
    compact = layout_play(shown, Panel(height=32), language)  # in the status row
    assert _lines(compact, "status") == [line_image(status[language]).tobytes()]
    colour = colour_name("red", language)
    assert _lines(items, "place") == [line_image(place.format(colour)).tobytes()]


def test_negative_totals_rank_below_positive_ones_and_show_their_sign() -> None:
    # red 10 honour and 9 disdain (-12), blue 3 honour (3), green 2 disdain (-3)
    sheet = [[10, 3, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [9, 0, 2], [0, 0, 0]]
    shown = _hadrian_over(("red", "blue", "green"), sheet)
    assert [(p[0], p[1], p[2]) for p in shown.places] == [
        (1, "blue", 3), (2, "green", -3), (3, "red", -12)]
    items = layout_play(shown, Panel(), "en")
    assert [(i.text, i.lit) for i in items if i.role == "title"] == [("blue wins!", True)]
    assert _lines(items, "place") == [line_image(t).tobytes()
                                      for t in ("1 blue 3", "2 green -3", "3 red -12")]
