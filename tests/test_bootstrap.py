"""`make run` installs only what the box needs; `make test` adds the test tools; pip's own
progress is shown. Checked with a stand-in Python that records what it is asked (no network)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

STUB = """#!/bin/sh
echo "$*" >> "{log}"
if [ "$1" = "-m" ] && [ "$2" = "venv" ] && [ "$3" != "--help" ]; then
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
fi
exit 0
"""


def bootstrap(tmp_path: Path, extras: str | None) -> list[str]:
    log = tmp_path / "calls.log"
    python = tmp_path / "python3"
    python.write_text(STUB.format(log=log))
    python.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "ERABOX_EXTRAS"}
    if extras is not None:
        env["ERABOX_EXTRAS"] = extras
    venv = tmp_path / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    log.unlink(missing_ok=True)
    done = subprocess.run(["sh", "tools/bootstrap.sh", str(python), str(venv)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60, check=True)
    assert "pip's progress follows" in done.stdout
    return [line for line in log.read_text().splitlines() if "pip install" in line]


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="a Pi adds its extra")
def test_bootstrap_installs_the_box_alone_or_with_the_test_tools(tmp_path: Path) -> None:
    alone = bootstrap(tmp_path, "")
    assert len(alone) == 1 and alone[0].endswith("install --disable-pip-version-check "
                                                 "--progress-bar on -e .")
    assert " -q" not in alone[0]  # pip's progress is seen
    tested = bootstrap(tmp_path, None)
    assert len(tested) == 1 and tested[0].endswith("-e .[test]")
    assert bootstrap(tmp_path, "pi")[0].endswith("-e .[pi]")  # sudo make install


def test_make_run_asks_for_the_box_alone_and_make_test_for_the_test_tools(
        tmp_path: Path) -> None:
    def planned(target: str) -> str:
        return subprocess.run(["make", "-n", target, f"VENV={tmp_path}/venv"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=True).stdout

    run = planned("run")
    assert "ERABOX_EXTRAS= sh tools/bootstrap.sh" in run and "ERABOX_EXTRAS=test" not in run
    for target in ("test", "lint"):
        assert "ERABOX_EXTRAS=test sh tools/bootstrap.sh" in planned(target)
