"""OLED care on a virtual clock: dim, blank, wake, pixel shift; never dim a running era."""

from __future__ import annotations

from PIL import Image, ImageDraw

from erabox.adapters.display import NullDisplay, frame_bytes
from erabox.core import care
from erabox.core.care import BLANK_AFTER_S, DIM_AFTER_S, SHIFT_EVERY_S, Level, Look
from erabox.core.model import Mode, Phase, Prompt, Question, Screen
from erabox.run.app import ScreenWorker
from erabox.ui.look import apply_look
from erabox.ui.render import render

SETUP = Screen(Phase.SETUP, 1, Mode.REALTIME, new_game=True)
SCORING = Screen(Phase.SCORING, 2, Mode.REALTIME, scoring_step=3)


def running(left: int) -> Screen:
    return Screen(Phase.RUNNING, 1, Mode.REALTIME, seconds_left=left, elapsed=540.0 - left)


def test_idle_setup_dims_then_blanks_at_the_deadlines_it_names() -> None:
    c = care.on_screen(care.begin(0.0), SETUP, 0.0)
    assert care.level(c, SETUP, DIM_AFTER_S - 0.001) is Level.BRIGHT
    assert care.next_deadline(c, SETUP, 0.0) == min(DIM_AFTER_S, SHIFT_EVERY_S)
    assert care.level(c, SETUP, DIM_AFTER_S) is Level.FAINT
    assert care.next_deadline(c, SETUP, DIM_AFTER_S + 0.5) <= BLANK_AFTER_S
    assert care.level(c, SETUP, BLANK_AFTER_S - 0.001) is Level.FAINT
    assert care.level(c, SETUP, BLANK_AFTER_S) is Level.BLANK
    assert care.look(c, SETUP, BLANK_AFTER_S).contrast(255) == 0
    assert care.look(c, SETUP, DIM_AFTER_S).contrast(255) == care.FAINT_CONTRAST
    assert care.look(c, SETUP, 1.0).contrast(190) == 190


def test_a_press_on_a_dark_screen_only_wakes_it() -> None:
    c = care.on_screen(care.begin(0.0), SETUP, 0.0)
    c, acts = care.on_press(c, SETUP, BLANK_AFTER_S + 5)
    assert not acts
    assert care.level(c, SETUP, BLANK_AFTER_S + 5) is Level.BRIGHT
    c, acts = care.on_press(c, SETUP, BLANK_AFTER_S + 6)  # the next press acts
    assert acts


def test_a_game_in_progress_dims_to_a_readable_level_and_never_goes_dark() -> None:
    """Every screen of a game, idle from 0 to ten times the blanking time: at worst dimmed
    to `READABLE_CONTRAST`, never dark, and a press on it always acts."""
    in_game = [SCORING, Screen(Phase.SETUP, 2, Mode.REALTIME),
               Screen(Phase.PREPARE, 3, Mode.INTRO, guide_step="x"),
               Screen(Phase.INTRO_ROUND, 1, Mode.INTRO, round=7, start_player="red"),
               Screen(Phase.SCHOLARS, 2, Mode.INTRO, round=5),
               Screen(Phase.SCORING, 3, Mode.INTRO, entry="standings")]
    for screen in in_game:
        assert care.in_a_game(screen)
        c = care.on_screen(care.begin(0.0), screen, 0.0)
        for t in range(0, int(10 * BLANK_AFTER_S), 30):
            shown = care.look(c, screen, float(t))
            assert shown.level is not Level.BLANK
            for bright in (16, 64, 128, 255):
                assert shown.contrast(bright) >= min(bright, care.READABLE_CONTRAST)
            _, acts = care.on_press(c, screen, float(t))
            assert acts
        assert care.next_deadline(c, screen, DIM_AFTER_S + 1) == SHIFT_EVERY_S * 2
    for screen in (SETUP, Screen(Phase.SETTINGS, 1, Mode.REALTIME, menu_item="players"),
                   Screen(Phase.GAME_OVER, 3, Mode.REALTIME)):
        assert not care.in_a_game(screen)  # here a dark screen's press only wakes it
        c = care.on_screen(care.begin(0.0), screen, 0.0)
        assert care.level(c, screen, BLANK_AFTER_S) is Level.BLANK


def test_a_press_on_a_dim_screen_wakes_it_and_acts() -> None:
    c = care.on_screen(care.begin(0.0), SCORING, 0.0)
    c, acts = care.on_press(c, SCORING, DIM_AFTER_S + 1)
    assert acts
    assert care.level(c, SCORING, DIM_AFTER_S + 2) is Level.BRIGHT
    assert care.level(c, SCORING, 2 * DIM_AFTER_S + 1) is Level.DIM  # idle again from the press


def test_a_new_screen_counts_as_activity() -> None:
    c = care.on_screen(care.begin(0.0), SCORING, 0.0)
    later = care.on_screen(c, SETUP, DIM_AFTER_S + 10)  # e.g. a restart question answered
    assert care.level(later, SETUP, DIM_AFTER_S + 11) is Level.BRIGHT
    same = care.on_screen(c, SCORING, DIM_AFTER_S + 10)  # the same screen again is not
    assert care.level(same, SCORING, DIM_AFTER_S + 11) is Level.DIM


def test_never_dim_while_running_paused_counting_in_or_asking() -> None:
    c = care.on_screen(care.begin(0.0), running(540), 0.0)
    hour = 3600.0
    for t in range(0, int(hour), 7):  # an hour of virtual running time, every 7 s
        c = care.on_screen(c, running(540 - t % 540), float(t))
        assert care.level(c, running(1), float(t)) is Level.BRIGHT
    for screen in (Screen(Phase.PAUSED, 1, Mode.REALTIME, seconds_left=30),
                   Screen(Phase.LEAD_IN, 1, Mode.REALTIME, countdown=3),
                   Screen(Phase.CONFIRM, 1, Mode.REALTIME, question=Question.NEW_GAME),
                   Screen(Phase.INTRO_ROUND, 1, Mode.INTRO, round=3, prompt=Prompt.RESUMED)):
        idle = care.on_screen(care.begin(0.0), screen, 0.0)
        assert care.level(idle, screen, 10 * BLANK_AFTER_S) is Level.BRIGHT
        # and the only deadline is the next pixel shift
        assert care.next_deadline(idle, screen, 10.0) == SHIFT_EVERY_S


def test_running_era_ending_in_scoring_starts_the_idle_clock_then() -> None:
    c = care.begin(0.0)
    for t in range(0, 541):
        c = care.on_screen(c, running(540 - t), float(t))
    c = care.on_screen(c, SCORING, 540.0)
    assert care.level(c, SCORING, 540.0 + DIM_AFTER_S - 1) is Level.BRIGHT
    assert care.level(c, SCORING, 540.0 + DIM_AFTER_S) is Level.DIM


def test_pixel_shift_walks_a_square_every_period() -> None:
    c = care.on_screen(care.begin(100.0), SETUP, 100.0)
    offsets = [(care.look(c, SETUP, 100.0 + k * SHIFT_EVERY_S + 1).dx,
                care.look(c, SETUP, 100.0 + k * SHIFT_EVERY_S + 1).dy) for k in range(5)]
    assert offsets == [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
    assert care.next_deadline(c, SETUP, 100.0 + 1) == 100.0 + SHIFT_EVERY_S
    assert care.next_deadline(c, SETUP, 100.0 + SHIFT_EVERY_S) == min(
        100.0 + 2 * SHIFT_EVERY_S, 100.0 + DIM_AFTER_S)


def test_apply_look_shifts_without_losing_a_lit_pixel_and_blanks() -> None:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((2, 2, 125, 61), outline=1)  # inside a 2 px margin
    moved = apply_look(image, Look(Level.BRIGHT, 1, 1))
    assert moved.histogram()[255] == image.histogram()[255]  # no lit pixel lost
    assert moved.getpixel((3, 3)) and not moved.getpixel((2, 2))
    assert moved.getbbox() == (3, 3, 127, 63)
    assert frame_bytes(apply_look(image, Look(Level.BLANK))) == bytes(128 * 64 // 8)
    assert apply_look(image, Look()) is image


class ContrastDisplay(NullDisplay):
    def __init__(self) -> None:
        super().__init__()
        self.contrasts: list[int] = []

    def set_contrast(self, level: int) -> None:
        self.contrasts.append(level)


def test_screen_worker_draws_the_look_and_sets_the_contrast() -> None:
    display = ContrastDisplay()
    worker = ScreenWorker(display, "en")
    try:
        worker.show(SETUP, False, 0.0, Look(Level.DIM, 1, 0), 8)
        worker.close()
    finally:
        worker.close()
    expected = apply_look(render(SETUP), Look(Level.DIM, 1, 0))
    assert display.last is not None
    assert frame_bytes(display.last) == frame_bytes(expected)
    assert display.contrasts == [8]
    assert isinstance(display.last, Image.Image)


def run_box(idle_s: float, tmp_path: object) -> tuple[Mode, list[Look]]:
    """A Box on a virtual clock: start, let `idle_s` pass, press NEXT twice, stop."""
    from pathlib import Path

    from erabox.adapters.state_file import StateFile
    from erabox.core.config import Config
    from erabox.core.model import Button, Gesture, Input
    from erabox.run.app import Box, Stop

    clock = [0.0]
    looks: list[Look] = []

    class Worker:
        def show(self, screen: Screen, no_sound: bool, t: float, look: Look | None = None,
                 contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
            looks.append(look or Look())

    state = StateFile(Path(str(tmp_path)) / "state.json")
    box = Box(Config(guide=False), state_file=state, screen_worker=Worker(),  # type: ignore[arg-type]
              clock=lambda: clock[0])
    box.start_game()
    clock[0] = idle_s
    for _ in range(2):
        box.post(Input(Button.NEXT, Gesture.PRESS))
    box.post(Stop("test"))
    box.run_loop()
    from saved_game import game_position

    return Mode(game_position(box.game_now(), clock[0])[1]), looks  # on either engine


def test_a_whole_game_with_an_introductory_round_left_idle_20_minutes(
        tmp_path: object) -> None:
    """A whole game of three introductory eras through the box's loop on a virtual clock,
    with a slow round (a rules question) in Era II: 20 idle minutes in round 7. The screen only
    dims, still readable, never dark, and the next NEXT counts the round (it used to only wake
    the screen). Every other press of the game acts too, up to the final ranking."""
    import threading
    from pathlib import Path

    from erabox.adapters.state_file import StateFile
    from erabox.core.config import Config
    from erabox.core.model import Button, Gesture, Input
    from erabox.run.app import Box, Redraw, Stop

    clock = [0.0]
    looks: list[tuple[float, Screen, Look, int]] = []
    shown = threading.Condition()

    class Worker:
        def show(self, screen: Screen, no_sound: bool, t: float, look: Look | None = None,
                 contrast: int = 255, no_save: bool = False, no_file: bool = False) -> None:
            with shown:
                looks.append((t, screen, look or Look(), contrast))
                shown.notify_all()

    def at(t: float, item: object) -> tuple[Screen, Look, int]:
        """Set the virtual clock to `t`, hand the loop `item`, wait for the screen it shows."""
        with shown:
            clock[0] = t
            seen = len(looks)
            box.post(item)  # type: ignore[arg-type]
            assert shown.wait_for(lambda: len(looks) > seen and looks[-1][0] >= t, timeout=60)
            return looks[-1][1:]

    state = StateFile(Path(str(tmp_path)) / "state.json")
    box = Box(Config(guide=False, default_mode=Mode.INTRO), state_file=state,
              screen_worker=Worker(), clock=lambda: clock[0])  # type: ignore[arg-type]
    box.start_game()
    loop = threading.Thread(target=box.run_loop)
    loop.start()
    now, idled, presses = 0.0, False, 0
    try:
        screen = box.driver.screen(0.0)
        while screen.kind is not Phase.GAME_OVER:
            assert presses < 200
            if (screen.kind, screen.era, screen.round) == (Phase.INTRO_ROUND, 2, 7) \
                    and not idled:
                for minute in range(1, 21):  # the slow round: the loop wakes each minute
                    _, look, contrast = at(now + 60 * minute, Redraw())
                    assert look.level is not Level.BLANK
                now += 60 * 20
                assert look.level is Level.DIM
                assert contrast == min(box.config.display.contrast, care.READABLE_CONTRAST)
                idled = True
            button = Button.ERA if screen.kind in (Phase.SETUP, Phase.SCORING) else Button.NEXT
            before = screen
            now += 1.0
            screen, look, _ = at(now, Input(button, Gesture.PRESS))
            presses += 1
            assert look.level is Level.BRIGHT
            assert screen != before  # every press acted: nothing swallowed
            if (before.kind, before.era, before.round) == (Phase.INTRO_ROUND, 2, 7):
                assert screen.round == 8  # the press after 20 idle minutes counted
        assert idled and screen.era == 3
    finally:
        box.post(Stop("test"))
        loop.join()


def test_the_box_swallows_the_press_that_wakes_a_dark_screen(tmp_path: object) -> None:
    mode, looks = run_box(BLANK_AFTER_S + 1, f"{tmp_path}/dark")
    assert mode is Mode.INTRO  # two presses toggled the mode once: the first only woke it
    assert looks[0].level is Level.BRIGHT and looks[-1].level is Level.BRIGHT
    mode, _ = run_box(1.0, f"{tmp_path}/awake")
    assert mode is Mode.REALTIME  # awake: both presses acted
