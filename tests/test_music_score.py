"""Where the 540 s era score plays for any era length and scholar calls (core/music_score.py)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from erabox.core.music_score import (
    SCORE_LENGTH_S,
    SCORE_SECTIONS_S,
    SECTION_TAIL_S,
    era_sections,
    score_segments,
)


def score_position(elapsed_s: float, length_s: float, cues_s: tuple[float, ...]) -> float:
    """Seconds into the 540 s score for `elapsed_s` of running time in an era, by its
    segments (`score_segments`): 0 before the start, the score's end from the era's end on."""
    if elapsed_s <= 0.0:
        return 0.0
    if elapsed_s >= length_s:
        return SCORE_LENGTH_S
    at, position = max((p for p in score_segments(length_s, cues_s) if p[0] <= elapsed_s),
                       key=lambda p: p[0])
    return position + (elapsed_s - at)

RULEBOOK = (540.0, (180.0, 360.0))


def test_the_rulebook_era_plays_the_score_straight_through() -> None:
    assert score_segments(*RULEBOOK) == ((0.0, 0.0),)
    for t in (0.0, 0.5, 179.99, 180.0, 359.0, 360.0, 479.5, 539.99):
        assert score_position(t, *RULEBOOK) == pytest.approx(t)


def test_before_the_start_and_after_the_end() -> None:
    assert score_position(-3.0, *RULEBOOK) == 0.0
    assert score_position(540.0, *RULEBOOK) == SCORE_LENGTH_S
    assert score_position(600.0, 480.0, (160.0, 320.0)) == SCORE_LENGTH_S


def test_a_short_era_plays_each_sections_end() -> None:
    """A 6-minute era with calls at 2:00 and 4:00: every section is 120 s, so each plays
    the last 120 s of its score section (the rise stays at the end)."""
    era = (360.0, (120.0, 240.0))
    assert score_segments(*era) == ((0.0, 60.0), (120.0, 240.0), (240.0, 420.0))
    assert score_position(0.5, *era) == pytest.approx(60.5)
    assert score_position(119.0, *era) == pytest.approx(179.0)
    assert score_position(120.0, *era) == pytest.approx(240.0)
    assert score_position(359.0, *era) == pytest.approx(539.0)


def test_a_long_section_rounds_its_opening_then_plays_whole() -> None:
    """A 10-minute era, calls at 3:00 and 6:00: the last section lasts 240 s. Its opening
    120 s (all but the rise) plays for the extra 60 s, then the whole section to the gong."""
    era = (600.0, (180.0, 360.0))
    assert score_segments(*era) == ((0.0, 0.0), (420.0, 360.0))
    assert score_position(400.0, *era) == pytest.approx(400.0)
    assert score_position(420.0, *era) == pytest.approx(360.0)
    assert score_position(599.0, *era) == pytest.approx(539.0)
    # Twenty minutes: the last section lasts 840 s, 660 s more than the score's; they go
    # round the 120 s opening five and a half times, then the whole section plays.
    long = era_sections(1200.0, (180.0, 360.0))
    assert long == (0.0, 180.0, 360.0, 1200.0)
    pieces = score_segments(1200.0, (180.0, 360.0))
    body = 180.0 - SECTION_TAIL_S
    rounds = tuple((360.0 + k * body, 360.0) for k in range(1, 6))
    assert pieces == ((0.0, 0.0), *rounds, (1020.0, 360.0))
    assert score_position(1019.0, 1200.0, (180.0, 360.0)) == pytest.approx(360.0 + 59.0)
    assert score_position(1199.0, 1200.0, (180.0, 360.0)) == pytest.approx(539.0)


def test_other_scholar_calls_map_the_whole_era_onto_the_whole_score() -> None:
    assert era_sections(540.0, (270.0,)) == (0.0, 540.0)
    assert score_segments(540.0, (270.0,)) == ((0.0, 0.0),)
    assert score_segments(300.0, ()) == ((0.0, 240.0),)
    assert era_sections(540.0, (180.0, 600.0)) == (0.0, 540.0)  # a call after the end


@given(length=st.floats(30.0, 3600.0),
       first=st.floats(0.05, 0.9), second=st.floats(0.05, 0.95),
       t=st.floats(0.0, 1.0))
@example(length=64.0, first=0.5, second=0.5, t=0.0)  # two calls 1 ms apart
def test_the_mapping_always_ends_each_section_on_its_call(length: float, first: float,
                                                          second: float, t: float) -> None:
    calls = tuple(sorted((length * first, length * max(first, second) + 1e-3)))
    calls = tuple(c for c in calls if c < length)
    bounds = era_sections(length, calls)
    score = SCORE_SECTIONS_S if len(bounds) == 4 else (0.0, SCORE_LENGTH_S)
    # Just before each section's end the score is just before that section's end too (for a
    # section long enough that "just before its end" lies inside it: calls 1 ms apart make a
    # 1 ms section, whose end minus 1 ms rounds into the section before).
    for start, end, score_end in zip(bounds[:-1], bounds[1:], score[1:], strict=True):
        before = end - 1e-3
        if before > start + 1e-3:
            assert score_position(before, length, calls) == pytest.approx(score_end - 1e-3,
                                                                          abs=1e-6)
    # Always inside the section of the score that belongs to the running section.
    elapsed = t * length
    position = score_position(elapsed, length, calls)
    assert 0.0 <= position <= SCORE_LENGTH_S
    index = max(i for i in range(len(bounds) - 1) if bounds[i] <= elapsed)
    assert score[index] - 1e-9 <= position <= score[index + 1] + 1e-9
    # Pieces play straight on: positions between two piece starts advance with time.
    pieces = score_segments(length, calls)
    assert pieces[0][0] == 0.0
    assert all(a[0] < b[0] for a, b in pairwise(pieces))


def test_music_style_is_a_config_choice() -> None:
    from erabox.core.config import ConfigError, parse_config

    assert parse_config("").audio.music_style == "score"
    assert parse_config('[audio]\nmusic_style = "synth"\n').audio.music_style == "synth"
    with pytest.raises(ConfigError, match="music_style"):
        parse_config('[audio]\nmusic_style = "orchestra"\n')
