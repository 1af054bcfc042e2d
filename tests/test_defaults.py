"""Each default is written once: changing the era length or the number of introductory rounds
is a change of one line in `device/erabox/core/rules.py`, and everything follows it.

The test copies the package, changes that one line, and runs the copy in a fresh interpreter:
the config's defaults, the parser, the screen model, the simulated game and the sample
screens all take the new value, and the example config, which still says the old one, no
longer matches the defaults (tests/test_config.py checks it does on the real tree).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import dataclasses, json, sys
from erabox.files.config import load_config
from erabox.core.config import Config, parse_config
from erabox.core.model import Mode, Phase, Screen
from erabox.core.script import parse_script
from erabox.run.simulate import simulate
from erabox.ui.samples import sample_screens

def run(config_text, script, until):
    events = []
    simulate(parse_config(config_text, "probe.toml"), parse_script(script, "probe"), until,
             events.append)
    return events

realtime = run("", "0 era press\n", 2000)
gongs = [e["t"] for e in realtime if e.get("sound") == "gong"]
intro = run('default_mode = "intro"\n',
            "0 era press\n" + "".join(f"{i} next press\n" for i in range(1, 60)), 100)
rounds = max(e["round"] or 0 for e in intro if e["type"] == "state" and e["era"] == 1)
timed = [s for _, s in sample_screens() if s.elapsed is not None]
example = load_config(sys.argv[1])
print(json.dumps({
    "length": [Config().realtime.length_s, parse_config("", "x").realtime.length_s,
               Screen(Phase.RUNNING, 1, Mode.REALTIME).length_s],
    "rounds": [Config().intro.rounds, parse_config("", "x").intro.rounds,
               Screen(Phase.INTRO_ROUND, 1, Mode.INTRO).rounds],
    "era_played_s": gongs[1] - gongs[0],
    "rounds_played": rounds,
    "sample_era_lengths": sorted({s.seconds_left + round(s.elapsed) for s in timed}),
    "example_is_default": dataclasses.replace(example, source=Config().source) == Config(),
}))
"""


def probe(tree: Path) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT / "erabox.example.toml")],
        cwd=tree, env=env, capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def changed_copy(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the package with exactly one line of rules.py changed from `old` to `new`."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "device" / "erabox", tree / "erabox",
                    ignore=shutil.ignore_patterns("__pycache__"))
    rules = tree / "erabox" / "core" / "rules.py"
    before = rules.read_text(encoding="utf-8").splitlines(keepends=True)
    after = [line.replace(old, new) if line.startswith(old) else line for line in before]
    assert sum(a != b for a, b in zip(before, after, strict=True)) == 1, old
    rules.write_text("".join(after), encoding="utf-8")
    return tree


def test_the_real_tree_plays_the_rulebook_defaults(tmp_path: Path) -> None:
    found = probe(ROOT)
    assert found["length"] == [540.0, 540.0, 540.0]
    assert found["rounds"] == [15, 15, 15]
    assert found["era_played_s"] == 540.0
    assert found["sample_era_lengths"] == [540]
    assert found["rounds_played"] == 15
    assert found["example_is_default"] is True


@pytest.mark.parametrize(("old", "new", "key", "value"), [
    ("ERA_LENGTH_S = 540.0", "ERA_LENGTH_S = 480.0", "length", 480.0),
    ("INTRO_ROUNDS = 15", "INTRO_ROUNDS = 12", "rounds", 12),
])
def test_one_line_changes_a_default_everywhere(tmp_path: Path, old: str, new: str, key: str,
                                               value: float) -> None:
    found = probe(changed_copy(tmp_path, old, new))
    assert found[key] == [value] * 3
    if key == "length":
        assert found["era_played_s"] == value
        assert found["sample_era_lengths"] == [value]
    else:
        assert found["rounds_played"] == value
    # The example config still says the old value: it is checked against the one source.
    assert found["example_is_default"] is False
