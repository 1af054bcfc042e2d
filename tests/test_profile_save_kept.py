"""A round game's save writes each undo step from a record built once and kept beside it
(core/play_record.py `_step_record`): a save costs what changed since the last one, not
the whole undo history again; the saved text is as ever, and no reader of one save can
change what a later save writes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from erabox.core import play_record
from erabox.core.machine import step
from erabox.core.model import Save
from erabox.core.play import HISTORY, Play, Spot, new_play
from erabox.core.play_record import _spot_dict, restore, snapshot
from erabox.core.snapshot import dumps
from test_profile_machine import COLOURS, E_HOLD, E_PRESS, N_PRESS, PROFILES
from test_profile_variant_per_era import ERA, NEXT, PLAYERS, press, profile, through_era


def eras_played() -> Play:
    """Two eras of a game of eras played, numbers on its sheets: every array of a record
    (`events_done`, `sheet`, `past`, `past_variants`) in its undo steps."""
    play = press(new_play(profile(), PLAYERS), NEXT, ERA)
    play = press(through_era(play), ERA, NEXT, ERA)  # Noon, in turns
    return press(through_era(play), NEXT)


def history_full() -> Play:
    """Altay played past its undo history's length."""
    play = press(new_play(PROFILES["altay"], COLOURS[:3]), E_PRESS, E_HOLD)
    for _ in range(HISTORY + 5):
        play, _ = step(play, N_PRESS, 0.0)
    return play


@pytest.mark.parametrize("played", [eras_played, history_full])
def test_a_save_writes_the_undo_steps_it_kept_and_its_text_is_as_ever(
        played: Callable[[], Play]) -> None:
    play = played()
    assert any(s.past for s in play.history) or len(play.history) == HISTORY
    record = snapshot(play, 0.0)
    # each undo step as its record always was, byte for byte
    ever = record | {"history": [_spot_dict(s) for s in play.history]}
    assert dumps(record) == dumps(ever) and json.dumps(record) == json.dumps(ever)
    again = snapshot(play, 1.0)  # the next save shares what it kept, builds none of it again
    for first, second in zip(record["history"], again["history"], strict=True):
        assert first == second and first is not second
        assert all(first[key] is second[key] for key in first)
    # read straight from memory as from its text
    back, _ = restore(record, play.profile, play.players, 5.0)
    read, _ = restore(json.loads(dumps(record)), play.profile, play.players, 5.0)
    assert back.spot == read.spot == play.spot and back.history == read.history == play.history


def test_a_reader_of_one_save_changes_nothing_of_the_next() -> None:
    play = eras_played()
    text = dumps(snapshot(play, 0.0))
    record = snapshot(play, 0.0)
    for entry in record["history"]:
        entry.pop("past_variants", None)  # its own keys: a reader may set or drop one
        entry["round"] = 99
        with pytest.raises((TypeError, AttributeError)):
            entry["sheet"][0][0] = [5]  # its arrays: never
        with pytest.raises(AttributeError):
            entry["events_done"].append("storm")
    assert dumps(snapshot(play, 0.0)) == text


def test_a_save_after_one_more_step_builds_the_records_of_what_changed_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    play = history_full()  # saved at each step (core/machine.py)
    built: list[Spot] = []
    fields = play_record._spot_fields

    def counted(spot: Spot, *arrays: Any) -> dict[str, Any]:
        built.append(spot)
        return fields(spot, *arrays)

    monkeypatch.setattr(play_record, "_spot_fields", counted)
    moved, effects = step(play, N_PRESS, 0.0)
    assert [type(e) for e in effects].count(Save) == 1 and len(moved.history) == HISTORY
    assert moved.history[-1] is play.spot
    assert built == [moved.spot, play.spot]  # the play's spot, and the undo step it became
    built.clear()
    snapshot(moved, 1.0)
    assert built == [moved.spot]
