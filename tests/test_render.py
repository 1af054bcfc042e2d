"""The renderer: every screen kind, both languages, status marks, fit, and speed.

Pixel checks look at the rendered image itself (ink bounding boxes, lit pixel counts, which
rows changed); the layout is only used to find where a part was meant to go.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from erabox.core.model import Mode, Phase, Prompt, Question, Screen
from erabox.ui.layout import (
    DigitsItem,
    Layout,
    ProgressItem,
    TextItem,
    layout,
)
from erabox.ui.panel import Panel
from erabox.ui.render import render
from erabox.ui.samples import sample_renders, sample_screens
from erabox.ui.strings import COLOUR_NAMES_JA, LANGUAGES
from erabox.ui.text import ELLIPSIS

SAMPLES = sample_screens()
SAMPLE = dict(SAMPLES)
RUNNING = SAMPLE["running"]


def lit(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> int:
    """Number of lit pixels in `image` (or in `box` of it)."""
    region = image.crop(box) if box else image
    return sum(region.histogram()[1:])


def changed_rows(a: Image.Image, b: Image.Image) -> set[int]:
    """The y coordinates where two frames differ."""
    diff = np.asarray(ImageChops.logical_xor(a, b))
    return {int(y) for y in np.nonzero(diff.any(axis=1))[0]}


def items_of(lay: Layout, kind: type) -> list:
    return [item for item in lay.items if isinstance(item, kind)]


def assert_well_placed(lay: Layout, image: Image.Image, *, strict: bool = True,
                       panel: Panel | None = None, abbreviated_ok: bool = False) -> None:
    """Items lie on the panel, ink stays inside the items' boxes; if `strict`, items do not
    overlap and (unless `abbreviated_ok`) no text was abbreviated."""
    panel = panel or Panel()
    assert image.size == panel.size
    for item in lay.items:
        assert item.box.inside(panel), item
    outside = image.copy()
    for item in lay.items:
        outside.paste(0, (item.box.x, item.box.y, item.box.right, item.box.bottom))
    assert outside.getbbox() is None, "ink outside every item's box"
    if strict:
        for first, second in combinations(lay.items, 2):
            assert not first.box.overlaps(second.box), (first, second)
        for item in items_of(lay, TextItem):
            assert abbreviated_ok or not item.block.abbreviated, item


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "screen", "no_sound"), sample_renders())
def test_every_sample_renders_on_screen_and_fits(
    name: str, screen: Screen, no_sound: bool, language: str
) -> None:
    image = render(screen, language=language, no_sound=no_sound)
    assert image.size == (128, 64)
    assert image.mode == "1"
    assert lit(image) > 100, "a screen that shows almost nothing"
    assert_well_placed(layout(screen, language=language, no_sound=no_sound), image)


def test_the_samples_cover_every_kind_and_prompt() -> None:
    assert {screen.kind for _, screen in SAMPLES} == set(Phase)
    assert {screen.prompt for _, screen in SAMPLES} == set(Prompt) | {None}
    assert {screen.question for _, screen in SAMPLES} == set(Question) | {None}
    assert any(no_sound for _, _, no_sound in sample_renders())
    assert any(screen.volume is not None for _, screen in SAMPLES)


def digits_ink_height(screen: Screen, role: str) -> int:
    """Height in px of the ink in the big digits' region of the rendered frame."""
    (digits,) = [item for item in items_of(layout(screen), DigitsItem) if item.role == role]
    box = digits.box
    ink = render(screen).crop((box.x, box.y, box.right, box.bottom)).getbbox()
    assert ink is not None
    return ink[3] - ink[1]


@pytest.mark.parametrize("seconds_left", [540, 421, 60, 9, 0])
def test_running_clock_digits_are_at_least_24_px_tall(seconds_left: int) -> None:
    screen = replace(RUNNING, seconds_left=seconds_left, elapsed=540.0 - seconds_left)
    assert digits_ink_height(screen, "clock") >= 24


def test_countdown_and_round_digits_are_big() -> None:
    assert digits_ink_height(SAMPLE["lead_in"], "countdown") >= 24
    assert digits_ink_height(SAMPLE["intro_round_resumed"], "round") >= 24  # "12/15"


def test_a_long_era_still_fits_its_clock() -> None:
    screen = replace(RUNNING, seconds_left=1199, length_s=1200.0, elapsed=1.0)
    lay = layout(screen)
    assert_well_placed(lay, render(screen))
    (clock,) = items_of(lay, DigitsItem)
    assert clock.text == "19:59"


@pytest.mark.parametrize("language", LANGUAGES)
def test_different_screens_look_different(language: str) -> None:
    frames = {
        name: render(screen, language=language, no_sound=no_sound).tobytes()
        for name, screen, no_sound in sample_renders()
    }
    same = [(a, b) for a, b in combinations(frames, 2) if frames[a] == frames[b]]
    assert same == []


@pytest.mark.parametrize(("name", "screen", "no_sound"), sample_renders())
def test_english_and_japanese_differ(name: str, screen: Screen, no_sound: bool) -> None:
    english = render(screen, language="en", no_sound=no_sound)
    japanese = render(screen, language="ja", no_sound=no_sound)
    assert english.tobytes() != japanese.tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["setup_new_game", "running", "intro_round", "scoring_points"])
def test_no_sound_mark_appears_in_the_status_row(language: str, name: str) -> None:
    screen = SAMPLE[name]
    plain = render(screen, language=language)
    marked = render(screen, language=language, no_sound=True)
    rows = changed_rows(plain, marked)
    assert rows, "the no-sound mark changed nothing"
    assert max(rows) < Panel().content_top  # only the status row changes
    (icon,) = [i for i in layout(screen, language=language, no_sound=True).items
               if i.role == "no_sound"]
    assert icon.box.right >= 116  # at the right end
    drawn = marked.crop((icon.box.x, icon.box.y, icon.box.right, icon.box.bottom))
    assert lit(drawn) == sum(row.count("#") for row in icon.rows)


@pytest.mark.parametrize("language", LANGUAGES)
def test_volume_appears_in_the_status_row_while_it_changes(language: str) -> None:
    plain = render(RUNNING, language=language)
    at_80 = render(replace(RUNNING, volume=80), language=language)
    at_30 = render(replace(RUNNING, volume=30), language=language)
    for frame in (at_80, at_30):
        rows = changed_rows(plain, frame)
        assert rows and max(rows) < Panel().content_top
    assert at_80.tobytes() != at_30.tobytes()  # the number itself is shown
    both = render(replace(RUNNING, volume=80), language=language, no_sound=True)
    assert_well_placed(layout(replace(RUNNING, volume=80), language=language, no_sound=True),
                       both)


def test_the_clock_ticks_in_the_clock_region_only() -> None:
    lay = layout(RUNNING)
    (clock,) = items_of(lay, DigitsItem)
    (bar,) = items_of(lay, ProgressItem)
    a = render(replace(RUNNING, seconds_left=300))
    b = render(replace(RUNNING, seconds_left=299))
    rows = changed_rows(a, b)
    assert rows and min(rows) >= clock.box.y and max(rows) < clock.box.bottom
    assert bar.box.y >= clock.box.bottom


def test_progress_bar_fills_as_the_era_runs() -> None:
    bar = items_of(layout(RUNNING), ProgressItem)[0].box
    region = (bar.x, bar.y, bar.right, bar.bottom)
    counts = [
        lit(render(replace(RUNNING, elapsed=elapsed, seconds_left=540 - elapsed)), region)
        for elapsed in (0, 60, 200, 400, 539, 540)
    ]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    without_marks = render(replace(RUNNING, cue_marks=()))
    assert lit(without_marks, region) != lit(render(RUNNING), region)


def test_scholar_prompt_covers_the_clock_and_keeps_the_time_in_sight() -> None:
    screen = SAMPLE["running_scholars"]
    lay = layout(screen)
    assert not [item for item in items_of(lay, DigitsItem) if item.role == "clock"]
    texts = {item.role: item for item in items_of(lay, TextItem)}
    assert texts["prompt"].inverted
    assert texts["status_clock"].source == "5:58"
    prompt = texts["prompt"].box
    image = render(screen)
    area = prompt.w * prompt.h
    assert lit(image, (prompt.x, prompt.y, prompt.right, prompt.bottom)) > area // 2


def test_pause_hint_and_resumed_are_lit_bars() -> None:
    hint = {i.role: i for i in items_of(layout(SAMPLE["running_pause_hint"]), TextItem)}["hint"]
    # the bars reach the sides; their text keeps the 2 px margin (tests/test_margins.py)
    assert hint.inverted and hint.box.w == 128 and hint.box.bottom == 62
    status = {i.role: i for i in items_of(layout(SAMPLE["paused_resumed"]), TextItem)}["status"]
    assert status.inverted and status.box.x == 0 and status.box.y == 1


def test_confirm_over_a_running_era_keeps_its_clock() -> None:
    roles = layout(SAMPLE["confirm_restart_era"]).roles()
    assert "status_clock" in roles and "question" in roles


def test_a_long_colour_name_is_abbreviated_not_cut() -> None:
    screen = replace(SAMPLE["scholars"], start_player="ultramarine-with-golden-stripes" * 3)
    for language in LANGUAGES:
        lay = layout(screen, language=language)
        assert_well_placed(lay, render(screen, language=language), strict=False)
        (named,) = [item for item in items_of(lay, TextItem) if item.role == "next_start"]
        assert named.block.abbreviated and named.block.lines[-1].endswith(ELLIPSIS)


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        render(RUNNING, language="fr")


# --- any screen the core could produce -------------------------------------------------------

plausible_screens = st.builds(
    Screen,
    kind=st.sampled_from(Phase),
    era=st.integers(1, 3),
    mode=st.sampled_from(Mode),
    new_game=st.booleans(),
    seconds_left=st.none() | st.integers(0, 600),
    length_s=st.sampled_from([540.0, 600.0, 60.0]),
    elapsed=st.none() | st.floats(0, 600),
    cue_marks=st.sampled_from([(), (180.0, 360.0), (10.0, 20.0, 30.0, 40.0)]),
    countdown=st.none() | st.integers(1, 9),
    round=st.none() | st.integers(1, 30),
    rounds=st.integers(1, 30),
    start_player=st.none() | st.sampled_from([*COLOUR_NAMES_JA, "turquoise"]),
    scoring_step=st.none() | st.integers(0, 5),
    question=st.none() | st.sampled_from(Question),
    prompt=st.none() | st.sampled_from(Prompt),
    volume=st.none() | st.integers(0, 100),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(screen=plausible_screens, language=st.sampled_from(LANGUAGES), no_sound=st.booleans())
def test_any_plausible_screen_fits_without_abbreviation(
    screen: Screen, language: str, no_sound: bool
) -> None:
    image = render(screen, language=language, no_sound=no_sound)
    assert image.size == (128, 64) and image.mode == "1"
    assert_well_placed(layout(screen, language=language, no_sound=no_sound), image)


junk_screens = st.builds(
    Screen,
    kind=st.sampled_from(Phase),
    era=st.integers(-3, 99),
    mode=st.sampled_from(Mode),
    seconds_left=st.none() | st.integers(-100, 10**6),
    length_s=st.floats(-10, 10**5),
    elapsed=st.none() | st.floats(-100, 10**6),
    cue_marks=st.lists(st.floats(-10, 10**4), max_size=6).map(tuple),
    countdown=st.none() | st.integers(-5, 10**4),
    round=st.none() | st.integers(-5, 10**6),
    rounds=st.integers(-5, 10**6),
    start_player=st.none() | st.text(max_size=60),
    scoring_step=st.none() | st.integers(-5, 50),
    question=st.none() | st.sampled_from(Question),
    prompt=st.none() | st.sampled_from(Prompt),
    volume=st.none() | st.integers(-50, 10**4),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(screen=junk_screens, language=st.sampled_from(LANGUAGES), no_sound=st.booleans())
def test_even_a_nonsense_screen_renders_on_the_screen(
    screen: Screen, language: str, no_sound: bool
) -> None:
    """A corrupt snapshot must not stop the display: it draws, within the 128x64."""
    image = render(screen, language=language, no_sound=no_sound)
    assert image.size == (128, 64)
    assert_well_placed(layout(screen, language=language, no_sound=no_sound), image,
                       strict=False)


SMALL = Panel(height=32)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(screen=plausible_screens, language=st.sampled_from(LANGUAGES), no_sound=st.booleans())
def test_any_plausible_screen_fits_a_128x32_panel_without_overlap(
    screen: Screen, language: str, no_sound: bool
) -> None:
    """On three rows of text some long texts are abbreviated (visibly), but nothing overlaps
    and nothing leaves the panel."""
    image = render(screen, language=language, no_sound=no_sound, panel=SMALL)
    assert_well_placed(layout(screen, language=language, no_sound=no_sound, panel=SMALL),
                       image, panel=SMALL, abbreviated_ok=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(screen=junk_screens, language=st.sampled_from(LANGUAGES), no_sound=st.booleans())
def test_even_a_nonsense_screen_renders_on_a_128x32_panel(
    screen: Screen, language: str, no_sound: bool
) -> None:
    image = render(screen, language=language, no_sound=no_sound, panel=SMALL)
    assert_well_placed(layout(screen, language=language, no_sound=no_sound, panel=SMALL),
                       image, strict=False, panel=SMALL)


def test_a_panel_without_layouts_is_refused() -> None:
    with pytest.raises(ValueError, match="128x48"):
        Panel(height=48)


def test_the_bench_times_every_render() -> None:
    from erabox.benchmarks.footprint import render_times_ms

    # How fast is a figure for `make bench` (render p50/p99), not an assertion here.
    times = render_times_ms(200)
    assert len(times) == 200
    assert all(t > 0 for t in times)
