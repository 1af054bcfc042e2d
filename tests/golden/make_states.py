"""State files written by the box as it was before the one engine (kept as fixtures).

`python tests/golden/make_states.py` plays each scenario below on the virtual clock and keeps
what the state file would hold at its end (`<name>.state.json`), then what the box does after
a power cut there: the same simulation brought back from that text and played on with the
continuation script (`<name>.after.jsonl`, `erabox simulate`'s event lines). Run once, before
the change; tests/test_golden.py resumes each file with today's code and compares.

Historical for Time of Empires (`toe-*`): those files were written by the era engine, which
has since been removed; run today, `play_toe` would write the round engine's records
instead, so the committed `toe-*` files are not to be regenerated (they stand for the state
files boxes of that version left behind). The game profiles' (`profile-*`) still play as
they did.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "device"))

from erabox.core.config import Config  # noqa: E402
from erabox.core.script import parse_script  # noqa: E402
from erabox.run.simulate import Simulation  # noqa: E402

HERE = Path(__file__).resolve().parent / "states"

# name: (config, script up to the cut, continuation after the cut)
TOE = {
    # Era I real time, 200 s of running time (after the lead-in) when the power goes.
    "toe-running": (Config(guide=False), "0 era press\n", 210.0,
                    "0 next press\n30 next press\n"),
    # The same era paused at 2:00.
    "toe-paused": (Config(guide=False), "0 era press\n125 next hold\n", 200.0,
                   "0 next press\n"),
    # The cut 0.05 s after the 3:00 cry went out.
    "toe-after-cry": (Config(guide=False), "0 era press\n", 185.05, "0 next press\n"),
    # Era I introductory, round 7.
    "toe-intro": (Config(guide=False), "0 next press\n1 era press\n"
                  + "".join(f"{2 + i} next press\n" for i in range(8)), 20.0,
                  "0 next press\n1 next press\n2 next hold\n"),
    # Era I scored as totals: two players' numbers confirmed, the third half entered.
    "toe-scoring": (Config(guide=False, realtime=Config().realtime.__class__(
        length_s=60.0, scholar_cues_s=(20.0, 40.0))),
                    "0 era press\n70 next press\n70.5 next hold 1.0\n73 era press\n"
                    "74 next press\n75 era press\n76 next press\n", 80.0,
                    "0 era press\n1 era press\n2 era press\n3 era press\n"),
    # The preparation guide before Era I, step 3, with the default guide on.
    "toe-guide": (Config(), "0 next press\n1 next press\n", 5.0, "0 next press\n1 next hold\n"),
}


def play_toe(name: str, config: Config, script: str, cut: float, after: str) -> None:
    sim = Simulation(config, lambda e: None)
    sim.run(parse_script(script, name), cut)
    text = sim.state.text
    assert text is not None, name
    (HERE / f"{name}.state.json").write_text(text, encoding="utf-8")
    (HERE / f"{name}.config.json").write_text(
        json.dumps({"config": _plain(config)}, sort_keys=True) + "\n", encoding="utf-8")
    (HERE / f"{name}.after.txt").write_text(after, encoding="utf-8")
    (HERE / f"{name}.after.jsonl").write_text(resume_toe(config, text, after), encoding="utf-8")


def resume_toe(config: Config, text: str, after: str) -> str:
    """A box brought back from `text` at time 0, then `after` played: its event lines."""
    out = io.StringIO()
    sim = Simulation(config, lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"))
    sim.state.text = text
    sim.restart()
    sim.run(parse_script(after, "after"), None)
    return out.getvalue()


def _plain(value: object) -> object:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from record import plain

    return plain(value)


PROFILES = {
    # Lords of Xidit, 3 players, year 2's execution phase.
    "profile-lords": ("lords-of-xidit", ("red", "blue", "green"),
                      "0 era press\n" + "".join(f"{1 + i} next press\n" for i in range(12)),
                      30.0, "0 next press\n1 next hold\n"),
    # Hadrian's Wall, 2 players, scoring under way.
    "profile-hadrian": ("hadrians-wall", ("red", "blue"),
                        "0 era press\n" + "".join(f"{1 + i * 0.5} next press\n"
                                                  for i in range(60)), 60.0,
                        "0 next press\n1 era press\n"),
    # Altay, 4 players, turn 3 (random start player, seed 0).
    "profile-altay": ("altay", ("red", "blue", "green", "yellow"),
                      "0 era press\n1 next press\n2 next press\n", 10.0,
                      "0 next press\n1 next press\n"),
}


def play_profile(name: str, game: str, players: tuple[str, ...], script: str, cut: float,
                 after: str) -> None:
    from erabox.core.config import Config
    from erabox.files.games import load_game
    from erabox.run.simulate import Simulation

    profile = load_game(game, [])
    sim = Simulation(Config(players=players), lambda e: None, profile=profile)
    sim.run(parse_script(script, name), cut)
    text = sim.saved_text
    assert text is not None, name
    (HERE / f"{name}.state.json").write_text(text, encoding="utf-8")
    (HERE / f"{name}.config.json").write_text(
        json.dumps({"game": game, "players": list(players), "seed": 0}, sort_keys=True) + "\n",
        encoding="utf-8")
    (HERE / f"{name}.after.txt").write_text(after, encoding="utf-8")
    out = io.StringIO()
    again = Simulation(Config(players=players),
                       lambda e: out.write(json.dumps(e, ensure_ascii=False) + "\n"),
                       profile=profile)
    again.state.text = text
    again.restart()
    again.run(parse_script(after, "after"), None)
    (HERE / f"{name}.after.jsonl").write_text(out.getvalue(), encoding="utf-8")


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name, (config, script, cut, after) in TOE.items():
        play_toe(name, config, script, cut, after)
    for name, (game, players, script, cut, after) in PROFILES.items():
        play_profile(name, game, players, script, cut, after)
    print("\n".join(sorted(p.name for p in HERE.iterdir())))
