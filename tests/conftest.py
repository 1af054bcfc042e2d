"""Shared fixtures. Keep this small: helpers used by one test file live in that file."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

# Property tests: no per-example time limit (a loaded machine makes any example slow, and
# timing belongs in `make bench`), and in CI the same examples every run, so CI's verdict
# depends on the code alone; a developer's run still explores new examples each time.
settings.register_profile("erabox", deadline=None, derandomize=bool(os.environ.get("CI")))
# `make test-deep` (ERABOX_TEST_DEEP=1): the nightly-style run, ten times the examples and a
# fresh random seed every run (a failure prints the seed that reproduces it).
settings.register_profile("deep", deadline=None, derandomize=False, max_examples=2000,
                          print_blob=True)
settings.load_profile("deep" if os.environ.get("ERABOX_TEST_DEEP") else "erabox")


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """A fresh mock pin factory; passed explicitly, and never left as gpiozero's global."""
    saved = Device.pin_factory
    mock = MockFactory()
    yield mock
    mock.reset()
    Device.pin_factory = saved


# Golden transcripts (tests/golden/record.py): with ERABOX_RECORD_GOLDEN=DIR every simulation
# the suite plays is written to DIR.
if os.environ.get("ERABOX_RECORD_GOLDEN"):
    import sys as _sys

    _sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
    import record as _record

    _record.install(os.environ["ERABOX_RECORD_GOLDEN"])
    _hook = os.path.join(os.path.dirname(__file__), "golden", "hook")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (_hook, os.environ.get("PYTHONPATH", "")) if p)
