"""`erabox run`: the one composition root. Config -> adapters -> one loop.

Threads and who owns what:
- the loop thread (`Box.run_loop`) owns the game, the mixer calls, the LED and the event log.
  It sleeps on its inbox until the next deadline of the game or the next input, whichever
  comes first: no polling. Deadlines come from the game's single monotonic anchor, so a late
  wake-up never shifts the next cue. It wakes `lead_s` (half a mixer period,
  `audio_plan.output_lead_s`) before a deadline and steps the game at the deadline's own time:
  the mixer starts a cue at its next period, so the cue lands centred on its time. The game
  never sees time go back: a press in that window is stamped at the deadline. What a step
  does (the effects in the box's order, a power-cut restart, the last save) is
  `erabox.run.driver.Driver`, shared with `erabox simulate`.
  The loop also runs Python's older garbage collections itself, just before it waits and only
  when the pass fits before its next wake-up (`adapters/collector.py`): a long pass started by
  any other thread would hold the GIL while a cue is due.
- gpiozero's and our buttons thread only put `Input`s on the inbox.
- the screen worker (a `erabox.adapters.workers.NewestWorker`) renders the newest screen model and
  hands it to the display (whose own worker may take 25 ms per I2C frame): a slow screen never
  delays a cue.
- signals become inbox items on a small thread (`adapters/signals.py`), so they act at once
  even while the main thread waits inside SDL.
- the main thread, with a desktop window, runs its event loop
  (SDL wants video on the main thread); otherwise it just waits for the loop to finish.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from erabox import SOUNDS_DIR
from erabox.adapters.clock import box_clock, host_stamp
from erabox.adapters.collector import LoopCollector, return_big_buffers_to_the_system
from erabox.adapters.parts import (
    check_display_choice,
    choose_display_kind,
    warn_missing_sound_files,
    warn_undrawable_names,
)
from erabox.adapters.settings_file import SettingsFile, settings_path
from erabox.adapters.state_file import StateFile, resolve_state_path
from erabox.core import care
from erabox.core.audio_plan import output_lead_s
from erabox.core.config import Config, ConfigError
from erabox.core.events import Emit, PlayRecorder
from erabox.core.model import Button, Event, Gesture, Input, Screen, Steer, Tick
from erabox.core.play import EPS, Play, PlayScreen
from erabox.core.profile import Profile
from erabox.core.script import End, Restart, ScriptLine
from erabox.files.config import load_config
from erabox.files.script import read_script
from erabox.ports import (
    AudioPort,
    BoxObserver,
    Chord,
    CollectorPort,
    DisplayPort,
    InboxItem,
    LedPort,
    PowerCut,
    Redraw,
    SaveNow,
    SettingsStore,
    SimulatedInput,
    StateStore,
    Stop,
)
from erabox.run.driver import Driver, json_lines, system_draw
from erabox.run.page_turns import PageTurns
from erabox.run.screen_worker import PlayFrame, ScreenWorker
from erabox.run.which_game import game_to_play, switched_game
from erabox.ui.panel import Panel
from erabox.ui.plans import HOLD_BLOCKS

if TYPE_CHECKING:
    from erabox.adapters.audio import Audio
    from erabox.adapters.pins import PinFactoryChoice
    from erabox.adapters.window import WindowDisplay

__all__ = ["Box", "PowerCut", "Redraw", "ScreenWorker", "Stop", "run"]

log = logging.getLogger("erabox")


# --- the loop -------------------------------------------------------------------------------------


class Box:
    """The game loop: one thread owning the game, the mixer calls and the event log."""

    def __init__(
        self,
        config: Config,
        *,
        state_file: StateStore,
        audio: AudioPort | None = None,
        screen_worker: ScreenWorker | None = None,
        led: LedPort | None = None,
        clock: Callable[[], float] = time.monotonic,
        observer: BoxObserver | None = None,
        settings_file: SettingsStore | None = None,
        collector: CollectorPort | None = None,
        profile: Profile | None = None,
        play_events: PlayRecorder | None = None,
        draw: Callable[[int], int] = system_draw,
        find_profile: Callable[[str], Profile] | None = None,
        profile_config: Config | None = None,
        why_played: str | None = None,
    ) -> None:
        """`profile`: play this game profile instead of Time of Empires (the config's own
        game); the event lines to `play_events`; `draw` picks a "random" profile's start
        player. `find_profile` loads the profile the settings menu's "Game" names
        (`ProfileError` if it cannot). `why_played`: why `profile` plays
        (`Start.why_played`), said on its first setup."""
        self.config = config
        self._parts = (state_file, settings_file, audio, led, play_events, draw)
        self.find_profile = find_profile
        self.collector = collector
        self.audio = audio
        self.screen_worker = screen_worker
        self.clock = clock
        self.observer = observer
        self.inbox: queue.SimpleQueue[InboxItem] = queue.SimpleQueue()
        self.driver: Driver = (self._own_game(clock()) if profile is None
                                   else self._profile_game(profile_config or config, profile,
                                                           clock(), why_played))
        self.care = care.begin(self.ready_at)  # OLED care: dim, blank, pixel shift
        self.chord_since: float | None = None  # NEXT+ERA held together since (Buttons)
        self.turns = PageTurns(Panel.of(config.display))  # a profile's pages turning
        self.missing_files: list[str] = []  # configured sound files that cannot be read
        self.stopped = threading.Event()
        # told whether a game profile is played after the settings menu switched games
        self.on_switch: Callable[[bool], None] | None = None
        # cues are handed to the mixer this long before they are due (0 without sound)
        self.lead_s = output_lead_s(config.audio) if audio is not None else 0.0
        self._last_now = -math.inf  # the latest `now` the game was given

    def _own_game(self, t0: float) -> Driver:
        """A driver for Time of Empires (the config's own game, from its profile)."""
        state, settings, audio, led, events, draw = self._parts
        return Driver(self.config, state=state,
                      settings=settings, audio=audio, led=led, show=self._show,
                      events=events, observer=self.observer, clock=self.clock,
                      draw=draw, t0=t0, base=self.config)

    def _profile_game(self, config: Config, profile: Profile, t0: float,
                      why_played: str | None) -> Driver:
        """A driver for a game profile (the state file reads its record back through the
        play's own check); `why_played`: why it plays, said on its first setup."""
        state, settings, audio, led, play_events, draw = self._parts
        return Driver(config, profile=profile, state=state, settings=settings, audio=audio,
                      led=led, show=self._show, events=play_events, draw=draw, t0=t0,
                      why_played=why_played, base=self.config)

    def _switch(self, name: str, now: float) -> None:
        """Another game was chosen in the settings menu: "" Time of Empires, else the
        profile `name`, fresh either way; a profile that cannot be played opens Time of
        Empires' menu, saying why."""
        before = self.driver
        profile = None
        if name:
            config = before.played_config  # the settings laid over the file: players, language
            profile, self.config = switched_game(name, config, self.config, self.find_profile)
        else:
            log.info("playing Time of Empires: chosen in the settings menu")
        self.driver = (self._own_game(before.t0) if profile is None
                       else self._profile_game(config, profile, before.t0, "menu"))
        self.driver.start_over(now, menu=profile is None and bool(name))
        if self.on_switch is not None:  # the terminal's help line follows the game
            self.on_switch(profile is not None)

    def open_settings(self) -> None:
        """Open Time of Empires' settings menu, as ERA held at its "New game" setup (only
        there: nothing changes under a game in progress)."""
        now = self._now()
        self.driver.step(Input(Button.ERA, Gesture.HOLD), now)

    @property
    def game(self) -> Play:
        """The game as the loop last left it (an immutable value: safe to read anywhere)."""
        game: Play = self.driver.game
        return game

    def game_now(self) -> Play:
        """The game played now (an immutable value: safe to read from the hall's link)."""
        game: Play = self.driver.game  # read once: the loop thread may switch games
        return game

    @property
    def ready_at(self) -> float:
        """When the box was ready: time 0 of the event stream and of a script."""
        return self.driver.t0

    @ready_at.setter
    def ready_at(self, value: float) -> None:
        self.driver.t0 = value

    # Called from any thread (button callbacks, signal handlers, the window).
    def post(self, item: InboxItem) -> None:
        """Hand an event to the loop (thread-safe, also from a signal handler)."""
        self.inbox.put(item)

    def start_game(self) -> None:
        """Come back from the state file, or start a fresh game."""
        now = self._now()
        self.care = care.begin(now)
        self.driver.start(now)

    def run_loop(self) -> None:
        """Run until a `Stop` arrives. Saves the game on the way out."""
        try:
            with self.collector or contextlib.nullcontext():
                self._loop()
        finally:
            self.stopped.set()

    def _now(self, at_least: float = -math.inf) -> float:
        """The loop's `now`: the clock, but never before `at_least` or the last step's `now`."""
        self._last_now = max(self.clock(), at_least, self._last_now)
        return self._last_now

    def _loop(self) -> None:
        while True:
            driver = self.driver  # the settings menu may switch games between two steps
            now = self._now()
            due = driver.next_deadline(now)
            handover = None if due is None else due - self.lead_s  # a cue goes early
            wake = handover
            if self.screen_worker is not None:  # the screen's look changes on its own clock
                look_due = care.next_deadline(self.care, self._care_screen(now), now)
                if self.chord_since is not None:  # the next block of the hold's progress
                    step_s = self.config.buttons.both_s / HOLD_BLOCKS
                    look_due = min(look_due, self.chord_since + step_s * (
                        math.floor((now - self.chord_since) / step_s + EPS) + 1))
                turn_due = self.turns.next_deadline(now)  # a profile's page turning
                if turn_due is not None:
                    look_due = min(look_due, turn_due)
                wake = look_due if wake is None else min(wake, look_due)
            if self.collector is not None and self.inbox.empty():  # a quiet moment: the
                # collector is offered the wait the inbox is about to take (none: a wake due)
                self.collector.idle(None if wake is None else max(0.0, wake - self.clock()))
            try:
                if wake is None:
                    item = self.inbox.get()
                else:
                    # from the clock itself: after a step at a deadline `now` is a lead ahead
                    item = self.inbox.get(timeout=max(0.0, wake - self.clock()))
            except queue.Empty:
                item = None
            now = self._now()
            if item is None and (handover is None or handover > now + EPS):
                self._show(driver.screen(now), now)  # only the look changed
                continue
            if isinstance(item, Stop):
                log.info("stopping (%s)", item.reason)
                driver.shutdown(now)
                return
            if isinstance(item, PowerCut):
                self._power_cut(now)
                continue
            if isinstance(item, SaveNow):
                log.info("saving the game now (%s)", item.reason)
                driver.save_now(now)
                continue
            if isinstance(item, Input):
                driver.input(item, now)
                self.care, acts = care.on_press(self.care, self._care_screen(now), now)
                if not acts:  # a dark screen: the press only wakes it
                    log.info("screen woken by a press (the press did nothing else)")
                    self._show(driver.screen(now), now)
                    continue
                self._step(item, now, due=None)
            elif isinstance(item, Steer):  # a hall's order (adapters/hall.py)
                self._step(item, now, due=None)
            elif isinstance(item, Redraw):
                self._show(driver.screen(now), now)
            elif isinstance(item, Chord):
                self.chord_since = item.since
                if item.since is not None:  # the hold's progress must be seen: wake the screen
                    self.care, _ = care.on_press(self.care, self._care_screen(now), now)
                self._show(driver.screen(now), now)
            elif due is not None:  # woken for the deadline: step it at its own time
                self._step(Tick(), self._now(at_least=due), due=due)

    def _step(self, event: Event, now: float, due: float | None) -> None:
        self.driver.step(event, now, due)
        wanted = self.driver.switch_to
        if wanted is not None:
            self.driver.switch_to = None
            self._switch(wanted, now)

    def _power_cut(self, now: float) -> None:
        """A script's `restart`: silence, forget, and come back from the state file."""
        self.care = care.begin(now)
        self.driver.power_cut(now)

    def _care_screen(self, now: float) -> Screen:
        """The screen now, as OLED care reads it."""
        shown = self.driver.screen(now)
        seen = self.driver.care_screen(shown)
        assert seen is not None
        return seen

    def _show(self, screen_model: Screen | PlayScreen, now: float) -> None:
        if self.screen_worker is not None:
            no_sound = self.audio is not None and self.audio.problem is not None
            held = None if self.chord_since is None else min(1.0, max(
                0.0, (now - self.chord_since) / self.config.buttons.both_s))
            if isinstance(screen_model, Screen) and held is not None and not screen_model.question:
                screen_model = replace(screen_model, hold_progress=held)
            seen = self.driver.care_screen(screen_model)
            assert seen is not None
            self.care = care.on_screen(self.care, seen, now)
            look = care.look(self.care, seen, now)
            contrast = look.contrast(self.driver.contrast)
            turn = self.turns.turn(screen_model, self.driver.language, now)
            drawn: Screen | PlayFrame = screen_model if isinstance(screen_model, Screen) else (
                PlayFrame(screen_model, self.driver.language, held, turn))
            marks = {"no_save": self.driver.state.problem is not None,
                     "no_file": bool(self.missing_files or self.driver.missing_files)}
            # Only the marks that are on: a screen stand-in in a test may not know them.
            self.screen_worker.show(drawn, no_sound, now, look, contrast,
                                    **{k: True for k, on in marks.items() if on})


def _event_stream(target: str | None) -> tuple[Emit | None, TextIO | None]:
    if not target:
        return None, None
    stream: TextIO = sys.stdout if target == "-" else open(  # noqa: SIM115 (closed at exit)
        target, "w", encoding="utf-8", buffering=1)

    return json_lines(stream, flush=True), (None if target == "-" else stream)


def _script_player(lines: list[ScriptLine], box: Box, pins: SimulatedInput | None,
                   stop: threading.Event) -> threading.Thread:
    """Replays script lines in real time (docs/run.md): gestures go through the mock pins."""

    from erabox.adapters.buttons import act_out

    def play() -> None:
        for at, line in enumerate(lines):
            delay = box.ready_at + line.at - box.clock()
            if delay > 0 and stop.wait(delay):
                return
            action = line.action
            if isinstance(action, End):
                box.post(Stop("script end"))
                return
            if isinstance(action, Restart):
                box.post(PowerCut())
            else:
                # A NEXT hold is kept on until its release line (`next hold <held>`).
                after = lines[at + 1] if at + 1 < len(lines) else None
                held = after.at - line.at if after is not None and action == Input(
                    Button.NEXT, Gesture.HOLD) and after.action == Input(
                    Button.NEXT, Gesture.RELEASE) else 0.0
                act_out(action, pins, box.post, held)

    thread = threading.Thread(target=play, name="erabox-script", daemon=True)
    thread.start()
    return thread


def _selftest_if_next_held(config: Config, choice: PinFactoryChoice, display: DisplayPort,
                           audio: AudioPort | None, led: LedPort) -> None:
    """NEXT held while the box powers up: the self-test on the box's own screen (log too)."""
    from erabox.run.selftest import held_at_power_up, run_selftest

    if not held_at_power_up(config, choice.factory):
        return
    log.info("NEXT held at power-up: running the self-test")
    from erabox.adapters.oled import find_ssd1306

    run_selftest(config, pin_factory=choice.factory, pin_factory_name=choice.name,
                 display=display, audio=audio, led=led,
                 oled_address=find_ssd1306(config.display), out=lambda line: log.info("%s", line))


def run(args: argparse.Namespace, *, observer: BoxObserver | None = None,
        profile: Profile | None = None, config: Config | None = None) -> int:
    """`erabox run`. Returns the exit code.

    `observer` watches the running box (`erabox bench` runs in-process through it): its
    `ready(box, pins)` is called on the main thread once the loop runs. `profile`: the game
    profile `--game` names, read already (which game plays: `game_to_play`). `config`: as
    `erabox run` read it (read from `args.config` here when not given: one read per start).
    """
    logging.basicConfig(
        level=os.environ.get("ERABOX_LOG", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    return_big_buffers_to_the_system()
    check_display_choice(args.display)  # a typo stops here, before any part starts
    config = config if config is not None else load_config(args.config)
    script = read_script(args.script) if args.script else None

    warn_undrawable_names(config)
    missing_files = warn_missing_sound_files(config)
    state_path = resolve_state_path(config)
    log.info("erabox starting: config %s, state file %s", config.source, state_path)
    state_file = StateFile(state_path)
    try:
        state_file.lock()  # before any part starts: a second box stops here (exit 2)
    except BaseException:
        state_file.close()
        raise
    # The games the settings menu offers: found now, handed to the core as data.
    from erabox.files.games import game_folders, load_game, offer_games

    folders = game_folders(config.source if config.source != "<defaults>" else None)
    config = offer_games(config, folders)
    settings_file = SettingsFile(settings_path(state_path), beside=state_file)
    try:
        given = profile  # --game's, read already

        def find(name: str) -> Profile:
            return given if given is not None else load_game(name, folders)

        start = game_to_play(args, config, settings_file, find)
    except BaseException:
        state_file.close()
        raise
    profile, played = start.profile, start.played
    if start.refused:  # Time of Empires' menu, knowing why the game cannot be played
        config = played
    emit, events_file = _event_stream(args.events)
    emit = None if emit is None else host_stamp(emit)
    play_events = PlayRecorder(emit, audio=config.audio) if emit is not None else None
    if profile is not None:
        log.info("the game profile %s: %s", profile.id, profile.source)

    # Buttons: gpiozero's default pin factory, or simulated pins on a laptop.
    from erabox.adapters.buttons import Buttons, SimulatedButtons
    from erabox.adapters.cue_led import CueLed
    from erabox.adapters.dial import open_dial
    from erabox.adapters.pins import default_pin_factory

    choice = default_pin_factory()
    audio: Audio | None = None
    if args.audio == "auto":
        from erabox.adapters.audio import Audio

        audio = Audio(config.audio, SOUNDS_DIR,
                      era_shape=(config.realtime.length_s, config.realtime.scholar_cues_s))

    kind = choose_display_kind(args.display, config)
    window: WindowDisplay | None = None
    display: DisplayPort | None = None
    if kind == "window":
        from erabox.adapters.window import WindowDisplay

        try:
            window = WindowDisplay(config)
            display = window
        except Exception as exc:  # pygame.error: no usable desktop after all
            if args.display == "window":
                raise ConfigError(f"--display window: cannot open a window ({exc})") from None
            kind = "terminal" if sys.stdout.isatty() else "none"
            log.warning("cannot open a window (%s); using the %s display instead", exc, kind)
    if display is None:
        from erabox.adapters.display import DisplayError, open_display

        try:
            display = open_display(kind, config.display)
        except DisplayError as exc:
            raise ConfigError(f"--display {kind}: {exc}") from None
    log.info("display: %s", kind)
    screen_worker = ScreenWorker(display, config.language, observer, Panel.of(config.display))

    led = CueLed(config.buttons.led_pin, pin_factory=choice.factory)
    box = Box(config, state_file=state_file, audio=audio, screen_worker=screen_worker, led=led,
              observer=observer, settings_file=settings_file, collector=LoopCollector(),
              profile=profile, profile_config=played, play_events=play_events,
              why_played=start.why_played,
              find_profile=lambda name: load_game(name, folders), clock=box_clock())
    box.missing_files = missing_files  # the screen marks them until the config is fixed
    _selftest_if_next_held(config, choice, display, audio, led)
    # On simulated pins the buttons can be pressed by software too (`pins`).
    buttons = (SimulatedButtons if choice.mock else Buttons)(
        config.buttons, box.post, pin_factory=choice.factory,
        on_chord=lambda since: box.post(Chord(since)))
    pins = buttons if isinstance(buttons, SimulatedButtons) else None
    dial = open_dial(config.buttons, box.post, pin_factory=choice.factory)
    if audio is not None:
        audio.on_change = lambda: box.post(Redraw())

    stop_script = threading.Event()

    state_file.on_change = lambda: box.post(Redraw())
    from erabox.adapters.signals import SignalWatcher

    signals = SignalWatcher(lambda name: box.post(Stop(name)),
                            lambda name: box.post(SaveNow(name)))
    keyboard = hall = None
    try:
        box.ready_at = box.clock()
        box.start_game()
        if start.refused:  # the game to play cannot be: the menu says why, on the screen
            box.open_settings()
        if config.hall is not None:  # one table of a hall (docs/hall.md); else no port opens
            from erabox.adapters.hall import HallLink

            hall = HallLink(config.hall, clock=box.clock, post=box.post, game=box.game_now)
            hall.start()  # a refused password stops the box here, with a clear error
        log.info("ready")
        loop = threading.Thread(target=box.run_loop, name="erabox-loop")
        loop.start()
        if script is not None:
            _script_player(script, box, pins, stop_script)
        if observer is not None:
            observer.ready(box, pins)
        if window is not None:
            window.run(pins, box.post, box.stopped)  # returns when the box stops
        else:
            if kind == "terminal" and sys.stdin.isatty():
                from erabox.adapters.keyboard import KeyboardInput

                keyboard = KeyboardInput(pins, box.post, config.buttons.bounce_s, display,
                                         profile=box.driver.profile is not None)
                box.on_switch = keyboard.set_game
        loop.join()  # signals reach the loop through the watcher's thread
    finally:
        signals.close()
        stop_script.set()
        if hall is not None:
            hall.close()
        if keyboard is not None:
            keyboard.close()
        buttons.close()
        if dial is not None:
            dial.close()
        led.close()
        screen_worker.close()
        with contextlib.suppress(Exception):
            display.close()
        if audio is not None:
            audio.close()
        if events_file is not None:
            events_file.close()
    return 0
