"""Which version of the era scores the box plays: the next one each new game, remembered
across power cuts, fixed by a setting; the audio side then picks that version's file.

The pure parts only, on Time of Empires' round file (`ProfileEngine`: its `take`, the NEW GAME
question, the record; a record of an older box, the era engine's, read back), and the audio
plan (`AudioPlan.choose`). The files themselves are measured in `tests/test_score_listen.py`;
the same on a round file of eras in tests/test_profile_box_music.py.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from erabox.core.audio_plan import AudioPlan, score_file
from erabox.core.config import SCORE_VARIANTS, AudioConfig, Config
from erabox.core.engine import ProfileEngine
from erabox.core.model import Button, Gesture, Input, Mode, Music, MusicAction, PrepareMusic
from erabox.core.play import Play, State
from erabox.core.snapshot import SnapshotError, dumps, loads
from erabox.files.games import own_rounds

SOUNDS = "/sounds"
OLD_RECORD = Path(__file__).parent / "golden" / "state-v1" / "setup.state.json"


def fixed(variant: int) -> Config:
    config = Config(guide=False)
    return replace(config, audio=replace(config.audio, score_variant=variant))


def engine(config: Config | None = None) -> ProfileEngine:
    return ProfileEngine(own_rounds(), config or Config(guide=False))


def answer_new_game(box: ProfileEngine, play: Play) -> tuple[Play, list[int]]:
    play, _ = box.step(play, Input(Button.BOTH, Gesture.HOLD), 1.0)
    play, effects = box.step(play, Input(Button.ERA, Gesture.PRESS), 1.0)
    return play, prepared(effects)


def prepared(effects: tuple[object, ...]) -> list[int]:
    return [e.variant for e in effects if isinstance(e, PrepareMusic)]


def test_each_new_game_plays_the_next_version_round_after_the_last() -> None:
    box = engine()
    play, _ = box.fresh(0.0, 0)
    seen = [play.take]
    for _ in range(2 * SCORE_VARIANTS):
        play, _ = answer_new_game(box, play)
        seen.append(play.take)
    assert seen == [1, 2, 3, 1, 2, 3, 1]


def test_restarting_an_era_keeps_the_version() -> None:
    box = engine()
    play, _ = box.fresh(0.0, 0)
    play, _ = answer_new_game(box, play)
    assert play.take == 2
    play, _ = box.step(play, Input(Button.ERA, Gesture.PRESS), 2.0)  # Era I starts
    assert play.spot.state is not State.SETUP
    play, _ = box.step(play, Input(Button.ERA, Gesture.HOLD), 3.0)  # restart this era?
    play, effects = box.step(play, Input(Button.ERA, Gesture.PRESS), 3.5)
    assert play.take == 2 and set(prepared(effects)) <= {2}


@pytest.mark.parametrize("setting", range(SCORE_VARIANTS + 1))
def test_the_setting_fixes_a_version_and_the_music_is_told_which(setting: int) -> None:
    box = engine(fixed(setting))
    play, effects = box.fresh(0.0, 0)
    assert prepared(effects) == [setting or 1]
    play, told = answer_new_game(box, play)  # the game's own turn moves on: 2
    assert told == ([] if setting else [2])  # told again only when the version changes
    assert prepared(box.restore(box.snapshot(play, 2.0), 3.0)[1]) == [setting or 2]


def test_the_version_survives_a_power_cut() -> None:
    box = engine()
    play, _ = box.fresh(0.0, 0)
    for _ in range(2):
        play, _ = answer_new_game(box, play)
    record = box.parse(dumps(box.snapshot(play, 2.0)))
    assert record["take"] == 3
    back, effects = box.restore(record, 0.0)
    assert back.take == 3 and prepared(effects) == [3]


def test_an_older_record_plays_its_version_and_without_one_the_first() -> None:
    """A state file of an older box (the era engine's record, its `variant`)."""
    record = json.loads(OLD_RECORD.read_text(encoding="utf-8"))
    box = engine()
    for variant, take in ((2, 2), (None, 1)):
        old = {**record, "variant": variant} if variant else {
            k: v for k, v in record.items() if k != "variant"}
        back, effects = box.restore(box.parse(dumps(old)), 0.0)
        assert back.take == take and prepared(effects) == [take]


@pytest.mark.parametrize("bad", [0, SCORE_VARIANTS + 1, "2", 1.5, True])
def test_a_record_with_a_bad_version_is_refused(bad: object) -> None:
    record = json.loads(OLD_RECORD.read_text(encoding="utf-8"))
    record["variant"] = bad
    with pytest.raises(SnapshotError, match="variant"):
        loads(dumps(record), Config())


def plan(variants: tuple[tuple[int, int], ...]) -> AudioPlan:
    return AudioPlan(AudioConfig(), SOUNDS, scores=(1, 2, 3), variants=variants)


def started(p: AudioPlan, era: int, variant: int) -> str:
    p.apply(PrepareMusic(era, Mode.REALTIME, variant), 0.0)
    p.apply(Music(MusicAction.START, era, Mode.REALTIME, 0.0), 0.0)
    position = p.music_position(0.0)
    assert position is not None
    return position[0]


def test_the_audio_side_plays_the_version_it_was_told_and_the_first_when_it_is_missing() -> None:
    every = tuple((era, v) for era in (1, 2, 3) for v in range(2, SCORE_VARIANTS + 1))
    for era in (1, 2, 3):
        for v in range(1, SCORE_VARIANTS + 1):
            assert started(plan(every), era, v) == f"{SOUNDS}/{score_file(era, v)}"
    assert started(plan(((1, 2),)), 1, 3) == f"{SOUNDS}/era1_score.ogg"
    assert started(plan(()), 2, 2) == f"{SOUNDS}/era2_score.ogg"
    assert score_file(2, 1) == "era2_score.ogg"
    assert score_file(3, 2) == "era3_score_v2.ogg"
