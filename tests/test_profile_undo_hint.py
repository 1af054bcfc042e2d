"""A step on a 128x32 panel says how to undo: its three rows are full (the round, the step,
the footer), so the hint row shows the undo gesture every other page (`turning`), after the
step's position and, where it fits beside the countdown, whose turn it is; the step stays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from erabox.core.play import PlayScreen
from erabox.core.profile import Label
from erabox.ui.gallery import profile_samples
from erabox.ui.game_words import word
from erabox.ui.panel import Panel
from erabox.ui.screens import Marks, layout_play, turning

SMALL = Panel(height=32)
STEPS = [(f"{game}/{name}", shown) for game, _, screens in profile_samples()
         for name, shown in screens if shown.kind in ("round", "special", "event")]


def footers(shown: PlayScreen, language: str, panel: Panel = SMALL) -> list[str]:
    """The hint row's words on each page the screen turns to."""
    rows = []
    for turn in range(turning(shown, panel, language)):
        items = layout_play(shown, panel, language, Marks(turn=turn))
        assert any(i.role in ("step", "call") for i in items), "the step stays"
        rows.append(" ".join(i.text for i in items if i.role == "footer"))
    return rows


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(("name", "shown"), STEPS, ids=[n for n, _ in STEPS])
def test_every_step_says_hold_next_undo_every_other_page(name: str, shown: PlayScreen,
                                                          language: str) -> None:
    undo = word(language, "undo_next_hold")
    rows = footers(shown, language)
    assert len(rows) % 2 == 0
    assert [undo in row for row in rows] == [turn % 2 == 1 for turn in range(len(rows))]
    # the position first, but on the page of an event's hint too long to share it
    # (test_profile_compact.py): that says the event whole
    event = "" if shown.event is None else word(language, "hint_event",
                                                event=shown.event.text(language))
    assert all(row.startswith(f"{shown.position[0]}/") for row in rows
               if shown.position and row != event)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_whose_turn_stays_where_it_fits_beside_the_countdown(language: str) -> None:
    shown = replace(STEPS[0][1], player="yellow", timer_left=754)
    panel = SMALL
    items = layout_play(shown, panel, language, Marks(turn=1))
    footer = [i for i in items if i.role == "footer"]
    (timer,) = [i for i in items if i.role == "status_clock"]  # the countdown: status row
    assert timer.text == "12:34" and timer.y + timer.mask.height <= footer[0].y
    assert footer and not footer[-1].abbreviated
    assert word(language, "undo_next_hold") in footer[0].text
    short = replace(shown, last_turns=True, player="purple")  # a longer turn: the undo kept
    said = " ".join(i.text for i in layout_play(short, panel, language, Marks(turn=1))
                    if i.role == "footer")
    assert word(language, "undo_next_hold") in said


def test_next_hold_pausing_says_its_own_undo_and_none_where_era_hold_is_taken() -> None:
    """`[buttons] pause = "next_hold"`: ERA hold undoes (as 128x64's hint says), unless it
    starts an event or restarts the era: then no undo is said, and no page turns for it."""
    shown = replace(STEPS[0][1], pause_hold=True, event=None)
    assert word("en", "undo_era_hold") in footers(shown, "en")[1]
    paused = replace(shown, paused=True)
    assert word("en", "undo_era_hold") in footers(paused, "en")[1]  # ERA press: nothing
    for taken in (replace(shown, event=Label("Harvest", "収穫")),
                  replace(shown, restart=True)):
        assert not any("undo" in row for row in footers(taken, "en"))


def test_the_128x64_panel_is_unchanged() -> None:
    """Its hint row says the undo on every step already: no pages turn for it."""
    for _, shown in STEPS:
        assert turning(shown, Panel(), "en") == 1
