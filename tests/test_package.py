"""A plain (non-editable) install carries the box's sounds: `pip install` of the built wheel into
a fresh virtual environment, with the source tree gone, plays them.

The wheel is built from a copy of the repository, which is then deleted, so the only sounds left
are the ones the package installed. `erabox run` then plays a short era on SDL's `disk` audio
driver: the recording must hold sound, and the box must not have missed a file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import numpy as np

from audio_analysis import read_raw

ROOT = Path(__file__).resolve().parent.parent
SOUND_FILES = ("gong.ogg", "cry.ogg", "tick.ogg", "era1.ogg", "era2.ogg", "era3.ogg")

CONFIG = """
[realtime]
length_s = 3
scholar_cues_s = [1.5]
lead_in_s = 0
final_ticks_s = 0
"""


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    skip = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "dist",
                                  "bench-results", "tests", "docs", ".*_cache",
                                  # Hypothesis's folder: other test workers write in it
                                  ".hypothesis")
    shutil.copytree(ROOT, source, ignore=skip, symlinks=True)
    out = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "--disable-pip-version-check", "-w", str(out), str(source)],
                           check=True, capture_output=True, text=True, timeout=300)
    # The build backend has nothing to complain about (a licence as a TOML table printed ~25
    # lines of deprecation warnings into every first `make run`).
    assert "deprecat" not in (built.stdout + built.stderr).lower(), built.stderr
    shutil.rmtree(source)  # from here on, no sound exists outside what the wheel installs
    (wheel,) = out.glob("erabox-*.whl")
    return wheel


def test_a_plain_install_plays_the_sounds_it_carries(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"erabox/sounds/{name}" for name in SOUND_FILES} <= set(names)
    # The import package is erabox; nothing named `device` goes into site-packages.
    assert not [name for name in names if name.startswith("device")], names
    (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    metadata = zipfile.ZipFile(wheel).read(metadata_name).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q",
                    "--disable-pip-version-check", str(wheel)],
                   check=True, capture_output=True, text=True, timeout=300)
    # The dependencies (pygame, gpiozero, ...) are taken from this environment's site-packages
    # as a plain path entry: its .pth files (this checkout's editable install) are not run.
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "zz_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")

    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    work = tmp_path / "work"
    work.mkdir()
    where = subprocess.run([str(python), "-c", "import erabox; print(erabox.SOUNDS_DIR)"],
                           cwd=work, env=env, check=True, capture_output=True,
                           text=True).stdout.strip()
    assert Path(where).is_relative_to(site), where  # the installed package, not this checkout

    (work / "erabox.toml").write_text(CONFIG, encoding="utf-8")
    (work / "s.script").write_text("0.3 era press\n4.5 end\n", encoding="utf-8")
    recording = work / "out.raw"
    env.update(GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE=str(recording), ERABOX_STATE=str(work / "state.json"))
    run = subprocess.run(
        [str(venv / "bin" / "erabox"), "run", "--config", "erabox.toml", "--display", "none",
         "--script", "s.script", "--events", "-"],
        cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    sounds = [e["sound"] for e in map(json.loads, run.stdout.splitlines())
              if e["type"] == "sound"]
    assert sounds[:2] == ["gong", "music_start"] and "cry" in sounds, sounds

    audio = read_raw(recording)
    assert len(audio) > 44100  # more than a second of the mixer's output
    loud = np.abs(audio).max(axis=1) > 0.01  # above -40 dBFS
    assert loud.mean() > 0.5, f"only {loud.mean():.0%} of the recording holds sound"
