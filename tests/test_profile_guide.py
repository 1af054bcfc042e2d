"""The round format's keys that let Time of Empires' golden scripts play with their own
gestures (tests/test_one_engine_golden_cues.py; docs/profiles.md):

- `guide = true` on a `[[phase]]`, a `[[special]]` round or a step: the box's first-game
  guide's part, played or shown only while the guide is on (the config's `guide`); with it off
  ERA at the setup goes straight to the first phase left, its countdown's lead-in at once;
- `[buttons] next_resumes = true`: a NEXT press (or hold) resumes a paused countdown, as Time
  of Empires' paused era;
- a countdown running out into the scoring with its music on the running time sounds its
  gong, then stops the music, as the era engine's end gong.
"""

from __future__ import annotations

import pytest

from erabox.core.config import Config
from erabox.core.effects import Paused
from erabox.core.guide import guided
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Music, MusicAction, PlaySound, Sound
from erabox.core.play import Play, State, new_play
from erabox.core.profile import Profile, ProfileError, parse_profile
from erabox.run.simulate import simulate

GAME = """\
[game]
id = "sprint"
name = "Sprint"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1
start_gong = false

[buttons]
pause = "next_hold"
next_resumes = true

[[special]]
id = "setup"
label = "Setup"
after = [0]
guide = true
steps = ["Lay out the board"]

[[phase]]
id = "prepare"
label = "Prepare"
guide = true
steps = ["Deal the cards"]

[[phase]]
id = "race"
label = "Race"
timer_s = 60
lead_in_s = 3
steps = [{ en = "Turn the hourglasses", ja = "砂時計を返す", guide = true }, "Run"]
"""
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA = Input(Button.ERA, Gesture.PRESS)


def profile(text: str = GAME) -> Profile:
    return parse_profile(text, "sprint.toml")


def started(guide: bool) -> Play:
    play, _ = step(new_play(guided(profile(), guide), PLAYERS), ERA, 0.0)
    return play


def test_with_the_guide_on_the_guide_s_special_round_and_phase_are_played() -> None:
    play = started(True)
    assert play.spot.state is State.SPECIAL and play.timer_end is None
    play, _ = step(play, NEXT, 1.0)  # the setup's step: on to the preparation
    assert (play.spot.state, play.profile.phases[play.spot.phase].id) == (State.ROUND,
                                                                          "prepare")
    play, _ = step(play, NEXT, 2.0)  # the race: its lead-in from here, its guide step shown
    assert play.profile.phases[play.spot.phase].id == "race" and play.timer_end == 65.0
    assert len(play.profile.phases[play.spot.phase].steps) == 2


def test_with_the_guide_off_era_goes_straight_to_the_countdown_s_lead_in() -> None:
    play = started(False)
    assert (play.spot.state, play.profile.phases[play.spot.phase].id) == (State.ROUND, "race")
    assert play.timer_end == 63.0  # 3 s of lead-in, then 60 s: from the ERA press
    assert [s.en for s in play.profile.phases[play.spot.phase].steps] == ["Run"]


def test_the_config_s_guide_chooses_in_a_simulated_box() -> None:
    def lines(guide: bool) -> list[tuple[float, str]]:
        said: list[tuple[float, str]] = []
        from erabox.core.script import parse_script

        simulate(Config(players=PLAYERS, guide=guide), parse_script("0 era press\n", "s"), 4.0,
                 lambda e: said.append((e["t"], e["sound"])) if e["type"] == "sound" else None,
                 profile=profile())
        return said

    assert lines(False) == [(0.0, "tick"), (1.0, "tick"), (2.0, "tick"), (3.0, "gong")]
    assert lines(True) == []  # the guide's setup and preparation wait for NEXT


def test_a_saved_play_keeps_its_phase_with_the_guide_set_aside() -> None:
    on, off = profile(), guided(profile(), False)
    assert [p.id for p in on.phases] == [p.id for p in off.phases]  # the same places
    assert guided(on, True) is on


@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "prepare"\nlabel = "Prepare"\nguide = true', 'id = "prepare"\nlabel = "Prepare"\n'
     'guide = "yes"', "sprint.toml:28: key 'phase[1].guide': expected true or false"),
    ('after = [0]\nguide = true', 'after = [0]\nguide = 1',
     "sprint.toml:22: key 'special[1].guide': expected true or false"),
    ('ja = "砂時計を返す", guide = true', 'ja = "砂時計を返す", guide = "on"',
     "sprint.toml:36: key 'phase[2].steps[1].guide': expected true or false"),
    ('"Turn the hourglasses", ja = "砂時計を返す", guide = true }, "Run"]',
     '"Turn the hourglasses", ja = "砂時計を返す", guide = true }]',
     "sprint.toml:36: key 'phase[2].steps': no step left with the guide off"),
    ('label = "Race"\n', 'label = "Race"\nguide = true\n',
     "sprint.toml:34: key 'phase[2].guide': with the guide off no [[phase]] is played"),
    ('next_resumes = true', 'next_resumes = "yes"',
     "sprint.toml:16: key 'buttons.next_resumes': expected true or false"),
])
def test_a_bad_guide_or_next_resumes_is_named_with_its_file_line_and_key(
        old: str, new: str, message: str) -> None:
    assert old in GAME
    with pytest.raises(ProfileError) as caught:
        profile(GAME.replace(old, new))
    assert str(caught.value).startswith(message), str(caught.value)


def test_next_resumes_a_paused_countdown_and_without_the_key_it_does_not() -> None:
    for resumes in (True, False):
        text = GAME if resumes else GAME.replace("next_resumes = true\n", "")
        play, _ = step(new_play(guided(profile(text), False), PLAYERS), ERA, 0.0)
        play, _ = step(play, NEXT_HOLD, 10.0)
        assert play.held_left == 53.0
        play, effects = step(play, NEXT, 20.0)
        if resumes:
            assert play.held_left is None and play.timer_end == 73.0
            assert Paused("race", False, 53.0) in effects
        else:  # NEXT press is not the pause's gesture: it does not resume the countdown
            assert not any(isinstance(e, Paused) for e in effects)


MUSIC = """\
[game]
id = "tune"
name = "Tune"

[players]
min = 2
max = 2

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 10
lead_in_s = 2
timer_end = "next"
music = "tune.ogg"
music_from = "gong"

[[scoring.category]]
id = "laps"
label = "Laps"
"""


def test_a_countdown_run_out_into_the_scoring_sounds_its_gong_then_stops_the_music() -> None:
    play, _ = step(new_play(parse_profile(MUSIC, "tune.toml"), ("red", "blue")), ERA, 0.0)
    play, _ = step(play, Input(Button.ERA, Gesture.RELEASE), 5.0)  # on the running clock
    play, effects = step(play, Input(Button.ERA, Gesture.RELEASE), 12.0)
    assert play.spot.state is State.SCORING
    said = [e.sound.value if isinstance(e, PlaySound) else e.action.value for e in effects
            if isinstance(e, PlaySound | Music)]
    assert said == [Sound.GONG.value, MusicAction.STOP.value]
