"""What the box's process imports: nothing that maps a large library for a small job.

`import hashlib` maps OpenSSL's libcrypto: about 4 MB of resident memory (measured: a bare
Python at 9.7 MB, 13.5 MB after `import hashlib`), which the whole-game bench saw as peak RSS
48.4 -> 52.3 MB when the settings' fingerprint was taken with sha256. The modules `erabox run`
loads, as the Pi service runs them (no numpy), must not bring it, nor `ssl`, back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# adapters/hall.py is only imported by a box with [hall] (its commands are signed: hmac);
# test_hall_core.py checks that a box without one never imports it.
ADAPTERS = sorted(p.stem for p in (ROOT / "device" / "erabox" / "adapters").glob("*.py")
                  if p.stem not in ("__init__", "hall"))

HEAVY = ("_hashlib", "ssl", "_ssl")

PROBE = """
import importlib, json, sys
sys.modules['numpy'] = None  # the Pi service's venv has no numpy
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))
"""


def loaded_heavy(modules: list[str]) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *modules],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    result: list[str] = json.loads(out.stdout)
    return result


def test_the_box_process_does_not_load_openssl() -> None:
    modules = ["erabox.cli", "erabox.run.app", "erabox.run.driver", "erabox.run.which_game",
               "erabox.run.screen_worker", *(f"erabox.adapters.{name}" for name in ADAPTERS)]
    assert loaded_heavy(modules) == []


def test_the_probe_sees_hashlib() -> None:
    assert loaded_heavy(["hashlib"]) == ["_hashlib"]
