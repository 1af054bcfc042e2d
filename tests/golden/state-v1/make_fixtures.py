"""Writes the state and settings files of tests/golden/state-v1 (run against e6fcfd3).

Historical: it drives the era engine (core/machine.py), which has since been removed, so it
can no longer run; the files it wrote stay as fixtures (what a box of that version left
behind, resumed by today's round engine: tests/test_golden_state.py,
tests/test_profile_toe_state.py).
"""
import json
import sys
from dataclasses import replace
from pathlib import Path

from erabox.core import settings as menu
from erabox.core.config import Config
from erabox.core.machine import new_game, next_deadline, snapshot, step, timeline
from erabox.core.model import Button, Gesture, Input, Mode, Phase, Save, Tick
from erabox.core.snapshot import dumps

out = Path(sys.argv[1])
cfg = Config()
def press(b):
    return Input(b, Gesture.PRESS)

def write(name, record):
    (out / f"{name}.state.json").write_text(dumps(record), encoding="utf-8")

def run_to(game, now, until):
    last = None
    while True:
        due = next_deadline(game, now)
        if due is None or due > until:
            return game, until, last
        now = due
        game, effects = step(game, Tick(), now)
        for e in effects:
            if isinstance(e, Save):
                last = e.snapshot

g = new_game(cfg)
write("setup", snapshot(g, 0.0))
# Era I real-time: start past the guide
rt = replace(cfg, guide=False, default_mode=Mode.REALTIME)
g = new_game(rt)
g, _ = step(g, press(Button.ERA), 0.0)
g, now, _ = run_to(g, 0.0, 60.0)
write("running", snapshot(g, 60.0))
cry = timeline(rt)[0].at
anchor = g.anchor
g, now, last = run_to(g, 60.0, anchor + cry - 0.3)
write("armed", last)
g, now, last = run_to(g, now, anchor + cry - 0.05)
write("sounded-ahead", last)
g, now, last = run_to(g, now, anchor + cry + 3.0)
write("scholar-prompt", snapshot(g, now))
g2, _ = step(g, Input(Button.NEXT, Gesture.HOLD), now)
write("paused", snapshot(g2, now + 0.1))
end = timeline(rt)[-1].at
g, now, last = run_to(g, now, anchor + end + 1.0)
assert g.phase is Phase.SCORING, g.phase
write("scoring", snapshot(g, now))
# intro era
it = replace(cfg, guide=False, default_mode=Mode.INTRO)
g = new_game(it)
g, _ = step(g, press(Button.ERA), 0.0)
for k in range(3):
    g, _ = step(g, press(Button.NEXT), 10.0 * (k + 1))
write(f"intro-{g.phase.value}-round-{g.round}", snapshot(g, 40.0))
# settings chosen on the box: two players, Japanese
chosen = replace(menu.defaults(cfg), seats=("red", "blue"), oldest=1, language="ja")
(out / "two-players-ja.settings.json").write_text(
    json.dumps(menu.to_dict(chosen), sort_keys=True, indent=1) + "\n", encoding="utf-8")
g = new_game(cfg, settings=chosen)
write("setup-under-settings", snapshot(g, 0.0))
print(sorted(p.name for p in out.iterdir()))
