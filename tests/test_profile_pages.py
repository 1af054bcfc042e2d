"""A game profile's screens that turn pages on their own (ui/screens.py `turning`,
run/page_turns.py): the setup's hint row and "hold ERA: settings" in turn, on both panels
and in both languages (the way back to another game or player count was never said); on
128x32 a step too long for its line a line at a time, all of it readable (it was cut to one
line, "Fate card: draw 1, discard it‥"). The box's loop turns them on its clock, each turn a
deadline: no button is taken, no polling."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, DisplayConfig
from erabox.core.play import PlayScreen
from erabox.core.profile import Label
from erabox.files.games import load_game
from erabox.run.app import Box
from erabox.run.screen_worker import PlayFrame
from erabox.ui.panel import MARGIN, Panel
from erabox.ui.screen_parts import STEP_KINDS
from erabox.ui.screens import (
    MORE,
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


def _cycle(pages: list[tuple[Placed, ...]], role: str) -> list[Placed]:
    """The step's (or call's) own pages: a line each, up to the one without "→"; the pages
    after them (the hint row's undo page turning with them: `turning`) show them again."""
    lines = [next(i for i in items if i.role == role) for items in pages]
    ends = [n for n, line in enumerate(lines) if not line.text.endswith(f" {MORE}")]
    count = ends[0] + 1
    assert len(pages) % count == 0
    assert [i.text for i in lines] == [i.text for i in lines[:count]] * (len(pages) // count)
    return lines[:count]


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


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_is_readable_whole_on_128x32(language: str) -> None:
    """Every setup and round step of every shipped profile: its pages read together are the
    whole step, none abbreviated, "→" ending each page but the last."""
    steps = [(name, shown) for name, _, shown in cases() if shown.kind in STEP_KINDS]
    paged = 0
    for name, shown in steps:
        assert shown.text is not None
        whole = shown.text.text(language)
        pages = _pages(shown, SMALL, language)
        own = _cycle(pages, "step")
        read = []
        for number, items in enumerate(pages):
            (line,) = [i for i in items if i.role == "step"]
            assert not line.abbreviated, (name, whole, number)
            last = number % len(own) == len(own) - 1
            assert line.text.endswith(f" {MORE}") != last  # "→" ends each page but the last
            read.append(line.text.removesuffix(f" {MORE}"))
            _kept_apart(items, SMALL, (name, whole, number))
        read = read[:len(own)]
        assert "".join(read).replace(" ", "") == whole.replace(" ", ""), (name, read)
        paged += len(own) > 1
    assert paged >= 10  # the long steps of Lords of Xidit, Hadrian's Wall, Altay


def test_a_step_that_fits_its_line_stays_whole() -> None:
    """128x64 never turns a step; on 128x32 one that fits its line stays as it is, only the
    hint row turning to the undo gesture and back (tests/test_profile_undo_hint.py)."""
    for name, _, shown in cases():
        if shown.kind in STEP_KINDS:
            assert turning(shown, Panel(), "en") == 1, name  # 128x64: three lines of it
    shown = next(s for _, _, s in cases() if s.kind in STEP_KINDS)
    short = replace(shown, text=Label("Draw 1 card each", "各自カードを1枚引く"))
    for language in LANGUAGES:
        assert turning(short, SMALL, language) == 2
        for turn in range(2):
            items = layout_play(short, SMALL, language, Marks(turn=turn))
            (line,) = [i for i in items if i.role == "step"]
            assert line.text == short.text.text(language)  # type: ignore[union-attr]
            assert not line.text.endswith(MORE)


def test_a_long_call_is_readable_whole_on_128x32_too() -> None:
    """A countdown's call stands over the step (128x32: in its row): a long one turns too."""
    shown = next(s for _, _, s in cases() if s.kind == "round")
    call = Label("Last minute: everyone finishes the action in hand and puts the timer back",
                 "残り1分：全員いまの行動を終えてタイマーを戻す")
    for language in LANGUAGES:
        called = replace(shown, call=call)
        pages = _pages(called, SMALL, language)
        read = [i.text.removesuffix(f" {MORE}") for i in _cycle(pages, "call")]
        assert len(read) > 1 and not [i for items in pages for i in items if i.role == "step"]
        assert "".join(read).replace(" ", "") == call.text(language).replace(" ", "")


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
