"""Time of Empires' sound and numbers said by a round profile (docs/profiles.md, "The box's own
era music", "The box's settings"): `[[phase]] box_music = true` plays the box's own era music
as the era engine does (the music effects name the era and its mode, each cue its era, each
era's setup readies its music), a variant's and a special round's `config = "intro"` take the
config's `[intro]` numbers, and a countdown's `config = "realtime"` rings its start gong with
no lead-in too. A bad key names the file, line and key."""

from __future__ import annotations

import re

import pytest

from erabox.core.audio_plan import AudioPlan, StartMusic
from erabox.core.config import AudioConfig, Config, EraMusic, IntroConfig, RealtimeConfig
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    Mode,
    Music,
    MusicAction,
    PlaySound,
    PrepareMusic,
    Sound,
    Tick,
)
from erabox.core.play import State
from erabox.core.profile import ProfileError, parse_profile

ERA = Input(Button.ERA, Gesture.PRESS)
NEXT = Input(Button.NEXT, Gesture.PRESS)
PLAYERS = ("red", "blue")

TEXT = """\
[game]
id = "empires"
name = "Empires"

[players]
min = 2
max = 4

[rounds]
name = "Round"
variant_per_era = true
start_gong = false

[[variant]]
id = "realtime"
label = "Real time"
rounds = 1

[[variant]]
id = "intro"
label = "Introductory"
rounds = 6
config = "intro"

[[era]]
label = "Era I"

[[era]]
label = "Era II"

[[phase]]
id = "action"
variants = ["realtime"]
label = "Action"
timer_s = 100
lead_in_s = 2
timer_end = "next"
box_music = true
music_from = "gong"
config = "realtime"

[[phase.call]]
at_s = 30
sound = "cry"
prompt = "scholars"

[[phase]]
id = "turns"
variants = ["intro"]
label = "Turns"
box_music = true
music_from = "era"

[[special]]
id = "scholars"
label = "Scholars"
after = { realtime = [], intro = [2, 4] }
config = "intro"
sound = "cry"
"""

REALTIME = RealtimeConfig(length_s=60.0, lead_in_s=0, final_ticks_s=0, scholar_cues_s=(20.0,))


def engine(config: Config, text: str = TEXT) -> ProfileEngine:
    return ProfileEngine(configured(parse_profile(text, "empires.toml"), config), config)


def test_box_music_names_the_era_and_its_mode_and_the_sound_plays_the_config_s_file() -> None:
    config = Config(players=PLAYERS, realtime=REALTIME, audio=AudioConfig(eras=(
        EraMusic(music="/music/dawn.wav"), EraMusic(), EraMusic())))
    box = engine(config)
    play, effects = box.fresh(0.0, 0)
    assert [e for e in effects if isinstance(e, PrepareMusic)] == [
        PrepareMusic(1, Mode.REALTIME, 1)]  # Era I's music readied at its setup
    play, pressed = box.step(play, ERA, 1.0)  # no lead-in: the start gong, then the music
    play, effects = box.step(play, Tick(), 1.0)  # (due at once: the driver's next step)
    sounds = [e for e in (*pressed, *effects) if isinstance(e, PlaySound | Music)]
    assert sounds[:2] == [PlaySound(Sound.GONG, 1), Music(MusicAction.START, 1, Mode.REALTIME,
                                                           0.0)]
    plan = AudioPlan(config.audio, "/sounds")
    started = [c for e in sounds for c in plan.apply(e, 1.0) if isinstance(c, StartMusic)]
    assert [(c.path, c.position, c.loop) for c in started] == [("/music/dawn.wav", 0.0, True)]
    play, effects = box.step(play, Tick(), 21.0)  # the config's call: a cry of Era I
    assert PlaySound(Sound.CRY, 1) in effects


def test_an_introductory_era_readies_and_loops_the_box_s_music_in_its_mode() -> None:
    box = engine(Config(players=PLAYERS))
    play, _ = box.fresh(0.0, 0)
    play, effects = box.step(play, NEXT, 1.0)  # Era I introductory: its music readied so
    assert [e for e in effects if isinstance(e, PrepareMusic)] == [PrepareMusic(1, Mode.INTRO, 1)]
    play, effects = box.step(play, ERA, 2.0)
    assert Music(MusicAction.START, 1, Mode.INTRO, 0.0) in effects


def test_the_config_s_intro_numbers_play_in_the_introductory_variant() -> None:
    intro = IntroConfig(rounds=5, scholar_after_rounds=(1, 3, 5, 9))
    profile = configured(parse_profile(TEXT, "empires.toml"), Config(intro=intro))
    assert [v.rounds for v in profile.variants] == [1, 5]
    assert profile.specials[0].after == ((), (1, 3))  # inside its 5 rounds
    own = parse_profile(TEXT.replace('config = "intro"\n', ""), "empires.toml")
    assert configured(own, Config(intro=intro)).variants == own.variants  # the file's own
    box = engine(Config(players=PLAYERS, intro=intro))
    play, _ = box.fresh(0.0, 0)
    play, _ = box.step(play, NEXT, 1.0)
    play, _ = box.step(play, ERA, 2.0)
    rounds = []
    while play.spot.state in (State.ROUND, State.SPECIAL):
        rounds.append((play.spot.state.value, play.spot.round))
        play, _ = box.step(play, NEXT, 3.0)
    assert rounds == [("round", 1), ("special", 1), ("round", 2), ("round", 3),
                      ("special", 3), ("round", 4), ("round", 5)]


@pytest.mark.parametrize(("text", "line", "key", "says"), [
    (TEXT.replace("box_music = true\nmusic_from = \"gong\"", "box_music = 1"), 38,
     "phase[1].box_music", "expected true or false"),
    (TEXT.replace("box_music = true\nmusic_from = \"era\"",
                  "box_music = true\nmusic = \"a.ogg\""), 52, "phase[2].music",
     "music or box_music, not both"),
    (TEXT.replace("rounds = 6\nconfig", "rounds = \"until_event\"\nconfig"), 23,
     "variant[2].config", 'config = "intro" needs a number of rounds'),
    (TEXT.replace("rounds = 6\nconfig = \"intro\"\n", "rounds = 6\n"), 57,
     "special[1].config", 'config = "intro" needs a [[variant]] with config = "intro"'),
    (TEXT.replace("rounds = 6\nconfig = \"intro\"", "rounds = 6\nconfig = \"realtime\""), 23,
     "variant[2].config", "expected one of 'intro'"),
])
def test_a_bad_key_names_the_file_line_and_key(text: str, line: int, key: str, says: str
                                               ) -> None:
    with pytest.raises(ProfileError, match=rf"^empires\.toml:{line}: key '{re.escape(key)}': "
                       + re.escape(says)):
        parse_profile(text, "empires.toml")


OWN = TEXT.replace("variant_per_era = true\n", 'variant_per_era = true\nconfig = "eras"\n').replace(
    '[[era]]\nlabel = "Era I"\n', '[[era]]\nlabel = "Era I"\nnumbers = { wonders = 1, '
    'bonus_token_vp = 1 }\n').replace(
    '[[era]]\nlabel = "Era II"\n', '[[era]]\nlabel = "Era II"\nnumbers = { wonders = 2, '
    'bonus_token_vp = 2 }\n') + """
[scoring]
config = "checklist"

[[scoring.category]]
id = "destruction"
label = "Destroyed buildings"
multiply = 3

[[scoring.category]]
id = "leaders"
label = "Leader cards"
points = false

[[scoring.category]]
id = "buildings"
label = "Buildings"
counts = false
eras = [2]
"""


def test_the_own_game_s_eras_numbers_and_checklist_play_in_a_round_file() -> None:
    """A user's copy of the own game's profile (its numbers in the config): four eras, the
    later ones the last table's with the box's label; their guide numbers; the checklist's
    points and multiply; the last era's category in the last era played."""
    from erabox.core.config import Checklist, PrepNumbers
    config = Config(eras=4, prep=PrepNumbers(wonders=(2, 3, 4, 5), bonus_token_vp=(4, 4, 4)),
                    checklist=Checklist(points=(True, True), multiply=(2, 1)))
    profile = configured(parse_profile(OWN, "empires.toml"), config)
    assert [e.label.en if e.label else None for e in profile.eras] == [
        "Era I", "Era II", None, None]
    assert [dict(e.numbers) for e in profile.eras] == [
        {"wonders": 2, "bonus_token_vp": 4}, {"wonders": 3, "bonus_token_vp": 4},
        {"wonders": 4, "bonus_token_vp": 4}, {"wonders": 5, "bonus_token_vp": 2}]
    assert [(c.asked, c.multiply, c.eras) for c in profile.categories] == [
        (True, 2, ()), (True, 1, ()), (True, 1, (4,))]
    assert configured(parse_profile(OWN, "empires.toml"), Config(eras=1)).eras[0].label.en \
        == "Era I"
    # without the keys, the file's own
    plain = parse_profile(TEXT, "empires.toml")
    assert configured(plain, config).eras == plain.eras


@pytest.mark.parametrize(("text", "line", "key", "says"), [
    (OWN.replace('config = "eras"', 'config = "rounds"'), 12, "rounds.config",
     "expected one of 'eras'"),
    (OWN.replace('config = "checklist"', 'config = "points"'), 65, "scoring.config",
     "expected one of 'checklist'"),
])
def test_a_bad_own_numbers_key_names_the_file_line_and_key(text: str, line: int, key: str,
                                                           says: str) -> None:
    with pytest.raises(ProfileError, match=rf"^empires\.toml:{line}: key '{re.escape(key)}': "
                       + re.escape(says)):
        parse_profile(text, "empires.toml")


def test_each_new_game_plays_the_scores_next_take_kept_across_a_power_cut() -> None:
    """As Time of Empires' `variant`: each new game the next version of the box's scores
    (1, 2, 3, 1 ...), readied at its setup; a record keeps it; a fixed `score_variant` wins."""
    from erabox.core.model import Save
    from erabox.core.play_record import snapshot
    both = Input(Button.BOTH, Gesture.HOLD)
    box = engine(Config(players=PLAYERS))
    play, _ = box.fresh(0.0, 0)
    takes = []
    for _ in range(4):
        play, _ = box.step(play, both, 1.0)  # "New game?"
        play, effects = box.step(play, ERA, 1.0)
        takes += [e.variant for e in effects if isinstance(e, PrepareMusic)]
    assert takes == [2, 3, 1, 2]
    saved = next(e.snapshot for e in effects if isinstance(e, Save))
    assert saved["take"] == 2
    back, effects = box.restore(saved, 2.0)
    assert back.take == 2 and PrepareMusic(1, Mode.REALTIME, 2) in effects
    assert "take" not in snapshot(box.fresh(0.0, 0)[0], 0.0)  # the first: as before
    fixed = engine(Config(players=PLAYERS, audio=AudioConfig(score_variant=3)))
    assert PrepareMusic(1, Mode.REALTIME, 3) in fixed.restore(saved, 2.0)[1]
