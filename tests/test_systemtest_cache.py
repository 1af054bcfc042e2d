"""The system test creates its own cache folder, wherever it lives (a new machine has none)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

RUN_SH = Path(__file__).resolve().parents[1] / "tools" / "systemtest" / "run.sh"


def cache_dir(env: dict[str, str]) -> Path:
    base = {k: v for k, v in os.environ.items()
            if k not in ("HOME", "XDG_CACHE_HOME", "ERABOX_SYSTEST_CACHE")}
    done = subprocess.run(["sh", str(RUN_SH), "--cache-dir"], env={**base, **env},
                          capture_output=True, text=True, timeout=30, check=True)
    return Path(done.stdout.strip())


def test_a_home_with_no_cache_folder_gets_one(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    found = cache_dir({"HOME": str(home)})
    assert found == home / ".cache" / "erabox" / "system-test"
    assert found.is_dir()


def test_xdg_cache_home_is_honoured(tmp_path: Path) -> None:
    home, xdg = tmp_path / "home", tmp_path / "xdg" / "nested"
    home.mkdir()
    found = cache_dir({"HOME": str(home), "XDG_CACHE_HOME": str(xdg)})
    assert found == xdg / "erabox" / "system-test"
    assert found.is_dir()
    assert not (home / ".cache").exists()


def test_an_explicit_cache_wins(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    mine = tmp_path / "a" / "b" / "c"
    found = cache_dir({"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "x"),
                       "ERABOX_SYSTEST_CACHE": str(mine)})
    assert found == mine
    assert mine.is_dir()
    assert not (tmp_path / "x").exists()


def test_an_uncreatable_cache_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    base = dict(os.environ, ERABOX_SYSTEST_CACHE=str(blocker / "cache"))
    done = subprocess.run(["sh", str(RUN_SH), "--cache-dir"], env=base,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "cannot create the cache folder" in done.stderr
    assert "Traceback" not in done.stderr
