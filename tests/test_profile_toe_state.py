"""Step 4 of docs/architecture.md's plan to one engine: the round engine reads the era
engine's Time of Empires state files (core/era_save.py; docs/state-file.md).

Every committed state file of the era engine (tests/golden/states/toe-*, tests/golden/
state-v1/) is read by the round file (tests/profiles/time-of-empires-rounds.toml) through
`ProfileEngine` as the box reads it. Resumed from it and played on with the same continuation
as the era engine was (recorded before its removal, test by test: tests/golden/era_engine/;
the gestures mapped as tests/test_one_engine_toe.py maps them: NEXT press resumes a paused
era, NEXT hold a held countdown; ERA at the era's setup starts its lead-in, NEXT on the
preparation's last step does; an era total is a player's numbers category by category),
the round engine agrees with it on what the table hears and sees: every gong, cry and tick
at the same instant, the era and its mode, the round and its start player, the totals and
the standings. A power cut straight after the conversion changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from erabox.core import play_record
from erabox.core.config import Config
from erabox.core.engine import ProfileEngine
from erabox.core.era_save import is_era_record, reads_time_of_empires
from erabox.core.model import Button, Gesture, Input, PlaySound, SetVolume, Tick
from erabox.core.play import Play, State, call_words, ranking, standings
from erabox.core.play import start_player as round_start_player
from erabox.core.profile import parse_profile
from erabox.core.scores import totals as round_totals
from erabox.core.script import parse_script
from erabox.core.snapshot import loads
from erabox.files.games import own_rounds, read_profile
from erabox.run.simulate import Simulation

TESTS = Path(__file__).parent
ROUND_FILE = TESTS / "profiles" / "time-of-empires-rounds.toml"
GOLDEN = TESTS / "golden"
FILES = sorted((GOLDEN / "states").glob("toe-*.state.json")) + sorted(
    (GOLDEN / "state-v1").glob("*.state.json"))
PLAYERS = ("red", "blue", "green", "yellow")
NEXT, ERA = Button.NEXT, Button.ERA
PRESS, HOLD = Gesture.PRESS, Gesture.HOLD
Script = list[tuple[float, Button, Gesture]]
RECORDED = json.loads((GOLDEN / "era_engine" / "values.json").read_text(encoding="utf-8"))[
    "test_profile_toe_state"]
Game = dict[str, Any]  # the era engine's game as recorded: `seen`, `phase`, `entry`, ...


class Recorded:
    """The era engine's side of the running test (its game after each resume and each
    continuation, recorded by test), replayed in order."""

    def __init__(self, test: str) -> None:
        self.log = list(RECORDED["tests"].get(test, []))

    def next(self, kind: str) -> dict[str, Any]:
        done = self.log.pop(0)  # (none left: the test asks more than was recorded)
        assert kind in done, f"recorded {sorted(done)}, asked {kind}"
        return done


RECORDING = Recorded("")


@pytest.fixture(autouse=True)
def _recorded(request: pytest.FixtureRequest) -> Any:
    global RECORDING  # each test reads its own recording of the era engine, all of it
    RECORDING = Recorded(request.node.name)
    yield
    assert RECORDING.log == [], "the era engine did more in this test than it reads"


def name(path: Path) -> str:
    return path.name.split(".")[0]


def setup(path: Path, points_entry: str = "totals") -> tuple[Config, str]:
    """The era engine's config the file was written with (its `.config.json`: the guide;
    state-v1: the defaults, Era I's setup under the settings with their two players), the
    box's "Points entry" `points_entry` (the round file follows it: `entry = "setting"`)."""
    players = ("red", "blue") if "settings" in path.name else PLAYERS
    guide = True
    own = path.parent / f"{name(path)}.config.json"
    if own.exists():
        guide = json.loads(own.read_text(encoding="utf-8"))["config"]["guide"]
    return (Config(players=players, guide=guide, points_entry=points_entry),
            path.read_text(encoding="utf-8"))


def engines(path: Path, now: float = 0.0, points_entry: str = "totals"
            ) -> tuple[Recorded, Game, ProfileEngine, Play]:
    """Both engines resumed from the same file, as the box resumes them (parse, restore),
    the box's "Points entry" `points_entry`: the era engine as recorded."""
    config, text = setup(path, points_entry)
    own, game = RECORDING, RECORDING.next("resumed")["resumed"]
    rounds = ProfileEngine(parse_profile(ROUND_FILE.read_text(encoding="utf-8"),
                                         str(ROUND_FILE)), config)
    play, _ = rounds.restore(rounds.parse(text), now)
    return own, game, rounds, play


def played(engine: Any, state: Any, script: Script, until: float
           ) -> tuple[Any, list[tuple[float, str]]]:
    """The game played on: the script's gestures at their times, each deadline woken, up
    to `until`; the gongs, cries and ticks heard (the era engine's as recorded)."""
    if isinstance(engine, Recorded):
        done = engine.next("played")
        return done["played"], [(t, sound) for t, sound in done["heard"]]
    heard: list[tuple[float, str]] = []
    now, todo = 0.0, list(script)
    while True:
        due = engine.next_deadline(state, now)
        if todo and (due is None or todo[0][0] <= due):
            now, button, gesture = todo.pop(0)
            event: Input | Tick = Input(button, gesture)
        elif due is not None and due <= until:
            now, event = max(now, due), Tick()
        else:
            return state, heard
        state, effects = engine.step(state, event, now)
        heard += [(round(now, 3), e.sound.value) for e in effects
                  if isinstance(e, PlaySound) and e.sound.value in ("gong", "cry", "tick")]


def seen_own(game: Game) -> dict[str, Any]:
    """What the table saw of the era engine's game (recorded): where, era, mode, totals..."""
    return dict(game["seen"])


def placed(players: tuple[str, ...], points: tuple[int, ...]) -> list[tuple[int, str, int]]:
    """Standings as the era engine placed them: most first, ties share a place (1, 1, 3)."""
    order = sorted(range(len(points)), key=lambda p: (-points[p], p))
    return [(1 + sum(1 for q in points if q > points[p]), players[p], points[p]) for p in order]


def seen_rounds(play: Play) -> dict[str, Any]:
    """The same of the round engine's play."""
    # every era's confirmed points (mid-era the round engine's `whole_sheet` leaves out the
    # categories this era has not asked yet, for its ranking's needs)
    points = tuple(sum(era) for era in zip(*(round_totals(play.profile, sheet)
                                             for sheet in (*play.spot.past, play.spot.sheet)),
                                           strict=True))
    intro = play.profile.variants[play.spot.variant].id == "intro"
    in_rounds = intro and play.spot.state in (State.ROUND, State.SPECIAL)
    spot = play.spot
    where = spot.state.value
    if spot.state in (State.SPECIAL, State.ROUND, State.ERA_SETUP):
        here = (play.profile.specials[spot.special].id if spot.state is State.SPECIAL
                else play.profile.phases[spot.phase].id)
        where = {"action": "action", "turns": "round", "scholars": "scholars"}.get(
            here, "setup") if spot.state is not State.ERA_SETUP else "setup"
    seen = {"where": where, "era": len(spot.past) + 1,
            "mode": play.profile.variants[spot.variant].id,
            "round": play.spot.round if in_rounds else None,
            "start_player": round_start_player(play) if in_rounds else None,
            "totals": dict(zip(play.players, points, strict=True)),
            "standings": placed(play.players, points)}
    if spot.state is State.STANDINGS:  # the round engine's own standings screen says so too
        assert [(place, who, total) for place, who, _, total in standings(play)] == seen[
            "standings"]
    plain: dict[str, Any] = json.loads(json.dumps(seen))  # as the recording says it
    return plain


def presses(button: Button, count: int, start: float, gesture: Gesture = PRESS) -> Script:
    return [(start + i, button, gesture) for i in range(count)]


# The continuations: (the era engine's script, the round engine's, until), per file.
RESUME = ([(1.0, NEXT, PRESS)], [(1.0, NEXT, HOLD)], 1000.0)  # a held era resumed, to its end
INTRO_8 = (presses(NEXT, 9, 1.0), presses(NEXT, 9, 1.0), 100.0)  # round 8 to the scoring
INTRO_4 = (presses(NEXT, 13, 1.0), presses(NEXT, 13, 1.0), 100.0)  # round 4 to the scoring


def entered(*values: int, start: float) -> Script:
    """Each number with NEXT presses (+1 each), confirmed with ERA, a second apart."""
    out: Script = []
    for v in values:
        out += [(start + len(out) + i, NEXT, PRESS) for i in range(v)]
        out += [(start + len(out), ERA, PRESS)]
    return out


def round_totals_script(totals: dict[int, int], start: float) -> Script:
    """Era totals entered for the players `totals` names, in the round file asking per
    step (the box's "Points entry" "steps", a file saved with era totals): the first
    category asked of them (destruction) 0, each total in `construction-bonus`, the rest 0,
    the shown steps passed with NEXT; the players entered before the conversion re-asked 0.
    """
    seats = range(len(PLAYERS))
    values = [0 for s in seats if s in totals]  # destruction
    values += [totals.get(s, 0) for s in seats]  # construction bonus
    script = entered(*values, start=start)
    script += [(start + len(script), NEXT, PRESS)]  # leader cards: shown
    script += entered(*[0] * 8, start=start + len(script))  # wonders, culture
    return script + [(start + len(script), NEXT, PRESS)]  # city sieges: shown


def start_era(steps_left: int) -> tuple[Script, Script, float]:
    """From a setup or a guide step to the lead-in at t = 30: the era engine's NEXT hold
    (out of the guide) and ERA; the round engine's NEXT through the steps left."""
    return ([(1.0, NEXT, HOLD), (30.0, ERA, PRESS)],
            [(30.0 - steps_left + 1 + i, NEXT, PRESS) for i in range(steps_left)], 700.0)


CONTINUE: dict[str, tuple[Script, Script, float]] = {
    "toe-running": RESUME, "toe-paused": RESUME, "toe-after-cry": RESUME, "running": RESUME,
    "paused": RESUME, "armed": RESUME, "sounded-ahead": RESUME, "scholar-prompt": RESUME,
    "toe-intro": INTRO_8, "intro-intro_round-round-4": INTRO_4,
    # the game setup's steps from the one shown (the era engine's third, the round file's
    # too: both begin with the players step), then Era I's preparation
    "toe-guide": start_era(11 - 2 + 7),
    # setup under other settings: the era engine sets Era I up afresh (the guide's first
    # step), the round engine at the game setup's first
    "setup": start_era(11 + 7), "setup-under-settings": start_era(10 + 6),
    # green's total is being entered (1 on the screen, carried): 5, then yellow's 3; the
    # box's "Points entry" totals, as the era engine's file: era totals in both
    "toe-scoring": (entered(4, 3, start=1.0), entered(4, 3, start=1.0), 100.0),
    "scoring": (entered(16, 1, 5, 3, start=1.0), entered(16, 1, 5, 3, start=1.0), 200.0),
}


def test_the_round_file_reads_time_of_empires_records_only() -> None:
    profile = parse_profile(ROUND_FILE.read_text(encoding="utf-8"), str(ROUND_FILE))
    assert reads_time_of_empires(profile)
    assert reads_time_of_empires(own_rounds())  # the shipped one, as the box plays
    assert all(is_era_record(json.loads(p.read_text(encoding="utf-8"))) for p in FILES)
    assert not is_era_record({"kind": "profile", "phase": "x", "era": 1, "mode": "intro"})
    text = FILES[0].read_text(encoding="utf-8")  # another round file still refuses it
    other = ProfileEngine(replace(profile, id="another-game"), Config(players=PLAYERS))
    with pytest.raises(ValueError, match="Time of Empires game"):
        other.parse(text)


def test_the_box_resumes_the_file_through_its_state_file_and_driver() -> None:
    """End to end, as the box starts: the era engine's file in the state file, the round
    file played (`erabox run --game`): "Resumed", held at 3:25 with the first cry given,
    NEXT hold resumes it, the second cry at 6:00 of the era, once."""
    path = GOLDEN / "states" / "toe-running.state.json"
    lines: list[dict[str, Any]] = []
    sim = Simulation(Config(players=PLAYERS), lines.append,
                     profile=read_profile(ROUND_FILE))
    sim.state.text = path.read_text(encoding="utf-8")
    sim.restart()
    sim.run(parse_script("1 next hold\n", "after"), 400.0)
    assert [e["prompt"] for e in lines if e["type"] == "prompt"][:1] == ["resumed"]
    assert [e["t"] for e in lines if e.get("sound") == "cry"] == [1.0 + 360 - 205]
    assert '"kind":"profile"' in sim.state.text  # its next save: the round engine's record


@pytest.mark.parametrize("path", FILES, ids=name)
def test_each_state_file_resumes_on_the_round_engine_where_the_era_engine_does(
        path: Path) -> None:
    own, game, rounds, play = engines(path)
    assert seen_rounds(play) == seen_own(game)  # at once: era, mode, round, totals
    own_script, round_script, until = CONTINUE[name(path)]
    game, own_heard = played(own, game, own_script, until)
    play, round_heard = played(rounds, play, round_script, until)
    assert round_heard == own_heard
    assert seen_rounds(play) == seen_own(game)


@pytest.mark.parametrize("path", FILES, ids=name)
def test_a_power_cut_straight_after_the_conversion_changes_nothing(path: Path) -> None:
    _, _, rounds, play = engines(path, now=50.0)
    record = play_record.snapshot(play, 50.0)
    again, _ = rounds.restore(rounds.parse(json.dumps(record)), 60.0)
    assert again.spot == play.spot and again.cues_done == play.cues_done
    assert again.held_left == play.held_left and again.timer_end == play.timer_end
    assert again.call_owed == play.call_owed
    assert play_record.snapshot(again, 60.0) == record


def test_the_calls_given_never_sound_again_and_an_armed_one_sounds_once() -> None:
    """A cry recorded sounded is not heard again after the resume; one armed (not yet handed
    to the mixer) is heard once, as the table resumes: in both engines."""
    heard: dict[str, list[float]] = {}
    for stem in ("sounded-ahead", "armed"):
        own, game, rounds, play = engines(GOLDEN / "state-v1" / f"{stem}.state.json")
        _, own_heard = played(own, game, [(1.0, NEXT, PRESS)], 200.0)
        _, round_heard = played(rounds, play, [(1.0, NEXT, HOLD)], 200.0)
        assert round_heard == own_heard
        heard[stem] = [t for t, sound in round_heard if sound == "cry"]
    assert heard == {"sounded-ahead": [181.0], "armed": [1.0, 181.0]}


@pytest.mark.parametrize("stem", ["scholar-prompt", "sounded-ahead"])
def test_a_prompt_owed_at_the_cut_shows_whole_after_the_resume(stem: str) -> None:
    """A cry recorded sounded (its prompt up 3 s, or the record written ahead of it): the
    era engine owes its "Appoint scholars!" whole, 15 s of running time from the resume;
    the round engine reading the same file shows it as long, not only what was left; the
    next cry's prompt its own 15 s in both."""
    path = GOLDEN / "state-v1" / f"{stem}.state.json"
    own, game, rounds, play = engines(path)
    assert game["prompt"] == "scholars" and call_words(play, 0.5) is not None  # held
    cry = 1.0 + 360 - float(json.loads(path.read_text(encoding="utf-8"))["elapsed"])
    for until in (12.5, 15.9, 16.1, 30.0, cry + 14.9, cry + 15.1):  # resumed at 1 s
        later, _ = played(own, game, [(1.0, NEXT, PRESS)], until)
        round_later, _ = played(rounds, play, [(1.0, NEXT, HOLD)], until)
        shown = later["prompt"] == "scholars"
        assert (call_words(round_later, until) is not None) == shown
        assert shown == (until < 16.0 or cry <= until < cry + 15)


def test_an_owed_prompt_in_a_record_must_fit_its_countdown() -> None:
    """The round engine's record keeps the owed prompt (`call_owed`) across further cuts;
    one that is not a time after a call given, within a prompt of the countdown, is refused."""
    _, _, rounds, play = engines(GOLDEN / "state-v1" / "scholar-prompt.state.json")
    record = play_record.snapshot(play, 0.0)
    assert record["call_owed"] == 198.0 and play.call_owed == 198.0
    for bad in (194.0, 199.0, "198", True):
        with pytest.raises(ValueError, match="call_owed"):
            rounds.restore(record | {"call_owed": bad}, 0.0)
    with pytest.raises(ValueError, match="call_owed"):  # before any call
        rounds.restore(record | {"timer_cues": 6, "timer_left": 540.0, "call_owed": 15.0}, 0.0)


def test_points_entered_are_never_lost() -> None:
    """Era totals, the box's "Points entry" totals: each entered total in its player's era
    total (the round file's `total`, its categories not asked); the next number asked the
    first not entered (green's total), as the era engine asks it, with the number on the
    screen at the cut."""
    _, game, _, play = engines(GOLDEN / "states" / "toe-scoring.state.json")
    assert seen_rounds(play)["totals"] == {"red": 16, "blue": 1, "green": 0, "yellow": 0}
    assert play.spot.state is State.SCORING and play.spot.entry == 2
    ids = [c.id for c in play.profile.categories]
    assert play.spot.sheet[ids.index("total")] == ((16,), (1,), None, None)
    assert play.spot.sheet[ids.index("destruction")] == (None,) * 4
    assert [c.id for c in play.profile.categories if c.asked] == ["buildings", "total"]
    assert game["entry"] is not None and not game["entry"]["by_step"]
    assert loads((GOLDEN / "states" / "toe-scoring.state.json").read_text(encoding="utf-8"),
                 Config(players=PLAYERS))["entry"]["value"] == 1  # not confirmed yet
    assert play.value == 1  # carried, as the era engine comes back to it (`Entry.value`)


def test_points_entered_per_step_land_in_their_categories(tmp_path: Path) -> None:
    """Per step (the box's "Points entry" "steps"): each checklist step's points in its
    category (destruction's back to buildings), the entry at the same number; played on with
    the same gestures (ERA passes a shown step in both), the same standings."""
    saved = json.loads((GOLDEN / "states" / "toe-scoring.state.json").read_text(
        encoding="utf-8"))
    era = saved["scores"]["points"][0]
    era[0], era[1], era[6] = [6, 3, 0, 0], [1, 2, 0, 0], [0, 0, 0, 0]
    saved["entry"] = {"by_step": True, "index": 6, "tie": None, "value": 0}
    path = tmp_path / "per-step.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    own, game, rounds, play = engines(path, points_entry="steps")
    ids = [c.id for c in play.profile.categories]
    assert play.spot.sheet[ids.index("destruction")] == ((2,), (1,), (0,), (0,))
    assert play.spot.sheet[ids.index("construction-bonus")] == ((1,), (2,), None, None)
    assert seen_rounds(play) == seen_own(game)
    script = entered(3, 1, start=1.0)
    script += [(10.0, ERA, PRESS)] + entered(*[0] * 8, start=11.0) + [(30.0, ERA, PRESS)]
    game, _ = played(own, game, script, 100.0)
    play, _ = played(rounds, play, script, 100.0)
    assert seen_rounds(play) == seen_own(game)
    assert seen_own(game)["where"] == "standings"
    assert seen_own(game)["totals"] == {"red": 7, "blue": 5, "green": 3, "yellow": 1}


@pytest.mark.parametrize("case", ["steps", "buildings", "other-way"])
def test_the_number_on_the_screen_at_the_cut_comes_back_where_the_same_is_asked(
        tmp_path: Path, case: str) -> None:
    """The era engine saves the number being entered (not confirmed) and comes back to it:
    the round engine too where it asks the same number (a checklist step's, the tie-break's
    buildings), the same gestures then entering the same; asking another (a file of era
    totals, the box per step: green's destruction first), it starts from 0."""
    saved = json.loads((GOLDEN / "states" / "toe-scoring.state.json").read_text(
        encoding="utf-8"))
    entry, carried = "steps", 2
    if case == "steps":  # construction bonus: red's and blue's entered, green's at 2
        era = saved["scores"]["points"][0]
        era[0], era[1], era[6] = [6, 3, 0, 0], [1, 2, 0, 0], [0, 0, 0, 0]
        saved["entry"] = {"by_step": True, "index": 6, "tie": None, "value": 2}
        script = entered(1, 0, start=1.0) + [(10.0, ERA, PRESS)] + entered(
            *[0] * 8, start=11.0) + [(30.0, ERA, PRESS)]
    elif case == "buildings":  # Era III tied: red's buildings entered, blue's at 5
        scores = era_totals((10, 8, 6, 4), (5, 5, 9, 2), (5, 7, 5, 1))
        scores["buildings"] = [6, None, None, None]
        saved.update(era=3, scores=scores, entry={"by_step": False, "index": 4, "tie": 1,
                                                  "value": 5})
        entry, carried, script = "totals", 5, entered(2, 4, start=1.0)  # blue 7, green 4
    else:
        carried, script = 0, []
    path = tmp_path / "entering.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    own, game, rounds, play = engines(path, points_entry=entry)
    assert play.spot.state is State.SCORING and play.value == carried
    if not script:
        assert game["entry"] is not None and game["entry"]["value"] == 1 and play.spot.entry == 2
        return
    assert game["entry"] is not None and game["entry"]["value"] == carried
    game, _ = played(own, game, script, 100.0)
    play, _ = played(rounds, play, script, 100.0)
    assert seen_rounds(play) == seen_own(game)
    if case == "buildings":
        assert game["phase"] == "game_over" and play.spot.state is State.GAME_OVER
        ranked = [(line.place, play.players[line.seat], line.score) for line in ranking(play)]
        assert ranked == [(1, "blue", 20), (2, "red", 20), (3, "green", 20), (4, "yellow", 7)]
    else:
        assert seen_own(game)["where"] == "standings"
        assert seen_own(game)["totals"] == {"red": 7, "blue": 5, "green": 3, "yellow": 0}


def test_a_lead_in_comes_back_set_up_again(tmp_path: Path) -> None:
    """Cut in the lead-in: the era engine sets the era up again (ERA starts the lead-in),
    the round engine too: the preparation's last step, as just before the lead-in began
    (NEXT starts it): the same ticks, gongs and cries from there."""
    saved = json.loads((GOLDEN / "states" / "toe-running.state.json").read_text(
        encoding="utf-8"))
    saved.update(phase="lead_in", elapsed=None, cues_done=0)
    path = tmp_path / "lead-in.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    own, game, rounds, play = engines(path)
    assert game["phase"] == "setup" and game["guide"] is None
    assert play.held_left is None and play.timer_end is None and play.cues_done == 0
    phase = play.profile.phases[play.spot.phase]
    assert (play.spot.state, phase.id, play.spot.round) == (State.ROUND, "preparation", 1)
    assert play.spot.step == 6  # the last of its 7 steps for 4 players in Era I
    _, own_heard = played(own, game, [(30.0, ERA, PRESS)], 700.0)
    _, round_heard = played(rounds, play, [(30.0, NEXT, PRESS)], 700.0)
    assert round_heard == own_heard
    assert own_heard[:6] == [(30.0 + i, "tick") for i in range(5)] + [(35.0, "gong")]


def synthetic(tmp_path: Path, **changes: Any) -> Path:
    """toe-intro's file with `changes` (a state the committed files do not hold)."""
    saved = json.loads((GOLDEN / "states" / "toe-intro.state.json").read_text(
        encoding="utf-8"))
    saved.update(changes)
    path = tmp_path / "synthetic.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    return path


def era_totals(*eras: tuple[int, ...]) -> dict[str, Any]:
    rows = [[[0] * 4 for _ in range(6)] + [list(era)] for era in eras]
    rows += [[[0] * 4 for _ in range(7)] for _ in range(3 - len(eras))]
    return {"points": rows, "buildings": [None] * 4}


@pytest.mark.parametrize("changes", [
    {"phase": "scholars", "round": 10},
    {"era": 2, "round": 3, "era_start_player": 2, "scores": era_totals((10, 8, 6, 4))},
], ids=["scholars", "era-ii"])
def test_an_introductory_era_later_on_resumes_the_same(tmp_path: Path,
                                                       changes: dict[str, Any]) -> None:
    """The scholars' call after round 10; Era II at round 3 (green started it), Era I's
    totals entered: the same rounds, start players and totals, to the era's standings."""
    own, game, rounds, play = engines(synthetic(tmp_path, **changes))
    assert seen_rounds(play) == seen_own(game)
    era = int(changes.get("era", 1))
    at, scholars = int(changes["round"]), changes.get("phase") == "scholars"
    # NEXT to the scoring: each round left, each scholars' call still to come, the last
    left = 15 - at + sum(1 for r in (5, 10) if r > at or (r == at and not scholars)) + 1
    totals = (3, 2, 1, 0)
    game, own_heard = played(own, game, presses(NEXT, left, 1.0)
                             + entered(*totals, start=50.0), 100.0)
    round_script = presses(NEXT, left, 1.0) + entered(*totals, start=50.0)  # era totals
    play, round_heard = played(rounds, play, round_script, 100.0)
    assert [s for _, s in round_heard] == [s for _, s in own_heard]
    assert seen_rounds(play) == seen_own(game)
    assert seen_own(game)["where"] == "standings" and seen_own(game)["era"] == era


def test_the_final_ranking_keeps_every_era_and_the_buildings(tmp_path: Path) -> None:
    scores = era_totals((10, 8, 6, 4), (5, 5, 9, 2), (5, 7, 5, 1))
    scores["buildings"] = [6, 7, 4, None]  # red and blue tied on 20, blue built more
    path = synthetic(tmp_path, phase="game_over", era=3, round=None, start_player=None,
                     scores=scores)
    _, game, _, play = engines(path)
    assert play.spot.state is State.GAME_OVER
    assert seen_rounds(play) == seen_own(game)
    ranked = [(line.place, play.players[line.seat], line.score) for line in ranking(play)]
    assert ranked == [(1, "blue", 20), (2, "red", 20), (3, "green", 20), (4, "yellow", 7)]
    assert [(place, who) for place, who, _ in game["final_ranking"]] == [
        (1, "blue"), (2, "red"), (3, "green"), (4, "yellow")]


@pytest.mark.parametrize("by_step", [False, True], ids=["totals", "steps"])
def test_era_iii_tied_comes_back_on_its_standings_then_the_buildings(
        tmp_path: Path, by_step: bool) -> None:
    """Era III's numbers all in, red, blue and green tied on 20: the era engine's standings
    come first, then ERA asks the tied players' buildings; the round engine reading the file
    comes back on the same standings (`tie_break_after = "standings"`), not on the buildings,
    and the same gestures give the same final ranking, its tie broken the same."""
    scores = era_totals((10, 8, 6, 4), (5, 5, 9, 2), (5, 7, 5, 1))
    if by_step:  # Era III per step: destruction (x3) and wonders
        scores["points"][2] = [[3, 6, 0, 0], [0] * 4, [0] * 4, [2, 1, 5, 1]] + [[0] * 4] * 3
    saved = json.loads((GOLDEN / "states" / "toe-scoring.state.json").read_text(
        encoding="utf-8"))
    saved.update(era=3, scores=scores, entry={"by_step": by_step, "index": 18 if by_step
                                              else 4, "tie": None, "value": 0})
    path = tmp_path / "era-iii.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    own, game, rounds, play = engines(path, points_entry="steps" if by_step else "totals")
    assert play.spot.state is State.STANDINGS
    assert seen_rounds(play) == seen_own(game)
    script = [(1.0, ERA, PRESS)] + entered(6, 7, 4, start=2.0)  # red 6, blue 7, green 4
    game, _ = played(own, game, script, 100.0)
    play, _ = played(rounds, play, script, 100.0)
    assert game["phase"] == "game_over" and play.spot.state is State.GAME_OVER
    ranked = [(line.place, play.players[line.seat], line.score) for line in ranking(play)]
    assert ranked == [(1, "blue", 20), (2, "red", 20), (3, "green", 20), (4, "yellow", 7)]
    assert [tuple(line) for line in game["final_ranking"]] == ranked


def test_each_era_keeps_its_categories_per_step_and_its_total_as_one(tmp_path: Path) -> None:
    """Era I scored per step, Era II as era totals (the era engine keeps only the totals
    then), Era III being entered per step: Era I's points stay in their categories, Era
    II's totals in `construction-bonus`; Era III's entry goes on at the same number and the
    same gestures give the same standings and final ranking."""
    scores = era_totals((0, 0, 0, 0), (5, 5, 9, 2), (0, 0, 0, 0))
    scores["points"][0] = [[3, 6, 0, 0], [1, 2, 3, 1], [0] * 4, [5, 0, 1, 0], [2, 2, 2, 2],
                           [0] * 4, [0] * 4]
    scores["points"][2][0] = [3, 0, 0, 0]  # Era III: red's destruction entered (1 building)
    saved = json.loads((GOLDEN / "states" / "toe-scoring.state.json").read_text(
        encoding="utf-8"))
    saved.update(era=3, scores=scores,
                 entry={"by_step": True, "index": 1, "tie": None, "value": 0})
    path = tmp_path / "mixed.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    own, game, rounds, play = engines(path, points_entry="steps")
    ids = [c.id for c in play.profile.categories]
    first, second = play.spot.past
    assert {i: first[ids.index(i)] for i in ("destruction", "construction-bonus", "wonders",
                                              "culture")} == {
        "destruction": ((1,), (2,), (0,), (0,)), "construction-bonus": ((1,), (2,), (3,), (1,)),
        "wonders": ((5,), (0,), (1,), (0,)), "culture": ((2,), (2,), (2,), (2,))}
    assert second[ids.index("construction-bonus")] == ((5,), (5,), (9,), (2,))
    assert second[ids.index("destruction")] == ((0,), (0,), (0,), (0,))
    assert play.spot.entry == 1 and seen_rounds(play) == seen_own(game)
    # blue, green, yellow's destruction; construction bonus; leader cards; wonders; culture;
    # city sieges: green 21 ahead of red 20, blue 16, yellow 5
    script = entered(0, 1, 0, start=1.0)
    script += entered(1, 0, 2, 0, start=20.0) + [(40.0, ERA, PRESS)]
    script += entered(0, 1, 0, 0, start=41.0) + entered(0, 0, 1, 0, start=60.0)
    script += [(80.0, ERA, PRESS), (81.0, ERA, PRESS)]  # city sieges; the standings
    game, _ = played(own, game, script, 100.0)
    play, _ = played(rounds, play, script, 100.0)
    assert seen_rounds(play) == seen_own(game)
    assert seen_own(game)["totals"] == {"red": 20, "blue": 16, "green": 21, "yellow": 5}
    assert game["phase"] == "game_over" and play.spot.state is State.GAME_OVER
    assert [(line.place, play.players[line.seat]) for line in ranking(play)] == [
        (place, who) for place, who, _ in game["final_ranking"]]


def test_a_file_entered_the_other_way_than_the_box_says_keeps_or_asks_again(
        tmp_path: Path) -> None:
    """The era engine writes the entry its "Points entry" chose (its settings change only on
    a new game); a file whose way is not the box's (its settings file not the game's): era
    totals, the box per step: each total in `construction-bonus`, the steps asked on (as
    before the setting was followed); per step, the box era totals: the era's totals all
    asked again, from the first player."""
    path = GOLDEN / "states" / "toe-scoring.state.json"
    own, game, rounds, play = engines(path, points_entry="steps")
    ids = [c.id for c in play.profile.categories]
    assert play.spot.sheet[ids.index("construction-bonus")] == ((16,), (1,), None, None)
    assert seen_rounds(play) == seen_own(game) and play.spot.entry == 2
    game, _ = played(own, game, entered(4, 3, start=1.0), 100.0)
    play, _ = played(rounds, play, round_totals_script({2: 5, 3: 3}, 1.0), 100.0)
    assert seen_rounds(play) == seen_own(game) and seen_own(game)["where"] == "standings"
    saved = json.loads(path.read_text(encoding="utf-8"))
    saved["scores"]["points"][0][0] = [3, 6, 0, 0]  # destruction entered per step
    saved["scores"]["points"][0][6] = [0, 0, 0, 0]
    saved["entry"] = {"by_step": True, "index": 2, "tie": None, "value": 0}
    steps = tmp_path / "per-step.state.json"
    steps.write_text(json.dumps(saved), encoding="utf-8")
    _, _, rounds, play = engines(steps, points_entry="totals")
    assert play.spot.state is State.SCORING and play.spot.entry == 0
    ids = [c.id for c in play.profile.categories]
    assert play.spot.sheet[ids.index("total")] == (None,) * 4
    play, _ = played(rounds, play, entered(4, 3, 2, 1, start=1.0), 100.0)
    assert seen_rounds(play)["totals"] == {"red": 4, "blue": 3, "green": 2, "yellow": 1}
    assert play.spot.state is State.STANDINGS


@pytest.mark.parametrize("volume", [0.45, 1.0])
def test_the_volume_the_table_set_comes_back_as_on_the_era_engine(
        tmp_path: Path, volume: float) -> None:
    """VOL+ / VOL- change the era engine's volume in its record only (not the settings):
    the round engine reading the file sets the same volume as the era engine set (recorded),
    the music at the box's level."""
    saved = json.loads((GOLDEN / "states" / "toe-running.state.json").read_text(
        encoding="utf-8"))
    saved["volume"] = volume
    path = tmp_path / "volume.state.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    config, text = setup(path)
    config = replace(config, audio=replace(config.audio, volume=0.8, music_level=0.6))
    rounds = ProfileEngine(parse_profile(ROUND_FILE.read_text(encoding="utf-8"),
                                         str(ROUND_FILE)), config)
    _, round_effects = rounds.restore(rounds.parse(text), 0.0)
    set_own = [SetVolume(level, music=music) for level, music in RECORDED[f"volume/{volume!r}"]]
    assert set_own == [SetVolume(volume, music=0.6)]
    assert [e for e in round_effects if isinstance(e, SetVolume)] == set_own
