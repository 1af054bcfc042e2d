"""A variant's own start rule (docs/profiles.md, "The format": `[[variant]] start_player`):
read and checked (an unknown rule names the file, line and key), and the rule of the variant
played, not the game's: Time of Empires' real-time eras have no start player
(tests/profiles/time-of-empires-rounds.toml)."""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import new_play, screen, start_player
from erabox.core.profile import Profile, ProfileError, parse_profile

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue", "green")

TEXT = """\
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
rounds = 2
start_player = "none"

[[variant]]
id = "turns"
label = "Turns"
rounds = 2

[start_player]
rule = "pass_left"

[[phase]]
id = "play"
label = "Play"
"""


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "clock.toml")


def test_a_variant_s_start_rule_is_read_and_the_others_keep_the_game_s() -> None:
    read = profile()
    assert [v.start_rule for v in read.variants] == ["none", None]
    assert [read.rule(v) for v in (0, 1)] == ["none", "pass_left"]


def test_the_variant_played_has_its_own_start_rule() -> None:
    clock, _ = step(new_play(profile(), PLAYERS), ERA, 0.0)
    assert start_player(clock) is None and screen(clock, 0.0).start_player is None
    clock, _ = step(clock, NEXT, 0.0)
    assert clock.spot.round == 2 and start_player(clock) is None
    turns, _ = step(new_play(profile(), PLAYERS), NEXT, 0.0)  # the second variant
    turns, _ = step(turns, ERA, 0.0)
    assert start_player(turns) == "red" and screen(turns, 0.0).start_player == "red"
    turns, _ = step(turns, NEXT, 0.0)
    assert turns.spot.round == 2 and start_player(turns) == "blue"  # passed left


def test_a_variant_s_unknown_start_rule_names_the_file_line_and_key() -> None:
    with pytest.raises(ProfileError) as caught:
        profile(TEXT.replace('start_player = "none"', 'start_player = "nobody"'))
    assert str(caught.value) == (
        "clock.toml:15: key 'variant[1].start_player': expected one of 'pass_left', "
        "'pass_right', 'none', 'random', 'fixed', 'chosen', got 'nobody'")


def test_a_variant_s_random_rule_starts_with_the_drawn_seat_and_the_others_keep_theirs(
        ) -> None:
    read = profile(TEXT.replace('start_player = "none"', 'start_player = "random"'))
    clock, _ = step(new_play(read, PLAYERS, drawn_seat=2), ERA, 0.0)
    assert start_player(clock) == "green"  # drawn
    turns, _ = step(new_play(read, PLAYERS, drawn_seat=2), NEXT, 0.0)
    turns, _ = step(turns, ERA, 0.0)
    assert start_player(turns) == "red"  # the game's rule, pass_left from the first seat
