"""`[[phase]] resume = "paused"` (docs/profiles.md, "Real-time phases"; docs/power-cuts.md): a
countdown (or its lead-in) played when the power failed comes back paused, "Resumed" shown, as
Time of Empires' era does; the table resumes it with the pause gesture, a call owed (its time
passed in the seconds given back) sounding then, once. Default "running": it goes on at once.
"""

from __future__ import annotations

import json

import pytest

from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, PlaySound, Prompt, Tick
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
resume = "paused"
timer_end = "next"
steps = ["Run", "Rest"]

[[phase.call]]
at_s = 4
prompt = "Swap"
"""
PLAYERS = ("red", "blue")
ERA = Input(Button.ERA, Gesture.PRESS)


def started(text: str = SPRINT) -> Play:
    play, _ = step(new_play(parse_profile(text, "sprint.toml"), PLAYERS), ERA, 0.0)
    return play


def sounds_until(play: Play, now: float, end: float) -> tuple[Play, list[tuple[float, str]]]:
    heard: list[tuple[float, str]] = []
    while (due := next_deadline(play, now)) is not None and due <= end:
        now = due
        play, effects = step(play, Tick(), now)
        heard += [(now, e.sound.value) for e in effects if isinstance(e, PlaySound)]
    return play, heard


def cut(play: Play, at: float, back: float) -> Play:
    record = json.loads(json.dumps(snapshot(play, at)))
    restored, _ = restore(record, play.profile, PLAYERS, back)
    return restored


def test_a_running_countdown_comes_back_paused_and_goes_on_when_resumed() -> None:
    play, _ = sounds_until(started(), 0.0, 5.0)  # the gong at 3 s: 2 s into the countdown
    back = cut(play, 5.0, 100.0)
    assert back.held_left == pytest.approx(8.0) and back.timer_end is None
    assert back.prompt is Prompt.RESUMED and screen(back, 100.0).paused
    back, heard = sounds_until(back, 100.0, 130.0)
    assert heard == [] and back.held_left == pytest.approx(8.0)  # nothing while it is held
    back, _ = step(back, ERA, 130.0)  # the table resumes it
    back, heard = sounds_until(back, 130.0, 140.0)
    assert heard == [(132.0, "cry"), (138.0, "gong")]


def test_a_cut_in_the_lead_in_comes_back_paused_in_it() -> None:
    play, _ = sounds_until(started(), 0.0, 1.0)
    back = cut(play, 1.2, 50.0)
    assert back.held_left == pytest.approx(11.8) and screen(back, 50.0).paused
    back, _ = step(back, ERA, 60.0)
    back, heard = sounds_until(back, 60.0, 62.0)
    assert heard == [(60.8, "tick"), (61.8, "gong")]


def test_a_call_owed_sounds_once_when_the_table_resumes() -> None:
    play, _ = sounds_until(started(), 0.0, 6.9)
    late = 7.4  # the call at 7 s (4 s from the gong) not given: the record holds it at 7 s
    back = cut(play, late, 100.0)
    assert back.held_left == pytest.approx(6.0)
    back, heard = sounds_until(back, 100.0, 110.0)
    assert heard == []
    back, _ = step(back, ERA, 110.0)
    back, heard = sounds_until(back, 110.0, 120.0)
    assert heard == [(110.0, "cry"), (116.0, "gong")]  # once, at the resume


def test_a_countdown_paused_by_default_resume_comes_back_running() -> None:
    play, _ = sounds_until(started(SPRINT.replace('resume = "paused"\n', "")), 0.0, 5.0)
    back = cut(play, 5.0, 100.0)
    assert back.held_left is None and back.timer_end == pytest.approx(108.0)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_the_screen_says_paused_after_resumed(language: str, size: tuple[int, int]) -> None:
    play, _ = sounds_until(started(), 0.0, 5.0)
    back = cut(play, 5.0, 100.0)
    texts = [i.text for i in layout_play(screen(back, 100.0), Panel(*size), language)]
    assert ("Resumed" if language == "en" else "再開しました") in texts
    back, _ = sounds_until(back, 100.0, 110.0)  # the prompt's time over: held, said so
    texts = [i.text for i in layout_play(screen(back, 110.0), Panel(*size), language)]
    assert ("Paused" if language == "en" else "一時停止") in texts


@pytest.mark.parametrize(("old", "new", "says"), [
    ('resume = "paused"', 'resume = "later"',
     "sprint.toml:18: key 'phase[1].resume': expected one of 'running', 'paused', got 'later'"),
    ("timer_s = 10\nlead_in_s = 3\n", "",
     "sprint.toml:16: key 'phase[1].resume': resume needs a timer (timer_s)"),
])
def test_a_bad_resume_names_file_line_and_key(old: str, new: str, says: str) -> None:
    text = SPRINT.replace(old, new).replace("[[phase.call]]\nat_s = 4\nprompt = \"Swap\"\n", "")
    with pytest.raises(ProfileError) as caught:
        parse_profile(text.replace('timer_end = "next"\n', ""), "sprint.toml")
    assert str(caught.value) == says
