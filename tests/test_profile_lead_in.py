"""A round countdown's lead-in (docs/profiles.md, "Real-time phases": `lead_in_s`): a tick each
second before the countdown's start gong, the countdown and its calls counting from the gong,
on the countdown's own anchor; paused with it, cancelled by leaving the phase, saved across a
power cut; the screen's "in 3"; the parser's errors.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.cli import main
from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, FlashCue, Gesture, Input, PlaySound, Save, Sound, Tick
from erabox.core.play import Play, new_play, screen
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

SPRINT = """\
[game]
id = "sprint"
name = "Sprint"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 10
lead_in_s = 3
final_ticks_s = 2
timer_end = "next"
steps = ["Run", "Rest"]

[[phase.call]]
at_s = 4
prompt = "Swap"
"""
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)


def started() -> tuple[Play, float]:
    return started_heard()[0], 0.0


def started_heard() -> tuple[Play, list[tuple[float, str]]]:
    """ERA at 0 s: the play, and what the press itself sounds (round 1's gong, `[rounds]
    start_gong`, and the lead-in's first tick, with the press, as Time of Empires' era engine
    gives it)."""
    play = new_play(parse_profile(SPRINT, "sprint.toml"), PLAYERS)
    play, effects = step(play, ERA, 0.0)
    return play, [(0.0, e.sound.value) for e in effects if isinstance(e, PlaySound)]


def sounds_until(play: Play, now: float, end: float) -> tuple[Play, list[tuple[float, str]]]:
    """Wake at each deadline, as the loop does, up to `end`: the sounds given, when."""
    heard: list[tuple[float, str]] = []
    while (due := next_deadline(play, now)) is not None and due <= end:
        now = due
        play, effects = step(play, Tick(), now)
        heard += [(now, e.sound.value) for e in effects if isinstance(e, PlaySound)]
    return play, heard


def test_lead_in_ticks_then_the_start_gong_and_the_countdown_from_it() -> None:
    play, heard = started_heard()
    play, more = sounds_until(play, 0.0, 20.0)
    assert heard + more == [(0.0, "gong"), (0.0, "tick"), (1.0, "tick"), (2.0, "tick"),
                            (3.0, "gong"), (7.0, "cry"),  # the call at 4 s: from the gong
                            (11.0, "tick"), (12.0, "tick"), (13.0, "gong")]  # 10 s after it


def test_the_start_gong_is_on_disk_before_it_sounds() -> None:
    play, _ = started()
    play, _ = sounds_until(play, 0.0, 2.0)
    play, effects = step(play, Tick(), 3.0)
    kinds = [type(e) for e in effects]
    assert kinds[:3] == [Save, PlaySound, FlashCue]
    save, gong = effects[0], effects[1]
    assert isinstance(save, Save) and save.durable and save.snapshot["timer_cues"] == 4
    assert isinstance(gong, PlaySound) and gong.sound is Sound.GONG


def test_with_no_lead_in_the_start_gong_sounds_with_the_press_its_record_first() -> None:
    """`config = "realtime"` with `lead_in_s = 0` (Time of Empires' setting): the press that
    starts the countdown rings its start gong in the same step, as the era engine's ERA does
    (not a deadline later), the record counting it given on disk before it sounds."""
    text = SPRINT.replace("lead_in_s = 3", "lead_in_s = 0").replace(
        "count = 1", "count = 1\nstart_gong = false")  # the countdown's gong, not round 1's
    profile = parse_profile(text, "sprint.toml")
    phases = (replace(profile.phases[0], start_gong=True), *profile.phases[1:])
    play = new_play(replace(profile, phases=phases), PLAYERS)
    play, effects = step(play, ERA, 0.0)
    gongs = [n for n, e in enumerate(effects) if isinstance(e, PlaySound)]
    assert [effects[n].sound for n in gongs] == [Sound.GONG]  # type: ignore[attr-defined]
    saves = [n for n, e in enumerate(effects) if isinstance(e, Save)]
    assert len(saves) == 1 and saves[0] < gongs[0]
    save = effects[saves[0]]
    assert isinstance(save, Save) and save.durable and save.snapshot["timer_cues"] == 1
    _, heard = sounds_until(play, 0.0, 20.0)
    assert heard == [(4.0, "cry"), (8.0, "tick"), (9.0, "tick"), (10.0, "gong")]


def test_a_pause_in_the_lead_in_holds_it() -> None:
    play, heard = started_heard()
    play, more = sounds_until(play, 0.0, 1.0)
    play, _ = step(play, ERA, 1.5)  # paused 1.5 s before the gong ...
    assert next_deadline(play, 1.5) is None
    play, _ = step(play, ERA, 4.5)  # ... for 3 s
    play, rest = sounds_until(play, 4.5, 9.0)
    assert heard + more + rest == [(0.0, "gong"), (0.0, "tick"), (1.0, "tick"), (5.0, "tick"),
                                   (6.0, "gong")]


def test_undo_within_the_phase_keeps_the_lead_in_going() -> None:
    play, _ = started()
    play, _ = step(play, NEXT, 1.0)  # "Rest": the lead-in goes on under the steps
    play, _ = step(play, NEXT_HOLD, 1.5)  # undo back to "Run": the same phase
    play, heard = sounds_until(play, 1.5, 3.0)
    assert heard == [(2.0, "tick"), (3.0, "gong")]


@pytest.mark.parametrize("leave", [(NEXT_HOLD,), (NEXT, NEXT)], ids=["undo", "next"])
def test_leaving_the_phase_in_the_lead_in_cancels_it(leave: tuple[Input, ...]) -> None:
    play, heard = started_heard()
    play, ticks = sounds_until(play, 0.0, 1.0)
    heard += ticks
    for at, gesture in enumerate(leave):  # to setup, or past the last step to the ranking
        play, _ = step(play, gesture, 1.2 + at * 0.2)
    play, more = sounds_until(play, 1.6, 30.0)
    assert heard == [(0.0, "gong"), (0.0, "tick"), (1.0, "tick")] and more == []
    assert play.timer_end is None and play.held_left is None


def test_undo_back_into_the_phase_starts_the_lead_in_afresh() -> None:
    play, _ = started()
    play, _ = step(play, NEXT_HOLD, 1.0)  # back to setup: no countdown
    play, effects = step(play, ERA, 10.0)  # the first tick with the press
    play, heard = sounds_until(play, 10.0, 13.0)
    assert [(10.0, e.sound.value) for e in effects if isinstance(e, PlaySound)] + heard == [
        (10.0, "gong"), (10.0, "tick"), (11.0, "tick"), (12.0, "tick"), (13.0, "gong")]


def test_a_cut_in_the_lead_in_comes_back_in_it_and_the_gong_sounds_once() -> None:
    play, _ = started()
    play, _ = sounds_until(play, 0.0, 1.0)
    record = json.loads(json.dumps(snapshot(play, 1.2)))
    back, _ = restore(record, play.profile, PLAYERS, 100.0)
    back, heard = sounds_until(back, 100.0, 103.0)
    # 1.8 s were left to the gong: the tick at 2 s again, the gong 1.8 s after the restart
    assert heard == [(100.8, "tick"), (101.8, "gong")]
    after = json.loads(json.dumps(snapshot(back, 101.9)))  # cut after the gong's record
    again, _ = restore(after, play.profile, PLAYERS, 200.0)
    again, heard = sounds_until(again, 200.0, 204.0)
    assert heard == [(203.9, "cry")]  # the countdown runs on; no second gong


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_screen_counts_the_lead_in_beside_the_countdown(language: str) -> None:
    play, _ = started()
    texts = [i.text for i in layout_play(screen(play, 0.2), Panel(128, 64), language)]
    assert ("in 3 0:10" if language == "en" else "あと3 0:10") in texts
    play, _ = sounds_until(play, 0.0, 3.0)
    texts = [i.text for i in layout_play(screen(play, 3.2), Panel(128, 32), language)]
    assert "0:10" in texts


@pytest.mark.parametrize(("value", "key", "says"), [
    ("61", "phase[1].lead_in_s", "a whole number of seconds from 0 to 60"),
    ("1.5", "phase[1].lead_in_s", "a whole number of seconds from 0 to 60"),
    ("true", "phase[1].lead_in_s", "a whole number of seconds from 0 to 60"),
])
def test_a_bad_lead_in_is_an_error_naming_file_line_and_key(value: str, key: str,
                                                            says: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(SPRINT.replace("lead_in_s = 3", f"lead_in_s = {value}"), "sprint.toml")
    assert str(caught.value).startswith(f"sprint.toml:17: key '{key}'") and says in str(
        caught.value)


def test_a_lead_in_needs_a_countdown() -> None:
    text = SPRINT.replace("timer_s = 10\n", "").replace("final_ticks_s = 2\n", "").replace(
        'timer_end = "next"\n', "").split("[[phase.call]]")[0]
    with pytest.raises(ProfileError, match=r"sprint.toml:\d+: key 'phase\[1\].lead_in_s': "
                       r"lead_in_s needs a timer"):
        parse_profile(text, "sprint.toml")


def test_simulate_prints_the_lead_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    (tmp_path / "sprint.toml").write_text(SPRINT, encoding="utf-8")
    (tmp_path / "s.txt").write_text("0 era press\n1 era press\n3 era press\n",
                                    encoding="utf-8")
    assert main(["simulate", "--game", str(tmp_path / "sprint.toml"), "--players",
                 ",".join(PLAYERS), "--script", str(tmp_path / "s.txt")]) == 0
    lines: list[dict[str, Any]] = [json.loads(line)
                                   for line in capsys.readouterr().out.splitlines()]
    told = [(e["t"], e["type"], e.get("sound") or e.get("left")) for e in lines
            if e["type"] in ("sound", "pause", "resume", "call")]
    assert told == [(0.0, "sound", "gong"), (0.0, "sound", "tick"), (1.0, "sound", "tick"),
                    (1.0, "pause", 12.0), (3.0, "resume", 12.0), (4.0, "sound", "tick"),
                    (5.0, "sound", "gong"), (9.0, "sound", "cry"), (9.0, "call", None),
                    (13.0, "sound", "tick"), (14.0, "sound", "tick"), (15.0, "sound", "gong")]
