"""Time of Empires' screens shown by the round engine (`[game] lines = "eras"`,
core/era_screen.py): the same `Screen` models at the same times as the era engine's.

Every golden scenario of Time of Empires (tests/golden/scenarios/toe-*.json, 84) is played by
the round file in Time of Empires' words, each new screen model collected with its time as
`erabox simulate` hands it on, and set against the era engine's, recorded before its removal
(tests/golden/era_engine/screens.jsonl; `tools/one_engine_screens.py` prints the classes of
what differs). Those that match must keep matching (compared in
tests/test_golden_toe.py, on the plays it shares with the other checks of each scenario); the
known exceptions below are listed with what the round engine does not yet show, and expected
to differ until it does. A profile in its own words keeps its own screens (`PlayScreen`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.model import Phase, Screen
from erabox.core.play import PlayScreen
from erabox.core.profile import ProfileError, parse_profile
from erabox.core.profile_reader import Step
from erabox.ui.panel import Panel
from erabox.ui.render import draw
from test_golden import SCENARIOS
from test_one_engine_golden_cues import ERA_WORDS, ROUND_FILE

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from one_engine_screens import Tally, both, compare

KNOWN: dict[str, str] = {}


# Each scenario compared (a known exception marked xfail, strict): tests/test_golden_toe.py
# (`test_the_round_engine_shows_the_era_engines_screens`), on the one play it makes per
# scenario for every check; `both` below is the tool's own pair (recorded, played).


def test_the_tool_sets_the_recording_against_the_play_as_the_check_does() -> None:
    """tools/one_engine_screens.py's pair for a scenario (what its table classes), on the
    shortest scenario with no known exception: the same screens, as the check finds them;
    a screen changed is classed by the field that differs."""
    path = min((p for p in SCENARIOS if p.stem not in KNOWN), key=lambda p: p.stat().st_size)
    era, rounds = both(path.stem, json.loads(path.read_text(encoding="utf-8")))
    assert era and rounds == era
    tally = Tally()
    t, first = rounds[0]
    compare(path.stem, era, [(t, first | {"era": 9}), *rounds[1:]], tally)
    assert list(tally.screens) == [f"`{first['kind']}` differs in `era`"]


def test_the_known_exceptions_are_golden_scenarios() -> None:
    assert set(KNOWN) <= {path.stem for path in SCENARIOS}
    assert len(SCENARIOS) - len(KNOWN) >= 84  # every one, the settings menu too


def _engine(profile: object) -> ProfileEngine:
    config = Config()
    return ProfileEngine(configured(profile, config), config)


def test_a_profile_in_its_own_words_keeps_its_own_screens() -> None:
    engine = _engine(ROUND_FILE)
    play, effects = engine.fresh(0.0, 0)
    assert isinstance(engine.screen(play, 0.0), PlayScreen)
    assert not any(isinstance(getattr(e, "screen", None), Screen) for e in effects)


def test_time_of_empires_words_show_its_screens_drawn_by_its_renderer() -> None:
    engine = _engine(ERA_WORDS)
    play, effects = engine.fresh(0.0, 0)
    shown = engine.screen(play, 0.0)
    assert isinstance(shown, Screen) and shown.kind is Phase.SETUP and shown.new_game
    assert [getattr(e, "screen", None) for e in effects if hasattr(e, "screen")] == [shown]
    assert engine.care_view(shown) is shown  # OLED care reads it as the era engine's
    assert draw(shown, Panel(), "en").size == Panel().size


def test_a_guide_step_says_the_box_own_words_or_is_an_error() -> None:
    """A step's `say`: one of Time of Empires' guide texts, shown by its key and number on
    its screens; another value names the file, line and key."""
    steps = 'steps = [{ en = "Wonders", ja = "驚異", say = "prep_wonder" }]'
    profile = parse_profile(MINIMAL.format(steps=steps), "g.toml")
    (step,) = profile.phases[0].steps
    assert isinstance(step, Step) and step.say == "prep_wonder"
    wrong = steps.replace("prep_wonder", "wonders")
    with pytest.raises(ProfileError, match=r"g\.toml:14: key 'phase\[1\]\.steps\[1\]\.say': "
                       "expected one of"):
        parse_profile(MINIMAL.format(steps=wrong), "g.toml")


MINIMAL = """
[game]
name = "G"
lines = "eras"
[players]
min = 2
max = 4
[rounds]
name = "Round"
count = 2
[[phase]]
id = "act"
label = "Act"
{steps}
"""
