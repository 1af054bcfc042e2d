"""One-off: the era engine's records at many moments of a real-time and an introductory era,
and where the era engine came back to from each (`describe` after `restore`), written to
snapshots.json beside this script for tests/test_snapshot.py.

It ran on the era engine (core/machine.py, tests/era_table.py) before that engine's removal
and can no longer run: the records it wrote are the state files a box of that version left
behind, and the places it came back to are the behaviour pinned before the rewrite (the round
engine resumes each record through core/era_save.py).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # tests/: era_table

from era_table import Table  # noqa: E402

from erabox.core.config import Config  # noqa: E402
from erabox.core.machine import describe, restore, snapshot  # noqa: E402
from erabox.core.model import Button, Gesture  # noqa: E402
from erabox.core.snapshot import dumps, loads  # noqa: E402

CFG = Config()


def snapshots() -> Iterator[tuple[str, dict[str, Any]]]:
    """A snapshot of the game at many moments of a real-time and an introductory era."""
    t = Table(CFG)
    yield "setup", snapshot(t.game, t.now)
    t.do(Button.ERA)
    yield "lead_in", snapshot(t.game, t.now)
    t.wait(200.25)
    yield "running", snapshot(t.game, t.now)
    t.do(Button.NEXT, Gesture.HOLD)
    yield "paused", snapshot(t.game, t.now)
    t.do(Button.NEXT)
    t.wait(400)
    yield "scoring", snapshot(t.game, t.now)
    t.do(Button.NEXT, Gesture.HOLD)  # 5 points for the first player, confirmed
    t.do(Button.ERA)
    yield "scoring entry", snapshot(t.game, t.now)
    t.finish_scoring()
    yield "prepare", snapshot(t.game, t.now)
    t.close_guide()
    t.do(Button.NEXT)
    t.do(Button.ERA)
    for name in ("intro_round", "intro_round", "intro_round", "intro_round", "intro_round",
                 "scholars", "intro_round"):
        yield f"{name} {t.game.round}", snapshot(t.game, t.now)
        t.do(Button.NEXT)


def main() -> None:
    out: dict[str, Any] = {}
    for moment, saved in snapshots():
        game, _ = restore(loads(dumps(saved), CFG), CFG, now=1234.5)
        out[moment] = {"record": saved, "came_back": describe(game, 1234.5)}
    (HERE / "snapshots.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n",
                                         encoding="utf-8")


if __name__ == "__main__":
    main()
