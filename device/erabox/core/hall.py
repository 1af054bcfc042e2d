"""A hall of boxes in step: the pure part (docs/hall.md).

No clock, no network: times come in as numbers. Three things live here.

- **Commands as data.** The director's `Command`: start, pause, resume or end the era at an
  instant of the hall's clock (`at`), with the hall's running time at that instant
  (`running_s`). It travels as JSON signed with the hall key (HMAC-SHA256 over the body's
  canonical JSON): `encode` and `decode`; `decode` raises `Rejected` (one line saying why) for
  anything malformed, unsigned, wrongly signed or of another hall. Every command carries a
  sequence number; a box obeys each number once and never an older one (`Ledger`), so
  duplicates, late copies and replays change nothing. `HallState` is what the newest command
  says the hall is doing (running from a zero instant, paused at a running time, ended), which
  is all a box needs to come back in step after a restart.
- **The clock's sync.** `ClockSync` estimates the hall's clock from the box's: each round trip
  through the broker gives (t1 sent, t2 the director's clock when it answered, t3 received).
  Round trips are taken in blocks; each block keeps only its shortest (the one the network
  delayed least, whose midpoint is nearest the truth); a line through the blocks' best samples
  gives the offset and the rate (the boxes' crystals differ by up to a few hundred ppm).
- **Slewing.** `correction` says how far to move a running era's anchor toward where the hall
  says it belongs: small errors are spread out (`SLEW_S` at most per step), so no table hears
  a jump; only a large one (a box coming back) is set at once.
- **Keeping a table in step.** `keep_in_step` is the box's link's decision each `SLEW_EVERY_S`,
  on a `Table`: what the link reads of the game the box plays (Time of Empires' era,
  `steer.table_of`, or a round game's `hall = true` countdown, `steer.table_of`), so
  both are kept in step by the one rule.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any

from .model import Phase, Steer, SteerAction

ACTIONS = (SteerAction.START, SteerAction.PAUSE, SteerAction.RESUME, SteerAction.END)
MAX_PAYLOAD = 4096  # bytes: anything longer is not a command
STATUS_EVERY_S = 1.0  # a box's status to the director
SYNC_EVERY_S = 0.5  # a box's round trip, once in step (faster while it has few samples)
SYNC_FAST_S = 0.1  # ... while it has fewer than `BLOCK` * 2 samples
BLOCK = 8  # round trips per block; each block keeps its shortest
BLOCKS = 16  # blocks the line is fitted through (about two minutes)
MAX_RATE = 500e-6  # a rate estimate is clamped to this (crystals are within ~100 ppm)
# A rate needs a long line: over a short one the samples' few milliseconds of error make
# hundreds of ppm. Until the blocks' best samples span this long, the rate is taken as 0 and
# the offset from the newest best sample.
MIN_SPAN_S = 30.0
SLEW_EVERY_S = 0.5  # how often a running era's anchor is corrected
SLEW_S = 0.002  # at most this per correction (0.4 % of the time: nothing a table hears)
STEP_S = 0.25  # an error larger than this is set at once (a box coming back, a first join)
QUIET_S = 0.0005  # an error smaller than this is left alone
CUE_CLEAR_S = 0.5  # no small correction this close before a call (its record is on disk)


class Rejected(ValueError):
    """A message that is not a command this hall obeys. The text says why, in one line."""


@dataclass(frozen=True)
class Command:
    """The director's order to every table: `action` at the hall's instant `at`, when the
    hall's running time is `running_s`. `seq` orders commands (newer is larger)."""

    id: str
    seq: int
    hall: str
    action: SteerAction
    at: float
    running_s: float = 0.0
    era: int = 0  # the era the director meant (shown; boxes act on their own era)


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def _mac(body: dict[str, Any], key: bytes) -> str:
    return hmac.new(key, _canonical(body), hashlib.sha256).hexdigest()


def encode(command: Command, key: bytes) -> bytes:
    """The signed JSON a command travels as."""
    body = asdict(command) | {"action": command.action.value}
    return json.dumps({"body": body, "sig": _mac(body, key)}, sort_keys=True).encode()


def decode(payload: bytes, key: bytes, hall: str) -> Command:
    """The command in `payload`, checked: well-formed, signed with `key`, for `hall`."""
    if len(payload) > MAX_PAYLOAD:
        raise Rejected(f"a message of {len(payload)} bytes is no command")
    try:
        message = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise Rejected("a message that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("body"), dict):
        raise Rejected("a message with no command body")
    body, sig = message["body"], message.get("sig")
    if not isinstance(sig, str):
        raise Rejected("an unsigned command")
    if not hmac.compare_digest(sig, _mac(body, key)):
        raise Rejected("a command whose signature does not match the hall key")
    try:
        command = Command(id=str(body["id"]), seq=_int(body["seq"]), hall=str(body["hall"]),
                          action=SteerAction(body["action"]), at=_finite(body["at"]),
                          running_s=_finite(body.get("running_s", 0.0)),
                          era=_int(body.get("era", 0)))
    except (KeyError, ValueError, TypeError) as exc:
        raise Rejected(f"a signed command that is malformed ({exc})") from None
    if command.action not in ACTIONS or command.running_s < 0:
        raise Rejected(f"a signed command that is malformed ({command.action.value})")
    if command.hall != hall:
        raise Rejected(f"a command for the hall {command.hall!r}, not {hall!r}")
    return command


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _finite(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a finite number")
    return float(value)


@dataclass
class Ledger:
    """Which commands a box has obeyed: each sequence number once, never an older one."""

    last_seq: int = -1

    def accept(self, command: Command) -> bool:
        """Whether `command` is new (and, if so, it is recorded as obeyed)."""
        if command.seq <= self.last_seq:
            return False
        self.last_seq = command.seq
        return True


@dataclass(frozen=True)
class HallState:
    """What the newest command says the hall is doing."""

    action: SteerAction | None = None  # None: no command yet
    at: float = 0.0
    running_s: float = 0.0

    @classmethod
    def of(cls, command: Command) -> HallState:
        return cls(command.action, command.at, command.running_s)

    @property
    def running(self) -> bool:
        return self.action in (SteerAction.START, SteerAction.RESUME)

    def running_at(self, hall_t: float) -> float | None:
        """The hall's running time at `hall_t` (held while paused; None outside an era)."""
        if self.running:
            return max(0.0, self.running_s + hall_t - self.at)
        if self.action is SteerAction.PAUSE:
            return self.running_s
        return None


def next_command(state: HallState, action: SteerAction, hall_now: float, lead_s: float,
                 seq: int, command_id: str, hall: str, era: int = 0) -> Command | None:
    """The director's command for `action`, `lead_s` ahead of `hall_now`; None when it makes
    no sense in `state` (a pause while not running, a resume while not paused)."""
    at = hall_now + lead_s
    running = state.running_at(at)
    if action is SteerAction.START:
        running = 0.0
    elif not {SteerAction.PAUSE: state.running,
              SteerAction.RESUME: state.action is SteerAction.PAUSE,
              SteerAction.END: running is not None}.get(action, False):
        return None
    return Command(id=command_id, seq=seq, hall=hall, action=action, at=at,
                   running_s=running or 0.0, era=era)


# --- the clock's sync ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One round trip: sent at `t1` and received at `t3` on the box's clock, answered at `t2`
    on the hall's."""

    t1: float
    t2: float
    t3: float

    @property
    def rtt(self) -> float:
        return self.t3 - self.t1

    @property
    def mid(self) -> float:
        return (self.t1 + self.t3) / 2


@dataclass
class ClockSync:
    """The hall's clock as seen from the box's: hall = offset + (1 + rate) * (local - ref)."""

    best: deque[Sample] = field(default_factory=lambda: deque(maxlen=BLOCKS))
    block: list[Sample] = field(default_factory=list)
    count: int = 0
    ref: float = 0.0
    offset: float = 0.0
    rate: float = 0.0
    settled: bool = False  # the estimate stands on a line long enough for a rate

    @property
    def ready(self) -> bool:
        """Whether a command's instant can be placed on the box's clock yet."""
        return self.count > 0

    def add(self, sample: Sample) -> None:
        if not (sample.rtt >= 0 and math.isfinite(sample.t2)):
            return
        self.count += 1
        self.block.append(sample)
        if len(self.block) >= BLOCK:
            self.best.append(min(self.block, key=lambda s: s.rtt))
            self.block = []
        self._fit()

    def _fit(self) -> None:
        points = list(self.best)
        if self.block:  # the block under way counts with its best so far
            points.append(min(self.block, key=lambda s: s.rtt))
        if len(points) < 3 or points[-1].mid - points[0].mid < MIN_SPAN_S:
            # too short a line for a rate: the better of the newest two blocks' best
            shortest = min(points[-2:], key=lambda s: s.rtt)
            self.ref, self.offset, self.rate = shortest.mid, shortest.t2, 0.0
            self.settled = False
            return
        self.settled = True
        xs = [p.mid for p in points]
        ys = [p.t2 for p in points]
        ref = sum(xs) / len(xs)
        mean = sum(ys) / len(ys)
        sxx = sum((x - ref) ** 2 for x in xs)
        slope = 1.0 if sxx <= 0 else sum(
            (x - ref) * (y - mean) for x, y in zip(xs, ys, strict=True)) / sxx
        self.ref, self.offset = ref, mean
        self.rate = min(MAX_RATE, max(-MAX_RATE, slope - 1.0))

    def hall_of(self, local: float) -> float:
        """The hall's clock at the box's `local` time."""
        return self.offset + (1.0 + self.rate) * (local - self.ref)

    def local_of(self, hall_t: float) -> float:
        """The box's clock at the hall's `hall_t`."""
        return self.ref + (hall_t - self.offset) / (1.0 + self.rate)

    @property
    def best_rtt(self) -> float | None:
        points = list(self.best) + self.block
        return min(p.rtt for p in points) if points else None


def correction(anchor: float, wanted: float) -> float | None:
    """Where a running era's anchor moves next on its way to `wanted` (the box's time at the
    hall's running time zero), or None to leave it: errors under `QUIET_S` stay, errors over
    `STEP_S` are set at once, the rest move by `SLEW_S` at most."""
    error = wanted - anchor
    if abs(error) < QUIET_S:
        return None
    if abs(error) > STEP_S:
        return wanted
    return anchor + max(-SLEW_S, min(SLEW_S, error))


# --- keeping a table in step ----------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What the link reads of the game a box plays, for `keep_in_step`: where the running
    clock the hall steers stands (`phase`: RUNNING, PAUSED, SETUP waiting for the hall's
    start, LEAD_IN, or any other the hall leaves alone; None: nothing the hall steers);
    running, the box's time at running time zero (`anchor`) and at its next cue (`next_cue`,
    None when none is left); `where`: which clock (each its own rejoin order)."""

    phase: Phase | None
    anchor: float | None = None
    next_cue: float | None = None
    where: tuple[int, ...] = ()


Rejoin = tuple[Phase | None, SteerAction | None, tuple[int, ...]]


@dataclass(frozen=True)
class InStep:
    """`keep_in_step`'s outcome: the order to hand the box (None: none), whether the table
    keeps its own time (it paused or resumed alone), the rejoin order last sent and which
    clock (`Table.where`) was seen held with the hall's pause since its last command."""

    order: Steer | None
    detached: bool
    sent_rejoin: Rejoin | None
    held: tuple[int, ...] | None = None


def keep_in_step(table: Table, state: HallState, hall_running: float | None, hall_now: float,
                 now: float, pause_alone: bool, detached: bool,
                 sent_rejoin: Rejoin | None, held: tuple[int, ...] | None = None) -> InStep:
    """Correct a running clock's anchor toward the hall's running time (`hall_running` at the
    box's `now`, the hall's `hall_now`); bring a table whose clock is not where the hall's is
    back in line (once per mismatch); leave a table that paused or resumed alone
    (`pause_alone`) to its own time until the hall's next command.

    While the hall is paused, a table seen held with it (`held`: that clock) and running
    again resumed alone; one running that was never seen held (a box back from a power cut
    running, a countdown whose start gong came after the hall's pause) is paused at the
    hall's time. The caller forgets `held` at each command."""
    if (state.action is SteerAction.PAUSE and table.phase is Phase.PAUSED
            and hall_running is not None):
        held = table.where  # held with the hall
    stay = InStep(None, detached, sent_rejoin, held)
    if hall_running is None:
        return stay
    if state.running and state.running_s + hall_now - state.at < 0:
        return stay  # the start is still ahead: the lead-in is laid out for it
    phase = table.phase
    if state.running and phase is Phase.RUNNING and table.anchor is not None:
        if detached:
            return stay
        moved = correction(table.anchor, now - hall_running)
        if moved is not None and table.next_cue is not None and abs(
                moved - table.anchor) <= SLEW_S and 0 <= table.next_cue - now < CUE_CLEAR_S:
            return stay  # a call is about to sound (its record is on disk): after it
        if moved is not None:
            return InStep(Steer(SteerAction.SLEW, now, now - moved), detached, sent_rejoin)
        return stay
    if state.running and phase is Phase.PAUSED and pause_alone:
        return InStep(None, True, sent_rejoin, held)  # it paused itself: its own time now
    if (state.action is SteerAction.PAUSE and phase is Phase.RUNNING and pause_alone
            and held == table.where):
        return InStep(None, True, sent_rejoin, held)  # it resumed itself: the same
    wanted = {Phase.PAUSED: SteerAction.RESUME, Phase.SETUP: SteerAction.START}.get(
        phase) if phase is not None else None
    if not state.running:
        wanted = SteerAction.PAUSE if phase is Phase.RUNNING and (
            state.action is SteerAction.PAUSE) else None
    rejoin = (phase, state.action, table.where)
    if wanted is None or sent_rejoin == rejoin or detached:
        return stay
    return InStep(Steer(wanted, now, hall_running), detached, rejoin, held)
