"""Acceptance: a whole 3-player game whose victory points are entered (as era totals, the
default) at all three scorings through the mock pins (gpiozero's MockFactory drives the box's
real buttons code; the box's loop and state file are the real ones): an undo, a power cut in
the middle of an entry (the number being typed comes back), the totals and standings after
each era, 15 points in four gestures, and the final ranking: a tie for first
settled by buildings, and (the same final scoring entered again from the saved game) a shared
victory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from erabox.core.config import Config, IntroConfig
from erabox.core.model import Button, Gesture, Mode
from test_settings_game import Table

N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD
THREE = ("red", "blue", "green")
# Short introductory eras: the scoring is what is tested here.
CONFIG = Config(players=THREE, default_mode=Mode.INTRO,
                intro=IntroConfig(rounds=2, scholar_after_rounds=()))


def of(t: Table, kind: str) -> list[dict[str, Any]]:
    return [e for e in t.events if e["type"] == kind]


def enter(t: Table, points: int) -> int:
    """Enter `points` with the fewest gestures (holds +5, presses +1) and confirm; returns
    how many gestures it took."""
    gestures = [H] * (points // 5) + [P] * (points % 5)
    for g in gestures:
        t.do(N, g)
    t.do(E)
    return len(gestures) + 1


def play_era(t: Table) -> None:
    """Start the era at once from its preparation guide, play its two rounds."""
    assert t.state()["state"] == "setup"
    assert t.do(E)["state"] == "intro_round"
    t.do(N)
    assert t.do(N)["state"] == "scoring"


def zeros(t: Table, numbers: int) -> None:
    for _ in range(numbers):
        t.do(E)


def standings(t: Table) -> list[tuple[int, str, int]]:
    return [(p["place"], p["player"], p["total"]) for p in of(t, "standings")[-1]["places"]]


def test_a_whole_game_scored_through_the_buttons(tmp_path: Path) -> None:
    t = Table(tmp_path, CONFIG)
    try:
        # Era I, as era totals (the box's default): red 6; blue types 2, undoes it, enters 1;
        # green 0.
        play_era(t)
        enter(t, 6)
        t.do(N)
        t.do(N)
        t.do(E, H)  # undo: the 2 being typed is cleared
        enter(t, 1)
        enter(t, 0)
        assert standings(t) == [(1, "red", 6), (2, "blue", 1), (3, "green", 0)]
        assert [(e["player"], e["points"], e["step"]) for e in of(t, "points")[:3]] == [
            ("red", 6, None), ("blue", 1, None), ("green", 0, None)]
        t.do(E)  # on to Era II's setup

        # Era II: red 5; blue has typed 2 when the power goes: back on blue with the 2.
        play_era(t)
        enter(t, 5)
        t.do(N)
        t.do(N)
        t.state_file.flush()
        t.power_cut()
        screen = t.box.driver.screen(0.0)  # Time of Empires' screen, on either engine
        assert (screen.entry, screen.player, screen.value) == ("points", "blue", 2)
        assert [e["points"] for e in of(t, "points") if e["era"] == 2] == [5]  # kept
        enter(t, 1)  # blue: the 2 and one more
        enter(t, 5)  # green
        assert standings(t) == [(1, "red", 11), (2, "green", 5), (3, "blue", 4)]
        t.do(E)

        # Era III: red 9, blue 0, green 15 in four gestures: red and green tie at 20.
        play_era(t)
        enter(t, 9)
        enter(t, 0)
        before = len(t.events)
        gestures = enter(t, 15)
        entered = [e for e in t.events[before:]
                   if e["type"] == "input" and e["gesture"] != "release"]
        assert gestures == len(entered) <= 4
        assert of(t, "points")[-1]["points"] == 15 and of(t, "points")[-1]["total"] == 20
        assert standings(t) == [(1, "red", 20), (1, "green", 20), (3, "blue", 4)]
        t.do(E)  # the tie-break: buildings, asked of red and green only
        t.state_file.flush()
        saved = t.state_file.path.read_text(encoding="utf-8")
        enter(t, 12)
        enter(t, 14)
        assert [(e["player"], e["buildings"]) for e in of(t, "buildings")] == [
            ("red", 12), ("green", 14)]
        ranking = of(t, "ranking")[-1]
        assert ranking["winners"] == ["green"]
        assert [(p["place"], p["player"]) for p in ranking["places"]] == [
            (1, "green"), (2, "red"), (3, "blue")]
        assert t.state()["state"] == "game_over"

        # The same final scoring again, from the game saved at the tie-break: equal
        # buildings are a shared victory.
        t.state_file.path.write_text(saved, encoding="utf-8")
        t.power_cut()
        assert t.state()["state"] == "scoring"
        enter(t, 9)
        enter(t, 9)
        ranking = of(t, "ranking")[-1]
        assert ranking["winners"] == ["red", "green"]
        assert [(p["place"], p["player"]) for p in ranking["places"]] == [
            (1, "red"), (1, "green"), (3, "blue")]
    finally:
        t.close()
