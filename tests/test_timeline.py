"""Whole eras and games on the virtual clock, read from `erabox simulate`'s event stream.

Every expected time is computed from docs/behaviour.md / docs/game.md (gong at 0, cries at 3:00 and
6:00, end gong at 9:00 of running time; 15 introductory rounds with scholar calls after 5 and 10),
never copied from the program's output.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.core.config import Config
from erabox.core.model import Mode
from erabox.core.points import positions
from erabox.core.record import ARM_LEAD_S
from erabox.core.script import parse_script
from erabox.run.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
# The preparation guide has its own tests (test_prep.py, test_points_game.py): here each
# era's setup opens on its mode, as without the guide.
CFG = Config(guide=False)
RT = CFG.realtime
LEAD_IN = RT.lead_in_s

LENGTH = RT.length_s
CUES = RT.scholar_cues_s
ROUNDS = CFG.intro.rounds
SCHOLARS_AFTER = CFG.intro.scholar_after_rounds
THREE = ("red", "blue", "green")

Event = dict[str, Any]


def run(script: str, config: Config = CFG, until: float | None = None) -> list[Event]:
    """The events `erabox simulate` would print for this script."""
    events: list[Event] = []
    simulate(config, parse_script(script, "<test>"), until, events.append)
    return events


def times(events: list[Event], sound: str) -> list[float]:
    return [e["t"] for e in events if e["type"] == "sound" and e["sound"] == sound]


def states(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] == "state"]


class Script:
    """Writes a script line by line, keeping the virtual time."""

    def __init__(self) -> None:
        self.t = 0.0
        self.lines: list[str] = []

    def at(self, t: float, what: str) -> Script:
        self.t = t
        self.lines.append(f"{t!r} {what}")
        return self

    def then(self, wait: float, what: str) -> Script:
        return self.at(self.t + wait, what)

    def score(self, wait: float, players: int, final: bool = False) -> Script:
        """ERA presses through a whole scoring entering 0 points (as era totals, the default):
        every player, the standings; after Era III the tie-break (all tied at 0: everyone's
        buildings). The first press after `wait`, the others 0.1 s apart."""
        presses = len(positions(players, by_step=False)) + 1 + (players if final else 0)
        self.then(wait, "era press")
        for _ in range(presses - 1):
            self.at(round(self.t + 0.1, 3), "era press")  # on the events' millisecond grid
        return self

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def intro_presses(script: Script, presses: int, every: float = 30.0) -> None:
    for _ in range(presses):
        script.then(every, "next press")


# NEXT presses in an introductory era from round 1 to its end gong: one per round, one per
# scholar call.
PRESSES_PER_INTRO_ERA = ROUNDS + len(SCHOLARS_AFTER)


def expected_intro_states(players: tuple[str, ...], first: int) -> list[tuple[Any, ...]]:
    """(state, round, start player) as docs/behaviour.md and docs/game.md tell it, for one
    introductory era whose first start player is `players[first]`. Scholars lines are compared
    on the state only."""
    seq: list[tuple[Any, ...]] = []
    starter = first
    for r in range(1, ROUNDS + 1):
        seq.append(("intro_round", r, players[starter % len(players)]))
        if r in SCHOLARS_AFTER:
            seq.append(("scholars",))
            starter += 1  # the box goes to the player on the left
    seq.append(("scoring",))
    return seq


def intro_key(e: Event) -> tuple[Any, ...]:
    if e["state"] == "intro_round":
        return (e["state"], e["round"], e["start_player"])
    return (e["state"],)


# --- real-time -------------------------------------------------------------------------------


def test_cli_era_one_realtime() -> None:
    """docs/simulate.md's example, through the real command line."""
    done = subprocess.run(
        [sys.executable, "-m", "erabox", "simulate", "--script", "-", "--until", "560"],
        input="0 era press\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    stamps = [e["t"] for e in events]
    assert stamps == sorted(stamps) and stamps[-1] <= 560
    assert times(events, "gong") == [LEAD_IN, LEAD_IN + LENGTH]  # 5.0 and 545.0
    assert times(events, "cry") == [LEAD_IN + c for c in CUES]  # 185.0 and 365.0
    assert {e["era"] for e in events if e["type"] == "sound"} == {1}
    running = [e for e in states(events) if e["state"] == "running"]
    assert [e["t"] for e in running] == [LEAD_IN]
    scoring = [e for e in states(events) if e["state"] == "scoring"]
    assert [e["t"] for e in scoring] == [LEAD_IN + LENGTH]
    prompts = [e["t"] for e in events if e["type"] == "prompt" and e["prompt"] == "scholars"]
    assert prompts == [LEAD_IN + c for c in CUES]


def test_final_ticks_count_the_last_seconds() -> None:
    events = run("0 era press\n", until=LEAD_IN + LENGTH + 1)
    ticks = [t for t in times(events, "tick") if t > LEAD_IN]
    assert ticks == [LEAD_IN + LENGTH - k for k in range(RT.final_ticks_s, 0, -1)]
    quiet = run("0 era press\n", replace(CFG, realtime=replace(RT, final_ticks_s=0)))
    assert [t for t in times(quiet, "tick") if t > LEAD_IN] == []


def test_a_50_s_pause_at_100_s_moves_the_first_cry_50_s_later() -> None:
    gong = LEAD_IN
    script = Script().at(0, "era press").at(gong + 100, "next hold").at(gong + 150, "next press")
    events = run(script.text(), until=1000)
    assert times(events, "cry") == pytest.approx([gong + c + 50 for c in CUES])
    assert times(events, "cry")[0] - gong == pytest.approx(230)  # docs/behaviour.md's own figure
    assert times(events, "gong") == pytest.approx([gong, gong + LENGTH + 50])
    assert times(events, "music_pause") == [gong + 100]
    assert times(events, "music_resume") == [gong + 150]
    paused = [e for e in states(events) if e["state"] == "paused"]
    assert [(e["t"], e["elapsed"]) for e in paused] == [(gong + 100, 100.0)]


def test_no_cue_fires_while_paused_even_past_its_time() -> None:
    gong = LEAD_IN
    pause_at, resume_at = gong + CUES[0] - 10, gong + CUES[-1] + 100  # across both cries
    script = Script().at(0, "era press").at(pause_at, "next hold").at(resume_at, "next hold")
    events = run(script.text())
    during = [e for e in events if pause_at < e["t"] < resume_at and e["type"] != "state"]
    assert during == []
    assert times(events, "cry") == pytest.approx(
        [resume_at + (c - (CUES[0] - 10)) for c in CUES])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 600), st.floats(0.001, 300)), max_size=4))
def test_every_cue_keeps_its_running_time_through_any_pauses(
        pauses: list[tuple[float, float]]) -> None:
    """Pauses at any wall times, of any length: each cue lands at gong + its time + the pause
    time before it, and never inside a pause."""
    script = Script().at(0, "era press")
    t = LEAD_IN + 0.5
    windows = []
    for gap, length in pauses:
        t += gap
        windows.append((t, t + length))
        script.at(t, "next hold").at(t + length, "next press")
        t += length + 0.5
    events = run(script.text(), until=t + LENGTH + 10)

    def wall(running: float) -> float:
        # Every pause that began before this moment of running time pushes it back.
        at = LEAD_IN + running
        for start, end in windows:
            if start < at:
                at += end - start
        return at

    cries = times(events, "cry")
    gongs = times(events, "gong")
    assert len(cries) == len(CUES) and len(gongs) == 2
    for start, end in windows:
        assert not any(start < c < end for c in [*cries, gongs[1]])
    assert cries == pytest.approx([wall(c) for c in CUES], abs=2e-3)
    assert gongs[1] == pytest.approx(wall(LENGTH), abs=2e-3)


# --- introductory era ---------------------------------------------------------------------------


def test_intro_era_with_three_players() -> None:
    config = replace(CFG, players=THREE)
    script = Script().at(0, "next press").at(1, "era press")
    intro_presses(script, PRESSES_PER_INTRO_ERA)
    events = run(script.text(), config)
    era = [intro_key(e) for e in states(events) if e["t"] >= 1]
    assert era == expected_intro_states(THREE, 0)
    # Round 6 and round 11 are started by blue and green.
    assert ("intro_round", 6, "blue") in era and ("intro_round", 11, "green") in era
    # The start gong, a cry at each scholar call, the end gong with the scoring state.
    scholars_at = [e["t"] for e in states(events) if e["state"] == "scholars"]
    assert times(events, "cry") == scholars_at and len(scholars_at) == len(SCHOLARS_AFTER)
    scoring_at = [e["t"] for e in states(events) if e["state"] == "scoring"]
    assert times(events, "gong") == [1, *scoring_at]


def test_intro_undo_one_step_at_a_time_with_the_start_player() -> None:
    config = replace(CFG, players=THREE)
    to_round_11 = 10 + 2  # ten rounds, two scholar calls
    script = Script().at(0, "next press").at(1, "era press")
    intro_presses(script, to_round_11)
    undo_from = script.t
    for _ in range(to_round_11 + 3):  # three more than there is to undo
        script.then(5, "next hold")
    events = run(script.text(), config)
    forward = expected_intro_states(THREE, 0)[: to_round_11 + 1]
    assert forward[-1] == ("intro_round", 11, "green")
    undone = [intro_key(e) for e in states(events) if e["t"] > undo_from]
    assert undone == list(reversed(forward))[1:]  # back to round 1, red, and no further
    assert len(times(events, "cry")) == 2  # undo never cries again


@pytest.mark.parametrize("modes", list(itertools.product(Mode, repeat=3)),
                         ids=lambda modes: "-".join(m.value for m in modes))
def test_a_whole_game_in_any_mix_of_modes(modes: tuple[Mode, Mode, Mode]) -> None:
    script = Script()
    for era, mode in enumerate(modes, start=1):
        if mode is not CFG.default_mode:
            script.then(1, "next press")
        script.then(1, "era press")
        if mode is Mode.INTRO:
            intro_presses(script, PRESSES_PER_INTRO_ERA)
        script.score(LEAD_IN + LENGTH + 1 if mode is Mode.REALTIME else 1, len(CFG.players),
                     final=era == 3)
    script.then(5, "both hold").then(1, "era press")
    events = run(script.text())
    seen = states(events)
    names = [e["state"] for e in seen]
    assert names[-3:] == ["game_over", "confirm", "setup"]
    fresh = seen[-1]
    assert (fresh["era"], fresh["mode"], fresh["round"]) == (1, CFG.default_mode.value, None)
    game = seen[:-2]
    eras = [e["era"] for e in game]
    assert eras == sorted(eras)  # eras only move forward, until the new game
    # Each era in its mode, ending in its scoring, with both gongs and its scholar cries.
    for era, mode in enumerate(modes, start=1):
        of_era = [e for e in game if e["era"] == era and e["state"] != "game_over"]
        assert {e["mode"] for e in of_era if e["state"] != "setup"} == {mode.value}
        assert of_era[-1]["state"] == "scoring"
        gongs = [e for e in events if e.get("sound") == "gong" and e["era"] == era]
        cries = [e for e in events if e.get("sound") == "cry" and e["era"] == era]
        calls = len(CUES) if mode is Mode.REALTIME else len(SCHOLARS_AFTER)
        assert (len(gongs), len(cries)) == (2, calls)
    assert names.count("scoring") == 3


@pytest.mark.parametrize(("modes", "first_players"), [
    ((Mode.INTRO, Mode.INTRO, Mode.INTRO), ("red", "green", "blue")),
    ((Mode.INTRO, Mode.REALTIME, Mode.INTRO), ("red", None, "green")),
    ((Mode.REALTIME, Mode.INTRO, Mode.INTRO), (None, "red", "green")),
    ((Mode.REALTIME, Mode.REALTIME, Mode.INTRO), (None, None, "red")),
])
def test_start_player_carries_over_from_the_previous_intro_era(
        modes: tuple[Mode, ...], first_players: tuple[str | None, ...]) -> None:
    # With three players, an intro era moves the start player left twice: red -> green.
    config = replace(CFG, players=THREE)
    script = Script()
    for mode in modes:
        if mode is Mode.INTRO:
            script.then(1, "next press").then(1, "era press")
            intro_presses(script, PRESSES_PER_INTRO_ERA)
            script.score(1, len(THREE))
        else:
            script.then(1, "era press").score(LEAD_IN + LENGTH + 1, len(THREE))
    events = run(script.text(), config)
    firsts = []
    for era in (1, 2, 3):
        round_one = [e for e in states(events)
                     if e["era"] == era and e["state"] == "intro_round" and e["round"] == 1]
        firsts.append(round_one[0]["start_player"] if round_one else None)
    assert tuple(firsts) == first_players


def test_restarting_an_intro_era_gives_it_back_its_first_start_player() -> None:
    config = replace(CFG, players=THREE)
    script = Script().at(0, "next press").at(1, "era press")
    intro_presses(script, PRESSES_PER_INTRO_ERA)  # Era I ends with green
    script.score(1, len(THREE)).then(1, "next press").then(1, "era press")  # Era II: green
    intro_presses(script, 7)  # past the first scholar call: red starts round 6
    script.then(1, "era hold").then(1, "era press")  # "restart era?" yes
    script.then(1, "next press").then(1, "era press")
    events = run(script.text(), config)
    round_ones = [e for e in states(events) if e["state"] == "intro_round" and e["round"] == 1]
    assert [(e["era"], e["start_player"]) for e in round_ones] == [
        (1, "red"), (2, "green"), (2, "green")]


# --- restarts (power cuts) ---------------------------------------------------------------------


# (Cuts in the half second before a cry or the end gong: `test_power_cut_rounds.py`.)
@pytest.mark.parametrize("running_at_cut", [1.0, 100.0, CUES[0], CUES[0] + 2.3,
                                            LENGTH - ARM_LEAD_S - 0.1])
def test_restart_in_a_running_era_comes_back_paused_at_the_saved_time(
        running_at_cut: float) -> None:
    gong = LEAD_IN
    cut = gong + running_at_cut
    resume = cut + 60
    script = Script().at(0, "era press").at(cut, "restart").at(resume, "next press")
    events = run(script.text(), until=resume + LENGTH + 10)
    after = [e for e in events if e["t"] >= cut]
    back = states(after)[0]
    assert (back["state"], back["era"], back["mode"]) == ("paused", 1, "realtime")
    saved = back["elapsed"]
    assert running_at_cut - 5 <= saved <= running_at_cut + 1e-3  # saved at least every 5 s
    # A cry whose prompt was still up at the cut owes the table that prompt (silently);
    # otherwise the box says it resumed.
    owed = any(0 <= running_at_cut - c < RT.scholar_prompt_s for c in CUES)
    expected = "scholars" if owed else "resumed"
    assert {"t": cut, "type": "prompt", "prompt": expected} in after
    assert [e for e in after if cut < e["t"] < resume and e["type"] == "sound"] == []

    def wall(running: float) -> float:
        # Before the cut: on the first clock; after it, counted on from the saved time.
        return gong + running if running <= running_at_cut else resume + running - saved

    # Each cue fires exactly once: none is lost, none is repeated after the restart.
    assert times(events, "cry") == pytest.approx([wall(c) for c in CUES], abs=2e-3)
    assert times(events, "gong") == pytest.approx([gong, wall(LENGTH)], abs=2e-3)


def test_restart_in_an_intro_era_comes_back_at_the_same_round_and_start_player() -> None:
    config = replace(CFG, players=THREE)
    script = Script().at(0, "next press").at(1, "era press")
    intro_presses(script, 7)  # round 7, blue starts
    cut = script.then(10, "restart").t
    intro_presses(script, PRESSES_PER_INTRO_ERA - 7)
    events = run(script.text(), config)
    before = [intro_key(e) for e in states(events) if 1 <= e["t"] < cut]
    after = [intro_key(e) for e in states(events) if e["t"] >= cut]
    assert before[-1] == ("intro_round", 7, "blue")
    assert {"t": cut, "type": "prompt", "prompt": "resumed"} in events
    # A state line only comes when something but `elapsed` changed (docs/simulate.md): the box is
    # back in round 7 with blue when nothing or that very state is printed at the restart,
    # and the era goes on from there exactly as if nothing had happened.
    assert all(intro_key(e) == before[-1] for e in states(events) if e["t"] == cut)
    assert before + after == expected_intro_states(THREE, 0)
    assert len(times(events, "cry")) == len(SCHOLARS_AFTER)


def test_restart_in_era_two_keeps_the_era_and_its_start_player() -> None:
    config = replace(CFG, players=THREE)
    script = Script().at(0, "next press").at(1, "era press")
    intro_presses(script, PRESSES_PER_INTRO_ERA)  # green ends Era I
    script.score(1, len(THREE)).then(1, "era press")  # Era II, real-time
    cut = script.then(20, "restart").t
    script.then(5, "next press").score(LENGTH, len(THREE))
    script.then(1, "next press").then(1, "era press")  # Era III, introductory
    events = run(script.text(), config)
    back = next(e for e in states(events) if e["t"] >= cut)
    assert (back["t"], back["state"], back["era"], back["mode"]) == (cut, "paused", 2,
                                                                     "realtime")
    era_three = [e for e in states(events) if e["era"] == 3 and e["state"] == "intro_round"]
    assert era_three[0]["start_player"] == "green"


def test_a_cut_a_fraction_of_a_ms_before_a_cry_shows_it_once() -> None:
    """The running time is saved rounded to the millisecond; a power cut a fraction of a
    millisecond before a cry must neither lose that cry nor repeat it. The cut falls after the
    cry's "sounded" record went on disk (0.1 s ahead of it): nobody can know whether it was
    heard, so the box comes back with the scholar prompt shown silently, and the cry is not
    sounded again (docs/power-cuts.md)."""
    gong = LEAD_IN
    # Pause so that the saves after resuming fall 0.4 ms before the first cry.
    pause = gong + CUES[0] - 5 - 0.0004
    resume = pause + 20
    cut = resume + 5 + 0.0002  # after the 5 s save, before the cry
    back = cut + 10
    script = (Script().at(0, "era press").at(pause, "next hold").at(resume, "next press")
              .at(cut, "restart").at(back, "next press"))
    events = run(script.text(), until=back + LENGTH)
    cries = times(events, "cry")
    assert [t for t in cries if t < back] == []
    assert {"t": round(cut, 3), "type": "prompt", "prompt": "scholars"} in events
    assert len(cries) == len(CUES) - 1  # shown instead of heard, never doubled
    assert cries[0] == pytest.approx(back + CUES[1] - CUES[0], abs=2e-3)


def test_a_cut_just_before_a_cry_is_recorded_sounds_it_on_resume() -> None:
    """A cut in the cry's "armed" window, before its "sounded" record: the box comes back
    paused at the cry and sounds it the moment the table resumes, once."""
    cut = LEAD_IN + CUES[0] - 0.2
    back = cut + 10
    script = Script().at(0, "era press").at(cut, "restart").at(back, "next press")
    events = run(script.text(), until=back + LENGTH)
    cries = times(events, "cry")
    assert {"t": round(cut, 3), "type": "prompt", "prompt": "resumed"} in events
    assert len(cries) == len(CUES)  # none lost, none doubled
    assert cries[0] == pytest.approx(back, abs=2e-3)  # sounded on resume
    assert cries[1] == pytest.approx(back + CUES[1] - CUES[0], abs=2e-3)


@pytest.mark.parametrize("how", ["era hold in game over, yes", "both hold, yes"])
def test_a_new_game_starts_with_the_oldest_player_again(how: str) -> None:
    config = replace(CFG, players=THREE, default_mode=Mode.INTRO)
    script = Script()
    for era in (1, 2, 3):  # three introductory eras: the start player moves on each time
        script.then(1, "era press")
        intro_presses(script, PRESSES_PER_INTRO_ERA)
        script.score(1, len(THREE), final=era == 3)
    if how == "era hold in game over, yes":
        script.then(1, "era hold").then(1, "era press")  # "New game?" yes
    else:
        script.then(1, "both hold").then(1, "era press")
    script.then(1, "era press")
    events = run(script.text(), config)
    firsts = [(e["era"], e["start_player"]) for e in states(events)
              if e["state"] == "intro_round" and e["round"] == 1]
    assert firsts == [(1, "red"), (2, "green"), (3, "blue"), (1, "red")]
