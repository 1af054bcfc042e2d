"""What a round game takes from the box's config (docs/profiles.md, "The box's settings";
`game_config`): with `[rounds] variant_from_setting = true` the box's mode setting (the
config's `default_mode`, each era's mode set on the box) picks the variant each era's setup
opens on; a countdown phase's `config = "realtime"` plays the config's `[realtime]` numbers
instead of the file's; with the score kept on paper (`keep_score = false`) no points are
asked. A bad key names the file, line and key. Time of Empires' golden
scripts with those settings are played by its round file in
tests/test_one_engine_golden_cues.py."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from erabox.core.config import Config, IntroConfig, RealtimeConfig
from erabox.core.game_config import configured
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Mode
from erabox.core.play import Play, State, new_play
from erabox.core.profile import Profile, ProfileError, parse_profile

NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
PLAYERS = ("red", "blue")

TEXT = """\
[game]
id = "modes"
name = "Modes"

[players]
min = 2
max = 4

[rounds]
name = "Round"
variant_per_era = true
variant_from_setting = true

[[variant]]
id = "realtime"
label = "Real time"
rounds = 1

[[variant]]
id = "intro"
label = "Introductory"
rounds = 1

[[era]]
label = "Dawn"

[[era]]
label = "Dusk"

[[phase]]
id = "race"
variants = ["realtime"]
label = "Race"
timer_s = 100
lead_in_s = 2
final_ticks_s = 3
prompt_s = 4
timer_end = "next"
config = "realtime"

[[phase.call]]
at_s = 30
sound = "cry"
prompt = "scholars"

[[phase]]
id = "turn"
variants = ["intro"]
label = "Turn"
"""


def profile(text: str = TEXT) -> Profile:
    return parse_profile(text, "modes.toml")


def press(play: Play, *inputs: Input) -> Play:
    for event in inputs:
        play, _ = step(play, event, 0.0)
    return play


def test_the_mode_setting_opens_each_era_s_setup_on_its_variant() -> None:
    config = Config(default_mode=Mode.INTRO, era_modes=(Mode.INTRO, Mode.REALTIME))
    play = new_play(configured(profile(), config), PLAYERS)
    assert (play.spot.state, play.spot.variant) == (State.SETUP, 1)  # Dawn: introductory
    dawn = press(play, ERA)
    assert dawn.profile.phases[dawn.spot.phase].id == "turn"
    standings = press(dawn, NEXT)  # the one round's end: the scoring, on to the standings
    while standings.spot.state is State.SCORING:
        standings = press(standings, NEXT)
    dusk = press(standings, ERA)
    assert (dusk.spot.state, dusk.spot.variant) == (State.ERA_SETUP, 0)  # Dusk: real time
    assert press(dusk, NEXT).spot.variant == 1  # NEXT still chooses
    only_default = configured(profile(), Config(default_mode=Mode.INTRO))
    assert only_default.openings == (1, 1)  # no era set on the box: the default, each era


def test_without_the_key_or_with_the_default_mode_the_first_variant_opens() -> None:
    intro = Config(default_mode=Mode.INTRO)
    without = configured(profile(TEXT.replace("variant_from_setting = true\n", "")), intro)
    assert new_play(without, PLAYERS).spot.variant == 0
    assert new_play(configured(profile(), Config()), PLAYERS).spot.variant == 0
    only_intro = TEXT.replace('id = "realtime"', 'id = "clock"').replace(
        'variants = ["realtime"]', 'variants = ["clock"]')
    assert new_play(configured(profile(only_intro), Config()), PLAYERS).spot.variant == 0


def test_a_countdown_takes_the_config_s_realtime_numbers() -> None:
    realtime = RealtimeConfig(length_s=60.0, lead_in_s=5, final_ticks_s=0,
                              scholar_cues_s=(20.0, 40.0, 50.0), scholar_prompt_s=15.0)
    race = configured(profile(), Config(realtime=realtime)).phases[0]
    assert (race.timer_s, race.lead_in_s, race.final_ticks_s, race.prompt_s) == (60.0, 5, 0, 15.0)
    assert [c.at_s for c in race.calls] == [20.0, 40.0, 50.0]
    assert {(c.sound, c.box_prompt) for c in race.calls} == {("cry", "scholars")}
    fewer = configured(profile(), Config(realtime=replace(realtime, scholar_cues_s=())))
    assert fewer.phases[0].calls == ()
    own = profile(TEXT.replace('config = "realtime"\n', ""))
    assert configured(own, Config(realtime=realtime)).phases == own.phases  # the file's own


def test_with_the_score_kept_on_paper_no_points_are_asked() -> None:
    """The config's `keep_score = false`: an era's end goes straight to its standings (ERA:
    the next era's setup), the last era's to the ranking; nothing asked on the box."""
    gold = '\n[[scoring.category]]\nid = "gold"\nlabel = "Gold"\n'
    for entry in (gold, '\n[scoring]\nentry = "totals"\n' + gold):
        paper = configured(profile(TEXT + entry), Config(keep_score=False))
        dawn = press(new_play(paper, PLAYERS), NEXT, ERA)  # Dawn introductory, its round
        standings = press(dawn, NEXT)
        assert standings.spot.state is State.STANDINGS
        dusk = press(standings, ERA, NEXT, ERA)
        assert press(dusk, NEXT).spot.state in (State.STANDINGS, State.GAME_OVER)
    kept = configured(profile(TEXT + gold), Config())
    assert press(new_play(kept, PLAYERS), NEXT, ERA, NEXT).spot.state is State.SCORING


SCHOLARS = """
[[special]]
id = "scholars"
label = "Scholars"
after = { realtime = [], intro = [5, 10] }
config = "intro"
"""
INTRO = TEXT.replace('rounds = 1\n\n[[era]]', 'rounds = 15\nconfig = "intro"\n\n[[era]]') + SCHOLARS


def test_an_introductory_variant_takes_the_config_s_intro_numbers() -> None:
    """A variant's `config = "intro"`: its rounds the config's `[intro] rounds`; a special
    round's: after the config's `scholar_after_rounds`, as Time of Empires' introductory era."""
    numbers = Config(intro=IntroConfig(rounds=7, scholar_after_rounds=(2, 4)))
    played = configured(profile(INTRO), numbers)
    assert [v.rounds for v in played.variants] == [1, 7]
    assert played.specials[0].after == ((), (2, 4))
    dawn = press(new_play(configured(profile(INTRO), replace(numbers, default_mode=Mode.INTRO)),
                          PLAYERS), ERA, NEXT, NEXT)  # rounds 1 and 2, then the scholars
    assert (dawn.spot.state, dawn.spot.round) == (State.SPECIAL, 2)
    assert configured(profile(INTRO), Config()).specials[0].after == ((), (5, 10))  # defaults
    own = profile(INTRO.replace('config = "intro"\n', ""))
    assert configured(own, numbers).variants == own.variants  # the file's own
    assert configured(own, numbers).specials == own.specials


NO_MODE = TEXT.replace('"realtime"', '"clock"').replace('"intro"', '"turns"')  # no mode's id


@pytest.mark.parametrize(("text", "line", "key", "says"), [
    (TEXT.replace('config = "realtime"', 'config = "intro"'), 39, "phase[1].config",
     "expected one of 'realtime'"),
    (TEXT.replace("timer_s = 100\n", "").replace("[[phase.call]]\nat_s = 30\nsound = \"cry\"\n"
                                                 "prompt = \"scholars\"\n", "").replace(
        "lead_in_s = 2\nfinal_ticks_s = 3\nprompt_s = 4\ntimer_end = \"next\"\n", ""),
     34, "phase[1].config", "config needs a timer"),
    (NO_MODE.replace('config = "clock"', 'config = "realtime"'), 12,
     "rounds.variant_from_setting", "variant_from_setting needs a [[variant]] whose id"),
    (TEXT.replace("variant_from_setting = true", "variant_from_setting = 1"), 12,
     "rounds.variant_from_setting", "expected true or false"),
    (INTRO.replace('config = "intro"', 'config = "realtime"'), 23, "variant[2].config",
     "expected one of 'intro'"),
    (INTRO.replace("rounds = 15", 'rounds = "until_event"'), 23, "variant[2].config",
     'config = "intro" needs a number of rounds'),
])
def test_a_bad_key_names_the_file_line_and_key(text: str, line: int, key: str, says: str
                                               ) -> None:
    with pytest.raises(ProfileError, match=rf"^modes\.toml:{line}: key '{re.escape(key)}': "
                       + re.escape(says)):
        profile(text)
