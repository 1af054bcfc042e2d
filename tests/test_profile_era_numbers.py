"""An era's numbers in its steps' texts (docs/profiles.md, "Eras": `[[era]] numbers` and
`{name}` in a step's text, `{players}` the player count): read and checked (an unknown name,
or a number some era does not give, names the file, line and key), and each step shown and
logged with the era's number in both languages. Time of Empires' wonders and construction
bonus say it (tests/profiles/time-of-empires-rounds.toml)."""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, new_play, screen, steps_here
from erabox.core.profile import Label, Profile, ProfileError, parse_profile

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue", "green")

TEXT = """\
[game]
name = "Wonders"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[era]]
numbers = { wonders = 1, bonus_token_vp = 2 }

[[era]]
numbers = { wonders = 3, bonus_token_vp = 4 }

[[phase]]
id = "play"
label = "Play"
steps = [
  { en = "{wonders} wonders, {bonus_token_vp} VP", ja = "驚異{wonders}枚・{bonus_token_vp}点" },
  "All {players} players act",
]
"""


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "wonders.toml")


def problem(text: str) -> str:
    with pytest.raises(ProfileError) as caught:
        profile(text)
    return str(caught.value)


def texts(play: Play) -> list[tuple[str, str]]:
    return [(s.en, s.ja) for s in steps_here(play)]


def test_each_era_s_numbers_are_read() -> None:
    assert [e.numbers for e in profile().eras] == [
        (("wonders", 1), ("bonus_token_vp", 2)), (("wonders", 3), ("bonus_token_vp", 4))]


def test_a_step_says_the_era_s_numbers_and_the_player_count_in_both_languages() -> None:
    play, _ = step(new_play(profile(), PLAYERS), ERA, 0.0)
    assert texts(play) == [("1 wonders, 2 VP", "驚異1枚・2点"),
                           ("All 3 players act", "All 3 players act")]
    assert screen(play, 0.0).text == Label("1 wonders, 2 VP", "驚異1枚・2点")
    play, _ = step(play, NEXT, 0.0)
    play, _ = step(play, NEXT, 0.0)  # the round ends: the standings
    play, _ = step(play, ERA, 0.0)  # era 2
    assert texts(play)[0] == ("3 wonders, 4 VP", "驚異3枚・4点")


@pytest.mark.parametrize(("text", "message"), [
    (TEXT.replace('"All {players} players act"', '"All {player} players act"'),
     "wonders.toml:23: key 'phase[1].steps[2]': unknown number '{player}' (known: "
     "{players}, {bonus_token_vp}, {wonders}; give it in each [[era]]'s numbers)"),
    (TEXT.replace('ja = "驚異{wonders}枚', 'ja = "驚異{wonder}枚'),
     "wonders.toml:22: key 'phase[1].steps[1].ja': unknown number '{wonder}' (known: "
     "{players}, {bonus_token_vp}, {wonders}; give it in each [[era]]'s numbers)"),
    (TEXT.replace("wonders = 3, ", ""),
     "wonders.toml:16: key 'era[2].numbers': no number 'wonders' in era 2: a number is "
     "given in every [[era]]"),
    (TEXT.replace("wonders = 3", "wonders = -1"),
     "wonders.toml:16: key 'era[2].numbers.wonders': expected a whole number from 0 to "
     "999, got -1"),
    (TEXT.replace("bonus_token_vp = 2", "players = 2"),
     "wonders.toml:13: key 'era[1].numbers.players': 'players' is the player count: give "
     "another name"),
    (TEXT.split("[[era]]")[0] + TEXT.split("numbers = { wonders = 3, bonus_token_vp = 4 }")[1],
     "wonders.toml:18: key 'phase[1].steps[1].en': unknown number '{wonders}' (known: "
     "{players}; give it in each [[era]]'s numbers)"),
])
def test_a_number_that_cannot_be_said_is_an_error(text: str, message: str) -> None:
    assert problem(text) == message
