"""The profile machine (core/machine.py) driven directly, and a user's own profile.

- A gesture with no entry in the transition table changes nothing, in every state.
- Random gestures at random moments on every shipped profile and the README's worked example
  (Hypothesis): the machine never raises, a move forward is undone exactly by its undo
  gesture, and snapshot -> JSON -> restore gives back the same play from any moment.
- A power cut (`restart` in a script) comes back at the same round, phase, step or number.
- A timed phase: its countdown and gong, also across a power cut.
- The README's worked example, written to a user folder, is found and plays the same way.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.cli import main
from erabox.core.config import Config
from erabox.core.deadlines import next_deadline
from erabox.core.machine import (
    TRANSITIONS,
    step,
)
from erabox.core.model import Button, Gesture, Input, PlaySound, Prompt, Save, Sound, Tick
from erabox.core.play import HISTORY, Play, PlayEffect, State, asked, new_play, screen
from erabox.core.play_record import (
    restore,
    snapshot,
)
from erabox.core.profile import Profile, parse_profile
from erabox.core.script import ScriptLine
from erabox.files.games import SYSTEM_GAMES, available_games, game_folders, load_game
from erabox.run.simulate import Simulation
from test_profile_format_rounds import text as ring_text

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ("red", "blue", "green", "yellow", "purple", "white", "black", "orange")


def readme_example() -> str:
    """The worked example of README's "Add your own game" (so the README stays true)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Add your own game", 1)[1]
    match = re.search(r"```toml\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def harvest() -> Profile:
    return parse_profile(readme_example(), "harvest.toml", default_id="harvest")


PROFILES: dict[str, Profile] = {name: load_game(name, []) for name in available_games([])
                               if name != "time-of-empires"}  # the box's own game
PROFILES["harvest"] = harvest()
PROFILES["harvest-next"] = parse_profile(  # its sowing ends by itself (timer_end = "next")
    readme_example().replace("timer_s = 120", 'timer_s = 120\ntimer_end = "next"'),
    "harvest-next.toml", default_id="harvest-next")
# the format's start rules, endings and scoring (test_profile_format_rounds.py), all at once
PROFILES["ring"] = parse_profile(ring_text(
    rule="chosen", passes=True, category="table = [0, 1, 3]\n[[scoring.category]]\n"
    'id = "debt"\nlabel = "Debt"\nmin = -9\n',
    more='[[event]]\nid = "end"\nlabel = "End"\nends = "one_more_turn"\n'
    '[[event]]\nid = "now"\nlabel = "Now"\nends = "now"\n'), "ring.toml")

N_PRESS, N_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
E_PRESS, E_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)
BOTH = Input(Button.BOTH, Gesture.HOLD)
ALL_INPUTS = [Input(b, g) for b in Button for g in Gesture]


def undo_gesture(play: Play) -> Input | None:
    """The gesture that undoes the last move forward (None at the final ranking: hold ERA
    asks "New game?" there, as at Time of Empires')."""
    if play.spot.state is State.GAME_OVER:
        return None
    return N_HOLD if play.spot.state in (State.ROUND, State.SPECIAL, State.EVENT) else E_HOLD


def same_place(a: Play, b: Play, now: float) -> None:
    """Two plays that must show the same: position, history, and everything on screen but
    the "Resumed" prompt, a question, the number being entered and the final ranking's page
    (a cut loses those)."""
    assert a.spot == b.spot
    assert a.history == b.history
    a, b = (replace(p, question_until=None, value=0, page=0) for p in (a, b))
    assert replace(screen(a, now), prompt=None) == replace(screen(b, now), prompt=None)


def played_states(profile: Profile, players: tuple[str, ...]) -> dict[State, Play]:
    """A play in every state the profile reaches, by pressing on through a whole game."""
    play = new_play(profile, players)
    seen: dict[State, Play] = {State.SETUP: play}
    play, _ = step(play, E_PRESS, 0.0)
    if profile.events:
        event_play, _ = step(play, E_HOLD, 0.0)
        seen[State.EVENT] = event_play
    for _ in range(5000):
        seen.setdefault(play.spot.state, play)
        if play.spot.state is State.GAME_OVER:
            break
        gesture = E_PRESS if play.spot.state is State.SCORING else N_PRESS
        at = asked(play)
        if at is not None and not profile.categories[at[0]].each:
            play, _ = step(play, N_PRESS, 0.0)  # a number being entered (a list ends on 0)
        if play.profile.events and play.spot.last_round is None and not (
                play.spot.events_done):
            play, _ = step(play, E_HOLD, 0.0)  # an ending event, or play never ends
        play, _ = step(play, gesture, 0.0)
    return seen


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_gesture_with_no_entry_changes_nothing(name: str) -> None:
    profile = PROFILES[name]
    players = COLOURS[:max(profile.min_players, 2)]
    states = played_states(profile, players)
    assert State.GAME_OVER in states and State.SCORING in states and State.ROUND in states
    for state, play in states.items():
        for gesture in ALL_INPUTS:
            if (state, gesture.button, gesture.gesture) in TRANSITIONS or gesture == BOTH:
                continue
            if gesture.button in (Button.VOL_UP, Button.VOL_DOWN):  # the box's volume,
                continue  # anywhere (tests/test_profile_volume.py)
            if state is State.SCORING and gesture.button in (Button.DIAL_UP, Button.DIAL_DOWN):
                continue
            after, effects = step(play, gesture, 0.0)
            assert after == play, (state, gesture)
            assert [type(e).__name__ for e in effects] == ["ShowPlay"], (state, gesture)


def test_undo_at_the_very_start_goes_back_to_setup_and_no_further() -> None:
    play = new_play(PROFILES["lords-of-xidit"], COLOURS[:3])
    started, _ = step(play, E_PRESS, 0.0)
    back, effects = step(started, N_HOLD, 1.0)
    assert back.spot == play.spot and back.history == ()
    assert any(isinstance(e, Save) for e in effects)


# --- random play (Hypothesis; derandomized in CI by tests/conftest.py) -----------------------

# NEXT press most often, so games get somewhere; every other gesture too.
GESTURES = [N_PRESS] * 10 + [N_HOLD, E_PRESS, E_PRESS, E_HOLD, BOTH,
                              Input(Button.DIAL_UP, Gesture.PRESS),
                              Input(Button.DIAL_DOWN, Gesture.PRESS),
                              Input(Button.VOL_UP, Gesture.PRESS)]


def checked_step(play: Play, event: Input | Tick, now: float
                 ) -> tuple[Play, tuple[PlayEffect, ...]]:
    play, effects = step(play, event, now)
    due = next_deadline(play, now)
    assert due is None or due > now, "a deadline left in the past"
    for effect in effects:
        if isinstance(effect, Save):
            json.dumps(effect.snapshot)
    shown = screen(play, now)
    if shown.kind != "confirm" and play.spot.state in (State.ROUND, State.SPECIAL, State.EVENT):
        # round 0: a special round set before round 1 (the game's setup)
        assert shown.round is not None and (shown.round >= 1 or (
            shown.round == 0 and play.spot.state is State.SPECIAL
            and 0 in play.profile.specials[play.spot.special].after[play.spot.variant]))
        assert shown.rounds is None or shown.round <= shown.rounds
        assert shown.position is not None and 1 <= shown.position[0] <= shown.position[1]
    assert shown.start_player is None or shown.start_player in play.players
    return play, effects


@settings(max_examples=40)
@given(data=st.data())
def test_random_gestures_never_break_undo_or_restore(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(PROFILES)), label="profile")
    profile = PROFILES[name]
    count = data.draw(st.integers(profile.min_players, min(profile.max_players, 5)))
    players = COLOURS[:count]
    play = new_play(profile, players, drawn_seat=data.draw(st.integers(0, 7)))
    now = 0.0
    count = data.draw(st.integers(1, 250), label="gestures")
    for index in range(count):
        gesture = data.draw(st.sampled_from(GESTURES))
        target = now + data.draw(st.sampled_from([0.0, 0.5, 3.0, 60.0, 130.0]))
        while (due := next_deadline(play, now)) is not None and due <= target:
            now = max(now, due)
            play, _ = checked_step(play, Tick(), now)
        now = target
        before = play
        play, _ = checked_step(play, gesture, now)
        moved = play.spot != before.spot and play.history[-1:] == (before.spot,)
        undo = undo_gesture(play)
        if moved and undo is not None:  # a move forward: its undo lands exactly where it was
            undone, _ = checked_step(play, undo, now)
            assert undone.spot == before.spot
            assert undone.value == before.value
            if len(before.history) < HISTORY:
                assert undone.history == before.history
        if index % 5 and index != count - 1:
            continue  # restore checked every 5th gesture and at the end (it reads 100 spots)
        record = json.loads(json.dumps(snapshot(play, now)))
        back, _effects = restore(record, profile, players, now)
        same_place(back, play, now)
        assert back.prompt is Prompt.RESUMED
        assert (back.timer_end is None) == (play.timer_end is None)


# --- power cuts -----------------------------------------------------------------------------


def simulate_lines(profile: Profile, players: tuple[str, ...], gestures: list[str],
                   ) -> tuple[Simulation, list[dict[str, Any]]]:
    """Run gestures one a second ("n" NEXT press, "N" hold, "e" ERA press, "E" hold,
    "r" a power cut)."""
    events: list[dict[str, Any]] = []
    sim = Simulation(Config(players=players), events.append, profile=profile)
    names = {"n": N_PRESS, "N": N_HOLD, "e": E_PRESS, "E": E_HOLD}
    for t, g in enumerate(gestures, start=1):
        if g == "r":
            sim.advance(float(t))
            sim.restart()
        else:
            sim.perform(ScriptLine(float(t), names[g], t))
    return sim, events


@pytest.mark.parametrize("cut_after", [1, 9, 30, 31, 33, 40, 41])
def test_a_power_cut_comes_back_at_the_same_round_phase_step_and_number(
        cut_after: int) -> None:
    """Lords of Xidit, 3 players: cut at a step, in the census, in the Titans' steps, in the
    middle of entering points: after the restart the same screen, and going on from there
    plays exactly as without the cut."""
    profile = PROFILES["lords-of-xidit"]
    players = COLOURS[:3]
    # year 1 .. 4, the census, Titans in year 5, then (a short cut) everything to scoring
    gestures = ["e"] + ["n"] * 28 + ["n"] * 5 + ["E", "n", "n"] + ["n"] * 200
    gestures = gestures[:cut_after]
    plain, _ = simulate_lines(profile, players, gestures)
    cut, events = simulate_lines(profile, players, [*gestures, "r"])
    same_place(cut.game, plain.game, cut.now)
    assert events[-1] == {"t": cut.now, "type": "prompt", "prompt": "resumed"}
    # and on from there: the same
    more = ["n", "n", "N", "n", "E", "n"]
    plain2, _ = simulate_lines(profile, players, [*gestures, *more])
    cut2, _ = simulate_lines(profile, players, [*gestures, "r", *more])
    same_place(cut2.game, plain2.game, cut2.now)


def test_a_power_cut_while_entering_points_keeps_the_number_being_entered() -> None:
    """The number on the screen, not yet confirmed, is saved with each gesture and comes
    back after a cut, as Time of Empires' era engine keeps it; confirmed, it is the same
    number. A record's number must fit the category asked, and be saved only there."""
    profile = PROFILES["hadrians-wall"]
    # six years of 11 steps with two players (the neutral deck's three steps included)
    gestures = ["e"] + ["n"] * 66 + ["n"] * 7 + ["e"] + ["n"] * 3
    sim, _ = simulate_lines(profile, COLOURS[:2], gestures)
    assert sim.game.spot.state is State.SCORING and sim.game.value == 3
    entry = sim.game.spot.entry
    sim.restart()
    assert sim.game.spot.entry == entry == 1 and sim.game.value == 3
    assert sim.game.spot.sheet[0][0] == (7,)
    plain, _ = simulate_lines(profile, COLOURS[:2], [*gestures, "n", "e"])
    cut, _ = simulate_lines(profile, COLOURS[:2], [*gestures, "r", "n", "e"])
    assert cut.game.spot.sheet == plain.game.spot.sheet
    assert cut.game.spot.sheet[0][1] == (4,)
    record = snapshot(sim.game, sim.now)
    assert record["value"] == 3
    for bad in (-1, True, "3", 10**6):
        with pytest.raises(ValueError, match="'value' should be a whole number"):
            restore({**record, "value": bad}, profile, COLOURS[:2], 0.0)
    setup = snapshot(new_play(profile, COLOURS[:2]), 0.0)
    assert "value" not in setup
    with pytest.raises(ValueError, match="'value' is saved only while a number is asked"):
        restore({**setup, "value": 3}, profile, COLOURS[:2], 0.0)


def test_a_power_cut_in_the_setup_before_round_1_resumes_there_and_undo_goes_back() -> None:
    """Altay's setup comes before round 1 (`after = [0]`): a restart is back at its step,
    the drawn start player kept; undo from its first step is back at the game's setup."""
    profile = PROFILES["altay"]
    sim, _ = simulate_lines(profile, COLOURS[:3], ["e", "n"])
    spot = sim.game.spot
    assert (spot.state, spot.round, spot.step) == (State.SPECIAL, 0, 1)
    starts = screen(sim.game, 2.0).start_player
    sim.restart()
    assert sim.game.spot == spot and screen(sim.game, 2.0).start_player == starts
    sim, _ = simulate_lines(profile, COLOURS[:3], ["e", "N"])
    assert sim.game.spot.state is State.SETUP


# --- a timed phase --------------------------------------------------------------------------


def test_a_timed_phase_counts_down_and_strikes_the_gong_across_a_power_cut() -> None:
    profile = PROFILES["harvest"]
    events: list[dict[str, Any]] = []
    sim = Simulation(Config(players=COLOURS[:2]), events.append, profile=profile)
    sim.perform(ScriptLine(10.0, E_PRESS, 1))  # season 1: sow, two minutes from now
    assert screen(sim.game, 10.0).timer_left == 120
    assert screen(sim.game, 70.5).timer_left == 60  # whole seconds, rounded up
    sim.advance(72.0)
    sim.restart()  # the last save was at 70 s (every 5 s while a countdown runs): 60 s left
    assert screen(sim.game, 72.0).timer_left == 60
    sim.advance(200.0)
    gongs = [e["t"] for e in events if e["type"] == "sound" and e["sound"] == "gong"]
    assert gongs == [10.0, 132.0]  # the start, then the countdown's end
    assert screen(sim.game, 200.0).timer_done
    # the next phase has no countdown; the next season's sow starts a fresh one
    sim.perform(ScriptLine(201.0, N_PRESS, 2))
    assert screen(sim.game, 201.0).timer_left is None


def test_undo_back_into_a_timed_phase_starts_its_countdown_again() -> None:
    play = new_play(PROFILES["harvest"], COLOURS[:2])
    play, _ = step(play, E_PRESS, 0.0)
    play, _ = step(play, N_PRESS, 50.0)  # on to the market: no countdown
    assert play.timer_end is None
    play, _ = step(play, N_HOLD, 60.0)
    assert play.timer_end == 180.0


def test_the_gong_only_sounds_if_the_phase_says_so() -> None:
    text = readme_example().replace("timer_s = 120", "timer_s = 120\ngong = false")
    play = new_play(parse_profile(text), COLOURS[:2])
    play, _ = step(play, E_PRESS, 0.0)
    play, effects = step(play, Tick(), 120.0)
    assert play.timer_done and not any(isinstance(e, PlaySound) for e in effects)


# --- a user's own profile -------------------------------------------------------------------


def test_user_folders_come_first_and_replace_shipped_profiles(tmp_path: Path) -> None:
    beside = tmp_path / "config"
    (beside / "games").mkdir(parents=True)
    (beside / "erabox.toml").write_text("", encoding="utf-8")
    system = tmp_path / "etc-games"
    system.mkdir()
    (beside / "games" / "harvest.toml").write_text(readme_example(), encoding="utf-8")
    (beside / "games" / "altay.toml").write_text(readme_example(), encoding="utf-8")
    (system / "harvest.toml").write_text("not read: the one beside the config wins",
                                         encoding="utf-8")
    (system / "party.toml").write_text(readme_example(), encoding="utf-8")
    (system / "notes.txt").write_text("not a profile", encoding="utf-8")
    home = tmp_path / "home-config"
    folders = game_folders(str(beside / "erabox.toml"), {"XDG_CONFIG_HOME": str(home)})
    assert folders == [beside.resolve() / "games", home / "erabox" / "games", SYSTEM_GAMES]
    assert game_folders(None, {"XDG_CONFIG_HOME": str(home)}) == [home / "erabox" / "games",
                                                                   SYSTEM_GAMES]
    games = available_games([folders[0], system, tmp_path / "missing"])
    assert list(games) == ["altay", "harvest", "party", "hadrians-wall", "lords-of-xidit",
                           "time-of-empires"]
    assert [g.shipped for g in games.values()] == [False, False, False, True, True, True]
    assert str(games["harvest"].where) == str(beside / "games" / "harvest.toml")
    assert load_game("party", [system]).name.en == "Harvest"


def test_the_readme_example_plays_from_a_user_folder_as_documented(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "harvest.toml").write_text(readme_example(), encoding="utf-8")
    config = tmp_path / "erabox.toml"
    config.write_text('game = "harvest"\nplayers = ["red", "blue", "green"]\n',
                      encoding="utf-8")
    season = ["next press"] * (1 + 3 * 2)  # sow, then sell and buy for each player
    script = ["era press", *season * 2, "next press", *season * 2, "next press"]
    script += ["next press"] * 4 + ["era press"]  # crops: red 4
    script += ["era press"] * 2  # blue and green 0
    script += ["next hold", "next press", "era press", "era press", "next press", "era press"]
    (tmp_path / "s.txt").write_text("".join(f"{t} {g}\n" for t, g in enumerate(script)),
                                    encoding="utf-8")
    assert main(["simulate", "--config", str(config), "--script", str(tmp_path / "s.txt")]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rounds = [(e["round"], e["start_player"]) for e in events if e["type"] == "round"]
    assert rounds == [(1, "red"), (2, "blue"), (3, "green"), (4, "red")]
    fairs = [e["round"] for e in events if e["type"] == "prompt"]
    assert fairs == [2, 4]
    market = [e["player"] for e in events if e["type"] == "phase" and e["round"] == 2
              and e["phase"] == "market"]
    assert market == ["blue", "green", "red"]  # from the start player, in seat order
    entered = [(e["category"], e["player"], e["value"], e["points"]) for e in events
               if e["type"] == "points"]
    assert entered[0] == ("crops", "red", 4, 8)
    assert entered[3:] == [("coins", "red", 6, 2), ("coins", "blue", 0, 0),
                           ("coins", "green", 1, 0)]
    ranking = next(e for e in events if e["type"] == "ranking")
    assert [(p["player"], p["score"], p["place"]) for p in ranking["places"]] == [
        ("red", 10, 1), ("green", 0, 2), ("blue", 0, 3)]  # green: more coins


def test_a_cry_sounds_for_a_special_round_that_asks_for_one() -> None:
    play = new_play(PROFILES["harvest"], COLOURS[:2])
    play, _ = step(play, E_PRESS, 0.0)
    sounds = []
    for _ in range(2 * 5):
        play, effects = step(play, N_PRESS, 1.0)
        sounds += [e.sound for e in effects if isinstance(e, PlaySound)]
    assert play.spot.state is State.SPECIAL and sounds == [Sound.CRY]


def test_an_event_over_a_timed_phase_leaves_its_countdown_running() -> None:
    text = readme_example() + '\n[[event]]\nid = "storm"\nlabel = "Storm"\nsteps = ["a", "b"]\n'
    play = new_play(parse_profile(text), COLOURS[:2])
    play, _ = step(play, E_PRESS, 0.0)  # sow: the countdown to 120 s
    play, _ = step(play, E_HOLD, 10.0)
    play, _ = step(play, N_PRESS, 20.0)
    assert play.spot.state is State.EVENT and play.timer_end == 120.0
    play, _ = step(play, N_PRESS, 30.0)  # back to sow: the same countdown
    assert play.spot.state is State.ROUND and play.timer_end == 120.0
    play, _ = step(play, N_PRESS, 40.0)  # market: none
    assert play.timer_end is None
    play, _ = step(play, N_HOLD, 50.0)  # undo: sow again, from the start
    assert play.timer_end == 170.0
    play, _ = step(play, N_HOLD, 60.0)  # undo into the event's last step: sow's countdown
    assert play.spot.state is State.EVENT and play.timer_end == 170.0


def test_the_dial_counts_one_each_way_within_the_category() -> None:
    profile = PROFILES["altay"]
    play = new_play(profile, COLOURS[:2])
    play, _ = step(play, E_PRESS, 0.0)
    play, _ = step(play, E_HOLD, 0.0)
    while play.spot.state is not State.SCORING:
        play, _ = step(play, N_PRESS, 0.0)
    up, down = Input(Button.DIAL_UP, Gesture.PRESS), Input(Button.DIAL_DOWN, Gesture.PRESS)
    play, _ = step(play, down, 0.0)
    assert play.value == 0
    for _ in range(3):
        play, _ = step(play, up, 0.0)
    play, _ = step(play, down, 0.0)
    assert play.value == 2
    while asked(play) != (2, 0):  # the secret wonder: at most 1
        play, _ = step(play, E_PRESS, 0.0)
    for _ in range(3):
        play, _ = step(play, up, 0.0)
    play, _ = step(play, N_HOLD, 0.0)
    assert play.value == 1
