"""The optional cue LED on gpiozero: it flashes with every gong and scholar cry."""

from __future__ import annotations

import logging
from typing import Any

from .pins import ButtonsError

log = logging.getLogger(__name__)


class CueLed:
    """The optional cue LED: flashes with every gong and scholar cry. A no-op when not fitted."""

    def __init__(
        self,
        pin: int | None,
        *,
        pin_factory: Any = None,
        blinks: int = 3,
        on_s: float = 0.15,
        off_s: float = 0.15,
    ) -> None:
        """Claim `pin` as an output (None = no LED). A busy/invalid pin raises `ButtonsError`."""
        self.pin = pin
        self.blinks = blinks
        self.on_s = on_s
        self.off_s = off_s
        self._led: Any = None
        self._failed = False
        if pin is None:
            return
        from gpiozero import LED

        try:
            self._led = LED(pin, initial_value=False, pin_factory=pin_factory)
        except Exception as exc:
            raise ButtonsError(
                f"cue LED on GPIO{pin}: cannot use the pin: {type(exc).__name__}: {exc}"
            ) from exc

    @property
    def fitted(self) -> bool:
        """Whether there is an LED to flash."""
        return self._led is not None

    def flash(self) -> None:
        """Blink `blinks` times in the background (gpiozero's blink thread); returns at once.

        A flash during a flash starts over. A driver error is logged once and the box goes on.
        """
        if self._led is None:
            return
        try:
            self._led.blink(on_time=self.on_s, off_time=self.off_s, n=self.blinks,
                            background=True)
        except Exception:
            if not self._failed:
                self._failed = True
                log.exception("cue LED on GPIO%s failed; the box goes on without it", self.pin)

    def close(self) -> None:
        """Switch the LED off and release its pin. Safe to call twice."""
        if self._led is not None:
            try:
                self._led.close()
            except Exception:
                log.debug("cue LED: error closing", exc_info=True)
            self._led = None
