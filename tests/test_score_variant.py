"""Which version of the era scores the box plays: the next one each new game, remembered
across power cuts, fixed by a setting; the audio side then picks that version's file.

The pure parts only: the game (`new_game`, the NEW GAME question, the record) and the audio
plan (`AudioPlan.choose`). The files themselves are measured in `tests/test_score_listen.py`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from era_table import Table
from erabox.core.audio_plan import AudioPlan, score_file
from erabox.core.config import SCORE_VARIANTS, AudioConfig, Config
from erabox.core.game import new_game, next_variant, score_variant
from erabox.core.model import Button, Gesture, Mode, Music, MusicAction, PrepareMusic
from erabox.core.record import restore, snapshot
from erabox.core.snapshot import SnapshotError, dumps, loads
from erabox.core.view import opening

SOUNDS = "/sounds"


def fixed(variant: int) -> Config:
    config = Config()
    return replace(config, audio=replace(config.audio, score_variant=variant))


def answer_new_game(t: Table) -> None:
    t.do(Button.BOTH, Gesture.HOLD)
    t.do(Button.ERA, Gesture.PRESS)


def prepared(effects: tuple[object, ...]) -> list[int]:
    return [e.variant for e in effects if isinstance(e, PrepareMusic)]


def test_each_new_game_plays_the_next_version_round_after_the_last() -> None:
    t = Table(Config())
    seen = [t.game.variant]
    for _ in range(2 * SCORE_VARIANTS):
        answer_new_game(t)
        seen.append(t.game.variant)
    assert seen == [1, 2, 3, 1, 2, 3, 1]
    assert [next_variant(replace(t.game, variant=v)) for v in (1, 2, 3)] == [2, 3, 1]


def test_restarting_an_era_keeps_the_version() -> None:
    t = Table(Config())
    answer_new_game(t)
    assert t.game.variant == 2
    t.do(Button.ERA, Gesture.HOLD)  # restart this era?
    t.do(Button.ERA, Gesture.PRESS)
    assert t.game.variant == 2


@pytest.mark.parametrize("setting", range(SCORE_VARIANTS + 1))
def test_the_setting_fixes_a_version_and_the_music_is_told_which(setting: int) -> None:
    t = Table(fixed(setting))
    assert prepared(opening(t.game, t.now)) == [setting or 1]
    answer_new_game(t)  # the game's own turn moves on: 2
    assert score_variant(t.game) == (setting or 2)
    # The audio side is told again only when the version changes.
    assert prepared(tuple(e for _, e in t.log)) == ([] if setting else [2])
    assert prepared(opening(t.game, t.now)) == [setting or 2]


def test_the_version_survives_a_power_cut() -> None:
    t = Table(Config())
    answer_new_game(t)
    answer_new_game(t)
    record = loads(dumps(snapshot(t.game, t.now)), Config())
    assert record["variant"] == 3
    game, effects = restore(record, Config(), 0.0)
    assert game.variant == 3
    assert prepared(effects) == [3]


def test_an_older_record_without_a_version_plays_the_first() -> None:
    record = snapshot(new_game(Config(), variant=2), 0.0)
    del record["variant"]
    game, _ = restore(loads(dumps(record), Config()), Config(), 0.0)
    assert game.variant == 1


@pytest.mark.parametrize("bad", [0, SCORE_VARIANTS + 1, "2", 1.5, True])
def test_a_record_with_a_bad_version_is_refused(bad: object) -> None:
    record = snapshot(new_game(Config()), 0.0)
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
