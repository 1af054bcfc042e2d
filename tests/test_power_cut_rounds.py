"""Every power cut around every call of a round-based game, not a sample: each call heard once,
or, cut in the one window nobody can know about, shown (docs/power-cuts.md, docs/profiles.md
"Power cuts").

A round-based game's calls: the gong at its start (ERA at setup) and at its end (the move into
the scoring), a special round's or an event's sound (NEXT past a round's last step, ERA held),
and a countdown's gong when it runs out (`timer_s`; with `timer_end = "next"` the phase ends by
itself then). The games: every shipped round-based profile, each with its shortest variant, for
3 players and for the most it seats, a profile written here with countdowns of both kinds
(one of them ending the game, one followed at once by a special round's cry), one in two eras
(each era's scoring and standings, the next era's gong; again with each era's variant
chosen at its own setup, `variant_per_era`; again asking era totals, `[scoring] entry =
"totals"`), and one with a
real-time countdown: timed calls (one among its final ticks, one at a tick's very second, one
the profile's own file), final ticks, and a pause held across a step; the same again coming
back from a cut paused (`resume = "paused"`), paused with NEXT held (`[buttons] pause`); and
again playing a publisher's track (`track`: the countdown's calls silent from the box, given
all the same); and README's real-time example, Camp Run (device/erabox/examples/camp-run.toml, its
times scaled: a lead-in, its start gong, two gongs with the game's own prompt, final ticks, the
end gong into the scoring); and Time of Empires' round file, the box's own game, through its
three eras: real time (a crowded era: calls whose windows overlap, one just before the end,
final ticks over them) and, with `make test-deep`, introductory (shortened to 6 rounds).

The enumeration (its `Disk` and `Table`: tests/cut_disk.py) runs over the one
engine seam the driver runs every game through (`ProfileEngine`): effects applied in order, a
durable save on disk before what follows it, a non-durable one on disk or not; a cut between
two steps, or part way through a step (after any number of its effects), with every text the
disk may hold then; every restart reads that text back through the real `StateFile` writer and
loader and the engine's own `parse` and `restore` (no text: a fresh game, as the driver starts
one), and may be cut again before anything else happens. Up to three cuts, each within a few
moves of a call (`WINDOW`), and, around a countdown's end, at every instant of a 1 ms grid from
0.6 s before to 0.1 s after it (the instants between two steps give the same restart: they are
counted, and explored once).

The table plays the game the same way every time: NEXT a second after its last press (two
seconds after a restart), the variant chosen at setup, ERA held at the start of a set round to
start the game's event, and on the last step of a countdown's phase, or of an event shown over
it, it waits for the countdown to run out.
With a real-time countdown, it pauses the countdown (ERA) once its first call has sounded, moves
to the last step while paused (NEXT), resumes it there (ERA) and waits for its end.
A call is named by the move it comes with (where play stands after that step, the countdown's
calls given included, and the sound's place among the step's sounds); the game played once
without a cut lists the calls. A final tick is not a call (as in Time of Empires' era: a cut
gives the seconds back, and their ticks are heard again): each must be heard at least once. What the
table experienced is counted per call: heard (a `PlaySound` applied), shown (a restart came back
at the place that call's move leads to: its special round, event, phase, the countdown shown
run out, the scoring), and whether a cut fell in the one unknowable window (the move's record,
or one further on, on disk, the sound not yet handed over; a countdown's call, its start gong
and its recorded end have their record written ahead of them by the card's lead: from then
until the sound). The promise, for every call at the end of every case: heard at most once,
and heard once or (cut in that window, and shown). The real-time games are played again on a
slow card, the lead wider.

Exhaustive yet cheap: a restart depends only on the disk's text and the table's experience, so
each distinct restart is explored once and the count of cut sequences it stands for added up.
"""

from __future__ import annotations

import functools
import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from cut_disk import Disk, Table
from erabox.adapters.state_file import StateFile
from erabox.core import clock
from erabox.core.config import Config
from erabox.core.deadlines import countdown_start, recorded_ahead
from erabox.core.engine import Effects, ProfileEngine
from erabox.core.guide import guided, walk_here
from erabox.core.model import (
    Button,
    Event,
    FlashCue,
    Gesture,
    Input,
    PlaySound,
    Save,
    Sound,
    Tick,
)
from erabox.core.play import Play, State, last_era, step_index, steps_here
from erabox.core.play_record import snapshot
from erabox.core.profile import Profile, parse_profile, shown_steps
from erabox.core.record import card_lead
from erabox.files.games import shipped_games

DEEP = bool(os.environ.get("ERABOX_TEST_DEEP"))  # make test-deep: wider windows
MAX_CUTS = 3
WINDOW = 3 if DEEP else 2  # moves before and after each call's move in which the cuts fall
BEFORE_MS, AFTER_MS = 600, 100  # the grid around a countdown's end, in ms
BACK_AT = 1000.0  # wall time of every restart
RESUME_AFTER_S = 2.0  # the table's first press after a restart
GAP_S = 1.0  # between two presses of the table
TAIL = "(the disk before the table played on)"
ENDED = (State.SCORING, State.GAME_OVER)


def ended(play: Play) -> bool:
    """The table's play is over: at the last era's scoring (a game without eras: its one)."""
    return play.spot.state in ENDED and last_era(play)

# A game with countdowns of both kinds: "plan" ends by itself after 7 s (a non-durable save of
# its place at 5 s), "act" shows 0 after 2 s until NEXT, "close" ends by itself after 2 s: in
# round 1 straight into a special round with its cry, in round 2 into the scoring (one gong).
# The event is started at round 2's start: "plan" runs out under it (its gong), and ends when
# the event does.
COUNTDOWNS = """
[game]
id = "countdowns"
name = "Countdowns"

[players]
min = 2
max = 5

[rounds]
name = "Round"
count = 2

[start_player]
rule = "pass_left"

[[phase]]
id = "plan"
label = "Plan"
timer_s = 7
timer_end = "next"
steps = ["Plan in secret", "Reveal"]

[[phase]]
id = "act"
label = "Act"
timer_s = 2
steps = ["Act"]

[[phase]]
id = "close"
label = "Close"
timer_s = 2
timer_end = "next"
steps = ["Tidy up"]

[[special]]
id = "market"
label = "Market"
after = [1]
sound = "cry"
steps = ["Buy", "Sell"]

[[event]]
id = "storm"
label = "Storm"
sound = "gong"
steps = ["Take cover"]
"""


# A real-time countdown: "race" runs 12 s with calls at 4 s (the cry and a prompt), 8 s (the
# gong), 10.5 s (the profile's own file, among the final ticks at 9, 10 and 11 s) and 11 s (a
# tick call, at a final tick's very second: the call first), and ends by itself; the table
# pauses it after the first call. "count" shows 0 after 3 s (final ticks at 1 and 2 s only).
REALTIME = """
[game]
id = "relay"
name = "Relay"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 2

[[phase]]
id = "race"
label = "Race"
timer_s = 12
final_ticks_s = 3
timer_end = "next"
steps = ["Run", "Finish"]

[[phase.call]]
at_s = 4
prompt = { en = "Swap runners", ja = "走者交代" }

[[phase.call]]
at_s = 8
sound = "gong"

[[phase.call]]
at_s = 10.5
sound = "horn.wav"

[[phase.call]]
at_s = 11
sound = "tick"

[[phase]]
id = "count"
label = "Count"
timer_s = 3
final_ticks_s = 5
steps = ["Count the laps"]
"""


# A game in two eras (generated from COUNTDOWNS' first phase): each era two rounds, the
# market's cry after round 1 of each, the gong into each era's scoring, its numbers (the
# table confirms 0s), the standings, the gong into era 2 from the start player carried on.
# "plan" has a lead-in: three ticks, then its start gong (a call: on disk before it sounds),
# its 3 s counted from the gong; the market has a step in era 1 only.
ACTS = """
[game]
id = "acts"
name = "Acts"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 2

[start_player]
rule = "pass_left"

[[era]]
label = "Act I"

[[era]]

[[phase]]
id = "plan"
label = "Plan"
timer_s = 3
lead_in_s = 3
timer_end = "next"
steps = ["Plan in secret"]

[[special]]
id = "market"
label = "Market"
after = [1]
sound = "cry"
steps = ["Buy", { en = "Sell the props", ja = "Sell the props", era = 1 }]

[[scoring.category]]
id = "fame"
label = "Fame"

[[scoring.category]]
id = "gold"
label = "Gold"
eras = [2]
"""


def shipped(name: str) -> Profile:
    text = (shipped_games() / f"{name}.toml").read_text(encoding="utf-8")
    return parse_profile(text, f"{name}.toml")


def shortest(profile: Profile) -> int:
    """The variant with the fewest rounds (an open-ended one counts as long)."""
    return min(range(len(profile.variants)),
               key=lambda v: profile.variants[v].rounds or 1_000)


# (profile, variant chosen, round whose start the table holds ERA in: its event, None: none)
GAMES: dict[str, tuple[Profile, int, int | None]] = {}
for _name in ("lords-of-xidit", "hadrians-wall", "altay"):
    _profile = shipped(_name)
    GAMES[_name] = (_profile, shortest(_profile), 2 if _profile.events else None)
_COUNTDOWNS = parse_profile(COUNTDOWNS, "countdowns.toml")
GAMES["countdowns"] = (_COUNTDOWNS, 0, 2)
_REALTIME = parse_profile(REALTIME, "relay.toml")
GAMES["relay"] = (_REALTIME, 0, None)
# the same countdown coming back from a cut paused (`resume = "paused"`), paused and resumed
# by NEXT held (`[buttons] pause = "next_hold"`), as Time of Empires' era
_PAUSED = parse_profile(REALTIME.replace('id = "relay"', 'id = "relay-paused"').replace(
    'timer_end = "next"\nsteps = ["Run"', 'timer_end = "next"\nresume = "paused"\nsteps = ["Run"'
    ).replace('[[phase]]\nid = "race"', '[buttons]\npause = "next_hold"\n\n[[phase]]\nid = "race"'),
    "relay-paused.toml")
assert _PAUSED.phases[0].resume == "paused" and _PAUSED.pause == "next_hold"
GAMES["relay-paused"] = (_PAUSED, 0, None)
# the same countdown playing a publisher's track (`track`): its cues are the track's, silent
# from the box but given as ever (each `PlaySound` names the track: its record, its prompt,
# its flash): a cut gives each once or shows it, as without the track
_TRACK = parse_profile(REALTIME.replace('id = "relay"', 'id = "relay-track"').replace(
    'timer_end = "next"\nsteps = ["Run"', 'timer_end = "next"\ntrack = "relay.ogg"\n'
    'track_offset_s = 2\nsteps = ["Run"'), "relay-track.toml")
assert _TRACK.phases[0].track is not None
GAMES["relay-track"] = (_TRACK, 0, None)
_ACTS = parse_profile(ACTS, "acts.toml")
GAMES["acts"] = (_ACTS, 0, None)
# The same two eras, each choosing its variant at its own setup (`variant_per_era`): era 1
# plans in secret (chosen at the game's setup), era 2 openly (NEXT at its setup, then ERA and
# its gong): a cut on era 2's setup, or in it, comes back to the variant each era chose.
PER_ERA = ACTS.replace('id = "acts"', 'id = "acts-per-era"').replace(
    "count = 2\n", "variant_per_era = true\n" + "".join(
        f'\n[[variant]]\nid = "{v}"\nlabel = "{v}"\nrounds = 2\n' for v in ("secret", "open"))
    ).replace('steps = ["Plan in secret"]', 'steps = [{ en = "Plan in secret", ja = "秘密に", '
              'variants = ["secret"] }, { en = "Plan openly", ja = "公開で", '
              'variants = ["open"] }]')
_PER_ERA = parse_profile(PER_ERA, "acts-per-era.toml")
assert _PER_ERA.variant_per_era and len(_PER_ERA.variants) == 2
GAMES["acts-per-era"] = (_PER_ERA, 0, None)
# The same with the first-game guide on, walked at each era's setup (`guide_at_setup`): the
# game's setup (a special round before round 1) and a step of round 1, each a NEXT before
# ERA; a cut on a step of the guide comes back to that step (the record's `guide`).
_GUIDE = guided(parse_profile(PER_ERA.replace('"acts-per-era"', '"acts-guide"').replace(
    "variant_per_era = true\n", "variant_per_era = true\nguide_at_setup = true\n").replace(
    'steps = [{ en = "Plan in secret"', 'steps = [{ en = "Hide your plans", ja = "隠す", '
    'until_round = 1, guide = true }, { en = "Plan in secret"') + """
[[special]]
id = "setup"
label = "Setup"
after = [0]
guide = true
steps = ["Deal the cards", "Take your pawns"]
""", "acts-guide.toml"), True)
assert _GUIDE.walk is not None
GAMES["acts-guide"] = (_GUIDE, 0, None)
# The same asking era totals (`entry = "totals"`), a step that gives no points shown first
_TOTALS = parse_profile(ACTS.replace("[[scoring.category]]", """[scoring]
entry = "totals"

[[scoring.category]]
id = "sieges"
label = "Sieges"
points = false

[[scoring.category]]""", 1), "acts-totals.toml")
GAMES["acts-totals"] = (_TOTALS, 0, None)
# README's real-time example (tests/test_realtime_example.py): a lead-in, the start gong, two
# gongs that call everyone back with the game's own prompt, ten final ticks and the end gong
# into the scoring (its one step: the table waits for the end, pausing nothing; its pause is
# played in tests/test_realtime_example.py). Its times divided by 20 (a 30 s run, gongs at
# 10 s and 20 s, the second on the first final tick) so the proof runs in seconds: the
# table's steps through the clock cost with its length.
CAMP_RUN = (Path(__file__).parents[1] / "device" / "erabox" / "examples" / "camp-run.toml"
            ).read_text(encoding="utf-8")
_CAMP = parse_profile(CAMP_RUN.replace("timer_s = 600", "timer_s = 30").replace(
    "at_s = 200", "at_s = 10").replace("at_s = 400", "at_s = 20"), "camp-run.toml")
assert [(c.at_s, c.sound) for c in _CAMP.phases[0].calls] == [(10, "gong"), (20, "gong")]
assert (_CAMP.phases[0].timer_s, _CAMP.phases[0].lead_in_s) == (30, 5)
GAMES["camp-run"] = (_CAMP, 0, None)
# Time of Empires' round file, the box's own game (its three eras, each prepared, played and
# scored), as tests/test_power_cut_profiles.py proved its eras on the era engine before its
# removal: its real-time variant with a crowded era (20 s, calls 0.25 s apart whose windows
# overlap, one 0.15 s before the end, five final ticks over them, a 3 s lead-in; about 100 s
# for 3 players, 4 with `make test-deep`), and with `make test-deep` its introductory variant
# (6 rounds an era, the scholars' cry after rounds 2 and 4: over ten minutes).
TOE = (shipped_games() / "time-of-empires.toml").read_text(encoding="utf-8")
_TOE_HEAD, _TOE_REST = TOE.split("[[phase.call]]\n", 1)
_TOE_CROWDED = _TOE_HEAD
for _key, _was, _now in (("timer_s", 540, 20), ("lead_in_s", 5, 3), ("final_ticks_s", 10, 5),
                         ("prompt_s", 15, 3)):
    assert _TOE_CROWDED.count(f"\n{_key} = {_was}") == 1
    _TOE_CROWDED = _TOE_CROWDED.replace(f"\n{_key} = {_was}", f"\n{_key} = {_now}")
_TOE_CROWDED += "".join(f'[[phase.call]]\nat_s = {at}\nsound = "cry"\nprompt = "scholars"\n\n'
                        for at in (2, 2.25, 9.5, 19.85))
_TOE_CROWDED += _TOE_REST[_TOE_REST.index("# Introductory: each round"):]
_INTRO_TEXT = TOE.replace('id = "time-of-empires"', 'id = "time-of-empires-intro"')
for _was, _now in (("rounds = 15\n", "rounds = 6\n"), ("intro = [5, 10]", "intro = [2, 4]")):
    assert _INTRO_TEXT.count(_was) == 1
    _INTRO_TEXT = _INTRO_TEXT.replace(_was, _now)
_TOE = parse_profile(_INTRO_TEXT, "time-of-empires-intro.toml")
_INTRO = next(v for v, each in enumerate(_TOE.variants) if each.id == "intro")
assert _TOE.variants[_INTRO].rounds == 6
GAMES["time-of-empires-intro"] = (_TOE, _INTRO, None)
_CROWDED = parse_profile(_TOE_CROWDED.replace('id = "time-of-empires"',
                                              'id = "time-of-empires-crowded"'),
                         "time-of-empires-crowded.toml")
assert [c.at_s for c in _CROWDED.phases[1].calls] == [2, 2.25, 9.5, 19.85]
assert _CROWDED.variants[0].id == "realtime"
GAMES["time-of-empires-crowded"] = (_CROWDED, 0, None)
TOE_GAMES = ("time-of-empires-intro", "time-of-empires-crowded")
_BY_ID = {profile.id: profile for profile, _, _ in GAMES.values()}
ALL_CASES = [(name, players) for name, (profile, _, _) in GAMES.items()
             for players in sorted({max(3, profile.min_players), profile.max_players})]
# Time of Empires' own cases run from tests/test_power_cut_toe.py: the longest of the suite,
# in a file of their own so that `make test`'s workers (`--dist loadfile`) run them beside these
CASES = [case for case in ALL_CASES if case[0] not in TOE_GAMES]


def key(play: Play, now: float) -> str:
    """Where play stands, as its record says it (the countdown's seconds left aside, its calls
    given counted)."""
    return record_key(snapshot(replace(play, history=()), now))


def record_key(record: dict[str, object]) -> str:
    spot = record["spot"]
    assert isinstance(spot, dict)
    phase = _BY_ID[str(record["game"])].phases[spot["phase"]]
    cues = record.get("timer_cues", 0)
    assert isinstance(cues, int)
    return json.dumps([spot, record["timer_done"], clock.calls_given(phase, cues)],
                      sort_keys=True)


@functools.cache
def text_key(text: str) -> str:
    return record_key(json.loads(text))


TICKS = 10_000  # a final tick's number in the table: this plus its place in the reference


def final_tick(effects: Effects, index: int) -> bool:
    """Is the sound at `index` a countdown's final tick (a tick without a call's flash)?"""
    effect = effects[index]
    return (isinstance(effect, PlaySound) and effect.sound is Sound.TICK
            and not (index + 1 < len(effects) and isinstance(effects[index + 1], FlashCue)))


def tick_name(play: Play, now: float) -> str:
    """A final tick is named by where play stands and the countdown's cues given after it."""
    return json.dumps([key(play, now), play.cues_done])


def cue_times(play: Play) -> list[float]:
    """When the running countdown's calls and its end fall due (each a window of cuts)."""
    start = countdown_start(play)
    if start is None or play.timer_end is None:
        return []
    phase = play.profile.phases[play.spot.phase]
    gong = [start] if phase.lead_in_s else []  # a lead-in's end: the start gong
    return gong + [start + call.at_s for call in phase.calls] + [play.timer_end]


@dataclass(frozen=True)
class Box:
    """The box between two steps: the play, its clock, the table's next press, the disk and
    what the table experienced."""

    play: Play
    now: float
    ready: float  # when the table presses next
    disk: Disk
    table: Table
    deadline: float | None = None  # the last countdown end this box went through

    @functools.cached_property
    def where(self) -> str:
        """Where play stands (`key`): asked several times of one box, worked out once."""
        return key(self.play, self.now)


@dataclass
class Reference:
    """The game played once without a cut: where play stands after each move, in order, and
    the calls (named by the place their move leads to, and their place among its sounds)."""

    order: dict[str, int] = field(default_factory=dict)
    calls: dict[tuple[str, int], int] = field(default_factory=dict)  # name -> index
    at: list[int] = field(default_factory=list)  # each call's move, in `order`
    ticks: dict[str, int] = field(default_factory=dict)  # a final tick's name -> TICKS + n
    paused: bool = False  # the table paused a countdown
    held_by_cut: int = 0  # restarts that came back paused from a running countdown
    leads: list[float] = field(default_factory=list)  # each record written ahead: its lead

    def seen(self, where: str) -> None:
        self.order.setdefault(where, len(self.order))

    def call(self, name: tuple[str, int]) -> None:
        assert name not in self.calls, f"two calls with one name: {name}"
        self.calls[name] = len(self.at)
        self.at.append(self.order[name[0]])


@dataclass
class Enumeration:
    """Every cut sequence over one game, for one number of players."""

    engine: ProfileEngine
    variant: int
    event_round: int | None
    state_file: StateFile
    ref: Reference | None = None
    recording: bool = False  # the game played once without a cut: naming its calls
    write_s: float = 0.0  # the card's measured durable-write time, as the driver gives it
    restarts: int = 0
    shown_silently: int = 0  # endings where a call was shown instead of heard
    _loaded: dict[str | None, dict[str, object] | None] = field(default_factory=dict)
    _explored: dict[tuple[str | None, Table, int], int] = field(default_factory=dict)
    _tails: dict[tuple[object, ...], Box] = field(default_factory=dict)
    _restored: dict[str | None, tuple[Play, Effects]] = field(default_factory=dict)

    # --- the table ----------------------------------------------------------------------------

    def press(self, play: Play) -> Input | None:
        """What the table does next (None: it waits for the countdown to run out)."""
        spot, profile = play.spot, play.profile
        if spot.state in (State.SCORING, State.STANDINGS):  # an era before the last
            return Input(Button.ERA, Gesture.PRESS)  # its numbers 0, then the next era
        if spot.state is State.SETUP:  # (the guide walked there first, `guide_at_setup`)
            if spot.variant != self.variant or walk_here(play):
                return Input(Button.NEXT, Gesture.PRESS)
            return Input(Button.ERA, Gesture.PRESS)
        if spot.state is State.ERA_SETUP:  # `variant_per_era`: the next era the other variant
            if spot.variant == self.variant:
                return Input(Button.NEXT, Gesture.PRESS)
            return Input(Button.ERA, Gesture.PRESS)
        if (spot.state is State.ROUND and spot.round == self.event_round and spot.phase == 0
                and spot.turn == 0 and spot.step == 0
                and profile.events[0].id not in spot.events_done):
            return Input(Button.ERA, Gesture.HOLD)
        last = len(steps_here(play)) - 1
        if spot.state is State.ROUND and profile.phases[spot.phase].calls:  # real time
            paused = play.held_left is not None
            hold = Input(Button.NEXT, Gesture.HOLD)  # the profile's pause gesture
            pause = hold if profile.pause == "next_hold" else Input(Button.ERA, Gesture.PRESS)
            if spot.step < last:  # pause after the first call, then on to the last step
                given = clock.calls_given(profile.phases[spot.phase], play.cues_done)
                if paused:  # held by the table, or back from a cut held before any call
                    return Input(Button.NEXT, Gesture.PRESS) if given else pause
                return pause if given else None
            if paused:  # resume on the last step, then wait for the end
                return pause
        if (spot.state in (State.ROUND, State.EVENT) and step_index(spot) == last
                and play.timer_end is not None):
            return None  # an event over a countdown too: it runs out under the event
        return Input(Button.NEXT, Gesture.PRESS)

    # --- the disk, through the real writer and loader -----------------------------------------

    def read_back(self, text: str | None) -> dict[str, object] | None:
        if text not in self._loaded:
            if text is None:
                self.state_file.path.unlink(missing_ok=True)
            else:
                self.state_file.save(json.loads(text))
                assert self.state_file.flush(5.0) and self.state_file.problem is None
            self._loaded[text] = self.state_file.load_as(self.engine.parse)
            assert self._loaded[text] is not None or text is None, (
                f"the loader refused a record the box wrote: {text}")
        return self._loaded[text]

    # --- calls ----------------------------------------------------------------------------------

    def _call(self, where: str, nth: int) -> int:
        assert self.ref is not None
        name = (where, nth)
        assert name in self.ref.calls, f"a call the game without cuts does not make: {name}"
        return self.ref.calls[name]

    def _given_in(self, text: str | None, call: int) -> bool:
        """Does this disk text already stand at or past the call's move?"""
        assert self.ref is not None
        if text is None:
            return False
        return self.ref.order[text_key(text)] >= self.ref.at[call]

    def _ahead(self, play: Play, table: Table) -> set[int]:
        """The calls not yet heard while the next call's record is written ahead of it (its
        lead, `next_recorded`): a cut then, with that record on disk, is in its window."""
        assert self.ref is not None
        if not recorded_ahead(play):
            return set()
        return {call for call in range(len(self.ref.at)) if not table.times_heard(call)}

    def _cuts(self, disk: Disk, table: Table, unheard: set[int]
              ) -> list[tuple[str | None, Table]]:
        return [(text, replace(table, unknowable=table.unknowable | {
                    call for call in unheard if self._given_in(text, call)}))
                for text in disk.at_a_cut()]

    # --- the driver's rule ------------------------------------------------------------------

    def stepped(self, box: Box, event: Event, now: float, cutting: bool
                ) -> tuple[Box, list[tuple[str | None, Table]]]:
        """One step with its effects in order; with `cutting`, every cut part way through it."""
        play, effects = self.engine.step(box.play, event, now)
        where = key(play, now)
        assert self.ref is not None
        if self.recording:
            self.ref.seen(where)
            self.ref.paused |= play.held_left is not None
        assert where in self.ref.order, f"play went where the game without cuts never did: {where}"
        sounds = [i for i, e in enumerate(effects) if isinstance(e, PlaySound)
                  and not final_tick(effects, i)]
        if self.recording:
            self.ref.leads += [e.by - now for e in effects if isinstance(e, Save) and e.by]
            for nth in range(len(sounds)):
                self.ref.call((where, nth))
        calls = {index: self._call(where, nth) for nth, index in enumerate(sounds)}
        ticks = [i for i in range(len(effects)) if final_tick(effects, i)]
        if ticks:  # named after the step's cues: the last is `cues_done`, back from there
            for back, index in enumerate(reversed(ticks)):
                name = json.dumps([where, play.cues_done - back])
                if self.recording:
                    self.ref.ticks.setdefault(name, TICKS + len(self.ref.ticks))
                assert name in self.ref.ticks, f"a tick the game without cuts has not: {name}"
                calls[index] = self.ref.ticks[name]
        cuts: list[tuple[str | None, Table]] = []
        disk, table = box.disk, box.table
        for index, effect in enumerate(effects):
            if cutting:
                cuts += self._cuts(disk, table, {c for i, c in calls.items()
                                                 if i >= index and c < TICKS}
                                   | self._ahead(box.play, table) | self._ahead(play, table))
            if isinstance(effect, Save):
                disk = disk.save(effect)
            elif index in calls and not (calls[index] >= TICKS
                                         and table.times_heard(calls[index])):
                table = table.hear(calls[index])  # a tick: heard, or heard again
        if cutting:
            cuts += self._cuts(disk, table, self._ahead(play, table))
        ready = now + GAP_S if isinstance(event, Input) else box.ready
        passed = [t for t in cue_times(box.play) if t <= now + 1e-6]
        deadline = max(passed) if passed else box.deadline
        return Box(play, now, ready, disk, table, deadline), cuts

    def in_window(self, box: Box) -> bool:
        assert self.ref is not None
        here = self.ref.order[box.where]
        return any(abs(here - at) <= WINDOW for at in self.ref.at)

    def played_out(self, box: Box, cuts_left: int) -> Box:
        """The table plays on without a cut, to the scoring or (`cuts_left`) into the next
        call's window. The same box plays on the same way whatever the table heard before
        and whatever was on disk before its next durable save: worked out once."""
        play = box.play
        place = (play.spot, play.history, play.timer_end, play.timer_done, play.cues_done,
                 play.held_left, play.ahead, play.prompt,
                 play.prompt_until, play.save_due, play.music_since, play.question_until,
                 box.now, box.ready, box.deadline, cuts_left > 0)
        if place not in self._tails:
            ahead = replace(box, disk=Disk(TAIL), table=Table())
            while not ended(ahead.play) and not (
                    cuts_left and self.in_window(ahead)):
                ahead = self.stepped(ahead, *self.next_step(ahead), cutting=False)[0]
            self._tails[place] = ahead
        ahead = self._tails[place]
        table = box.table
        for call, times in ahead.table.heard:
            for _ in range(times):
                if not (call >= TICKS and table.times_heard(call)):
                    table = table.hear(call)
        disk = ahead.disk
        if disk.landed == TAIL:  # no durable save on the way: what was on disk still may be
            disk = Disk(box.disk.landed, (*box.disk.pending, *disk.pending))
        return replace(ahead, disk=disk, table=table)

    def next_step(self, box: Box) -> tuple[Event, float]:
        """The table's next press, or a deadline falling before it."""
        press = self.press(box.play)
        due = self.engine.next_deadline(box.play, box.now)
        at = max(box.now, box.ready) if press is not None else due
        assert at is not None, "the table waits for a countdown that is not running"
        if press is None or (due is not None and due <= at + 1e-9):
            assert due is not None
            return Tick(), max(box.now, due)
        return press, at

    def between(self, box: Box, until: float) -> int:
        """How many cut instants fall between the step at `box.now` and the next at `until`:
        one, and the grid's instants in that gap around a countdown's end."""
        ends = [*cue_times(box.play), *([] if box.deadline is None else [box.deadline])]
        instants: set[int] = set()
        for end in ends:
            lo = max(round((box.now - end) * 1000) + 1, -BEFORE_MS)
            hi = min(round((until - end) * 1000) - 1, AFTER_MS)
            instants |= set(range(lo, hi + 1))
        return 1 + len(instants)  # and any other instant: the restart is the same

    # --- exploring ------------------------------------------------------------------------------

    def run_on(self, box: Box, cuts_left: int) -> int:
        """From `box`, the table plays on to the scoring; while cuts are left, every point in
        a call's window may be a cut. Returns the cut sequences checked from here."""
        cases = 0
        while True:
            if not cuts_left or not self.in_window(box):
                box = self.played_out(box, cuts_left)
            cutting = cuts_left > 0 and self.in_window(box)
            if ended(box.play):
                break
            event, at = self.next_step(box)
            if cutting:
                weight = self.between(box, at)
                cases += weight * sum(self.restart(t, tb, cuts_left - 1)
                                      for t, tb in self._cuts(box.disk, box.table,
                                                              self._ahead(box.play, box.table)))
            box, cuts = self.stepped(box, event, at, cutting)
            cases += sum(self.restart(t, tb, cuts_left - 1) for t, tb in cuts)
        if cuts_left and self.in_window(box):  # cut at the scoring
            cases += sum(self.restart(t, tb, cuts_left - 1)
                         for t, tb in self._cuts(box.disk, box.table, set()))
        self.finish(box)
        return cases + 1

    def restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        k = (text, table, cuts_left)
        if k not in self._explored:
            try:
                self._explored[k] = self._restart(text, table, cuts_left)
            except AssertionError as exc:
                raise AssertionError(f"after a cut with {text} on disk:\n{exc}") from None
        return self._explored[k]

    def _restart(self, text: str | None, table: Table, cuts_left: int) -> int:
        """The power came back with `text` on disk: the driver's start (a fresh game without
        a record); then the table plays on, or the power fails again before anything else."""
        self.restarts += 1
        assert self.ref is not None
        saved = self.read_back(text)
        effects: Effects
        if saved is None:
            play, effects = self.engine.fresh(BACK_AT, 0)
            play = self.engine.with_write_time(play, self.write_s)  # the driver's start
        else:
            if text not in self._restored:  # pure: once per text
                self._restored[text] = self.engine.restore(saved, BACK_AT)
            play, effects = self._restored[text]
            play = self.engine.with_write_time(play, self.write_s)
            self.ref.held_by_cut += play.held_left is not None and not saved.get("timer_paused")
            where = key(play, BACK_AT)
            came_back = {call for (name, _), call in self.ref.calls.items() if name == where}
            table = replace(table, shown=table.shown | came_back)
        assert not any(isinstance(e, PlaySound | Save) for e in effects), (
            "a restart neither sounds nor saves")
        cases = 0
        if cuts_left:  # cut again before anything else happened
            cases += self.restart(text, table, cuts_left - 1)
        box = Box(play, BACK_AT, BACK_AT + RESUME_AFTER_S, Disk(text), table)
        return cases + self.run_on(box, cuts_left)

    def finish(self, box: Box) -> None:
        """The play is at its scoring: every call given exactly once, or shown."""
        assert self.ref is not None
        table = box.table
        for call in range(len(self.ref.at)):
            heard = table.times_heard(call)
            assert heard <= 1, f"call {self.describe(call)} heard {heard} times: {table}"
            assert heard == 1 or (call in table.unknowable and call in table.shown), (
                f"call {self.describe(call)} lost: {table}")
            self.shown_silently += heard == 0
        for tick in self.ref.ticks.values():
            assert table.times_heard(tick) >= 1, f"final tick {tick - TICKS} lost: {table}"

    def describe(self, call: int) -> str:
        assert self.ref is not None
        name = next(n for n, c in self.ref.calls.items() if c == call)
        spot, done, given = json.loads(name[0])
        return (f"#{call} (sound {name[1]} of the move to {spot['state']}: round "
                f"{spot['round']}, phase {spot['phase']}, step {spot['step']}"
                f"{', its countdown run out' if done else ''}"
                f"{f', {given} of its calls given' if given else ''})")


def explore(profile: Profile, players: int, variant: int, event_round: int | None,
            folder: Path, write_s: float = 0.0) -> tuple[int, int, int, int, Reference]:
    """(cut sequences, distinct restarts, calls, endings where a call was shown instead of
    heard, the game played without a cut) over one game for `players` players, on a card
    whose durable writes take `write_s`."""
    config = Config(players=tuple(f"P{n + 1}" for n in range(players)))
    engine = ProfileEngine(profile, config)
    state_file = StateFile(folder / "state.json")
    try:
        run = Enumeration(engine, variant, event_round, state_file, ref=Reference(),
                          write_s=write_s)
        play = engine.with_write_time(engine.fresh(0.0, 0)[0], write_s)
        start = Box(play, 0.0, 0.0, Disk(None), Table())
        assert run.ref is not None
        run.ref.seen(key(play, 0.0))
        run.recording = True
        run.run_on(start, 0)
        run.recording = False
        cases = run.run_on(start, MAX_CUTS)
    finally:
        state_file.close()
    return cases, run.restarts, len(run.ref.at), run.shown_silently, run.ref


def same_moves(profile: Profile, players: int) -> bool:
    """Does the game show the same steps and turns for `players` as for 3 (then the moves,
    the calls and the cuts are the same: the run for 3 stands for it)?"""
    def moves(n: int) -> tuple[object, ...]:
        lists = [p.steps for p in profile.phases] + [s.steps for s in profile.specials] + [
            e.steps for e in profile.events]
        steps = [shown_steps(each, n) for each in lists]
        return (*steps, any(p.each_player for p in profile.phases) and n)

    return players != 3 and moves(players) == moves(3)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_cut_around_every_call_of_a_round_game_gives_each_call_once(
        name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile, variant, event_round = GAMES[name]
    if same_moves(profile, players) and not DEEP:
        pytest.skip(f"the same moves as for 3 players (make test-deep plays {players})")
    if name in TOE_GAMES and (players != 3 or name.endswith("intro")) and not DEEP:
        pytest.skip("Time of Empires' three whole eras: make test-deep plays it")
    started = time.perf_counter()
    cases, restarts, calls, silent, ref = explore(profile, players, variant, event_round,
                                                  tmp_path)
    with capsys.disabled():
        print(f"\n{name}, {players} players: {calls} calls, {cases:,} cut sequences checked "
              f"({restarts:,} distinct restarts) in {time.perf_counter() - started:.1f} s")
    assert calls >= 2  # the start and end gongs at least
    assert cases > calls * 100
    assert silent > 0  # the unknowable window was reached: a call shown, not sounded
    if name in TOE_GAMES:  # three eras, each into the next by its scoring and standings
        spots = [json.loads(k)[0] for k in ref.order]
        assert {len(spot.get("past", ())) for spot in spots} == {0, 1, 2}  # every era played
        assert calls >= 3 * 2  # each era's start and end gongs at least
        return
    if profile.eras:  # through era 1's scoring and standings into era 2, by the saved past
        stands = [json.loads(k)[0] for k in ref.order if '"standings"' in k]
        assert stands and not any(spot.get("past") for spot in stands)
        assert any(json.loads(k)[0].get("past") for k in ref.order)
        assert len(ref.ticks) == 3 * 2 * 2  # the lead-in's three ticks, 2 rounds x 2 eras
    if profile.variant_per_era:  # era 2's setup, its variant chosen, and era 2 played in it
        spots = [json.loads(k)[0] for k in ref.order]
        assert any(spot["state"] == "era_setup" and spot["variant"] == 1 for spot in spots)
        assert any(spot["state"] == "round" and spot["variant"] == 1
                   and spot.get("past_variants") == [0] for spot in spots)
    if profile.id == "camp-run":  # its start gong, two calls and end gong; 5 + 10 ticks
        assert calls == 4 and len(ref.ticks) == 5 + 10 and not ref.paused
    elif profile.phases[0].calls:  # the real-time countdown: paused, and ticked
        assert ref.paused and len(ref.ticks) == 2 * (3 + 2)  # race 9-11, count 1-2; x2
        # `resume = "paused"`: cuts in the running race came back held, the table resuming
        assert (ref.held_by_cut > 0) == (profile.phases[0].resume == "paused")


def test_a_countdown_shown_run_out_is_on_disk_before_its_gong() -> None:
    """The finding of the enumeration above, shown in one step: a countdown that shows 0 until
    NEXT ("act") used to sound its gong and then save itself run out (not waited for), so a
    cut after the gong came back to the countdown running and sounded the gong again."""
    engine = ProfileEngine(_COUNTDOWNS, Config(players=("P1", "P2", "P3")))
    play, _ = engine.fresh(0.0, 0)
    play, _ = engine.step(play, Input(Button.ERA, Gesture.PRESS), 0.0)  # "plan", 7 s
    play, _ = engine.step(play, Input(Button.NEXT, Gesture.PRESS), 1.0)
    play, _ = engine.step(play, Tick(), 7.0)  # "plan" ends by itself: "act", 2 s
    assert _COUNTDOWNS.phases[play.spot.phase].id == "act" and play.timer_end == 9.0
    assert play.timer_end is not None
    play, effects = engine.step(play, Tick(), play.timer_end)
    kinds = [type(e).__name__ for e in effects]
    assert kinds[:2] == ["Save", "PlaySound"], kinds
    record = effects[0]
    assert isinstance(record, Save) and record.durable
    assert record.snapshot["timer_done"] is True and record.snapshot["timer_left"] is None
    assert not any(isinstance(e, Save) for e in effects[2:])  # saved once


SLOW_S = 0.15  # a slow card's durable writes: a call's record goes 0.4 s ahead of it


@pytest.mark.parametrize("name", ["countdowns", "relay", "relay-paused", "relay-track",
                                  "acts", "camp-run"])
def test_on_a_slow_card_every_cut_in_a_call_s_wider_lead_gives_it_once_or_shows_it(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same enumeration on a card whose writes take `SLOW_S`: every countdown's call (its
    start gong, its calls, its recorded end) has its record written `card_lead` (0.4 s) ahead,
    and every cut in that wider window comes back showing it, never sounding it twice."""
    profile, variant, event_round = GAMES[name]
    started = time.perf_counter()
    cases, restarts, calls, silent, ref = explore(profile, 3, variant, event_round, tmp_path,
                                                  SLOW_S)
    with capsys.disabled():
        print(f"\n{name} on a slow card ({SLOW_S} s writes), 3 players: {calls} calls, "
              f"{cases:,} cut sequences checked ({restarts:,} distinct restarts) in "
              f"{time.perf_counter() - started:.1f} s")
    assert silent > 0 and cases > calls * 100
    lead = card_lead(SLOW_S)
    assert lead >= 0.4 - 1e-9 and ref.leads  # the records went ahead by the card's lead
    assert max(ref.leads) == pytest.approx(lead)
    assert all(0.0 < each <= lead + 1e-9 for each in ref.leads)

