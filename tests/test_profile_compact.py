"""Issue #31's trial, looked at on the 128x32 panel: what a screen's rows cannot hold at
once turns pages (`turning`) instead of being cut to words the table cannot read. Altay's
rounds said "1/3 green's turn hold ERA: Ga‥" (in Japanese "ERA長押し:‥", the event gone),
and its points entry hid how a list ends ("Each wonder's points (at‥": "0 ends" lost) and
what a number means ("Secret wonder completed?‥": "1 = yes (+3)" lost)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from erabox.core.play import PlayScreen
from erabox.ui.gallery import profile_samples
from erabox.ui.game_words import word
from erabox.ui.panel import Panel
from erabox.ui.screens import MORE, Marks, layout_play, turning
from erabox.ui.strings import colour_name
from erabox.ui.text import drawable

SMALL = Panel(height=32)
SAMPLES = {f"{game}/{name}": shown for game, _, screens in profile_samples()
           for name, shown in screens}


def pages(shown: PlayScreen, language: str, role: str) -> list[tuple[str, bool]]:
    """What the items of `role` read on each page the screen turns to, and whether cut."""
    out = []
    for turn in range(turning(shown, SMALL, language)):
        items = [i for i in layout_play(shown, SMALL, language, Marks(turn=turn))
                 if i.role == role]
        out.append((" ".join(i.text for i in items), any(i.abbreviated for i in items)))
    return out


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("colour", ["red", "blue", "green", "yellow", "purple"])
def test_the_event_a_hold_starts_is_said_whole_and_whose_turn_still_shown(
        language: str, colour: str) -> None:
    shown = replace(SAMPLES["altay/007_round"], player=colour)
    assert shown.event is not None
    hint = word(language, "hint_event", event=shown.event.text(language))
    rows = pages(shown, language, "footer")
    assert any(hint in row and not cut for row, cut in rows), rows
    turn = word(language, "turn", colour=colour_name(colour, language))
    assert any(turn in row for row, _ in rows), rows
    undo = word(language, "undo_next_hold")  # the undo still every other page
    assert [undo in row for row, _ in rows] == [t % 2 == 1 for t in range(len(rows))]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["altay/013_scoring", "altay/014_scoring",
                                  "altay/018_scoring"])
@pytest.mark.parametrize("value", [0, 12])
def test_a_long_category_is_shown_whole_a_line_a_page_beside_the_number(
        language: str, name: str, value: int) -> None:
    shown = replace(SAMPLES[name], value=value)
    assert shown.title is not None
    rows = pages(shown, language, "status")  # each but the last ends " →"
    assert len(rows) > 1 and not any(cut for _, cut in rows), rows
    assert [row.endswith(f" {MORE}") for row, _ in rows] == [True] * (len(rows) - 1) + [False]
    whole = drawable(shown.title.text(language)).replace(" ", "")
    assert "".join(row.removesuffix(f" {MORE}").replace(" ", "") for row, _ in rows) == whole


def test_a_short_category_and_the_128x64_panel_do_not_turn() -> None:
    assert turning(SAMPLES["altay/015_scoring"], SMALL, "en") == 1
    for name in ("altay/013_scoring", "altay/007_round"):
        assert turning(SAMPLES[name], Panel(), "en") == 1
