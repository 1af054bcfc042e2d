"""`make wheelhouse` (README's offline Pi install starts with it) runs on a fresh clone: the
script finds the erabox package in device/ without it being installed, and its dry run shows
what it would fetch without any network. The system test uses the same `make wheelhouse`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_script_runs_with_nothing_installed(tmp_path: Path) -> None:
    """`python -S`: no site-packages, so no installed erabox (it used to stop at
    `ModuleNotFoundError: No module named 'erabox'`); run from elsewhere."""
    done = subprocess.run([sys.executable, "-S", str(ROOT / "tools" / "wheelhouse.py"),
                           "--dry-run", "--out", str(tmp_path), "aarch64", "armv7l"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for machine in ("aarch64", "armv7l"):
        assert f"== {machine}: cp311 wheels into {tmp_path / machine}" in done.stdout
        assert f"--platform manylinux_2_17_{machine}" in done.stdout
    for wanted in ("pygame>=2.5", "gpiozero>=2.0", "setuptools>=77", "lgpio>=0.2",
                   "Debian packages: python3 python3-venv"):
        assert wanted in done.stdout
    assert list(tmp_path.iterdir()) == []  # nothing fetched


def test_make_wheelhouse_runs_the_script_as_readme_says(tmp_path: Path) -> None:
    """The Makefile's own recipe (with a stand-in for .venv's python: no site-packages)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    python = bin_dir / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    python.chmod(0o755)
    done = subprocess.run(["make", "-s", "wheelhouse", "RUN_STAMP=", f"BIN={bin_dir}",
                           f"ARGS=--dry-run --no-debs --out {tmp_path / 'wh'} x86_64"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "== x86_64: cp311 wheels" in done.stdout and "dry run" in done.stdout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`make wheelhouse`" in readme
    system_test = (ROOT / "tools" / "systemtest" / "run.sh").read_text(encoding="utf-8")
    assert 'make -C "$repo" wheelhouse ARGS=' in system_test
    assert '"$python" "$repo/tools/wheelhouse.py"' not in system_test
