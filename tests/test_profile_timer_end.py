"""A countdown that ends its phase by itself: `[[phase]] timer_end = "next"` (docs/profiles.md).

- The key is read and checked like every other (file, line and key named); "wait", today's
  way, is the default: a countdown run out waits for NEXT.
- With "next" the phase (or turn) ends at its countdown's exact end, as NEXT on its last step
  would: the next turn, phase, special round or round; the next countdown starts from that
  deadline, not from when the tick was handled (no drift, however late the loop wakes).
- Under an event the phase ends when the event does; undo takes the move back.
- A power cut on either side of the deadline comes back to the same play.
- `erabox simulate --game` prints the moves at the deadlines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erabox.cli import main
from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, PlaySound, Save, Sound, Tick
from erabox.core.play import Play, PlayEffect, State, new_play
from erabox.core.play_record import restore
from erabox.core.profile import ProfileError, parse_profile

N_PRESS, N_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
PLAYERS = ("red", "blue")

RELAY = """\
[game]
id = "relay"
name = "Relay"

[players]
min = 2
max = 4

[rounds]
name = "Lap"
count = 2

[[phase]]
id = "sprint"
label = "Sprint"
steps = ["Go", "Faster"]
timer_s = 60
timer_end = "next"

[[phase]]
id = "hand"
label = "Hand over"
each_player = true
timer_s = 30
timer_end = "next"

[[phase]]
id = "rest"
label = "Rest"
timer_s = 10

[[event]]
id = "rain"
label = "Rain"
steps = ["Cover up", "Go on"]
"""


def relay() -> Play:
    return new_play(parse_profile(RELAY, "relay.toml"), PLAYERS)


def where(play: Play) -> tuple[str, int, int, int, int]:
    s = play.spot
    return s.state.value, s.round, s.phase, s.turn, s.step


def gongs(effects: tuple[PlayEffect, ...]) -> int:
    return sum(1 for e in effects if isinstance(e, PlaySound) and e.sound is Sound.GONG)


# --- the format -------------------------------------------------------------------------------


def test_wait_is_the_default_and_next_is_read() -> None:
    sprint, hand, rest = parse_profile(RELAY).phases
    assert (sprint.timer_end, hand.timer_end, rest.timer_end) == ("next", "next", "wait")


@pytest.mark.parametrize(("old", "new", "key", "line"), [
    ('timer_end = "next"', 'timer_end = "skip"', "phase[1].timer_end", 18),
    ('timer_end = "next"', "timer_end = true", "phase[1].timer_end", 18),
    ('label = "Rest"\ntimer_s = 10', 'label = "Rest"\ntimer_end = "next"',
     "phase[3].timer_end", 30),
])
def test_a_bad_timer_end_names_the_file_line_and_key(old: str, new: str, key: str,
                                                     line: int) -> None:
    text = RELAY.replace(old, new, 1)
    assert text != RELAY
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "games/relay.toml")
    assert str(caught.value).startswith(f"games/relay.toml:{line}: key '{key}'"), caught.value


# --- the machine --------------------------------------------------------------------------------


def test_the_phase_ends_at_its_deadline_and_the_next_countdown_counts_from_it() -> None:
    play, _ = step(relay(), E_PRESS, 0.0)  # lap 1, sprint: a minute from 0
    play, _ = step(play, Tick(), 59.8)  # (before the end's record goes ahead, at 59.9)
    assert where(play) == ("round", 1, 0, 0, 0)
    play, effects = step(play, Tick(), 61.7)  # the loop woke late: the deadline was 60
    assert where(play) == ("round", 1, 1, 0, 0)  # hand over, red's turn
    assert play.timer_end == 90.0  # 60 + 30, not 61.7 + 30
    assert gongs(effects) == 1
    saves = [n for n, e in enumerate(effects) if isinstance(e, Save)]
    sound = next(n for n, e in enumerate(effects) if isinstance(e, PlaySound))
    assert saves and saves[0] < sound and effects[saves[0]].durable  # on disk before the gong
    assert next_deadline(play, 61.7) is not None
    # woken much later: blue's turn ended at 120, then the rest's countdown (a "wait") from 120
    play, effects = step(play, Tick(), 125.0)
    assert where(play) == ("round", 1, 2, 0, 0)
    assert play.timer_end == 130.0 and gongs(effects) == 2
    play, effects = step(play, Tick(), 131.0)  # the rest waits for NEXT, as today
    assert where(play) == ("round", 1, 2, 0, 0) and play.timer_done and gongs(effects) == 1
    play, _ = step(play, N_PRESS, 140.0)  # lap 2's sprint
    assert where(play) == ("round", 2, 0, 0, 0) and play.timer_end == 200.0


def test_without_next_a_run_out_countdown_waits_for_next() -> None:
    play = new_play(parse_profile(RELAY.replace('timer_end = "next"\n', "", 1)), PLAYERS)
    play, _ = step(play, E_PRESS, 0.0)
    play, effects = step(play, Tick(), 300.0)
    assert where(play) == ("round", 1, 0, 0, 0) and play.timer_done and gongs(effects) == 1


def test_the_last_phases_countdown_goes_on_to_the_next_round_and_the_scoring() -> None:
    text = RELAY.replace('label = "Rest"\ntimer_s = 10', 'label = "Rest"\ntimer_s = 10\n'
                         'timer_end = "next"')
    play = new_play(parse_profile(text), PLAYERS)
    play, _ = step(play, E_PRESS, 0.0)
    play, effects = step(play, Tick(), 130.0)  # 60 + 30 + 30 + 10: lap 2 begins
    assert where(play) == ("round", 2, 0, 0, 0) and play.timer_end == 190.0
    play, effects = step(play, Tick(), 260.0)  # lap 2 ends at 260: the end of the game
    assert play.spot.state is State.GAME_OVER
    assert gongs(effects) == 4  # each countdown's; the last is the game's end gong too


def test_under_an_event_the_phase_ends_when_the_event_does_and_undo_takes_it_back() -> None:
    play, _ = step(relay(), E_PRESS, 0.0)
    play, _ = step(play, E_HOLD, 50.0)  # rain, over the sprint
    play, effects = step(play, Tick(), 60.0)
    assert play.spot.state is State.EVENT and play.timer_done and gongs(effects) == 1
    play, _ = step(play, N_PRESS, 70.0)
    event_end = play.spot
    play, _ = step(play, N_PRESS, 75.0)  # the event's last step: on past the sprint
    assert where(play) == ("round", 1, 1, 0, 0) and play.timer_end == 105.0
    play, _ = step(play, N_HOLD, 80.0)
    assert play.spot == event_end


def test_undo_after_the_phase_ended_by_itself_counts_it_down_again() -> None:
    play, _ = step(relay(), E_PRESS, 0.0)
    play, _ = step(play, Tick(), 60.0)
    play, _ = step(play, N_HOLD, 65.0)
    assert where(play) == ("round", 1, 0, 0, 0) and play.timer_end == 125.0


@pytest.mark.parametrize("cut", [59.0, 61.0, 95.0])
def test_a_power_cut_on_either_side_of_the_deadline_comes_back_to_the_same_play(
        cut: float) -> None:
    """The last save before the cut is restored at 100 s: what it had left counts on from
    there (at most 5 s given back), and a deadline passed meanwhile moves play on."""
    play, effects = step(relay(), E_PRESS, 0.0)
    saved = None
    t = 0.0
    while t < cut:
        deadline = next_deadline(play, t)
        assert deadline is not None
        t = min(deadline, cut)
        play, effects = step(play, Tick(), t)
        for effect in effects:
            if isinstance(effect, Save):
                saved = json.loads(json.dumps(effect.snapshot))
    assert saved is not None
    back, _ = restore(saved, play.profile, PLAYERS, 100.0)
    left = next_deadline(back, 100.0)
    assert left is not None
    back, _ = step(back, Tick(), 100.0 + 40.0)
    # whatever the cut, a countdown runs out once restored: play is past where it was saved
    assert where(back)[2] >= where(play)[2]
    if cut == 59.0:  # saved at 55 with 5 s left: the sprint ends at 105, red's turn at 135
        assert where(back) == ("round", 1, 1, 1, 0) and back.timer_end == 165.0


# --- erabox simulate --game ---------------------------------------------------------------------


def test_simulate_moves_on_at_the_deadlines_across_a_power_cut(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "relay.toml").write_text(RELAY, encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("0 era press\n102 restart\n", encoding="utf-8")
    code = main(["simulate", "--script", str(script), "--game", str(tmp_path / "relay.toml"),
                 "--players", "red,blue", "--until", "200"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = [json.loads(line) for line in captured.out.splitlines()]
    gong_times = [e["t"] for e in lines if e["type"] == "sound" and e.get("sound") == "gong"]
    # the start; the sprint at 60, red's turn at 90; the cut at 102 (last save at 100: blue
    # had 20 s left) gives back 2 s: blue's turn ends at 122, the rest's countdown at 132
    assert gong_times == [0.0, 60.0, 90.0, 122.0, 132.0]
