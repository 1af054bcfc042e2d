"""Time of Empires' preparation guide on a 128x32 panel: every step's whole text, two lines a
page, turning on its own every `PAGE_S` (`ui/guide_pages.py`); before, a long step was cut
after its second line ("‥")."""

from __future__ import annotations

from pathlib import Path

import pytest

from erabox.core.model import Mode, Phase, Screen
from erabox.run.frames import FrameWriter
from erabox.run.page_turns import PageTurns
from erabox.ui.guide_pages import MORE
from erabox.ui.layout import TextItem, layout
from erabox.ui.panel import Panel
from erabox.ui.render import turning
from erabox.ui.screens import PAGE_S
from erabox.ui.strings import STRINGS, say
from erabox.ui.text import drawable, text_width

SMALL, LARGE = Panel(128, 32), Panel(128, 64)
GUIDE = sorted(k for k in STRINGS["en"] if k.startswith(("setup_", "prep_")))


def guide(key: str, players: int = 4) -> Screen:
    return Screen(kind=Phase.PREPARE, era=2, mode=Mode.REALTIME, guide_step=key,
                  guide_n=players, guide_position=(3, 9), guide_part="era")


def shown_lines(screen: Screen, language: str, panel: Panel, turn: int) -> list[str]:
    items = layout(screen, language=language, panel=panel, turn=turn).items
    blocks = [i.block for i in items if isinstance(i, TextItem) and i.role == "guide"]
    assert blocks and not any(b.abbreviated for b in blocks), "a guide line cut short"
    return [line for block in blocks for line in block.lines]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("key", GUIDE)
def test_every_guide_step_is_read_whole_on_128x32(key: str, language: str) -> None:
    screen = guide(key)
    pages = turning(screen, SMALL, language)
    lines = [line for turn in range(pages) for line in shown_lines(screen, language, SMALL,
                                                                   turn)]
    assert all(text_width(line) <= SMALL.inner for line in lines)
    assert all(line.endswith(MORE) for line in lines[1:-1:2])  # each page but the last
    assert not lines[-1].endswith(MORE)
    whole = drawable(say(language, key, n=4)).replace(" ", "")
    assert "".join(lines).replace(MORE, "").replace(" ", "") == whole
    assert turning(screen, LARGE, language) == 1  # four lines on 128x64: never turns


def test_a_long_step_needs_pages_and_a_short_one_does_not() -> None:
    assert turning(guide("setup_player_board"), SMALL, "en") == 2
    assert turning(guide("prep_scholars"), SMALL, "ja") == 1


def test_the_box_turns_a_guide_page_every_page_s_only_on_128x32() -> None:
    turns = PageTurns(SMALL)
    screen = guide("setup_player_board")
    assert turns.turn(screen, "en", 10.0) == 0
    assert turns.next_deadline(10.0) == pytest.approx(10.0 + PAGE_S)
    assert turns.turn(screen, "en", 10.0 + PAGE_S) == 1
    assert turns.turn(screen, "en", 10.0 + 2 * PAGE_S) == 0  # round again
    large = PageTurns(LARGE)
    assert large.turn(screen, "en", 10.0) == 0
    assert large.next_deadline(10.0) is None


def test_frames_show_every_page(tmp_path: Path) -> None:
    FrameWriter(tmp_path, "en", SMALL)(guide("setup_player_board"), 12.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0000-12.000.png",
                                                          "0001-12.000-page2.png"]
