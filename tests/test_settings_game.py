"""Acceptance: a whole 3-player game set up ONLY through the buttons.

No config file (the defaults: four players, real-time eras). gpiozero's MockFactory drives the
box's real buttons code; the box's loop, state file and settings file are the real ones. The table
opens the settings menu from the "New game" screen, picks three players, their seats and the
oldest, and introductory eras; plays Era I passing the box left among the three colours; a
power cut in Era II keeps both the game and the settings; the game runs to its end.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from erabox.adapters.buttons import SimulatedButtons
from erabox.adapters.settings_file import SettingsFile, settings_path
from erabox.adapters.state_file import StateFile
from erabox.core.config import Config
from erabox.core.events import PlayRecorder
from erabox.core.model import Button, Gesture, Input, Phase, Prompt
from erabox.run.app import Box, PowerCut, Stop
from menu_game import menu_settings

N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD


class CountingBox(Box):
    """The real Box; counts the inputs its loop has finished handling (for the test's hand)."""

    def __init__(self, *args: Any, changed: threading.Condition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changed = changed
        self.handled = 0

    def _step(self, event: Any, now: float, due: float | None) -> None:
        super()._step(event, now, due)
        if isinstance(event, Input):
            with self.changed:
                self.handled += 1
                self.changed.notify_all()

    def _power_cut(self, now: float) -> None:
        super()._power_cut(now)
        with self.changed:
            self.handled += 1
            self.changed.notify_all()


class Table:
    """The box on mock pins, and a hand that presses its buttons one gesture at a time."""

    def __init__(self, tmp_path: Path, config: Config | None = None) -> None:
        # without a config: what the box runs on when there is no config file
        self.config = Config() if config is None else config
        self.events: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        state = tmp_path / "state.json"
        self.settings_file = SettingsFile(settings_path(state))
        self.state_file = StateFile(state)
        self.box = CountingBox(self.config, state_file=self.state_file,
                               play_events=PlayRecorder(self._emit),
                               settings_file=self.settings_file, changed=self.changed)
        self.factory = MockFactory()
        self.buttons = SimulatedButtons(self.config.buttons, self.box.post,
                                        pin_factory=self.factory)
        self.box.start_game()
        self.loop = threading.Thread(target=self.box.run_loop)
        self.loop.start()

    def _emit(self, event: dict[str, Any]) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def inputs(self) -> int:
        return sum(1 for e in self.events if e["type"] == "input")

    def state(self) -> dict[str, Any]:
        return [e for e in self.events if e["type"] == "state"][-1]

    def do(self, button: Button, gesture: Gesture = P) -> dict[str, Any]:
        """Act out a gesture on the pins; return the state once the loop has handled it."""
        with self.changed:
            seen = self.box.handled
        self.buttons.perform(Input(button, gesture)).join()
        with self.changed:
            assert self.changed.wait_for(lambda: self.box.handled > seen, timeout=20), \
                f"{button} {gesture} never reached the box"
        time.sleep(0.1)  # the stimulus: the finger is up a moment before the next gesture
        return self.state()

    def power_cut(self) -> None:
        """What `erabox run --script` does for `restart`: only the files survive."""
        with self.changed:
            seen = self.box.handled
        self.box.post(PowerCut())
        with self.changed:
            assert self.changed.wait_for(lambda: self.box.handled > seen, timeout=20)

    def close(self) -> None:
        self.box.post(Stop("test over"))
        self.loop.join(timeout=10)
        self.buttons.close()
        self.factory.close()
        assert not self.loop.is_alive()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    try:
        yield t
    finally:
        t.close()


def menu_item(t: Table) -> str | None:
    return None if t.box.driver.game.menu is None else _screen(t).menu_item


def _screen(t: Table) -> Any:
    return t.box.driver.screen(0.0)  # Time of Empires' screen (its round file)


def go_to(t: Table, item: str) -> None:
    for _ in range(20):
        if menu_item(t) == item:
            return
        t.do(N)
    raise AssertionError(f"no menu item {item}")


def test_three_players_set_up_with_the_buttons_play_a_whole_game(
        table: Table, tmp_path: Path) -> None:
    t = table
    assert t.state()["state"] == "setup" and t.box.driver.played_config.players == (
        "red", "blue", "green", "yellow")
    # The settings menu, from the "New game" setup.
    assert t.do(E, H)["state"] == "settings"
    assert menu_item(t) == "game"  # the menu opens on the game, players next
    t.do(N)
    assert menu_item(t) == "players"
    t.do(E)  # 4 -> 2 players
    t.do(E)  # 2 -> 3 players: red, blue, green
    chosen = menu_settings(t.box.driver.game)
    assert chosen is not None and len(chosen.seats) == 3
    go_to(t, "seat2")
    t.do(E)  # blue -> green (seat 3 takes blue)
    t.do(E)  # green -> yellow, which nobody had: seat 3 has green back
    chosen = menu_settings(t.box.driver.game)
    assert chosen is not None and chosen.seats == ("red", "yellow", "green")
    go_to(t, "oldest")
    t.do(E)  # the oldest sits in seat 2
    assert _screen(t).menu_value == "yellow"
    for era in (1, 2, 3):
        go_to(t, f"mode{era}")
        t.do(E)  # introductory
    go_to(t, "volume")
    t.do(E)  # 80 % -> 90 %
    assert t.do(E, H)["state"] == "setup"  # back to the new game
    assert t.box.driver.game.volume == pytest.approx(0.9)
    saved = json.loads(settings_path(tmp_path / "state.json").read_text(encoding="utf-8"))
    assert saved["seats"] == ["red", "yellow", "green"] and saved["oldest"] == 1

    # Era I, introductory: the box passes left among the three chosen colours.
    state = t.state()
    assert (state["mode"], state["start_player"]) == ("intro", "yellow")
    starts = []
    state = t.do(E)
    for _ in range(20):
        if state["state"] == "scoring":
            break
        starts.append((state["state"], state["start_player"]))
        state = t.do(N)
    assert state["state"] == "scoring"
    # rounds 1-5 yellow, scholars (the box goes left), 6-10 green, scholars, 11-15 red
    rounds = [("intro_round", colour) for colour in ("yellow", "green", "red")]
    assert starts == [rounds[0]] * 5 + [("scholars", "yellow")] + [rounds[1]] * 5 + [
        ("scholars", "green")] + [rounds[2]] * 5
    # blue, the colour nobody plays tonight, never gets the box

    # Era II, introductory too; a power cut at round 4.
    for _ in range(3 + 1):  # 0 points for everyone (era totals); the standings
        state = t.do(E)
    assert (state["state"], state["era"], state["mode"]) == ("setup", 2, "intro")
    state = t.do(E)
    for _ in range(3):
        state = t.do(N)
    assert (state["round"], state["start_player"]) == (4, "red")
    t.state_file.flush()
    before = t.box.driver.game
    t.power_cut()
    after = t.box.driver.game
    assert after is not before and after.prompt is Prompt.RESUMED  # from the files
    state = t.state()
    assert (state["state"], state["era"], state["round"], state["start_player"]) == (
        "intro_round", 2, 4, "red")
    assert t.box.driver.played_config.players == ("yellow", "green", "red")  # from the file
    assert t.box.driver.game.volume == pytest.approx(0.9)

    # On to the end of the game.
    for _ in range(200):
        if state["state"] == "game_over":
            break
        state = t.do(E if state["state"] in ("scoring", "setup") else N)
    assert state["state"] == "game_over"
    assert _screen(t).kind is Phase.GAME_OVER  # the box's own game at its end
    # A new game ("New game?" yes) keeps the table's settings.
    assert t.do(E, H)["state"] == "confirm"
    assert t.do(E)["state"] == "setup"
    assert t.box.driver.played_config.players == ("yellow", "green", "red")
    assert t.state()["mode"] == "intro"
