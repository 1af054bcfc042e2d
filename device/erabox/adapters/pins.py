"""Choosing gpiozero's pin factory, and the error of a pin the box cannot use.

Every GPIO part (buttons, dial, cue LED) takes its pin factory from the composition root
(`erabox.run.app`), which chooses it once here; nothing sets gpiozero's global `Device.pin_factory`.
"""

from __future__ import annotations

import logging
import os
from importlib.metadata import entry_points
from typing import Any, NamedTuple

log = logging.getLogger(__name__)


class ButtonsError(RuntimeError):
    """A button, dial or LED pin that cannot be used (missing, busy, or the wrong pin
    factory)."""


class PinFactoryChoice(NamedTuple):
    """The gpiozero pin factory the box uses, and whether it is the mock (no real pins)."""

    factory: Any
    mock: bool
    name: str


# gpiozero's pin libraries, as `GPIOZERO_PIN_FACTORY` names them, in the order gpiozero tries
# them when the variable is unset (lgpio first: it works on Bookworm kernels and the Pi 5).
DEFAULT_ORDER = ("lgpio", "rpigpio", "pigpio", "native")
ENTRY_POINTS = "gpiozero_pin_factories"  # where gpiozero (and add-on drivers) register them


def load_pin_factory(name: str) -> Any:
    """A new pin factory of the library `name` ("lgpio", "mock", ...), found among the entry
    points gpiozero registers its factories under (exact name first, then lower case, as
    gpiozero reads `GPIOZERO_PIN_FACTORY`). Raises `LookupError` for an unknown name, or
    whatever the library raises when it cannot start on this machine."""
    found = {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}
    ep = found.get(name) or found.get(name.lower())
    if ep is None:
        known = ", ".join(sorted(found))
        raise LookupError(f"no gpiozero pin factory named {name!r} (known: {known})")
    return ep.load()()


def default_pin_factory() -> PinFactoryChoice:
    """The pin factory `GPIOZERO_PIN_FACTORY` names, else the first pin library that works
    (gpiozero's own order), else a `MockFactory` (a laptop). Logs which.

    The service sets `lgpio` (RPi.GPIO's edge detection fails on Bookworm kernels and the Pi 5).
    If no pin library works the box still runs, on mock pins driven by the window, keyboard or
    script, and the log says why. The factory is built here and passed on by the app: unlike
    gpiozero's `Device.ensure_pin_factory()` this sets no global.
    """
    from gpiozero.pins.mock import MockFactory

    named = os.environ.get("GPIOZERO_PIN_FACTORY")
    factory: Any = None
    failures: list[str] = []
    for name in (named,) if named is not None else DEFAULT_ORDER:
        try:
            factory = load_pin_factory(name)
            break
        except Exception as exc:  # an unknown name, or the library cannot start here
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    tried = "; ".join(failures)
    if factory is None and named is not None:
        # Asked for by name (the service asks for lgpio): that it fails is worth a warning.
        log.warning("buttons: pin factory %s does not work (%s); using simulated (mock) pins",
                    named, tried)
        factory = MockFactory()
    elif factory is None:
        # Off a Pi this is the normal case: one short line; the why is for the debug log.
        log.info("buttons: no GPIO pin library works, so simulated pins (normal off a Pi)")
        log.debug("buttons: why no pin library: %s", tried)
        factory = MockFactory()
    elif tried:
        log.info("buttons: pin factory fallbacks: %s", tried)
    mock = isinstance(factory, MockFactory)
    name = type(factory).__name__
    log.info("buttons: using gpiozero pin factory %s%s", name, " (simulated pins)" if mock else "")
    return PinFactoryChoice(factory, mock, name)
