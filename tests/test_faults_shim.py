"""The fault battery's parts, fast enough for `make test` (the battery itself is
`make test-faults`): the slow-fsync shim builds with the machine's C compiler and slows a
process's fsync and fdatasync, and one cut on the real daemon on a slow card, inside the window
where the cry is recorded ahead of it, neither loses nor doubles the cry."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "faults"))
import battery  # tests/faults/battery.py

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="no C compiler for the shim")

TIMED = """
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
started = time.monotonic()
os.fsync(fd)
os.fdatasync(fd)
print(time.monotonic() - started)
"""


def test_the_shim_slows_fsync_and_fdatasync(tmp_path: Path) -> None:
    shim = battery.build_shim(tmp_path)
    env = dict(os.environ, LD_PRELOAD=str(shim), ERABOX_FSYNC_DELAY="0.2")
    done = subprocess.run([sys.executable, "-c", TIMED, str(tmp_path / "f")], env=env,
                          capture_output=True, text=True, check=True, timeout=120)
    assert float(done.stdout) >= 0.4  # two calls, each at least 0.2 s longer
    env["ERABOX_FSYNC_DELAY"] = "0"
    done = subprocess.run([sys.executable, "-c", TIMED, str(tmp_path / "f")], env=env,
                          capture_output=True, text=True, check=True, timeout=120)
    assert float(done.stdout) < 0.4


def test_a_cut_just_before_a_cry_on_a_slow_card_neither_loses_nor_doubles_it(
        tmp_path: Path) -> None:
    shim = battery.build_shim(tmp_path)
    trial = battery.one_trial(shim, 0.5, -0.05)
    assert not trial.problem, trial.problem
    assert trial.heard <= 1, "the cry was doubled"
    assert trial.heard == 1 or trial.shown, "the cry was lost"
    assert trial.lead_s is not None and trial.lead_s >= 1.0  # the box measured the card
