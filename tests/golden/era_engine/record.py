"""The era engine's output that the engine comparisons read, pinned before its removal.

Behaviour pinned before a rewrite: this one-off script ran on the era engine (core/machine.py,
engine.py's `EmpiresEngine`, played by `erabox simulate` under ERABOX_ONE_ENGINE=0) at commit
e906392, just before the era engine was removed, and wrote what the tests that compared the
round engine with it LIVE read from it:

- screens.jsonl: each golden scenario's screens (tests/golden/scenarios/toe-*.json, 84), one
  line per scenario: its name and each new screen model with its time, as `erabox simulate`
  hands it on (`on_screen`), each written as the fields that changed since the screen before
  (the first whole: `changes` in tools/one_engine_screens.py; compared screen for screen,
  field for field, in tests/test_golden_toe.py);
- values.json: what the era engine did in the other comparisons, by test module: the
  sounds heard, screens' kinds and music of a hall's orders at its setup
  (tests/test_hall_setup_start.py), the ticks after its guide's record
  (tests/test_profile_guide_at_setup.py), a hall's orders heard and every play of Time of
  Empires' own scripts (tests/test_one_engine_toe.py: those tests run with `simulate`
  wrapped, each play kept under its test's name), the game after each resume and each
  continuation of every old state file's test (tests/test_profile_toe_state.py: its tests
  run with `engines` and `played` wrapped, kept by test in the order made), and the box's
  lines, first tick and mid-game state file (tests/test_one_engine_box.py).

It imports the era engine and the era side of those tests as they were then (its parts ran
one by one as each test was ported, all on the era engine of e906392, device/ unchanged
between them; the old state files' values unused by the ported tests since dropped): it can
no longer run. The recordings are data; nothing regenerates them.

    ERABOX_ONE_ENGINE=0 PYTHONPATH=device:tests:tools python tests/golden/era_engine/record.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
sys.path[:0] = [str(ROOT / "device"), str(ROOT / "tests"), str(ROOT / "tools")]


def screens() -> None:
    from one_engine_screens import changes
    from one_engine_screens import screens as played
    from test_golden import SCENARIOS

    rows = []
    for path in SCENARIOS:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        shown = played(scenario)
        rows.append(json.dumps({"scenario": path.stem,
                                "screens": changes(shown)},
                               ensure_ascii=False, sort_keys=True))
    (HERE / "screens.jsonl").write_text("".join(r + "\n" for r in rows), encoding="utf-8")


def plain(value: Any) -> Any:
    """JSON's own form of a value (tuples as lists), as the tests compare it."""
    return json.loads(json.dumps(value))


def toe_state() -> dict[str, Any]:
    """tests/test_profile_toe_state.py: the volume the era engine set resuming a file."""
    import tempfile
    from dataclasses import replace

    import test_profile_toe_state as t
    from erabox.core.model import SetVolume

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for volume in (0.45, 1.0):  # as test_the_volume_the_table_set_comes_back_...
            saved = json.loads((t.GOLDEN / "states" / "toe-running.state.json").read_text(
                encoding="utf-8"))
            saved["volume"] = volume
            path = Path(tmp) / "volume.state.json"
            path.write_text(json.dumps(saved), encoding="utf-8")
            config, text = t.setup(path)
            config = replace(config, audio=replace(config.audio, volume=0.8, music_level=0.6))
            own = t.EmpiresEngine(config)
            _, effects = own.restore(own.parse(text), 0.0)
            out[f"volume/{volume!r}"] = [[e.level, e.music] for e in effects
                                         if isinstance(e, SetVolume)]
    return out


def toe_state_tests() -> dict[str, list[Any]]:
    """tests/test_profile_toe_state.py run on the era engine, its era side kept: under each
    test's name, in the order made, what the era engine's game showed after each resume
    (`engines`) and each continuation (`played`: with the sounds heard)."""
    import pytest
    from erabox.core.game import sheet

    import test_profile_toe_state as t
    from erabox.core import points as scoring
    from erabox.core.engine import EmpiresEngine

    kept: dict[str, list[Any]] = {}

    def view(game: Any) -> dict[str, Any]:
        try:
            seen = plain(t.seen_own(game))
        except Exception:  # a state the tests never ask it of
            seen = None
        entry = game.entry
        return {"seen": seen, "phase": game.phase.value, "guide": game.guide,
                "prompt": None if game.prompt is None else game.prompt.value,
                "entry": None if entry is None else {"value": entry.value,
                                                     "by_step": entry.by_step},
                "final_ranking": [[p.place, game.config.players[p.player], p.total]
                                  for p in scoring.final_ranking(sheet(game))]}

    class Keep:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            engines, played = t.engines, t.played
            log = kept.setdefault(item.name, [])

            def kept_engines(*args: Any, **kwargs: Any) -> Any:
                own, game, rounds, play = engines(*args, **kwargs)
                log.append({"resumed": view(game)})
                return own, game, rounds, play

            def kept_played(engine: Any, state: Any, script: Any, until: float) -> Any:
                state, heard = played(engine, state, script, until)
                if isinstance(engine, EmpiresEngine):
                    log.append({"played": view(state), "heard": plain(heard)})
                return state, heard

            t.engines, t.played = kept_engines, kept_played
            yield
            t.engines, t.played = engines, played

    code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                        str(ROOT / "tests" / "test_profile_toe_state.py")], plugins=[Keep()])
    assert code == 0, "tests/test_profile_toe_state.py must pass on the era engine"
    return {name: log for name, log in kept.items() if log}


def hall_setup() -> dict[str, Any]:
    """tests/test_hall_setup_start.py: the era engine at its setup steered by a hall."""
    from dataclasses import replace

    import test_hall_setup_start as t
    from erabox.core.hall import HallState
    from erabox.core.model import Phase, PlaySound, SteerAction, Tick

    def sounds(effects: Any) -> list[str]:
        return [e.sound.value for e in effects if isinstance(e, PlaySound)]

    out: dict[str, Any] = {}
    for guide in (True, False):
        _, _, era, game = t.toe_both(guide)
        game, effects = era.step(game, t.Steer(t.S, 12.5, 0.0), 10.0)
        out[f"ahead/guide={guide}"] = plain({"kind": t.kind(effects).value,
                                            "heard": t.heard(era, game, 10.0, 400.0,
                                                             effects)[1]})
    _, _, era, game = t.toe_both()
    game, effects = era.step(game, t.Steer(t.S, 300.0, 200.0), 300.0)
    out["late"] = plain({"sounds": sounds(effects), "kind": t.kind(effects).value,
                         "heard": t.heard(era, game, 300.0, 700.0)[1]})
    _, _, era, game = t.toe_both(guide=False)
    game, _ = era.step(game, t.NEXT, 0.0)
    game, effects = era.step(game, t.Steer(t.R, 50.0, 0.0), 50.0)
    out["intro_chosen"] = {"kind": t.kind(effects).value, "sounds": sounds(effects)}
    _, _, era, game = t.toe_both()
    game, _ = era.step(game, t.BOTH_HOLD, 0.0)
    asked = game.question is not None
    game, effects = era.step(game, t.Steer(t.S, 5.0, 0.0), 5.0)
    out["new_game_asked"] = {"asked": asked, "after": game.question is None,
                             "kind": t.kind(effects).value}
    _, _, era, game = t.toe_both()
    out["setup_orders"] = {a.value: era.step(game, t.Steer(a, 5.0, 0.0), 5.0)[0] == game
                           for a in (t.P, t.W, t.E)}
    game, _ = era.step(game, t.ERA_HOLD, 0.0)
    out["menu_orders"] = {"menu": game.menu is not None, **{
        a.value: era.step(game, t.Steer(a, 5.0, 0.0), 5.0)[0] == game for a in SteerAction}}
    _, _, era, game = t.toe_both()
    state, effects = era.step(game, t.Steer(t.S, 12.0, 0.0), 10.0)
    state, gong = era.step(state, Tick(), 12.0)
    state, paused = era.step(state, t.Steer(t.P, 30.0, 18.0), 30.0)
    state, resumed = era.step(state, t.Steer(t.R, 40.0, 18.0), 40.0)
    late = era.step(game, t.Steer(t.S, 100.0, 30.0), 100.0)[1]  # from the setup
    out["music"] = plain({"said": [t.music(e) for e in (effects, gong, paused, resumed)],
                          "late": [[type(e).__name__, getattr(e, "sound", getattr(
                              e, "action", None)).value] for e in late
                              if isinstance(e, PlaySound | t.Music)]})
    _, _, era, game = t.toe_both()
    game = replace(game, era=2)
    game, effects = era.step(game, t.Steer(t.S, 12.5, 0.0), 10.0)
    out["era_two"] = plain({"kind": t.kind(effects).value,
                            "heard": t.heard(era, game, 10.0, 200.0, effects)[1]})
    _, _, era, game = t.toe_both()
    hall, posted = t.link(lambda: game)
    hall.state = HallState(t.S, 100.0, 0.0)
    hall._keep_in_step(130.0)
    first = [(o.action.value, o.at, o.running_s) for o in posted]
    started, _ = era.step(game, posted[0], 130.0)
    posted.clear()
    hall._keep_in_step(130.5)
    out["kept_in_step"] = plain({"posted": first, "again": len(posted),
                                 "kind": era.screen(started, 130.0).kind.value})
    assert Phase.RUNNING.value == "running"
    return out


def guide_state() -> dict[str, Any]:
    """tests/test_profile_guide_at_setup.py: the era engine's record on its guide resumed."""
    import test_profile_guide_at_setup as t
    from erabox.core.config import Config
    from erabox.core.engine import EmpiresEngine

    text = (HERE.parent / "states" / "toe-guide.state.json").read_text(encoding="utf-8")
    own = EmpiresEngine(Config(players=("red", "blue", "green", "yellow")))
    game, _ = own.restore(own.parse(text), 0.0)
    return {"heard": plain(t.heard(own, game, [(1.0, t.NEXT_HOLD), (30.0, t.ERA)]))}


def one_engine_toe() -> dict[str, Any]:
    """tests/test_one_engine_toe.py: the era engine steered by a hall, and every play of
    Time of Empires' own engine (`erabox simulate` without `--game`) its tests make, each
    under its test's name in the order made (its tests run with a wrapper that keeps them)."""
    from dataclasses import replace

    import pytest

    import test_one_engine_toe as t
    from erabox.core.config import parse_config
    from erabox.core.engine import EmpiresEngine

    out: dict[str, Any] = {}
    config = replace(parse_config('[hall]\nbroker = "h"\nkey = "k"\n', "c.toml"),
                     players=t.PLAYERS)
    for orders in sorted(t.HALL_ORDERS):
        own = EmpiresEngine(config)
        game, _ = own.fresh(0.0, 0)
        out[f"hall/{orders}"] = plain(t.hall_heard(own, replace(game, guide=None),
                                                   t.HALL_ORDERS[orders]))
    plays: dict[str, list[Any]] = {}

    class Keep:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            real = t.simulate

            def kept(tmp_path: Any, capsys: Any, script: str, *args: str) -> Any:
                lines = real(tmp_path, capsys, script, *args)
                if "--game" not in args:
                    plays.setdefault(item.name, []).append(lines)
                return lines

            t.simulate = kept
            yield
            t.simulate = real

    code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                        str(ROOT / "tests" / "test_one_engine_toe.py")], plugins=[Keep()])
    assert code == 0, "the era engine's plays of tests/test_one_engine_toe.py must pass"
    out["own"] = plays
    return out


def one_engine_box() -> dict[str, Any]:
    """tests/test_one_engine_box.py: the era engine's box (its lines of two scripts, the
    lead-in's first tick, and the state file it leaves mid-game)."""
    import tempfile

    from erabox.adapters.state_file import StateFile
    from erabox.core.config import parse_config
    from erabox.core.events import EventRecorder
    from erabox.core.model import Button, Gesture, Input
    from erabox.core.script import ScriptLine
    from erabox.run.app import Box
    from erabox.run.simulate import simulate

    def simulated(config: Any, script: Any, until: float) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        sim = simulate(config, script, until, out.append)
        assert sim.driver.profile is None  # the era engine's
        return out

    out: dict[str, Any] = {}
    config = parse_config('players = ["red", "blue", "green"]\ndefault_mode = "intro"\n'
                          "[intro]\nrounds = 7\nscholar_after_rounds = [2, 4]\n", "test.toml")
    script = [ScriptLine(0.5, Input(Button.ERA, Gesture.PRESS), 1)] + [
        ScriptLine(1.0 + n, Input(Button.NEXT, Gesture.PRESS), n + 2) for n in range(20)]
    out["intro"] = simulated(config, script, 30.0)
    config = parse_config('players = ["red", "blue"]\n[realtime]\nlength_s = 60\n'
                          "scholar_cues_s = [20, 40]\nlead_in_s = 3\nfinal_ticks_s = 0\n",
                          "test.toml")
    era, hold = (Button.ERA, Gesture.PRESS), (Button.ERA, Gesture.HOLD)
    script = [ScriptLine(at, Input(*gesture), n + 1) for n, (at, gesture) in enumerate(
        [(1.0, era), (2.5, hold), (4.0, era), (5.2, hold), (6.0, era)])]
    out["lead_in_hold"] = simulated(config, script, 12.0)
    with tempfile.TemporaryDirectory() as tmp:
        lines: list[dict[str, Any]] = []
        no_lead_in = ("[realtime]\nlength_s = 60\nscholar_cues_s = [30]\nlead_in_s = 3\n"
                      "final_ticks_s = 0\n")
        box = Box(parse_config(no_lead_in, "test.toml"),
                  state_file=StateFile(Path(tmp) / "s.json"),
                  events=EventRecorder(lines.append), clock=lambda: 10.0)
        box.start_game()
        assert box.driver.profile is None
        box.driver.step(Input(Button.ERA, Gesture.PRESS), 11.0)
        out["first_tick"] = lines
        state = Path(tmp) / "state.json"
        box = Box(parse_config('default_mode = "intro"\n', "test.toml"),
                  state_file=StateFile(state), clock=lambda: 10.0)
        box.start_game()
        for n, button in enumerate([Button.ERA, Button.NEXT, Button.NEXT]):
            box.driver.step(Input(button, Gesture.PRESS), 11.0 + n)
        box.driver.shutdown(20.0)
        out["mid_game_state"] = state.read_text(encoding="utf-8")
    return out


def main() -> int:
    assert os.environ.get("ERABOX_ONE_ENGINE") == "0", "the era engine plays only so"
    import logging

    logging.disable(logging.WARNING)
    screens()
    values = {"test_profile_toe_state": toe_state() | {"tests": toe_state_tests()},
              "test_hall_setup_start": hall_setup(),
              "test_profile_guide_at_setup": guide_state(),
              "test_one_engine_toe": one_engine_toe(),
              "test_one_engine_box": one_engine_box()}
    (HERE / "values.json").write_text(json.dumps(values, ensure_ascii=False, indent=1,
                                                 sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
