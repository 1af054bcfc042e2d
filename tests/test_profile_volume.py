"""The box's volume in a round play (core/volume.py), as Time of Empires' era
engine kept it: VOL+/VOL- change it anywhere (a step of 10 %, `SetVolume` to the mixer), the level
is shown for 2 s on Time of Empires' screens (`[game] lines = "eras"`) with the quiet mark at
or below 10 %, and it is saved in the play's record and comes back after a power cut. A
question is asked over the running clock, which counts on under it, in Time of Empires'
words."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.core.config import AudioConfig, Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Phase, Question, Save, Screen, SetVolume, Tick
from erabox.core.play import Play, new_play
from erabox.core.play_record import restore, snapshot
from erabox.core.profile import Profile, parse_profile
from erabox.files.games import shipped_games

VOL_UP, VOL_DOWN = Input(Button.VOL_UP, Gesture.PRESS), Input(Button.VOL_DOWN, Gesture.PRESS)
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
BOTH_HOLD, ERA_HOLD = Input(Button.BOTH, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)


PROFILES = Path(__file__).parent / "profiles"
ROUNDS = PROFILES / "time-of-empires-rounds.toml"
# Time of Empires in the round format writing its lines in its own words (`lines = "eras"`)
ERA_WORDS = replace(parse_profile(ROUNDS.read_text(encoding="utf-8"), str(ROUNDS),
                                  "time-of-empires-rounds", base_dir=str(PROFILES)),
                    lines="eras")


def altay() -> Profile:
    text = (shipped_games() / "altay.toml").read_text(encoding="utf-8")
    return parse_profile(text, "altay.toml")


def engine(profile: Profile, volume: float = 0.8) -> ProfileEngine:
    config = Config(players=("red", "blue", "green"), guide=False)
    config = replace(config, audio=replace(config.audio, volume=volume, music_level=0.5))
    return ProfileEngine(configured(guided(profile, config.guide), config), config)


def run(box: ProfileEngine, play: Play, *events: tuple[float, Input | Tick]
        ) -> tuple[Play, list[Any]]:
    effects: list[Any] = []
    for now, event in events:
        play, more = box.step(play, event, now)
        effects += more
    return play, effects


def seen(box: ProfileEngine, play: Play, now: float) -> Screen:
    shown = box.screen(play, now)
    assert isinstance(shown, Screen)  # Time of Empires' words: its screen model
    return shown


def test_a_round_play_starts_at_the_box_volume_and_vol_steps_it() -> None:
    box = engine(altay())
    play, opening = box.fresh(0.0, 0)
    assert opening[0] == SetVolume(0.8, music=0.5)  # as Time of Empires' opening
    play, effects = run(box, play, (1.0, VOL_UP))
    assert SetVolume(0.9) in effects and play.volume == 0.9
    play, effects = run(box, play, (2.0, Input(Button.VOL_UP, Gesture.HOLD)), (3.0, VOL_UP))
    assert play.volume == 1.0 and effects.count(SetVolume(1.0)) == 2  # no louder than 1
    play, _ = run(box, play, *((4.0, VOL_DOWN),) * 12)
    assert play.volume == 0.0


def test_the_volume_changes_with_a_question_open_which_stays_open() -> None:
    box = engine(altay())
    play, _ = box.fresh(0.0, 0)
    play, _ = run(box, play, (1.0, BOTH_HOLD), (2.0, VOL_DOWN))
    assert play.volume == 0.7 and play.question_until is not None
    play, _ = run(box, play, (3.0, ERA))  # "New game?" yes: the box's volume stays
    assert play.question_until is None and play.volume == 0.7


def test_the_volume_shows_for_two_seconds_on_time_of_empires_screens() -> None:
    box = engine(ERA_WORDS)
    play, _ = box.fresh(0.0, 0)
    play, effects = run(box, play, (10.0, VOL_UP))
    shown = [e.screen for e in effects if isinstance(getattr(e, "screen", None), Screen)]
    assert shown[-1].volume == 90 and seen(box, play, 11.9).volume == 90
    assert box.next_deadline(play, 10.0) == pytest.approx(12.0)
    play, _ = run(box, play, (12.0, Tick()))
    assert seen(box, play, 12.0).volume is None and play.volume_until is None


def test_the_quiet_mark_at_or_below_ten_percent() -> None:
    box = engine(ERA_WORDS, volume=0.3)
    play, _ = box.fresh(0.0, 0)
    play, _ = run(box, play, (1.0, VOL_DOWN))
    assert not seen(box, play, 1.0).quiet
    play, _ = run(box, play, (2.0, VOL_DOWN), (5.0, Tick()))
    assert seen(box, play, 5.0).quiet and seen(box, play, 5.0).volume is None
    play, _ = run(box, play, (6.0, VOL_DOWN), (7.0, VOL_DOWN))
    assert play.volume == 0.0 and seen(box, play, 7.0).quiet


def test_the_volume_is_saved_and_comes_back_after_a_power_cut() -> None:
    box = engine(altay())
    play, _ = box.fresh(0.0, 0)
    play, effects = run(box, play, (1.0, ERA), (5.0, VOL_DOWN))
    saves = [e for e in effects if isinstance(e, Save)]
    assert saves[-1].snapshot["volume"] == 0.7
    assert not saves[-1].durable  # a lost step changes nothing at the table (as the era's)
    record = box.parse(json.dumps(saves[-1].snapshot))
    back, restored = box.restore(record, 100.0)
    assert back.volume == 0.7 and restored[0] == SetVolume(0.7, music=0.5)
    assert back.spot == play.spot
    back, _ = run(box, back, (101.0, VOL_UP))
    assert back.volume == 0.8


def test_time_of_empires_round_file_keeps_the_volume_of_the_era_record() -> None:
    """The era engine's record read by its round file: its volume is the play's from then on,
    saved in the play's own record (a second cut keeps it)."""
    box = engine(ERA_WORDS)
    play, _ = box.fresh(0.0, 0)
    play, _ = run(box, play, (1.0, VOL_DOWN), (2.0, VOL_DOWN))
    again, effects = box.restore(snapshot(play, 3.0), 10.0)
    assert again.volume == 0.6 and effects[0] == SetVolume(0.6, music=0.5)


def test_a_record_without_a_volume_is_at_the_configured_level_and_a_bad_one_is_named(
) -> None:
    box = engine(altay(), volume=0.4)
    play, _ = box.fresh(0.0, 0)
    old = {k: v for k, v in snapshot(play, 0.0).items() if k != "volume"}
    back, effects = box.restore(old, 0.0)  # a record written before the volume was kept
    assert back.volume == 0.4 and effects[0] == SetVolume(0.4, music=0.5)
    assert snapshot(replace(play, volume=None), 0.0) == old  # none known: none written
    with pytest.raises(ValueError, match="'volume'"):
        restore(old | {"volume": 1.5}, box.profile, play.players, 0.0)


def test_a_volume_step_keeps_the_play_where_it_was_and_saves_only_the_level() -> None:
    box = engine(altay())
    play, _ = box.fresh(0.0, 0)
    play, _ = run(box, play, (1.0, ERA), (2.0, NEXT))
    after, effects = run(box, play, (3.0, VOL_UP))
    assert after.spot == play.spot and after.history == play.history
    (save,) = [e for e in effects if isinstance(e, Save)]
    assert save.snapshot == snapshot(play, 3.0) | {"volume": 0.9}
    bare = new_play(box.profile, play.players)  # built without the box: from the default
    stepped, _ = step(bare, VOL_DOWN, 0.0)
    assert stepped.volume == round(AudioConfig.volume - 0.1, 2)
    assert snapshot(stepped, 0.0)["volume"] == stepped.volume


def test_the_restart_question_is_asked_over_the_running_clock() -> None:
    """In Time of Empires' words the clock under "Restart the era?" counts on, second by
    second, as the era engine's; a profile in its own words wakes for no second under it."""
    box = engine(ERA_WORDS)
    play, _ = box.fresh(0.0, 0)
    play, _ = run(box, play, (0.0, ERA), (100.0, ERA_HOLD))
    asked = seen(box, play, 100.0)
    assert asked.kind is Phase.CONFIRM and asked.question is Question.RESTART_ERA
    assert box.next_deadline(play, 100.0) == pytest.approx(101.0)
    later = seen(box, play, 101.0)
    assert later.kind is Phase.CONFIRM and later.seconds_left == (asked.seconds_left or 0) - 1
    own = engine(replace(ERA_WORDS, lines="rounds"))
    mine, _ = own.fresh(0.0, 0)
    mine, _ = run(own, mine, (0.0, ERA), (100.0, ERA_HOLD))
    assert mine.question_until is not None
    assert (own.next_deadline(mine, 100.0) or 0.0) > 101.0
