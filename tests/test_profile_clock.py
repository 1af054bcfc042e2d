"""A round profile's real-time countdown: `final_ticks_s`, `[[phase.call]]` and the pause
(docs/profiles.md, issue #30).

- Each key is read and checked like every other (file, line and key named).
- Ticks and calls fall due on the countdown's own anchor (its start + their time), however late
  the loop wakes; ERA press pauses and resumes the countdown, its calls and ticks held with it.
- A call's record is on disk before it sounds; a restart from it shows its prompt, silently,
  and never sounds it again; a paused countdown comes back paused.
- `erabox simulate --game` prints each call, tick, pause and resume at its exact time.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from erabox.cli import main
from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, FlashCue, Gesture, Input, PlaySound, Save, Sound, Tick
from erabox.core.play import (
    Called,
    Paused,
    Play,
    PlayEffect,
    ShowPlay,
    State,
    new_play,
    prepare_sounds,
    screen,
)
from erabox.core.play_record import restore
from erabox.core.profile import ProfileError, parse_profile
from erabox.files.games import missing_music
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play

E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
N_PRESS, N_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
PLAYERS = ("red", "blue")

# The example: a 2-minute phase with calls at 0:40 and 1:20 and 5 final ticks.
RACE = """\
[game]
id = "race"
name = "Race"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 120
final_ticks_s = 5
timer_end = "next"
steps = ["Run", "Finish"]

[[phase.call]]
at_s = 40
sound = "cry"
prompt = { en = "Swap runners", ja = "走者交代" }

[[phase.call]]
at_s = 80
sound = "gong"

[[phase]]
id = "count"
label = "Count"
steps = ["Count the laps"]
"""


def race() -> Play:
    return new_play(parse_profile(RACE, "race.toml"), PLAYERS)


def sounds(effects: tuple[PlayEffect, ...]) -> list[str]:
    return [e.sound.value for e in effects if isinstance(e, PlaySound)]


def run(play: Play, start: float, until: float) -> tuple[Play, list[tuple[float, str]]]:
    """Step the play at each deadline from `start` to `until`: (time, sound) heard."""
    heard: list[tuple[float, str]] = []
    now = start
    while (due := next_deadline(play, now)) is not None and due <= until:
        now = due
        play, effects = step(play, Tick(), now)
        heard += [(now, s) for s in sounds(effects)]
    return play, heard


# --- the format -------------------------------------------------------------------------------


def test_the_keys_are_read_with_their_defaults() -> None:
    profile = parse_profile(RACE, "race.toml", base_dir="/games")
    race_phase, count = profile.phases
    assert race_phase.final_ticks_s == 5 and count.final_ticks_s == 0
    first, second = race_phase.calls
    assert (first.at_s, first.sound, first.prompt and first.prompt.ja) == (40.0, "cry",
                                                                           "走者交代")
    assert (second.at_s, second.sound, second.prompt) == (80.0, "gong", None)
    assert count.calls == ()
    text = RACE.replace('sound = "cry"\n', "").replace('sound = "gong"', 'sound = "horn.ogg"')
    first, second = parse_profile(text, "race.toml", base_dir="/games").phases[0].calls
    assert first.sound == "cry"  # the default, as a [[realtime.call]]'s
    assert second.sound == "/games/horn.ogg" and second.sound_key == (
        "race.toml:27: key 'phase[1].call[2].sound'")
    assert prepare_sounds(parse_profile(text, "race.toml", base_dir="/games"))[0].files == (
        "/games/horn.ogg",)
    tick = parse_profile(RACE.replace('sound = "gong"', 'sound = "tick"')).phases[0].calls[1]
    assert tick.sound == "tick"


def test_a_calls_own_file_that_cannot_be_read_is_said_with_its_key(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    text = RACE.replace('sound = "gong"', 'sound = "horn.ogg"')
    profile = parse_profile(text, "race.toml", base_dir=str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="erabox"):
        assert missing_music(profile) == [str(tmp_path / "horn.ogg")]
    assert (f"race.toml:28: key 'phase[1].call[2].sound': the sound file {tmp_path}/horn.ogg "
            "does not exist; the box's cry sounds instead") in caplog.text
    play, _ = step(new_play(profile, PLAYERS), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 80.0)
    assert [(e.sound, e.file) for e in effects if isinstance(e, PlaySound)] == [
        (Sound.CRY, ""), (Sound.CRY, str(tmp_path / "horn.ogg"))]  # the cry stands in


@pytest.mark.parametrize(("old", "new", "key", "line"), [
    ("final_ticks_s = 5", "final_ticks_s = 61", "phase[1].final_ticks_s", 17),
    ("final_ticks_s = 5", "final_ticks_s = -1", "phase[1].final_ticks_s", 17),
    ("final_ticks_s = 5", "final_ticks_s = 2.5", "phase[1].final_ticks_s", 17),
    ("final_ticks_s = 5", "final_ticks_s = true", "phase[1].final_ticks_s", 17),
    ('label = "Count"', 'label = "Count"\nfinal_ticks_s = 3', "phase[2].final_ticks_s", 33),
    ("at_s = 40", "at_s = 0", "phase[1].call[1].at_s", 22),
    ("at_s = 40", "at_s = 120", "phase[1].call[1].at_s", 22),
    ("at_s = 40", 'at_s = "0:40"', "phase[1].call[1].at_s", 22),
    ("at_s = 80", "at_s = 40", "phase[1].call[2].at_s", 27),
    ('sound = "gong"', 'sound = "gongg"', "phase[1].call[2].sound", 28),
    ('sound = "gong"', 'sound = "none"', "phase[1].call[2].sound", 28),
    ('sound = "gong"', 'sound = "gong"\nwhen = 3', "phase[1].call[2].when", 29),
    ("at_s = 80\n", "", "phase[1].call[2]", 26),
    ('en = "Swap runners"', f'en = "{"x" * 41}"', "phase[1].call[1].prompt.en", 24),
    ('ja = "走者交代"', 'ja = ""', "phase[1].call[1].prompt.ja", 24),
    ('steps = ["Count the laps"]', 'steps = ["Count the laps"]\n[[phase.call]]\nat_s = 1',
     "phase[2].call", 34),
])
def test_a_bad_key_names_the_file_line_and_key(old: str, new: str, key: str,
                                               line: int) -> None:
    text = RACE.replace(old, new, 1)
    assert text != RACE
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/race.toml")
    assert str(caught.value).startswith(f"games/race.toml:{line}: key '{key}'"), caught.value


def test_the_messages_say_what_is_expected() -> None:
    def problem(old: str, new: str) -> str:
        with pytest.raises(ProfileError) as caught:
            parse_profile(RACE.replace(old, new, 1), "race.toml")
        return str(caught.value).split(": ", 2)[2]

    assert problem("final_ticks_s = 5", "final_ticks_s = 61") == (
        "expected a whole number of seconds from 0 to 60, got 61")
    assert problem("at_s = 80", "at_s = 130") == (
        "expected seconds into the countdown, above 0, after the call before and before "
        "its end (120 s), got 130")
    assert problem('label = "Count"', 'label = "Count"\nfinal_ticks_s = 3') == (
        "final_ticks_s needs a timer (timer_s)")


# --- the machine ------------------------------------------------------------------------------


def test_calls_and_final_ticks_sound_at_their_times_on_the_countdowns_anchor() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, heard = run(play, 0.0, 200.0)
    assert heard == [(40.0, "cry"), (80.0, "gong"), (115.0, "tick"), (116.0, "tick"),
                     (117.0, "tick"), (118.0, "tick"), (119.0, "tick"), (120.0, "gong")]
    assert play.profile.phases[play.spot.phase].id == "count"


def test_a_late_wake_gives_each_cue_once_in_order_and_the_next_stays_on_its_time() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 81.5)  # both calls fell due while the loop slept
    assert sounds(effects) == ["cry", "gong"]
    saves = [e for e in effects if isinstance(e, Save) and e.durable]
    assert [s.snapshot["timer_cues"] for s in saves] == [1, 2]
    # the first call's record cannot be past the second, not yet given; the second's is at
    # the wake (both given: the restart gives back from there)
    assert [s.snapshot["timer_left"] for s in saves] == [40.0, 38.5]
    assert next_deadline(play, 81.5) == 82.0  # the screen's next second; the ticks at 115
    play, heard = run(play, 81.5, 120.0)
    assert [t for t, s in heard if s == "tick"] == [115.0, 116.0, 117.0, 118.0, 119.0]


def test_a_call_is_on_disk_before_it_sounds_and_shows_its_prompt_for_a_while() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 40.0)
    kinds = [type(e).__name__ for e in effects]
    assert kinds[:4] == ["Save", "PlaySound", "FlashCue", "Called"], kinds
    record = effects[0]
    assert isinstance(record, Save) and record.durable
    assert (record.snapshot["timer_cues"], record.snapshot["timer_left"]) == (1, 80.0)
    assert effects[3] == Called("race", 40.0, "Swap runners")
    assert isinstance(effects[2], FlashCue) and effects[2].sound is Sound.CRY
    shown = screen(play, 40.0)
    assert shown.call is not None and shown.call.en == "Swap runners"
    texts = [item.text for item in layout_play(shown, language="ja")]
    assert "走者交代" in texts
    assert screen(play, 44.9).call is not None
    assert 45.0 in [next_deadline(play, 44.5)]
    assert screen(play, 45.0).call is None
    play, _ = step(play, Tick(), 80.0)  # a call without a prompt: the box's words
    words = screen(play, 80.0).call
    assert words is not None and (words.en, words.ja) == ("Call at 1:20", "1:20の合図")


def test_era_press_pauses_the_countdown_and_its_calls_and_resumes_them() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, _ = run(play, 0.0, 40.0)
    play, effects = step(play, E_PRESS, 50.0)  # paused with 70 s left
    assert play.held_left == 70.0 and play.timer_end is None
    assert [type(e).__name__ for e in effects][:2] == ["Save", "Paused"]  # on disk first
    record = effects[0]
    assert isinstance(record, Save) and record.durable
    assert record.snapshot["timer_paused"] is True and record.snapshot["timer_left"] == 70.0
    assert effects[1] == Paused("race", True, 70.0)
    shown = screen(play, 60.0)
    assert shown.paused and shown.timer_left == 70
    texts = [item.text for item in layout_play(shown)]
    assert "Paused" in texts and "ERA: resume  hold NEXT: undo" in texts
    small = [item.text for item in layout_play(shown, Panel(height=32), language="ja")]
    assert "一時停止" in small
    assert next_deadline(play, 60.0) is None  # nothing runs while it is held
    play, effects = step(play, N_PRESS, 60.0)  # the steps go on, the countdown stays held
    assert play.spot.step == 1 and play.held_left == 70.0
    play, effects = step(play, E_PRESS, 80.0)
    assert effects[1] == Paused("race", False, 70.0) and play.timer_end == 150.0
    play, heard = run(play, 80.0, 200.0)
    assert heard[0] == (110.0, "gong") and heard[-1] == (150.0, "gong")


def test_era_press_under_an_event_pauses_the_countdown_of_the_phase_under_it() -> None:
    text = RACE + '[[event]]\nid = "fall"\nlabel = "A runner falls"\n'
    play, _ = step(new_play(parse_profile(text), PLAYERS), E_PRESS, 0.0)
    play, _ = step(play, E_HOLD, 10.0)  # the event, over the running countdown
    assert play.spot.state is State.EVENT
    play, effects = step(play, E_PRESS, 20.0)
    assert play.held_left == 100.0 and effects[1] == Paused("race", True, 100.0)
    play, _ = step(play, N_PRESS, 30.0)  # the event's last step: back to the race, held
    assert play.spot.state is State.ROUND and play.held_left == 100.0
    play, _ = step(play, E_PRESS, 40.0)
    play, heard = run(play, 40.0, 70.0)
    assert heard == [(60.0, "cry")]  # 40 s into the countdown: 20 s run, 20 more


def test_era_press_without_a_running_countdown_does_nothing() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, _ = run(play, 0.0, 120.0)  # "count": no countdown
    assert play.profile.phases[play.spot.phase].id == "count"
    after, effects = step(play, E_PRESS, 130.0)
    assert after == play and [type(e).__name__ for e in effects] == ["ShowPlay"]


def test_leaving_the_phase_while_paused_drops_the_countdown_and_undo_counts_it_again() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, _ = step(play, E_PRESS, 50.0)
    play, _ = step(play, N_PRESS, 51.0)
    play, _ = step(play, N_PRESS, 52.0)  # on to "count"
    assert play.held_left is None and play.timer_end is None and play.cues_done == 0
    play, _ = step(play, N_HOLD, 53.0)  # undo: back into the race, its countdown anew
    assert play.timer_end == 173.0 and play.held_left is None and play.cues_done == 0


def test_a_restart_after_a_calls_record_shows_it_and_never_sounds_it_again() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 40.0)
    record = next(e.snapshot for e in effects if isinstance(e, Save))
    back, effects = restore(json.loads(json.dumps(record)), play.profile, PLAYERS, 1000.0)
    assert not any(isinstance(e, PlaySound | Save) for e in effects)
    assert back.cues_done == 1 and back.timer_end == 1080.0
    shown = next(e.screen for e in effects if isinstance(e, ShowPlay))
    assert shown.call is not None and shown.call.en == "Swap runners"  # said, not sounded
    back, heard = run(back, 1000.0, 1200.0)
    assert heard[0] == (1040.0, "gong")  # the next call, on time; the first not again


def test_a_restart_before_a_calls_record_sounds_it_at_its_time() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 35.0)  # the periodic save: 85 s left, no call given
    record = next(e.snapshot for e in effects if isinstance(e, Save))
    assert record["timer_left"] == 85.0
    assert set(record) == {"schema", "kind", "game", "players", "drawn_seat", "spot",
                           "history", "timer_left", "timer_done", "music_elapsed"}  # as ever
    back, _ = restore(record, play.profile, PLAYERS, 1000.0)
    back, heard = run(back, 1000.0, 1010.0)
    assert heard == [(1005.0, "cry")]


def test_a_paused_countdown_comes_back_paused() -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, _ = step(play, Tick(), 40.0)
    play, effects = step(play, E_PRESS, 50.0)
    record = next(e.snapshot for e in effects if isinstance(e, Save))
    back, _ = restore(record, play.profile, PLAYERS, 1000.0)
    assert back.held_left == 70.0 and back.timer_end is None and back.cues_done == 1
    assert next_deadline(back, 1000.0) == 1000.0 + 5.0  # only "Resumed" going away
    back, effects = step(back, E_PRESS, 1010.0)
    assert back.timer_end == 1080.0


@pytest.mark.parametrize(("change", "problem"), [
    ({"timer_cues": 2}, "'timer_cues' does not fit"),  # two calls given 40 s in
    ({"timer_cues": 0, "timer_left": 70.0}, "'timer_cues' does not fit"),  # 50 s in
    ({"timer_cues": 9}, "'timer_cues' should be"),
    ({"timer_paused": "yes"}, "'timer_paused' should be"),
    ({"timer_paused": True, "timer_left": None}, "'timer_paused' should be"),
])
def test_a_record_whose_cues_do_not_fit_its_countdown_is_refused(
        change: dict[str, object], problem: str) -> None:
    play, _ = step(race(), E_PRESS, 0.0)
    play, effects = step(play, Tick(), 40.0)
    record = next(e.snapshot for e in effects if isinstance(e, Save)) | change
    with pytest.raises(ValueError, match=problem):
        restore(record, play.profile, PLAYERS, 0.0)


# --- erabox simulate --game -------------------------------------------------------------------


def test_simulate_prints_every_call_tick_and_pause_at_its_exact_time(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "race.toml").write_text(RACE, encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("0 era press\n50 era press\n80 era press\n", encoding="utf-8")
    code = main(["simulate", "--script", str(script), "--game", str(tmp_path / "race.toml"),
                 "--players", "red,blue", "--until", "300"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    timed = [line for line in lines if line["type"] in ("sound", "call", "pause", "resume")]
    assert timed == [
        {"t": 0.0, "type": "sound", "sound": "gong"},
        {"t": 40.0, "type": "sound", "sound": "cry"},
        {"t": 40.0, "type": "call", "phase": "race", "at_s": 40.0, "text": "Swap runners"},
        {"t": 50.0, "type": "pause", "phase": "race", "left": 70.0},
        {"t": 80.0, "type": "resume", "phase": "race", "left": 70.0},
        {"t": 110.0, "type": "sound", "sound": "gong"},
        {"t": 110.0, "type": "call", "phase": "race", "at_s": 80.0},
        *({"t": t, "type": "sound", "sound": "tick"} for t in (145.0, 146.0, 147.0, 148.0,
                                                               149.0)),
        {"t": 150.0, "type": "sound", "sound": "gong"},
    ]
    assert any(line["type"] == "phase" and line["phase"] == "count" and line["t"] == 150.0
               for line in lines)


def test_simulate_across_a_power_cut_after_a_call_does_not_sound_it_again(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "race.toml").write_text(RACE, encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("0 era press\n42 restart\n50 era press\n60 restart\n80 era press\n",
                      encoding="utf-8")
    code = main(["simulate", "--script", str(script), "--game", str(tmp_path / "race.toml"),
                 "--players", "red,blue", "--until", "300"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    heard = [(line["t"], line["sound"]) for line in lines if line["type"] == "sound"]
    # the cut at 42 comes back to the call's record (40 s in): 2 s given back, the cry not
    # again; the cut at 60 comes back paused; resumed at 80 with 72 s left
    assert heard == [(0.0, "gong"), (40.0, "cry"), (112.0, "gong"),
                     *((t, "tick") for t in (147.0, 148.0, 149.0, 150.0, 151.0)),
                     (152.0, "gong")]
    assert [line["t"] for line in lines if line["type"] == "prompt"] == [42.0, 60.0]
    assert State.ROUND.value in [line.get("state") for line in lines]


def test_a_countdowns_cues_are_found_without_hashing_its_phase(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cues of a phase are kept by the phase's identity: a phase's hash walks all its
    steps and calls, and on a countdown of hundreds of calls (the output bench's) it took
    milliseconds of every step, ahead of the cue's sound. A play steps through its whole
    countdown with hashing a phase made an error; an equal phase read again has the same
    cues."""
    from erabox.core import clock
    from erabox.core.profile import Phase

    prof = parse_profile(RACE, "race.toml")
    play = new_play(prof, PLAYERS)
    listed = clock.cues(prof.phases[0])

    def refused(self: Phase) -> int:
        raise AssertionError("a phase was hashed")

    monkeypatch.setattr(Phase, "__hash__", refused)
    play, _ = step(play, E_PRESS, 0.0)
    now, sounded = 0.0, 0
    while (due := next_deadline(play, now)) is not None and due < 200.0:
        play, effects = step(play, Tick(), now := due)
        sounded += sum(isinstance(e, PlaySound) for e in effects)
    assert sounded == len(listed) + 1  # its calls and ticks, then its end gong
    monkeypatch.undo()
    again = parse_profile(RACE, "race.toml").phases[0]
    assert again is not prof.phases[0] and clock.cues(again) == listed


def test_what_a_step_asks_of_the_cues_given_is_what_walking_them_says() -> None:
    """Each step asks of the cues given so far: the last call (its prompt), the calls given,
    those from the start on (the save). They are looked up, not walked (a crowded countdown
    walked hundreds every step); for every count of cues given, on a countdown with a
    lead-in, calls and two calls among the final ticks, the lookup says what
    walking the cues does."""
    from erabox.core import clock

    text = RACE.replace("timer_s = 120", "timer_s = 120\nlead_in_s = 3").replace(
        "[[phase]]\nid = \"count\"", '[[phase.call]]\nat_s = 117\nsound = "cry"\n\n'
        '[[phase.call]]\nat_s = 119.5\nsound = "tick"\n\n[[phase]]\nid = "count"')
    phase = parse_profile(text, "race.toml").phases[0]
    listed = clock.cues(phase)
    assert phase.lead_in_s == 3 and len(phase.calls) == 4
    assert clock.marks(phase) == tuple(call.at_s for call in phase.calls)
    for done in range(len(listed) + 2):
        given = listed[:done]
        called = [cue for cue in given if cue.call is not None]
        assert clock.given_from_start(phase, done) == sum(cue.at >= 0 for cue in given)
        assert clock.calls_given(phase, done) == sum(
            cue.call is not None or cue.gong for cue in given)
        end = called[-1].at + phase.prompt_s if called else None
        assert clock.prompt_end(phase, done) == end
        assert clock.prompt_end(phase, done, 9.5) == (9.5 if called else None)
        for elapsed in (0.0, 44.9, 45.0, 118.0, 121.9, 122.0, 130.0):
            shown = called[-1].call if called and elapsed < end else None  # type: ignore
            assert clock.shown_call(phase, done, elapsed) == shown, (done, elapsed)
