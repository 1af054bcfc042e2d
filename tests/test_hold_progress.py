"""Holding NEXT+ERA shows its progress toward "New game?" during the hold (both_s)."""

from __future__ import annotations

import queue
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from erabox.adapters.buttons import Buttons
from erabox.adapters.state_file import StateFile
from erabox.core.care import Look
from erabox.core.config import ButtonsConfig, Config
from erabox.core.engine import state_of
from erabox.core.gestures import GestureRecogniser
from erabox.core.model import Button, Gesture, Input, Phase, Screen
from erabox.ports import Chord, Stop
from erabox.run.app import Box
from erabox.ui.layout import layout

NEXT, ERA = Button.NEXT, Button.ERA


def hold_half_way_and_stop(box: Box, clock: list[float]) -> None:
    """NEXT+ERA held from 10.0 s, seen at 11.5 s (1.5 s into a 3 s hold), let go, then stop."""
    clock[0] = 11.5
    box.post(Chord(10.0))
    box.post(Chord(None))
    box.post(Stop("test"))
    box.run_loop()


def test_the_recogniser_says_when_a_chord_began_until_it_fires_or_breaks() -> None:
    r = GestureRecogniser([NEXT, ERA], hold_s=0.8, both_s=3.0, bounce_s=0.02)
    r.edge(NEXT, True, 1.0)
    r.edge(ERA, True, 1.2)
    r.advance(1.3)
    assert r.chord_since == 1.2
    assert r.advance(4.19) == [] and r.chord_since == 1.2
    assert r.advance(4.2) == [(4.2, Input(Button.BOTH, Gesture.HOLD))]
    assert r.chord_since is None  # fired: no more progress to show
    r.edge(NEXT, False, 5.0)
    r.edge(ERA, False, 5.0)
    r.advance(6.0)
    r.edge(NEXT, True, 7.0)
    r.edge(ERA, True, 7.0)
    r.advance(7.1)
    assert r.chord_since == 7.0
    r.edge(ERA, False, 8.0)  # let go early
    assert r.advance(9.0) == [] and r.chord_since is None


def test_buttons_report_the_chord_from_mock_pins() -> None:
    factory = MockFactory()
    heard: queue.Queue[float | None] = queue.Queue()
    config = ButtonsConfig(hold_s=0.3, both_s=5.0, bounce_s=0.01)
    buttons = Buttons(config, lambda _: None, pin_factory=factory, on_chord=heard.put)
    try:
        factory.pin(17).drive_low()
        factory.pin(27).drive_low()
        assert heard.get(timeout=10) is not None
        factory.pin(27).drive_high()
        assert heard.get(timeout=10) is None
    finally:
        buttons.close()
        factory.close()


def test_the_box_draws_the_holds_progress(tmp_path: Path) -> None:
    shown: list[Screen] = []

    class Worker:
        def show(self, screen: Screen, no_sound: bool, t: float, look: Look | None = None,
                 contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
            shown.append(screen)

    clock = [10.0]
    box = Box(Config(), state_file=StateFile(tmp_path / "state.json"),
              screen_worker=Worker(), clock=lambda: clock[0])  # type: ignore[arg-type]
    box.start_game()
    hold_half_way_and_stop(box, clock)
    progress = [s.hold_progress for s in shown]
    assert 0.5 in progress
    assert progress[-1] is None  # let go: the hint comes back
    half = next(s for s in shown if s.hold_progress == 0.5)
    hint = next(i for i in layout(half).items if i.role == "hint")
    assert hint.source == "New game? ■■■□□□"  # type: ignore[union-attr]


def test_a_hold_on_a_dark_screen_wakes_it_so_its_progress_is_seen(tmp_path: Path) -> None:
    from erabox.core.care import BLANK_AFTER_S, Level

    looks: list[tuple[Screen, Look]] = []

    class Worker:
        def show(self, screen: Screen, no_sound: bool, t: float, look: Look | None = None,
                 contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
            looks.append((screen, look or Look()))

    clock = [0.0]
    box = Box(Config(), state_file=StateFile(tmp_path / "state.json"),
              screen_worker=Worker(), clock=lambda: clock[0])  # type: ignore[arg-type]
    box.start_game()
    clock[0] = BLANK_AFTER_S + 10  # nobody touched it for a quarter of an hour
    box.post(Chord(clock[0]))
    box.post(Input(Button.BOTH, Gesture.HOLD))  # the hold completes: it asks, not only wakes
    box.post(Stop("test"))
    box.run_loop()
    first_hold = next(look for screen, look in looks if screen.hold_progress is not None)
    assert first_hold.level is Level.BRIGHT
    assert state_of(box.game_now(), clock[0]) is Phase.CONFIRM  # asked, on either engine


def test_a_game_profiles_screen_gets_the_holds_progress_and_the_marks(tmp_path: Path) -> None:
    from erabox.files.games import load_game
    from erabox.run.screen_worker import PlayFrame

    drawn: list[tuple[object, dict[str, bool]]] = []

    class Worker:
        def show(self, screen: object, no_sound: bool, t: float, look: Look | None = None,
                 contrast: int = 255, **marks: bool) -> None:
            drawn.append((screen, marks))

    clock = [10.0]
    box = Box(Config(players=("red", "blue")), state_file=StateFile(tmp_path / "state.json"),
              screen_worker=Worker(), clock=lambda: clock[0],  # type: ignore[arg-type]
              profile=load_game("hadrians-wall", []))
    box.driver.missing_files = ["/games/phase.ogg"]  # a phase's music that cannot be read
    box.start_game()
    hold_half_way_and_stop(box, clock)
    frames = [(s, marks) for s, marks in drawn if isinstance(s, PlayFrame)]
    assert [s.hold_progress for s, _ in frames][-2:] == [0.5, None]  # let go: the hint is back
    assert all(marks == {"no_file": True} for _, marks in frames)
