"""Button gestures from raw pin edges: debounce, then press / hold / both (docs/behaviour.md).

Pure: raw level changes with their times in, gestures out. It reads no clock and starts no
thread, so every timing rule is tested exactly; `erabox.adapters.buttons` feeds it gpiozero's
edges and hands its gestures to the loop.

Gesture semantics (docs/behaviour.md, with the corner cases decided here):

* press: down, then released before `hold_s`; fires at the release.
* hold: still down `hold_s` after the press began; fires once, at the threshold; the release
  that follows fires nothing. Released exactly at the threshold counts as a hold.
* release: NEXT let go after its hold fired; fires at the release (the core times a hold with
  it where the length of a hold matters: points entry). Also after a chord. Only NEXT has
  one (`RAMPED`): no other button's hold length means anything.
* both: NEXT and ERA down together. From the moment the second of them goes down until BOTH
  are up again (a "chord"), neither fires a press or hold of its own. If they stay down together
  for `both_s`, `Input(BOTH, HOLD)` fires once; letting one go earlier cancels it, and when
  both are up again `Input(BOTH, PRESS)` fires (a short chord: -1 in points entry, nothing
  elsewhere) unless a hold of either had fired before the chord began. A hold that fired
  before the second button went down has fired: the core sees e.g. NEXT hold (pause) and
  then, 3 s later, both.
* VOL+/VOL- behave like NEXT/ERA on their own (press, or hold at the threshold) and never take
  part in a chord; the core may treat a VOL hold like a press.
* Times are the pins' own: a press that began at t0 holds at t0 + hold_s, even though debounce
  only confirms it at t0 + bounce_s. Events are processed in the order they happened, so a
  release or second button that the debounce has not confirmed yet still comes before a hold
  threshold that falls just after it.
* A button that reads pressed when the box starts (held during boot, or stuck) is ignored
  until it is released.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Button, Gesture, Input

# The two buttons that together make "both".
CHORD = (Button.NEXT, Button.ERA)
RAMPED = (Button.NEXT,)  # the buttons whose let-go after a hold fires `release`


@dataclass
class _Key:
    """One physical button: its raw pin level, its debounced level and its gesture progress."""

    raw_down: bool = False
    raw_since: float = 0.0  # time of the last raw edge
    down: bool = False  # debounced level
    down_since: float = 0.0  # when the debounced press began (its first stable edge)
    hold_fired: bool = False
    quiet: bool = False  # fires no press/hold of its own until released (chord, held at start)

    @property
    def settling(self) -> bool:
        """The raw level differs from the debounced one: a change waits for confirmation."""
        return self.raw_down != self.down


Recognised = tuple[float, Input]
"""A gesture and the pin time at which it happened."""


class GestureRecogniser:
    """Debounce raw button edges and turn them into gestures (docs/behaviour.md).
    Pure: no clock, no threads.

    Feed every raw level change with `edge()` in time order; call `advance(now)` to collect the
    gestures that are due, and wake again at `next_deadline()`. Times are seconds on any
    monotonic clock (the caller's). Not thread-safe: the caller serialises calls.
    """

    def __init__(
        self,
        buttons: Iterable[Button],
        *,
        hold_s: float,
        both_s: float,
        bounce_s: float,
        start: float = 0.0,
        down_at_start: Iterable[Button] = (),
    ) -> None:
        """Watch `buttons` (not BOTH). `down_at_start` are ignored until first released."""
        if not (hold_s > 0 and both_s > 0 and bounce_s >= 0):
            raise ValueError(
                f"gesture times must be hold_s > 0, both_s > 0, bounce_s >= 0; "
                f"got hold_s={hold_s}, both_s={both_s}, bounce_s={bounce_s}"
            )
        self.hold_s = hold_s
        self.both_s = both_s
        self.bounce_s = bounce_s
        self._keys: dict[Button, _Key] = {}
        for button in buttons:
            if button is Button.BOTH:
                raise ValueError("BOTH is a gesture of NEXT and ERA, not a button with a pin")
            self._keys[button] = _Key(raw_since=start, down_since=start)
        for button in down_at_start:
            key = self._keys[button]
            key.raw_down = key.down = key.quiet = True
        self._chord_since: float | None = None  # both NEXT and ERA down since then
        self._chord_fired = False  # BOTH fired in this chord (once per chord)
        self._chord_short = False  # a chord that may end as a short one (BOTH press)
        self._now = start
        self._out: list[Recognised] = []

    @property
    def buttons(self) -> tuple[Button, ...]:
        """The buttons being watched."""
        return tuple(self._keys)

    def is_down(self, button: Button) -> bool:
        """The debounced level of `button`."""
        return self._keys[button].down

    @property
    def chord_since(self) -> float | None:
        """When NEXT and ERA went down together, while that hold is on its way to BOTH
        (None: no chord, or BOTH already fired). Lets a screen show the hold's progress."""
        return None if self._chord_fired else self._chord_since

    def edge(self, button: Button, down: bool, t: float) -> None:
        """A raw level change of `button` at time `t` (down = pressed = pin low).

        Everything due before `t` is settled first, so a late `advance` loses nothing. Times
        that go backwards (two callback threads racing for the lock) are clamped to the last
        one seen; repeated edges with the same level are ignored.
        """
        t = max(t, self._now)
        self._settle(t)
        key = self._keys[button]
        if key.raw_down != down:
            key.raw_down = down
            key.raw_since = t

    def advance(self, now: float) -> list[Recognised]:
        """Settle everything due up to `now`; return the gestures since the last call, in order."""
        self._settle(max(now, self._now))
        out, self._out = self._out, []
        return out

    def next_deadline(self) -> float | None:
        """When `advance` may next have something to do without a new edge (None: never)."""
        horizon = self._horizon(self._now)
        times = [key.raw_since + self.bounce_s for key in self._keys.values() if key.settling]
        times += [t for t, _ in self._thresholds() if t < horizon]
        return min(times, default=None)

    # -- internals --

    def _horizon(self, now: float) -> float:
        """When the earliest change still unconfirmed at `now` happened: later is not final."""
        return min(
            (k.raw_since for k in self._keys.values()
             if k.settling and k.raw_since + self.bounce_s > now),
            default=math.inf,
        )

    def _thresholds(self) -> list[tuple[float, Button | None]]:
        """Pending hold thresholds (per button) and the chord's BOTH threshold (None)."""
        due: list[tuple[float, Button | None]] = [
            (key.down_since + self.hold_s, button)
            for button, key in self._keys.items()
            if key.down and not key.hold_fired and not key.quiet
        ]
        if self._chord_since is not None and not self._chord_fired:
            due.append((self._chord_since + self.both_s, None))
        return due

    def _settle(self, now: float) -> None:
        """Process, in the order they happened, every confirmation and threshold due by `now`."""
        while True:
            # A level change is confirmed once stable for bounce_s; it happened at raw_since.
            # Order key 1 vs 0: a threshold at the very instant of a release comes first (a
            # release exactly at hold_s counts as a hold).
            candidates: list[tuple[float, int, Button | None]] = [
                (key.raw_since, 1, button)
                for button, key in self._keys.items()
                if key.settling and key.raw_since + self.bounce_s <= now
            ]
            # A threshold is only final when no still-unconfirmed change happened before it.
            horizon = self._horizon(now)
            candidates += [(t, 0, button) for t, button in self._thresholds()
                           if t <= now and t < horizon]
            if not candidates:
                break
            t, order, button = min(candidates, key=lambda item: (item[0], item[1]))
            if order == 1 and button is not None:
                self._confirm(button, t)
            elif button is None:
                self._chord_fired = True
                self._out.append((t, Input(Button.BOTH, Gesture.HOLD)))
            else:
                self._keys[button].hold_fired = True
                self._out.append((t, Input(button, Gesture.HOLD)))
        self._now = max(self._now, now)

    def _confirm(self, button: Button, t: float) -> None:
        """The raw level of `button` has been stable since `t`: it is now the real level."""
        key = self._keys[button]
        key.down = key.raw_down
        partner = self._partner(button)
        if key.down:
            key.down_since = t
            key.hold_fired = False
            if partner is not None and partner.down:
                # The second of NEXT/ERA went down: a chord, no single gestures from either.
                if not (key.quiet or partner.quiet):  # a new chord (not one re-pressed)
                    self._chord_short = not (key.hold_fired or partner.hold_fired)
                key.quiet = partner.quiet = True
                self._chord_since = t
            return
        if not key.quiet and not key.hold_fired:
            self._out.append((t, Input(button, Gesture.PRESS)))
        if key.hold_fired and button in RAMPED:
            self._out.append((t, Input(button, Gesture.RELEASE)))
        key.quiet = False
        if partner is not None:
            self._chord_since = None  # one let go: no BOTH from this chord (unless re-pressed)
            if not partner.down:
                if self._chord_short and not self._chord_fired:
                    self._out.append((t, Input(Button.BOTH, Gesture.PRESS)))
                self._chord_short = False
                self._chord_fired = False  # both up: the chord is over

    def _partner(self, button: Button) -> _Key | None:
        """The other half of the NEXT/ERA chord, if `button` is one half and both are fitted."""
        if button not in CHORD:
            return None
        other = CHORD[1] if button is CHORD[0] else CHORD[0]
        return self._keys.get(other)
