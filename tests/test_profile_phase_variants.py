"""A phase played in some variants only (docs/profiles.md, "The format": `[[phase]]
variants`): read and checked (errors with the file, line and key), skipped by the machine
in the other variants, and refused in a saved play of a variant that does not play it.
Time of Empires' real-time and introductory modes in one file use it
(tests/profiles/time-of-empires-rounds.toml, tests/test_one_engine_toe.py)."""

from __future__ import annotations

import json

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Tick
from erabox.core.play import Play, State, new_play
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Profile, ProfileError, parse_profile

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue")

HEAD = """\
[game]
name = "Clock or turns"

[players]
min = 2
max = 4

[rounds]
name = "Round"

[[variant]]
id = "clock"
label = "Clock"
rounds = 1

[[variant]]
id = "turns"
label = "Turns"
rounds = 2
"""
PHASES = """
[[phase]]
id = "prepare"
label = "Prepare"

[[phase]]
id = "race"
label = "Race"
variants = ["clock"]
timer_s = 60
timer_end = "next"

[[phase]]
id = "turn"
label = "Turn"
variants = ["turns"]
"""


def profile(text: str = HEAD + PHASES) -> Profile:
    return parse_profile(text, "clock.toml")


def problem(text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        parse_profile(text, "clock.toml")
    return str(caught.value)


def phases(play: Play, *inputs: Input, now: float = 0.0) -> list[tuple[str, int, str]]:
    """The (state, round, phase id) after each input, from `play`."""
    seen = []
    for event in inputs:
        play, _ = step(play, event, now)
        seen.append((play.spot.state.value, play.spot.round,
                     play.profile.phases[play.spot.phase].id))
    return seen


def test_a_phase_s_variants_are_read() -> None:
    read = profile()
    assert [p.variants for p in read.phases] == [(), ("clock",), ("turns",)]
    assert [read.first_phase(v) for v in (0, 1)] == [0, 0]
    assert read.first_phase(1, 1) == 2 and read.first_phase(0, 2) is None


def test_each_variant_plays_its_own_phases() -> None:
    clock = new_play(profile(), PLAYERS)
    assert phases(clock, ERA, NEXT) == [("round", 1, "prepare"), ("round", 1, "race")]
    turns, _ = step(new_play(profile(), PLAYERS), NEXT, 0.0)  # the second variant
    assert phases(turns, ERA, NEXT, NEXT, NEXT) == [
        ("round", 1, "prepare"), ("round", 1, "turn"), ("round", 2, "prepare"),
        ("round", 2, "turn")]
    first = profile(HEAD + PHASES.replace('id = "prepare"\nlabel = "Prepare"',
                                          'id = "prepare"\nlabel = "Prepare"\n'
                                          'variants = ["turns"]'))
    assert phases(new_play(first, PLAYERS), ERA) == [("round", 1, "race")]  # its first


def test_the_countdown_ends_the_clock_variant_s_round() -> None:
    play, _ = step(new_play(profile(), PLAYERS), ERA, 0.0)
    play, _ = step(play, NEXT, 0.0)
    play, _ = step(play, Tick(), 60.0)  # the run-out: the round, the variant's last, ends
    assert play.spot.state is State.GAME_OVER  # (no scoring categories)


@pytest.mark.parametrize(("text", "message"), [
    (HEAD.split("[[variant]]")[0].replace('name = "Round"', 'name = "Round"\ncount = 2')
     + PHASES.split("[[phase]]\nid = \"race\"")[0] + '[[phase]]\nid = "race"\nlabel = "Race"'
     '\nvariants = ["clock"]\n',
     "clock.toml:20: key 'phase[2].variants': this game has no [[variant]] tables"),
    (HEAD + PHASES.replace('variants = ["turns"]', 'variants = ["turn"]'),
     "clock.toml:35: key 'phase[3].variants[1]': expected the id of a [[variant]] (clock, "
     "turns), got 'turn'"),
    (HEAD + PHASES.replace('variants = ["turns"]', "variants = []"),
     "clock.toml:35: key 'phase[3].variants': expected a list of variant ids (at least "
     "one), got []"),
    (HEAD + PHASES.replace('variants = ["turns"]', 'variants = ["clock"]').replace(
        'label = "Prepare"', 'label = "Prepare"\nvariants = ["clock"]'),
     "clock.toml:21: key 'phase': no [[phase]] is played in the variant 'turns' (a phase's "
     "variants leave it none)"),
    (HEAD + PHASES.replace('label = "Turn"', 'label = "Turn"\nsteps = [{ en = "Go", ja = '
                           '"Go", variants = ["clock"] }, "Play"]'),
     "clock.toml:35: key 'phase[3].steps[1].variants[1]': never shown: the phase is played "
     "only in 'turns'"),
])
def test_a_phase_s_variants_that_cannot_be_played_are_errors(text: str, message: str
                                                              ) -> None:
    assert problem(text) == message


def test_a_saved_play_in_a_phase_its_variant_does_not_play_is_refused() -> None:
    play, _ = step(new_play(profile(), PLAYERS), ERA, 0.0)
    play, _ = step(play, NEXT, 0.0)  # the clock variant's race
    record = json.loads(json.dumps(snapshot(play, 0.0)))
    assert restore(record, profile(), PLAYERS, 1.0)[0].spot.phase == 1
    record["spot"]["variant"] = 1
    with pytest.raises(ValueError, match="'phase' 1 is not played in the variant 'turns'"):
        restore(record, profile(), PLAYERS, 1.0)
