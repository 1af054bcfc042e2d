"""Cues reach the mixer half a period before they are due (`audio_plan.output_lead_s`).

The real `Box` loop runs on a virtual clock: its inbox is replaced by one where waiting moves
the clock on by exactly the wait, so when the loop woke and what `now` it gave the game are
known to the microsecond, however busy this machine is.
"""

from __future__ import annotations

import math
import queue
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from erabox.core.audio_plan import output_lead_s
from erabox.core.config import AudioConfig, Config
from erabox.core.events import PlayRecorder
from erabox.core.model import Button, Effect, Gesture, Input, PlaySound, Sound, Tick
from erabox.ports import InboxItem, Stop
from erabox.run.app import Box
from erabox.run.driver import MemoryState


class VirtualClock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class VirtualInbox:
    """The loop's inbox on a virtual clock: items arrive at their times; a wait moves the
    clock to the next item or by the whole timeout."""

    def __init__(self, clock: VirtualClock, items: Sequence[tuple[float, InboxItem]]) -> None:
        self.clock = clock
        self.items = sorted(items, key=lambda item: item[0])
        self.idle_waits = 0  # waits in a row that found nothing and moved no time: a spin
        self.timeouts = 0  # waits that ended with nothing in the inbox: the loop's own wake-ups

    def put(self, item: InboxItem) -> None:
        self.items.insert(0, (self.clock.t, item))

    def get(self, timeout: float | None = None) -> InboxItem:
        limit = math.inf if timeout is None else self.clock.t + timeout
        if self.items and self.items[0][0] <= limit:
            at, item = self.items.pop(0)
            self.clock.t = max(self.clock.t, at)
            return item
        if timeout is None:
            raise AssertionError("the loop would wait forever")
        self.timeouts += 1
        self.idle_waits = self.idle_waits + 1 if timeout <= 0 else 0
        if self.idle_waits > 1000:
            raise AssertionError("the loop spins: it keeps waking for a deadline it never steps")
        self.clock.t = limit
        raise queue.Empty


class HeardAudio:
    """An `AudioPort` that notes, for every cue, the clock when the loop handed it over and
    the `now` it came with."""

    problem: str | None = None

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self.cues: list[tuple[Sound, float, float]] = []  # (sound, handed over at, now)

    def apply(self, effects: Sequence[Effect], now: float) -> None:
        for effect in effects:
            if isinstance(effect, PlaySound):
                self.cues.append((effect.sound, self.clock.t, now))

    def close(self) -> None:
        pass


def run_box(config: Config, items: Sequence[tuple[float, InboxItem]], *,
            sound: bool = True) -> tuple[Box, HeardAudio, list[dict[str, Any]]]:
    clock = VirtualClock(100.0)
    audio = HeardAudio(clock)
    events: list[dict[str, Any]] = []
    box = Box(config, state_file=MemoryState(), audio=audio if sound else None,
              play_events=PlayRecorder(events.append), clock=clock)
    box.inbox = VirtualInbox(clock, items)  # type: ignore[assignment]
    box.ticks = 0  # type: ignore[attr-defined]
    step = box._step

    def counted(event: Input | Tick, now: float, due: float | None) -> None:
        box.ticks += isinstance(event, Tick)  # type: ignore[attr-defined]
        step(event, now, due)

    box._step = counted  # type: ignore[method-assign]
    box.start_game()
    box.run_loop()
    return box, audio, events


ERA = Input(Button.ERA, Gesture.PRESS)


def test_the_lead_is_half_a_period() -> None:
    assert output_lead_s(AudioConfig()) == pytest.approx(512 / 44100 / 2)
    assert output_lead_s(AudioConfig(rate=48000, buffer=1024)) == pytest.approx(1024 / 48000 / 2)


@pytest.mark.parametrize("buffer", [256, 512, 2048])
def test_timed_cues_reach_the_mixer_half_a_period_early_stamped_with_their_own_time(
        buffer: int) -> None:
    config = Config()
    config = replace(config, audio=replace(config.audio, buffer=buffer))
    lead = buffer / config.audio.rate / 2
    press = 101.0
    box, audio, _ = run_box(config, [(press, ERA), (press + 12.0, Stop("test"))])
    assert box.lead_s == pytest.approx(lead)
    # one wake-up per deadline: each one a lead early, none more
    assert box.inbox.timeouts == box.ticks  # type: ignore[attr-defined]
    lead_in = config.realtime.lead_in_s
    due = [press + k for k in range(lead_in)] + [press + lead_in]  # ticks, then the gong
    sounds = [Sound.TICK] * lead_in + [Sound.GONG]
    heard = audio.cues[: len(due)]
    assert [sound for sound, _, _ in heard] == sounds
    # the first tick answers the press itself: it cannot go early
    assert heard[0][1] == pytest.approx(press) and heard[0][2] == pytest.approx(press)
    for (_, handed, now), when in zip(heard[1:], due[1:], strict=True):
        assert now == pytest.approx(when, abs=1e-9)  # the game's time: the schedule's
        assert handed == pytest.approx(when - lead, abs=1e-9)  # the mixer's: a lead early


def test_without_sound_nothing_is_early() -> None:
    box, _, events = run_box(Config(), [(101.0, ERA), (113.0, Stop("test"))], sound=False)
    assert box.lead_s == 0.0
    gong = next(e for e in events if e.get("sound") == "gong")
    assert gong["t"] == pytest.approx(101.0 - 100.0 + Config().realtime.lead_in_s, abs=1e-3)


def test_a_press_inside_the_lead_is_stamped_at_the_deadline_never_before() -> None:
    config = Config()
    lead = output_lead_s(config.audio)
    press = 101.0
    gong_due = press + config.realtime.lead_in_s
    nudge = Input(Button.NEXT, Gesture.PRESS)
    _, audio, events = run_box(config, [(press, ERA), (gong_due - lead / 2, nudge),
                                        (gong_due + 2.0, Stop("test"))])
    gong = next(handed for sound, handed, _ in audio.cues if sound is Sound.GONG)
    assert gong == pytest.approx(gong_due - lead)
    inputs = [e["t"] for e in events if e.get("type") == "input"]
    times = [e["t"] for e in events]
    assert times == sorted(times)  # the event stream never goes back in time
    assert inputs[-1] == pytest.approx(gong_due - 100.0, abs=1e-3)  # at the gong, not before
