"""The box's clock: `time.monotonic`, or for tests of a hall a clock that is off.

`ERABOX_TEST_CLOCK="offset_s,rate_ppm"` (e.g. "1.5,-150") makes `box_clock` return a clock
that reads `offset_s` ahead of the monotonic clock and runs `rate_ppm` fast (negative: slow),
as two boxes' crystals do. Only the hall's tests and `make hall-bench` set it; without it the
box's clock is the monotonic clock itself, untouched. `host_stamp` then adds the host's own
monotonic time to every event line (`host`), so the spread of a cue across boxes can be
measured on one clock.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

ENV = "ERABOX_TEST_CLOCK"


def box_clock(env: dict[str, str] | None = None) -> Callable[[], float]:
    """The clock `erabox run` gives its loop (see the module's text)."""
    given = (os.environ if env is None else env).get(ENV, "")
    if not given:
        return time.monotonic
    try:
        offset_s, rate_ppm = (float(part) for part in given.split(","))
    except ValueError:
        raise ValueError(f"{ENV}={given!r}: expected 'offset_s,rate_ppm'") from None
    base = time.monotonic()
    rate = 1.0 + rate_ppm * 1e-6
    return lambda: base + offset_s + (time.monotonic() - base) * rate


def host_stamp(emit: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    """`emit` with the host's monotonic time added to each line, when the test clock is on."""
    if not os.environ.get(ENV):
        return emit
    return lambda line: emit(line | {"host": round(time.monotonic(), 6)})
