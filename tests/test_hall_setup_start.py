"""A hall's START reaching a round game at its setup (core/steer.py `_from_setup`;
docs/hall.md): play starts as ERA there would, in the variant whose round 1 opens on a
`hall = true` countdown, and that countdown is laid on the hall's time (ahead: through its
lead-in, the ticks already past skipped; late: at once with the start gong, the calls more
than `LATE_S` behind never sounded), its record on disk before anything sounds. PAUSE, SLEW
and END there, and any order with the settings menu open, change nothing. Time of Empires'
round file says the same as its era engine (core/steer.py) at each of these points."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.core.config import Config, parse_config
from erabox.core.deadlines import countdown_start
from erabox.core.effects import ShowPlay
from erabox.core.engine import ProfileEngine
from erabox.core.game_config import configured
from erabox.core.guide import guided, walk_here
from erabox.core.hall import HallState
from erabox.core.hall_view import status_of
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    Save,
    Screen,
    Show,
    Sound,
    Steer,
    SteerAction,
    Tick,
)
from erabox.core.play import Play, State
from erabox.core.profile import Profile, parse_profile
from erabox.core.steer import LATE_S
from test_hall_rounds import link

S, P, R, E, W = (SteerAction.START, SteerAction.PAUSE, SteerAction.RESUME, SteerAction.END,
                 SteerAction.SLEW)
NEXT, ERA = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
NEXT_HOLD, ERA_HOLD = Input(Button.NEXT, Gesture.HOLD), Input(Button.ERA, Gesture.HOLD)
BOTH_HOLD = Input(Button.BOTH, Gesture.HOLD)
ROUNDS = Path(__file__).parent.parent / "device" / "erabox" / "games" / "time-of-empires.toml"
TOE = parse_profile(ROUNDS.read_text(encoding="utf-8"), str(ROUNDS))

# A game of two variants: a practice round on the table's own pace, and the hall's race,
# whose round 1 opens on the countdown the hall steers.
RACE = """\
[game]
id = "race"
name = "Race"

[players]
min = 2
max = 2

[rounds]
name = "Round"
start_gong = false

[[variant]]
id = "practice"
label = "Practice"
rounds = 1

[[variant]]
id = "race"
label = "Race"
rounds = 1

[[phase]]
id = "warm-up"
label = "Warm-up"
variants = ["practice"]

[[phase]]
id = "run"
label = "Run"
variants = ["race"]
timer_s = 60
lead_in_s = 3
final_ticks_s = 2
timer_end = "next"
hall = true

[[phase.call]]
at_s = 10
prompt = "First"

[[phase.call]]
at_s = 30
prompt = "Second"

[[phase]]
id = "rest"
label = "Rest"
"""
PROFILE = parse_profile(RACE, "race.toml")


def hall_config(**kw: Any) -> Config:
    return replace(parse_config('[hall]\nbroker = "h"\nkey = "k"\n', "c.toml"),
                   players=("red", "blue"), **kw)


def engine(profile: Profile, config: Config) -> ProfileEngine:
    """The round engine as the box builds it (run/driver.py): the guide and the config's
    numbers and modes laid over the file."""
    return ProfileEngine(configured(guided(profile, config.guide), config), config,
                         source=profile)


Box = ProfileEngine
# what Time of Empires' era engine did in the tests below, recorded before its removal
# (tests/golden/era_engine/record.py): the sounds, screens and music of its setup steered
ERA_ENGINE: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden" / "era_engine" / "values.json").read_text(
        encoding="utf-8"))["test_hall_setup_start"]


def sounded(heard: list[list[Any]]) -> list[tuple[float, str]]:
    return [(t, sound) for t, sound in heard]


def heard(box: Box, state: Any, now: float, end: float, effects: tuple[object, ...] = ()
          ) -> tuple[Any, list[tuple[float, str]]]:
    """The sounds given (with `effects`' at `now`), waking at each deadline up to `end`."""
    sounds = [(round(now, 3), e.sound.value) for e in effects if isinstance(e, PlaySound)]
    while (due := box.next_deadline(state, now)) is not None and due <= end:
        now = due
        state, more = box.step(state, Tick(), now)
        sounds += [(round(now, 3), e.sound.value) for e in more if isinstance(e, PlaySound)]
    return state, sounds


def first_save_before_sound(effects: tuple[object, ...]) -> bool:
    sounds = [i for i, e in enumerate(effects) if isinstance(e, PlaySound)]
    saves = [i for i, e in enumerate(effects) if isinstance(e, Save) and e.durable]
    return bool(saves) and (not sounds or saves[0] < sounds[0])


def toe_at_setup(guide: bool = True) -> tuple[ProfileEngine, Play]:
    """Time of Empires at its setup (the guide walked there, or not)."""
    rounds = engine(TOE, hall_config(guide=guide))
    return rounds, rounds.fresh(0.0, 0)[0]


def kind(effects: tuple[object, ...]) -> Phase:
    shown = [e.screen for e in effects if isinstance(e, Show)]
    assert shown and isinstance(shown[-1], Screen)
    return shown[-1].kind


@pytest.mark.parametrize("guide", [True, False])
def test_time_of_empires_starts_ahead_from_its_setup_as_the_era_engine(guide: bool) -> None:
    """START 2.5 s ahead at the setup (the preparation guide's step 1 walked there, or the
    setup without it): both engines lay the lead-in so that the start gong lands on the
    hall's zero, its ticks already past skipped, the cries at 3:00 and 6:00 from it."""
    rounds, play = toe_at_setup(guide)
    era = ERA_ENGINE[f"ahead/guide={guide}"]
    assert (play.spot.state, play.spot.guide) == (State.SETUP, 0 if guide else None)
    assert bool(walk_here(play)) is guide  # the preparation guide, step 1
    order = Steer(S, 12.5, 0.0)
    play, effects = rounds.step(play, order, 10.0)
    assert first_save_before_sound(effects)
    assert play.spot.state is State.ROUND and play.spot.round == 1
    assert TOE.phases[play.spot.phase].id == "action"
    assert countdown_start(play) == pytest.approx(12.5)
    assert kind(effects) is Phase(era["kind"]) is Phase.LEAD_IN
    assert status_of(play, 10.0)["state"] == "lead_in"
    play, sounds = heard(rounds, play, 10.0, 400.0, effects)
    assert sounds == sounded(era["heard"])
    assert sounds == [(10.5, "tick"), (11.5, "tick"), (12.5, "gong"), (192.5, "cry"),
                      (372.5, "cry")]
    status = status_of(play, 400.0)
    assert (status["state"], status["running_s"]) == ("running", 387.5)
    assert rounds.screen(play, 400.0).kind is Phase.RUNNING


def test_time_of_empires_starts_late_from_its_setup_as_the_era_engine() -> None:
    """The hall is 200 s in: the start gong at once, the cry at 3:00 (20 s behind) never
    sounded, the one at 6:00 on the hall's time."""
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["late"]
    order = Steer(S, 300.0, 200.0)
    play, effects = rounds.step(play, order, 300.0)
    assert first_save_before_sound(effects)
    assert [e.sound.value for e in effects if isinstance(e, PlaySound)] == era["sounds"] == [
        "gong"]
    assert countdown_start(play) == pytest.approx(100.0)
    assert kind(effects) is Phase(era["kind"]) is Phase.RUNNING
    assert status_of(play, 300.0)["state"] == "running"
    play, sounds = heard(rounds, play, 300.0, 700.0)
    assert sounds == sounded(era["heard"]) and sounds[0] == (460.0, "cry")
    assert LATE_S < 200.0 - 180.0


def test_time_of_empires_plays_real_time_whatever_the_setup_chose() -> None:
    """The table chose the introductory era at its setup: the hall's start plays real time
    (as the era engine forces it), and RESUME there means START."""
    rounds, play = toe_at_setup(guide=False)
    era = ERA_ENGINE["intro_chosen"]
    play, _ = rounds.step(play, NEXT, 0.0)
    assert TOE.variants[play.spot.variant].id == "intro"
    play, effects = rounds.step(play, Steer(R, 50.0, 0.0), 50.0)
    assert TOE.variants[play.spot.variant].id == "realtime"
    assert TOE.phases[play.spot.phase].id == "action"
    assert kind(effects) is Phase(era["kind"]) is Phase.RUNNING
    assert [e.sound.value for e in effects if isinstance(e, PlaySound)] == era["sounds"] == [
        "gong"]


def test_a_new_game_asked_at_the_setup_gives_way_to_the_start_as_the_era_engines() -> None:
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["new_game_asked"]
    play, _ = rounds.step(play, BOTH_HOLD, 0.0)  # "New game?"
    assert play.question_until is not None and era["asked"]
    play, effects = rounds.step(play, Steer(S, 5.0, 0.0), 5.0)
    assert play.question_until is None and era["after"]  # the question gone
    assert kind(effects) is Phase(era["kind"]) is Phase.RUNNING


def test_pause_slew_and_end_at_the_setup_change_nothing_on_either_engine() -> None:
    rounds, play = toe_at_setup()
    for action in (P, W, E):
        order = Steer(action, 5.0, 0.0)
        assert rounds.step(play, order, 5.0)[0] == play
        assert ERA_ENGINE["setup_orders"][action.value]  # the era engine's game unchanged
    race = engine(PROFILE, hall_config())
    fresh, _ = race.fresh(0.0, 0)
    for action in (P, W, E):
        moved, effects = race.step(fresh, Steer(action, 5.0, 0.0), 5.0)
        assert moved == fresh and not [e for e in effects if isinstance(e, Save)]


def test_no_order_reaches_the_setup_under_the_settings_menu_on_either_engine() -> None:
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["menu_orders"]
    play, _ = rounds.step(play, ERA_HOLD, 0.0)  # the settings menu, over the setup
    assert play.menu is not None and era["menu"]
    for action in SteerAction:
        order = Steer(action, 5.0, 0.0)
        assert rounds.step(play, order, 5.0)[0] == play
        assert era[action.value]  # the era engine's game unchanged


def test_a_start_at_the_setup_plays_the_variant_that_opens_on_the_halls_countdown() -> None:
    """A profile of its own: the practice variant chosen at the setup, the hall's START
    plays the race, its countdown's start gong on the hall's zero (ahead)."""
    race = engine(PROFILE, hall_config())
    fresh, _ = race.fresh(0.0, 0)
    assert PROFILE.variants[fresh.spot.variant].id == "practice"
    play, effects = race.step(fresh, Steer(S, 21.5, 0.0), 20.0)  # ticks at 18.5 .. 20.5
    assert first_save_before_sound(effects)
    assert PROFILE.variants[play.spot.variant].id == "race"
    assert (play.spot.state, play.spot.round, PROFILE.phases[play.spot.phase].id) == (
        State.ROUND, 1, "run")
    assert countdown_start(play) == 21.5
    shown = [e.screen for e in effects if isinstance(e, ShowPlay)][-1]
    assert shown.kind == "round" and shown.hall_start is False
    play, sounds = heard(race, play, 20.0, 100.0, effects)
    assert sounds == [(20.5, "tick"), (21.5, "gong"), (31.5, "cry"), (51.5, "cry"),
                      (79.5, "tick"), (80.5, "tick"), (81.5, "gong")]
    assert PROFILE.phases[play.spot.phase].id == "rest"


def test_a_late_start_at_the_setup_skips_the_calls_long_past() -> None:
    race = engine(PROFILE, hall_config())
    fresh, _ = race.fresh(0.0, 0)
    play, effects = race.step(fresh, Steer(S, 50.0, 12.0), 50.0)  # the hall is 12 s in
    assert first_save_before_sound(effects)
    assert [e.sound.value for e in effects if isinstance(e, PlaySound)] == ["gong"]
    assert countdown_start(play) == 38.0 and status_of(play, 50.0)["state"] == "running"
    play, sounds = heard(race, play, 50.0, 100.0)
    assert sounds == [(68.0, "cry"), (96.0, "tick"), (97.0, "tick"), (98.0, "gong")]
    assert LATE_S < 12.0 - 10.0  # the call at 10 s: counted given, never sounded
    over, effects = race.step(fresh, Steer(S, 100.0, 60.0), 100.0)  # over at the hall
    assert over == fresh and not [e for e in effects if isinstance(e, Save | PlaySound)]


def test_a_setup_whose_round_1_opens_elsewhere_ignores_the_start() -> None:
    """Only the race's round 1 opens on the hall's countdown: where no variant's does (the
    warm-up first in both, or a countdown the hall does not steer) the hall's start leaves
    the setup alone (the table walks to the countdown, held there for the hall)."""
    practice = parse_profile(RACE.replace('variants = ["race"]\ntimer_s', 'variants = '
                                          '["practice", "race"]\ntimer_s').replace(
        'id = "warm-up"\nlabel = "Warm-up"\nvariants = ["practice"]',
        'id = "warm-up"\nlabel = "Warm-up"'), "race.toml")
    unmarked = parse_profile(RACE.replace("hall = true\n", ""), "race.toml")  # timed only
    for profile in (practice, unmarked):
        race = engine(profile, hall_config())
        fresh, _ = race.fresh(0.0, 0)
        for action in SteerAction:
            assert race.step(fresh, Steer(action, 5.0, 0.0), 5.0)[0] == fresh


def music(effects: tuple[object, ...]) -> list[tuple[str, int, float]]:
    return [(e.action.value, e.era, round(e.elapsed, 3)) for e in effects if isinstance(e, Music)]


def test_the_halls_pause_and_resume_pause_and_resume_the_era_music_as_the_era_engines() -> None:
    """Started by the hall, Time of Empires' music starts on the start gong; the hall's
    PAUSE pauses it where the era holds, its RESUME resumes it, on both engines; a late
    start starts it at the hall's running time."""
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["music"]
    state, effects = rounds.step(play, Steer(S, 12.0, 0.0), 10.0)
    state, gong = rounds.step(state, Tick(), 12.0)
    state, paused = rounds.step(state, Steer(P, 30.0, 18.0), 30.0)
    state, resumed = rounds.step(state, Steer(R, 40.0, 18.0), 40.0)
    said = [music(effects), music(gong), music(paused), music(resumed)]
    assert json.loads(json.dumps(said)) == era["said"]
    assert said == [[], [("music_start", 1, 0.0)], [("music_pause", 1, 18.0)],
                    [("music_resume", 1, 18.0)]]
    late = rounds.step(play, Steer(S, 100.0, 30.0), 100.0)[1]
    heard_late = [(type(e).__name__, getattr(e, "sound", getattr(e, "action", None)))
                  for e in late if isinstance(e, PlaySound | Music)]
    assert [[name, what.value] for name, what in heard_late] == era["late"]
    assert heard_late == [("PlaySound", Sound.GONG), ("Music", MusicAction.START)]
    # the round engine's music on the hall's running time (the era engine's loop from its top)
    assert music(late) == [("music_start", 1, 30.0)]


def test_an_eras_own_setup_starts_too_in_real_time() -> None:
    """Era II's setup (its guide walked there, the introductory era chosen): the hall's
    START plays Era II's action phase in real time, Era I kept as it was played, as the era
    engine starts Era II from its setup."""
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["era_two"]
    intro = next(n for n, v in enumerate(TOE.variants) if v.id == "intro")
    spot = replace(play.spot, state=State.ERA_SETUP, past=(play.spot.sheet,), past_variants=(
        intro,), variant=intro, phase=play.profile.first_phase(intro) or 0, guide=0)
    play = replace(play, spot=spot)
    assert walk_here(play)  # Era II's preparation guide, step 1
    play, effects = rounds.step(play, Steer(S, 12.5, 0.0), 10.0)
    assert first_save_before_sound(effects)
    assert (play.spot.state, play.spot.round, len(play.spot.past)) == (State.ROUND, 1, 1)
    assert TOE.variants[play.spot.variant].id == "realtime" and play.spot.past_variants == (
        intro,)
    assert kind(effects) is Phase(era["kind"]) is Phase.LEAD_IN
    play, sounds = heard(rounds, play, 10.0, 200.0, effects)
    assert sounds == sounded(era["heard"])
    assert sounds == [(10.5, "tick"), (11.5, "tick"), (12.5, "gong"), (192.5, "cry")]


def test_a_table_at_its_setup_while_the_hall_runs_is_started_on_its_time_as_the_era_engines(
        ) -> None:
    """The link starts a table still at its setup (a box that comes up, or comes back, after
    the hall started) at once on the hall's running time, once, as it starts Time of
    Empires' era engine from its setup; the director still reads "setup" until then."""
    rounds, play = toe_at_setup()
    era = ERA_ENGINE["kept_in_step"]
    assert status_of(play, 130.0)["state"] == "setup"
    hall, posted = link(lambda: play)
    hall.state = HallState(S, 100.0, 0.0)  # the hall's running time zero at 100.0
    hall._keep_in_step(130.0)
    assert posted == [Steer(S, 130.0, 30.0)]
    assert [[o.action.value, o.at, o.running_s] for o in posted] == era["posted"]
    started, _ = rounds.step(play, posted[0], 130.0)
    assert rounds.screen(started, 130.0).kind is Phase(era["kind"]) is Phase.RUNNING
    posted.clear()
    hall._keep_in_step(130.5)  # once: not again while it stays at the setup
    assert posted == [] and era["again"] == 0
    started, _ = rounds.step(play, Steer(S, 130.0, 30.0), 130.0)
    assert countdown_start(started) == pytest.approx(100.0)
    menu, _ = rounds.step(play, ERA_HOLD, 0.0)  # the settings menu over the setup: not sent
    hall, posted = link(lambda: menu)
    hall.state = HallState(S, 100.0, 0.0)
    hall._keep_in_step(130.0)
    assert posted == []
