"""Random play on Time of Empires' round file: hypothesis mashes every button at random moments,
with power cuts between any two steps, through whole games (`ProfileEngine`, as the box plays
it). Checked at every step: the engine never raises; `next_deadline` is never in the past;
the record saved reads back (`parse`) and resumes (`restore`) at the same era, mode, round and
place; a real-time era never sounds a cry more often than its calls nor while paused. Ported
from the era engine's random play (test_machine_stateful.py) at its removal; every cut at
every instant around every call: tests/test_power_cut_rounds.py."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided
from erabox.core.model import Button, Gesture, Input, PlaySound, Save, Sound, Tick
from erabox.core.play import State
from erabox.files.games import own_rounds
from saved_game import game_position

GESTURES = [Input(b, g) for b in (Button.NEXT, Button.ERA, Button.BOTH)
            for g in (Gesture.PRESS, Gesture.HOLD)] + [
    Input(Button.NEXT, Gesture.RELEASE), Input(Button.VOL_DOWN, Gesture.PRESS),
    Input(Button.DIAL_UP, Gesture.PRESS), Input(Button.NEXT, Gesture.PRESS),
    Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)]
WAITS = [0.0, 0.3, 1.0, 4.0, 30.0, 120.0, 300.0]


@settings(max_examples=60)
@given(data=st.data())
def test_random_play_with_power_cuts_never_breaks_the_game(data: st.DataObject) -> None:
    guide = data.draw(st.booleans(), label="guide")
    config = Config(guide=guide, points_entry=data.draw(st.sampled_from(["totals", "steps"])))
    engine = ProfileEngine(configured(guided(own_rounds(), guide), config), config)
    play, _ = engine.fresh(0.0, 0)
    now, saved = 0.0, engine.snapshot(play, 0.0)
    calls = len(config.realtime.scholar_cues_s)
    cries, era_key = 0, None
    for _ in range(data.draw(st.integers(1, 60), label="moves")):
        target = now + data.draw(st.sampled_from(WAITS), label="wait")
        effects: tuple[object, ...] = ()
        while (due := engine.next_deadline(play, now)) is not None and due <= target:
            assert due >= now - 1e-9, "a deadline in the past"
            now = max(now, due)
            play, ticked = engine.step(play, Tick(), now)
            effects += ticked
        now = target
        saved = next((e.snapshot for e in reversed(effects) if isinstance(e, Save)), saved)
        if data.draw(st.integers(0, 9), label="cut") == 0:  # the power fails: the last save
            play, restored = engine.restore(engine.parse(json.dumps(saved)), now)
            effects += restored
            cries = 0  # a cut may give a call again only as its owed prompt: counted anew
        else:
            play, stepped = engine.step(play, data.draw(st.sampled_from(GESTURES)), now)
            effects += stepped
        key = (len(play.spot.past), play.spot.variant)
        if key != era_key or play.spot.state in (State.SETUP, State.ERA_SETUP):  # a new era
            cries, era_key = 0, key
        cries += sum(1 for e in effects if isinstance(e, PlaySound) and e.sound is Sound.CRY
                     and game_position(play, now)[1] == "realtime")
        assert cries <= calls, "a cry sounded more often than the era's calls"
        saved = next((e.snapshot for e in reversed(effects) if isinstance(e, Save)), saved)
        record = engine.snapshot(play, now)
        back, _ = engine.restore(engine.parse(json.dumps(record)), now)
        assert (len(back.spot.past), back.spot.variant, back.spot.round) == (
            len(play.spot.past), play.spot.variant, play.spot.round)
        assert game_position(back, now)[1:] == game_position(play, now)[1:]
