"""Every power cut around every cue, not a sample: a scholar call is never lost and never
doubled (docs/power-cuts.md, "The windows").

For each call of a real-time era (each cry and the end gong) at running time T, the test
enumerates every cut instant on a 1 ms grid of running time from T - 0.6 s to T + 0.1 s, and
every sequence of up to three cuts:

- a cut may fall between two steps of the loop, or part way through a step's effects (after
  any number of them);
- at each cut, every save that could be on disk is tried: the last durable save (the loop
  waited for it), or any non-durable save issued after it (the writer may have written it or
  not);
- after each restart the table either resumes (NEXT) or the power fails again while the box is
  still paused; after resuming, the next cut may again fall at any grid instant from the
  restored running time to T + 0.1 s, or part way through the resume itself.

The box is the pure core driven as the loop drives it (`step` at every deadline, effects in
order, a durable save on disk before what follows it), and every restart reads the disk's
text back through the real writer and loader (`StateFile` on a real file: `loads` checks the
record against the era's cue list).

What the table experienced is counted per call: heard (a `PlaySound` applied), shown (the table
resumed with the call's scholar prompt on screen, or came back into the era's scoring), and
whether a cut fell in the one window nobody can know about (the "sounded" record on disk, the
sound not yet handed over). The promise, for every call of the era, at the end of every case:
heard at most once, and heard once or (heard zero times, cut in that window, and shown).

Exhaustive yet cheap: the core is pure and a restart depends only on the disk's text and what
the table has experienced so far, so each distinct restart is explored once and the count of
the cut sequences it stands for is added up (`functools.cache`). The count printed is the
number of cut sequences checked; the number of distinct restarts explored is printed beside it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config, IntroConfig, RealtimeConfig
from erabox.core.machine import (
    Game,
    new_game,
    next_deadline,
    restore,
    sounded_lead,
    step,
    timeline,
    with_write_time,
)
from erabox.core.model import (
    Button,
    Effect,
    Event,
    Gesture,
    Input,
    Mode,
    Phase,
    PlaySound,
    Prompt,
    Save,
    Sound,
    Tick,
)
from erabox.core.snapshot import dumps

BEFORE_MS, AFTER_MS = 600, 100  # the window around each cue, in ms of running time
# A slow card: its measured durable-write time makes the box record a call "sounded" further
# ahead (`sounded_lead`); the window before the call grows with it (`window_before_ms`).
SLOW_CARDS = {"two cries": (0.5, 1.0), "crowded": (0.5,)}
MAX_CUTS = 3
BACK_AT = 1000.0  # wall time of every restart: a restored era is paused, so any will do
RESUME_AFTER_S = 2.0  # the table resumes this long after a restart

# The era (cries at 10 and 20 s of 25), and a crowded one: two cries 0.3 s apart (their
# windows overlap), final ticks, and a cry 0.2 s before the end gong.
CONFIGS = {
    "two cries": Config(guide=False, default_mode=Mode.REALTIME, realtime=RealtimeConfig(
        length_s=25.0, scholar_cues_s=(10.0, 20.0), lead_in_s=0, final_ticks_s=0)),
    "crowded": Config(guide=False, default_mode=Mode.REALTIME, realtime=RealtimeConfig(
        length_s=12.0, scholar_cues_s=(3.0, 3.3, 11.8), lead_in_s=0, final_ticks_s=3,
        scholar_prompt_s=4.0)),
}


INTRO = Config(guide=False, default_mode=Mode.INTRO,
               intro=IntroConfig(rounds=8, scholar_after_rounds=(2, 4, 6)))
END = INTRO.intro.rounds  # the introductory era's end, as a call (scholar calls: their round)


@dataclass(frozen=True)
class Disk:
    """The state file: the last save surely on disk, and later saves that may be."""

    landed: str | None
    pending: tuple[str, ...] = ()

    def save(self, effect: Save) -> Disk:
        text = dumps(effect.snapshot)
        return Disk(text) if effect.durable else Disk(self.landed, (*self.pending, text))

    def at_a_cut(self) -> tuple[str | None, ...]:
        """Every text the file may hold if the power fails now."""
        return tuple(dict.fromkeys((self.landed, *self.pending)))


@dataclass(frozen=True)
class Table:
    """What the players experienced, per call (its index in the era's timeline)."""

    heard: tuple[tuple[int, int], ...] = ()  # (call, times heard), sorted
    shown: frozenset[int] = frozenset()  # given by the screen after a restart
    unknowable: frozenset[int] = frozenset()  # a cut between its "sounded" record and sound

    def hear(self, call: int) -> Table:
        counts = dict(self.heard)
        counts[call] = counts.get(call, 0) + 1
        return replace(self, heard=tuple(sorted(counts.items())))

    def times_heard(self, call: int) -> int:
        return dict(self.heard).get(call, 0)


@dataclass(frozen=True)
class Box:
    """The box between two steps: the game, its clock, its disk, the table."""

    game: Game
    now: float
    disk: Disk
    table: Table


@dataclass
class Enumeration:
    """The cases around one call of one config's era: the promise checked at every leaf."""

    config: Config
    lo_ms: int  # the window, in ms of running time
    hi_ms: int
    state_file: StateFile
    write_s: float = 0.0  # the card's measured durable-write time, as the driver gives it
    restarts: int = 0
    _loaded: dict[str | None, dict[str, object] | None] = field(default_factory=dict)
    _explored: dict[tuple[str | None, Table, int], int] = field(default_factory=dict)

    # --- the disk, through the real writer and loader -----------------------------------------

    def read_back(self, text: str | None) -> dict[str, object] | None:
        """What the real state file gives back after `text` was written (cached by text)."""
        if text not in self._loaded:
            if text is None:
                self.state_file.path.unlink(missing_ok=True)
            else:
                self.state_file.save(json.loads(text))
                assert self.state_file.flush(5.0) and self.state_file.problem is None
            self._loaded[text] = self.state_file.load(self.config)
            assert self._loaded[text] is not None or text is None, (
                f"the loader refused a record the box wrote: {text}")
        return self._loaded[text]

    # --- the loop's rule -------------------------------------------------------------------------

    def stepped(self, box: Box, event: Event, now: float, cutting: bool
                ) -> tuple[Box, list[tuple[str | None, Table]]]:
        """One step with its effects in order; with `cutting`, every cut part way through it
        (after 0..n effects, with every text the disk may hold then)."""
        before = box.game
        game, effects = step(before, event, now)
        calls = self._calls(before, effects)
        cuts: list[tuple[str | None, Table]] = []
        disk, table = box.disk, box.table
        waiting = (self._waiting_calls(before) | self._waiting_calls(game)) - set(calls.values())
        for index, effect in enumerate(effects):
            if cutting:
                cuts += self._cuts_at(disk, table, calls, index, waiting)
            if isinstance(effect, Save):
                disk = disk.save(effect)
            elif isinstance(effect, PlaySound) and calls.get(index) is not None:
                table = table.hear(calls[index])
        if cutting:
            cuts += self._cuts_at(disk, table, calls, len(effects), waiting)
        return Box(game, now, disk, table), cuts

    def _waiting_calls(self, game: Game) -> set[int]:
        """The era's next call, not handed over yet: its "sounded" record may be on disk
        ahead of it (written `SOUNDED_LEAD_S` before it)."""
        if game.phase is not Phase.RUNNING:
            return set()
        cues = timeline(self.config)
        if game.cues_done >= len(cues) or not cues[game.cues_done].recorded:
            return set()
        return {game.cues_done}

    def _calls(self, before: Game, effects: tuple[Effect, ...]) -> dict[int, int]:
        """Which call each sound of a step is: effect index -> index in the timeline (the
        sounds of a running era's step are its cues, in order; ticks are not calls)."""
        if before.phase is not Phase.RUNNING:
            return {}
        cues = timeline(self.config)
        calls, fired = {}, before.cues_done
        for index, effect in enumerate(effects):
            if isinstance(effect, PlaySound):
                if cues[fired].recorded:
                    calls[index] = fired
                fired += 1
        return calls

    def _cuts_at(self, disk: Disk, table: Table, calls: dict[int, int],
                 applied: int, waiting: set[int]) -> list[tuple[str | None, Table]]:
        cuts = []
        for text in disk.at_a_cut():
            unheard = {call for index, call in calls.items() if index >= applied}
            unheard |= waiting
            unknowable = {call for call in unheard if self._sounded_in(text, call)}
            cuts.append((text, replace(table, unknowable=table.unknowable | unknowable)))
        return cuts

    def _sounded_in(self, text: str | None, call: int) -> bool:
        """Does this disk text already say the call was given (its "sounded" record; for the
        end gong, the era's scoring)?"""
        if text is None:
            return False
        record = json.loads(text)
        if timeline(self.config)[call].ends_era:
            return bool(record["phase"] == Phase.SCORING.value)
        return bool(record.get("sounded") == call)

    # --- exploring ------------------------------------------------------------------------------

    def run_on(self, box: Box, cuts_left: int) -> int:
        """From `box` (a running era), run on as the loop does. Every grid instant in the
        window, and every point part way through a step in it, may be a cut. Returns the
        number of cases (cut sequences) checked from here."""
        cases = 0
        grid = self.lo_ms  # the next grid instant, in ms of running time
        anchor = box.game.anchor
        assert anchor is not None
        while cuts_left:
            if box.game.anchor is not None:
                anchor = box.game.anchor  # after the end gong: the era's last clock
            while grid <= self.hi_ms and anchor + grid / 1000 < box.now - 1e-9:
                grid += 1  # already past (the era resumed later than that)
            if grid > self.hi_ms:
                break
            cut_time = anchor + grid / 1000
            due = next_deadline(box.game, box.now) if box.game.phase is Phase.RUNNING else None
            if due is None or cut_time < due - 1e-9:  # a cut between two steps
                cases += sum(self.restart(text, table, cuts_left - 1) for text, table in
                             self._cuts_at(box.disk, box.table, {}, 0,
                                           self._waiting_calls(box.game)))
                grid += 1
                continue
            in_window = (due - anchor) * 1000 >= self.lo_ms - 1e-6
            box, cuts = self.stepped(box, Tick(), max(box.now, due), cutting=in_window)
            if abs(cut_time - due) < 1e-9:
                grid += 1  # that instant's cuts were part way through this step
            cases += sum(self.restart(text, table, cuts_left - 1) for text, table in cuts)
        self.finish(box)
        return cases + 1

    def restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        """The power came back with `text` on disk: the cases from here (each distinct
        restart is explored once)."""
        key = (text, table, cuts_left)
        if key not in self._explored:
            try:
                self._explored[key] = self._restart(text, table, cuts_left)
            except AssertionError as exc:
                raise AssertionError(f"after a cut with {text} on disk:\n{exc}") from None
        return self._explored[key]

    def _restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        """The table resumes, or the power fails again while the box is paused (the
        restore's own save on disk or not)."""
        self.restarts += 1
        saved = self.read_back(text)
        assert saved is not None, "a real-time era's window is long after the first save"
        game, effects = restore(saved, self.config, BACK_AT)
        game = with_write_time(game, self.write_s)  # the driver's `_follow_card` at start
        box, cuts = self.stepped_restore(Box(game, BACK_AT, Disk(text), table), effects,
                                         cutting=cuts_left > 0)
        cases = sum(self.restart(t, tb, cuts_left - 1) for t, tb in cuts)
        if game.phase is Phase.SCORING:  # came back after the end gong: its screen is shown
            gong = len(timeline(self.config)) - 1
            box = replace(box, table=replace(box.table, shown=box.table.shown | {gong}))
        if game.phase is not Phase.PAUSED:
            self.finish(box)
            return cases + 1
        if cuts_left:  # cut again while paused: the restore's save landed or not
            cases += sum(self.restart(t, box.table, cuts_left - 1)
                         for t in box.disk.at_a_cut())
        if box.game.prompt is Prompt.SCHOLARS:
            # The table resumes with a call's prompt on screen: that call is given.
            call = box.game.cues_done - 1
            box = replace(box, table=replace(box.table, shown=box.table.shown | {call}))
        box, cuts = self.stepped(box, Input(Button.NEXT, Gesture.PRESS),
                                 BACK_AT + RESUME_AFTER_S, cutting=cuts_left > 0)
        cases += sum(self.restart(t, tb, cuts_left - 1) for t, tb in cuts)
        return cases + self.run_on(box, cuts_left)

    def stepped_restore(self, box: Box, effects: tuple[Effect, ...], cutting: bool
                        ) -> tuple[Box, list[tuple[str | None, Table]]]:
        """A restart's effects in order, cut part way through as a step is."""
        disk, cuts = box.disk, []
        for effect in effects:
            assert not isinstance(effect, PlaySound), "a restart never sounds a cue"
            if cutting:
                cuts += [(t, box.table) for t in disk.at_a_cut()]
            if isinstance(effect, Save):
                disk = disk.save(effect)
        return replace(box, disk=disk), cuts

    def finish(self, box: Box) -> None:
        """No more cuts: the era runs to its end; then every call was given exactly once."""
        while box.game.phase is Phase.RUNNING:
            due = next_deadline(box.game, box.now)
            assert due is not None
            box, _ = self.stepped(box, Tick(), max(box.now, due), cutting=False)
        assert box.game.phase is Phase.SCORING, box.game.phase
        table = box.table
        for call, cue in enumerate(timeline(self.config)):
            if not cue.recorded:
                continue
            heard = table.times_heard(call)
            assert heard <= 1, f"call {call} heard {heard} times: {table}"
            assert heard == 1 or (call in table.unknowable and call in table.shown), (
                f"call {call} lost: {table}")



def window_before_ms(write_s: float) -> int:
    """How far before a call the cuts start: before its "armed" record, and before its
    "sounded" record however far ahead the card makes it."""
    lead = sounded_lead(with_write_time(new_game(Config()), write_s))
    return max(BEFORE_MS, round(lead * 1000) + AFTER_MS)


def explore(config: Config, folder: Path, write_s: float = 0.0) -> tuple[int, int]:
    """Every case around every call of `config`'s era: (cut sequences, distinct restarts)."""
    total = restarts = 0
    state_file = StateFile(folder / "state.json")
    try:
        for cue in timeline(config):
            if not cue.recorded:
                continue
            at_ms = round(cue.at * 1000)
            run = Enumeration(config, at_ms - window_before_ms(write_s), at_ms + AFTER_MS,
                              state_file, write_s)
            box = Box(with_write_time(new_game(config), write_s), 0.0, Disk(None), Table())
            box, _ = run.stepped(box, Input(Button.ERA, Gesture.PRESS), 0.0, cutting=False)
            assert box.game.phase is Phase.RUNNING  # no lead-in: the era runs from 0
            total += run.run_on(box, MAX_CUTS)
            restarts += run.restarts
    finally:
        state_file.close()
    return total, restarts


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_cut_sequence_around_every_cue_gives_each_call_exactly_once(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    cases, restarts = explore(CONFIGS[name], tmp_path)
    took = time.perf_counter() - started
    with capsys.disabled():
        print(f"\n{name}: {cases:,} cut sequences checked ({restarts:,} distinct restarts "
              f"explored) in {took:.1f} s")
    calls = sum(1 for c in timeline(CONFIGS[name]) if c.recorded)
    grid = BEFORE_MS + AFTER_MS + 1
    # Every instant for the first cut, and (from most restarts) every later one after it.
    assert cases > calls * grid ** 2


@pytest.mark.parametrize(("name", "write_s"),
                         [(name, w) for name, slow in SLOW_CARDS.items() for w in slow])
def test_on_a_slow_card_every_cut_sequence_still_gives_each_call_exactly_once(
        name: str, write_s: float, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The card's durable writes take `write_s`: the "sounded" record goes that much
    further ahead (its window overlaps the "armed" one, or replaces it), and every cut
    sequence over the wider window still gives each call once."""
    started = time.perf_counter()
    cases, restarts = explore(CONFIGS[name], tmp_path, write_s)
    with capsys.disabled():
        print(f"\n{name}, writes of {write_s} s: {cases:,} cut sequences checked "
              f"({restarts:,} distinct restarts explored) in "
              f"{time.perf_counter() - started:.1f} s")
    calls = sum(1 for c in timeline(CONFIGS[name]) if c.recorded)
    assert cases > calls * (window_before_ms(write_s) + AFTER_MS + 1) ** 2


# --- introductory eras: every cut part way through every press, up to three deep ----------------


@dataclass
class IntroEnumeration:
    """An introductory era has no timed cues: its calls (the cry after rounds 2, 4 and 6, the
    end gong after round 8) come from presses, each durable before its sound. Every cut
    between two presses and part way through every step, up to three deep, with every save
    that may be on disk; the table presses NEXT again whenever it finishes what the screen
    shows (a press that did not survive a cut is simply made again)."""

    config: Config
    state_file: StateFile
    restarts: int = 0
    _explored: dict[tuple[str | None, Table, int], int] = field(default_factory=dict)
    _loaded: dict[str, dict[str, object] | None] = field(default_factory=dict)

    def stepped(self, box: Box, event: Event, now: float
                ) -> tuple[Box, list[tuple[str | None, Table]]]:
        before = box.game
        game, effects = step(before, event, now)
        calls = {index: (before.round or 0) if effect.sound is Sound.CRY else END
                 for index, effect in enumerate(effects)
                 if isinstance(effect, PlaySound) and before.phase is Phase.INTRO_ROUND}
        cuts: list[tuple[str | None, Table]] = []
        disk, table = box.disk, box.table
        for index in range(len(effects) + 1):
            for text in disk.at_a_cut():
                unknowable = {call for at, call in calls.items()
                              if at >= index and self._given_in(text, call)}
                cuts.append((text, replace(table, unknowable=table.unknowable | unknowable)))
            if index == len(effects):
                break
            effect = effects[index]
            if isinstance(effect, Save):
                disk = disk.save(effect)
            elif index in calls:
                table = table.hear(calls[index])
        return Box(game, now, disk, table), cuts

    def _given_in(self, text: str | None, call: int) -> bool:
        if text is None:
            return False
        record = json.loads(text)
        if call == END:
            return bool(record["phase"] == Phase.SCORING.value)
        return bool(record["phase"] == Phase.SCHOLARS.value and record["round"] == call)

    def play_on(self, box: Box, cuts_left: int) -> int:
        """The table plays on (NEXT every second), cut anywhere while `cuts_left`."""
        cases = 0
        while box.game.phase is not Phase.SCORING:
            now = box.now + 1.0
            while (due := next_deadline(box.game, box.now)) is not None and due <= now:
                box, cuts = self.stepped(box, Tick(), max(box.now, due))
                if cuts_left:
                    cases += sum(self.restart(t, tb, cuts_left - 1) for t, tb in cuts)
            if box.game.phase is Phase.SCHOLARS:  # the table appoints, then presses on
                assert box.game.round is not None
                box = replace(box, table=replace(box.table, shown=box.table.shown
                                                 | {box.game.round}))
            box, cuts = self.stepped(box, Input(Button.NEXT, Gesture.PRESS), now)
            if cuts_left:
                cases += sum(self.restart(t, tb, cuts_left - 1) for t, tb in cuts)
        self.finish(box)
        return cases + 1

    def restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        key = (text, table, cuts_left)
        if key not in self._explored:
            try:
                self._explored[key] = self._restart(text, table, cuts_left)
            except AssertionError as exc:
                raise AssertionError(f"after a cut with {text} on disk:\n{exc}") from None
        return self._explored[key]

    def _restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        self.restarts += 1
        assert text is not None, "the era began with a durable save"
        if text not in self._loaded:
            self.state_file.save(json.loads(text))
            assert self.state_file.flush(5.0)
            self._loaded[text] = self.state_file.load(self.config)
        saved = self._loaded[text]
        assert saved is not None, f"the loader refused a record the box wrote: {text}"
        game, effects = restore(saved, self.config, BACK_AT)
        assert not any(isinstance(e, PlaySound) for e in effects), "a restart never sounds"
        assert all(not isinstance(e, Save) for e in effects)
        seen = dict(table.heard)  # rounds never go back: not before a call already given
        if game.round is not None:
            assert all(game.round >= call for call in seen if call != END), (game.round, seen)
        if game.phase is Phase.SCORING:
            table = replace(table, shown=table.shown | {END})
        box = Box(game, BACK_AT, Disk(text), table)
        cases = 0
        if cuts_left:  # cut again before anyone pressed anything
            cases += self.restart(text, table, cuts_left - 1)
        return cases + self.play_on(box, cuts_left)

    def finish(self, box: Box) -> None:
        table = box.table
        for call in (*self.config.intro.scholar_after_rounds, END):
            heard = table.times_heard(call)
            assert heard <= 1, f"call {call} heard {heard} times: {table}"
            assert heard == 1 or (call in table.unknowable and call in table.shown), (
                f"call {call} lost: {table}")


def test_every_cut_sequence_in_an_introductory_era_gives_each_call_exactly_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    state_file = StateFile(tmp_path / "state.json")
    try:
        run = IntroEnumeration(INTRO, state_file)
        box = Box(new_game(INTRO), 0.0, Disk(None), Table())
        box, _ = run.stepped(box, Input(Button.ERA, Gesture.PRESS), 0.0)
        assert box.game.phase is Phase.INTRO_ROUND and box.disk.landed is not None
        cases = run.play_on(box, MAX_CUTS)
    finally:
        state_file.close()
    with capsys.disabled():
        print(f"\nintroductory era: {cases:,} cut sequences checked ({run.restarts:,} distinct "
              f"restarts explored) in {time.perf_counter() - started:.1f} s")
    assert cases > 10_000
