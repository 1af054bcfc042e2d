"""A game profile's screens that turn pages on their own (ui/profile_screens.py `turning`,
run/page_turns.py): the setup's hint row and "hold ERA: settings" in turn, on both panels
and in both languages (the way back to another game or player count was never said). The
box's loop turns them on its clock, each turn a deadline: no button is taken, no polling."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, DisplayConfig
from erabox.core.profile_play import PlayScreen
from erabox.files.games import load_game
from erabox.run.app import Box
from erabox.run.screen_worker import PlayFrame
from erabox.ui.panel import MARGIN, Panel
from erabox.ui.profile_screens import (
    PAGE_S,
    Marks,
    Placed,
    layout_play,
    turning,
)
from erabox.ui.strings import LANGUAGES, say
from test_profile_screens import PANELS, cases

SMALL = Panel(height=32)


def _pages(shown: PlayScreen, panel: Panel, language: str) -> list[tuple[Placed, ...]]:
    return [layout_play(shown, panel, language, Marks(turn=turn))
            for turn in range(turning(shown, panel, language))]


def _kept_apart(items: Sequence[Placed], panel: Panel, what: object) -> None:
    for item in items:
        ink = item.mask.getbbox()
        assert ink is not None, (what, item.role)
        assert item.x + ink[0] >= MARGIN and item.y + ink[1] >= MARGIN, (what, item.role)
        assert item.x + ink[2] <= panel.width - MARGIN, (what, item.role)
        assert item.y + ink[3] <= panel.height - MARGIN, (what, item.role)
    for a, b in combinations(items, 2):
        ax0, ay0, ax1, ay1 = a.box
        bx0, by0, bx1, by1 = b.box
        assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (what, a.role, b.role)


@pytest.mark.parametrize("panel", PANELS, ids=["128x64", "128x32"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_setup_says_hold_era_settings_whole(panel: Panel, language: str) -> None:
    """Lords of Xidit's variant hint, Altay's long name: every setup's hint row says its
    presses, then "hold ERA: settings" (as Time of Empires' first screen), each whole."""
    settings = say(language, "hint_open_settings")
    setups = [(name, shown) for name, _, shown in cases() if shown.kind == "setup"]
    assert {name for name, _ in setups} == {"altay", "hadrians-wall", "lords-of-xidit"}
    for name, shown in setups:
        pages = _pages(shown, panel, language)
        hints = [[i for i in items if i.role == "hint"] for items in pages]
        assert all(len(row) == 1 and not row[0].abbreviated for row in hints), name
        said = [row[0].text for row in hints]
        assert said[1] == settings and settings not in said[0], (name, said)
        assert ("ERA: start" if language == "en" else "ERA: 開始") in said[0], (name, said)
        for items in pages:
            _kept_apart(items, panel, (name, language))


@pytest.mark.parametrize("height", [64, 32])
def test_the_box_turns_the_setups_hint_on_its_clock(tmp_path: Path, height: int) -> None:
    """No press: the loop wakes at the page's deadline and draws the next page; pages are
    counted from when the screen was first shown."""
    frames: list[PlayFrame] = []
    turned = threading.Event()

    class Worker:
        def show(self, frame: PlayFrame, no_sound: bool, t: float, *args: object,
                 **kwargs: object) -> None:
            frames.append(frame)
            if frame.turn == 1:
                turned.set()

    clock = [100.0]
    config = Config(display=DisplayConfig(height=height))
    box = Box(config, state_file=StateFile(tmp_path / "state.json"),
              screen_worker=Worker(),  # type: ignore[arg-type]
              profile=load_game("lords-of-xidit", []), clock=lambda: clock[0])
    box.start_game()
    assert frames and frames[-1].screen.kind == "setup" and frames[-1].turn == 0
    assert box.turns.next_deadline(100.0) == 100.0 + PAGE_S
    clock[0] = 100.0 + PAGE_S + 0.01  # the page's time has come; nothing pressed
    loop = threading.Thread(target=box.run_loop)
    loop.start()
    try:
        assert turned.wait(30)
        assert box.turns.next_deadline(clock[0]) == 100.0 + 2 * PAGE_S
    finally:
        from erabox.ports import Stop

        box.post(Stop("test"))
        loop.join(30)
        box.driver.state.close()
    assert [f.turn for f in frames][-1] == 1 and frames[-1].screen == frames[0].screen
