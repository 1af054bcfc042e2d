"""Game profiles: another round-based game described as data (TOML), read into frozen values.

A profile says what a table needs from the box for one game: how many players, how many
rounds (fixed, per variant such as a long and a short game, or until a player triggers the
end), who starts each round, the phases of a round and their steps, the special rounds that
come after given rounds (with their own steps), the events the players start with a hold,
optional per-phase timers and music, and how the final points are entered and ranked. The format is
documented, key by key, in docs/profiles.md; `machine.py` plays it.

This module only parses text; finding and reading files is `erabox.files.games`'s job.
Every problem raises `ProfileError` naming the file, the line and the key: tomllib gives no
line numbers for keys, so `key_lines` finds them in the text itself.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .eras import MAX_VALUE as MAX_VALUE
from .eras import ORDERS as ORDERS
from .eras import SEAT_RULES as SEAT_RULES
from .eras import Category as Category
from .eras import Era as Era
from .eras import SoloRank as SoloRank
from .eras import Stage as Stage
from .eras import TieBreak as TieBreak
from .eras import parse_eras, parse_scoring, unique
from .game_config import (
    parse_phase_config,
    parse_special_config,
    parse_variant_config,
    parse_variant_setting,
)
from .music_keys import MUSIC_FROM as MUSIC_FROM
from .music_keys import PhaseMusic as PhaseMusic
from .music_keys import parse_music, parse_music_from
from .own_numbers import parse_rounds_config
from .profile_reader import MAX_PLAYERS as MAX_PLAYERS
from .profile_reader import MAX_ROUNDS as MAX_ROUNDS
from .profile_reader import Label as Label
from .profile_reader import ProfileError as ProfileError
from .profile_reader import Step as Step
from .profile_reader import _Reader, check_guide, check_steps, guide_at_setup, variant_per_era
from .profile_reader import shown_steps as shown_steps
from .toml_lines import Path, deepest_line, key_lines, longest_number_line
from .track import PhaseTrack, parse_track

MAX_TIMER_S = 24 * 3600
MAX_PATH = 4096  # the longest music file name
START_RULES = ("pass_left", "pass_right", "none", "random", "fixed", "chosen")
SOUNDS = ("none", "gong", "cry")
TIMER_ENDS = ("wait", "next")  # a countdown run out: wait for NEXT, or go on by itself
PAUSES = ("era_press", "next_hold")  # [buttons] pause: ERA press (undo NEXT hold), or
# NEXT hold as Time of Empires' era (undo then ERA hold where no event can start)
RESUMES = ("running", "paused")  # a countdown after a power cut: going on, or held (ERA)
CALL_SOUNDS = ("gong", "cry", "tick")  # a countdown's call: one of the box's cues, or a file
MAX_FINAL_TICKS = 60
MAX_CALL_PROMPT = 40  # characters of a call's prompt (it is shown over the screen)
ENDS = ("round", "now", "one_more_turn")
ROUND_NUMBER = "{n}"  # where a round's name has its number ("{n}巡目"); else after the name


@dataclass(frozen=True)
class Variant:
    """One way to play (a long or a short game): its rounds, None = until an event ends it."""

    id: str
    label: Label
    rounds: int | None
    start_rule: str | None = None  # `start_player`: the start rule in it (None: the game's)
    start_gong: bool | str | None = None  # true, false, "after_preparation" (None: [rounds]')
    config: str = ""  # "intro": its rounds the config's [intro] rounds (`game_config`)


PROMPT_S = 5.0  # a call's prompt stays this long over the screen by default (`prompt_s`)


@dataclass(frozen=True)
class PhaseCall:
    """A timed call inside a phase's countdown, `at_s` seconds after it starts: its `sound`
    ("gong", "cry", "tick", or the path of the profile's own file) and its `prompt` (None: the
    box's words for it), as a `[[realtime.call]]` of Time of Empires' profile."""

    at_s: float
    sound: str = "cry"
    prompt: Label | None = None
    sound_key: str = field(default="", compare=False)  # "file:line: key" of an own file
    box_prompt: str = ""  # "scholars": the box's own "Appoint scholars!" (no `prompt` then)


@dataclass(frozen=True)
class Phase:
    """A part of every round. `each_player`: played once per player in turn order from the
    start player (a turn), its steps shown for each. `timer_s`: a countdown when the phase
    (or turn) begins, with a gong when it runs out if `gong`; `timer_end` "next": the phase
    (or turn) then ends by itself, as NEXT on its last step would ("wait": it waits for NEXT).
    `music`: plays from the phase's start until play leaves it (an event shown over it does
    not). `final_ticks_s`: a tick each second before the countdown's end; `calls`: timed calls
    inside it (`clock`); `lead_in_s`: a tick each second before a start gong, the
    countdown counting from the gong."""

    id: str
    label: Label
    steps: tuple[Label, ...]
    each_player: bool = False
    timer_s: float | None = None
    gong: bool = True
    music: PhaseMusic | None = None
    timer_end: str = "wait"
    final_ticks_s: int = 0
    calls: tuple[PhaseCall, ...] = ()
    lead_in_s: int = 0  # ticks a second before the countdown's start gong (0: no gong)
    variants: tuple[str, ...] = ()  # played only in these variants (ids; none: in every one)
    next_leaves: bool = True  # NEXT on the last step leaves while the countdown runs
    prompt_s: float = PROMPT_S  # how long a call's prompt stays over the screen
    resume: str = "running"  # after a power cut its countdown comes back running or paused
    music_from: str = "phase"  # "gong": its music plays on the countdown's running time
    hall: bool = False  # a hall's director steers its countdown (`steer`, docs/hall.md)
    track: PhaseTrack | None = None  # a publisher's track holding its cues (`track`)
    guide: bool = False  # played only while the box's first-game guide is on (`guide`)
    config: str = ""  # "realtime": the config's numbers play in its countdown (`game_config`)
    start_gong: bool = False  # its countdown starts on a gong without a lead-in too (not a
    # key: `config = "realtime"`, as Time of Empires' era rings its start gong always)

    def in_variant(self, variant: str) -> bool:
        return not self.variants or variant in self.variants


@dataclass(frozen=True)
class Special:
    """A special round after given rounds (per variant; 0: before round 1, the game's setup,
    once the start player is known): a prompt with its own steps.
    `passes_start_player`: the player on the start player's left starts the rounds after it."""

    id: str
    label: Label
    after: tuple[tuple[int, ...], ...]  # per variant, in the order of `Profile.variants`
    steps: tuple[Label, ...]
    sound: str = "none"  # "none", "gong", "cry", or the path of the profile's own file
    passes_start_player: bool = False
    guide: bool = False  # played only while the box's first-game guide is on (`guide`)
    sound_key: str = field(default="", compare=False)  # "file:line: key" of an own file
    config: str = ""  # "intro": after the config's [intro] scholar rounds (`game_config`)


@dataclass(frozen=True)
class Event:
    """Something the players see happen, not set to a round: started with a hold, once a game.
    `ends`: "" (not the end), "round" (the round it happens in is the last: everyone gets the
    same turns), "now" (straight to the scoring after its steps) or "one_more_turn" (every
    player one more turn of the phase it happens in, from the next player on)."""

    id: str
    label: Label
    steps: tuple[Label, ...]
    sound: str = "none"  # as a special round's
    ends: str = ""
    sound_key: str = field(default="", compare=False)


@dataclass(frozen=True)
class Profile:
    """A whole game profile. Seats are numbered in seating order, clockwise ("left")."""

    id: str
    name: Label
    source: str
    min_players: int
    max_players: int
    round_name: Label
    variants: tuple[Variant, ...]
    start_rule: str
    phases: tuple[Phase, ...]
    specials: tuple[Special, ...] = ()
    events: tuple[Event, ...] = ()
    categories: tuple[Category, ...] = ()
    order: str = "total"
    tie_breaks: tuple[TieBreak, ...] = ()
    stages: tuple[Stage, ...] = ()
    solo_ranks: tuple[SoloRank, ...] = ()
    notes: tuple[Label, ...] = ()  # shown at setup: what the profile leaves to the players
    eras: tuple[Era, ...] = ()  # `[[era]]`: none, one era as always (no standings)
    start_gong: bool = True  # the gong as round 1 starts (at setup, on the standings)
    last_standings: bool = False  # the standings after the last era too, then the ranking
    tie_break_after: str = "scoring"  # "standings": tie-break-only categories asked after them
    variant_per_era: bool = False  # the variant chosen again at each era's setup
    variant_setting: bool = False  # `variant_from_setting`: the box's mode opens each era's
    openings: tuple[int, ...] = ()  # that variant, each era's (`game_config.configured`)
    pause: str = "era_press"  # `[buttons] pause`: the gesture that pauses a countdown
    next_resumes: bool = False  # `[buttons] next_resumes`: NEXT resumes a paused countdown
    restart_era: bool = False  # `[buttons] restart_era`: ERA hold asks to restart the era
    entry: str = "categories"  # `[scoring] entry`: "totals", "setting" (`by_setting`)
    ramp: bool = False  # each category entered with the totals' hold ramp and -1 chord
    guide_at_setup: bool = False  # `[rounds] guide_at_setup`: the guide walked at the setup
    lines: str = "rounds"  # `[game] lines`: "eras", the event lines in Time of Empires' words
    rounds_config: str = ""  # `[rounds] config`: "eras", the config's eras (`own_numbers`)
    scoring_config: str = ""  # `[scoring] config`: "checklist", the config's checklist
    walk: Profile | None = field(default=None, compare=False, repr=False)  # `guide`

    def rule(self, variant: int) -> str:
        """The start rule while the variant `variant` (its index) is played."""
        return self.variants[variant].start_rule or self.start_rule

    def era_rounds(self, variant: int, era: int) -> int | None:
        """The rounds of era `era` (0-based) in the variant `variant` (None: open-ended)."""
        own = self.eras[era].rounds if era < len(self.eras) else None
        return self.variants[variant].rounds if own is None else own

    def first_phase(self, variant: int, start: int = 0) -> int | None:
        """The first phase from index `start` on that the variant `variant` (its index)
        plays; None: none left in the round."""
        ident = self.variants[variant].id
        return next((i for i in range(start, len(self.phases))
                     if self.phases[i].in_variant(ident)), None)

    def category(self, category_id: str) -> Category:
        return next(c for c in self.categories if c.id == category_id)

    def own_sounds(self) -> tuple[tuple[str, str], ...]:
        """The profile's own sound files, (path, "file:line: key" naming it), in order: the
        special rounds', the events', the countdowns' calls'."""
        named = [(s.sound, s.sound_key) for s in self.specials] + [
            (e.sound, e.sound_key) for e in self.events] + [
            (c.sound, c.sound_key) for p in self.phases for c in p.calls]
        return tuple((sound, key) for sound, key in named if key)


def parse_profile(text: str, source: str = "<profile>", default_id: str = "game",
                  base_dir: str | None = None) -> Profile:
    """Parse and check a whole profile, or raise `ProfileError` for its first problem.
    `base_dir`: the profile's folder, where a phase's relative music file name points."""
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = match.group(1) if match else str(max(1, len(text.splitlines())))
        where = f"{source}:{line}"
        problem = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "",
                         str(exc))
        raise ProfileError(f"{where}: not valid TOML: {problem}") from None
    except RecursionError:
        raise ProfileError(f"{source}:{deepest_line(text)}: not valid TOML: arrays or "
                           "inline tables nested too deeply (the deepest nesting is on "
                           "this line)") from None
    except ValueError:
        raise ProfileError(f"{source}:{longest_number_line(text)}: not valid TOML: a "
                           "number too long to convert (this line has the longest)") from None
    r = _Reader(source, key_lines(text), base_dir)
    top = r.table(data, (), ("game", "players", "rounds", "variant", "start_player", "phase",
                             "special", "event", "scoring", "era", "buttons"),
                  ("game", "players", "rounds", "phase"))
    buttons = r.table(top.get("buttons", {}), ("buttons",), ("pause", "next_resumes",
                                                             "restart_era"), ())
    pause = r.choice(buttons.get("pause", "era_press"), ("buttons", "pause"), PAUSES)
    resumes = r.flag(buttons.get("next_resumes", False), ("buttons", "next_resumes"))
    eras = parse_eras(r, top.get("era"))
    r.eras = len(eras)

    game = r.table(top["game"], ("game",), ("id", "name", "notes", "lines"), ("name",))
    words = r.choice(game.get("lines", "rounds"), ("game", "lines"), ("rounds", "eras"))
    profile_id = r.ident(game.get("id", default_id), ("game", "id"))
    name = r.label(game["name"], ("game", "name"))
    notes = r.labels(game.get("notes", []), ("game", "notes"))

    seats = r.table(top["players"], ("players",), ("min", "max"), ("min", "max"))
    low = r.integer(seats["min"], ("players", "min"), 1, MAX_PLAYERS)
    high = r.integer(seats["max"], ("players", "max"), low, MAX_PLAYERS)

    rounds = r.table(top["rounds"], ("rounds",), ("name", "count", "start_gong",
                                                  "variant_per_era", "variant_from_setting",
                                                  "guide_at_setup", "config"), ("name",))
    round_name = _round_name(r, rounds["name"])
    start_gong = r.flag(rounds.get("start_gong", True), ("rounds", "start_gong"))
    variants = _variants(r, rounds, top.get("variant"))
    per_era = variant_per_era(r, rounds, len(variants), len(eras))
    setting = parse_variant_setting(r, rounds, tuple(v.id for v in variants))

    start = r.table(top.get("start_player", {"rule": "none"}), ("start_player",), ("rule",),
                    ("rule",))
    start_rule = r.choice(start["rule"], ("start_player", "rule"), START_RULES)

    phases = tuple(_phase(r, item, at, variants, "variant" in top)
                   for at, item in r.items(top["phase"], ("phase",), "[[phase]] tables"))
    unique(r, [(p.id, ("phase", i, "id")) for i, p in enumerate(phases)])
    for variant in variants:
        if not any(p.in_variant(variant.id) for p in phases):
            raise r.error(("phase",), f"no [[phase]] is played in the variant '{variant.id}' "
                          "(a phase's variants leave it none)")
        check_guide(r, [(i, p.guide) for i, p in enumerate(phases) if p.in_variant(variant.id)],
                    variant.id)
    specials = tuple(_special(r, item, at, variants, "variant" in top) for at, item in
                     r.items(top.get("special", []), ("special",), "[[special]] tables",
                             empty=True))
    unique(r, [(s.id, ("special", i, "id")) for i, s in enumerate(specials)])
    turns = any(p.each_player for p in phases)
    events = tuple(_event(r, item, at, turns) for at, item in
                   r.items(top.get("event", []), ("event",), "[[event]] tables", empty=True))
    unique(r, [(e.id, ("event", i, "id")) for i, e in enumerate(events)])
    named = "variant" in top
    for era in range(1, len(eras) + 1) if eras else (None,):  # a game of eras: era by era
        _check_all_steps(r, (phases, specials, events), variants, range(low, high + 1),
                         named, era, eras)
    if eras:
        _check_eras(r, eras, variants, events, named)
        _check_era_music(r, eras, phases)
    for index, variant in enumerate(variants):
        if variant.rounds is None and not any(e.ends for e in events):
            path: Path = ("variant", index, "rounds") if named else ("rounds", "count")
            raise r.error(path, "no round count and no [[event]] that ends the game (ends = "
                          "\"round\", \"now\" or \"one_more_turn\"): the game would never end")

    walked = guide_at_setup(r, rounds, [(s.guide, s.after) for s in specials],
                            [(p.guide, p.steps) for p in phases])
    scoring = parse_scoring(r, top.get("scoring", {}), high, len(eras))
    return Profile(id=profile_id, name=name, source=source, min_players=low, max_players=high,
                   round_name=round_name, variants=variants, start_rule=start_rule,
                   phases=phases, specials=specials, events=events, notes=notes, eras=eras,
                   start_gong=start_gong, pause=pause, next_resumes=resumes,
                   restart_era=r.flag(buttons.get("restart_era", False),
                                      ("buttons", "restart_era")),
                   variant_per_era=per_era, variant_setting=setting, guide_at_setup=walked,
                   lines=words, rounds_config=parse_rounds_config(r, rounds, len(eras)),
                   **scoring)


def _check_all_steps(r: _Reader, parts: tuple[tuple[Phase, ...], tuple[Special, ...],
                                              tuple[Event, ...]],
                     variants: tuple[Variant, ...], players: range, named: bool,
                     era: int | None, eras: tuple[Era, ...]) -> None:
    """Every step shown somewhere, every case shown a step (`check_steps`), in era `era`
    (None: a game without eras): a phase's and an event's rounds are the era's, a special
    round's those it comes after (0, the game's setup, in the first era only)."""
    def era_rounds(variant: Variant) -> int:
        own = eras[era - 1].rounds if era is not None else None
        return own or variant.rounds or MAX_ROUNDS

    every: dict[str, Sequence[int]] = {v.id: range(1, era_rounds(v) + 1) for v in variants}
    listed: list[tuple[str, tuple[Phase | Special | Event, ...]]] = [
        ("phase", parts[0]), ("special", parts[1]), ("event", parts[2])]
    for key, items in listed:
        for index, item in enumerate(items):
            cases: dict[str, Sequence[int]] = every
            if isinstance(item, Phase):
                cases = {v: n for v, n in every.items() if item.in_variant(v)}
            if isinstance(item, Special):
                cases = {v.id: tuple(n for n in after if n or era in (None, 1))
                         for v, after in zip(variants, item.after, strict=True)}
                if not any(cases.values()):
                    continue  # a setup special round: not in the later eras
            check_steps(r, item.steps, (key, index, "steps"), players, cases, named, era)


def _check_eras(r: _Reader, eras: tuple[Era, ...], variants: tuple[Variant, ...],
                events: tuple[Event, ...], named: bool) -> None:
    """A game of eras knows each era's rounds, and no event ends it early (not played yet)."""
    for index, event in enumerate(events):
        if event.ends:
            raise r.error(("event", index, "ends"), "an event that ends the game is not "
                          "played in a game of [[era]]s (each era has its rounds)")
    for number, era in enumerate(eras):
        for index, variant in enumerate(variants):
            if era.rounds is None and variant.rounds is None:
                path: Path = ("variant", index, "rounds") if named else ("rounds", "count")
                raise r.error(path, f"era {number + 1} has no rounds: give them in its "
                              "[[era]] table (rounds = n) or here")


def _check_era_music(r: _Reader, eras: tuple[Era, ...], phases: tuple[Phase, ...]) -> None:
    """An era's `music` stands in for its phases' own: some phase must have music; its
    `track` for a phase's own track or music on the gong."""
    if not any(p.track or (p.music and p.music_from == "gong" and p.timer_s is not None)
               for p in phases):
        for number, era in enumerate(eras):
            if era.track:
                raise r.error(("era", number, "track"), "an era's track is played instead of "
                              "a phase's: no [[phase]] has a track or music_from = \"gong\"")
    if not any(p.music for p in phases):
        for number, era in enumerate(eras):
            if era.music:
                raise r.error(("era", number, "music"), "an era's music is played instead "
                              "of a phase's: no [[phase]] has music (music = \"file.ogg\")")
    if not any(p.music and p.music.box for p in phases):
        for number, era in enumerate(eras):
            if era.score:  # the box's own era music plays it (`own_game`)
                raise r.error(("era", number, "score"), "an era's score is the box's own era "
                              "music's: no [[phase]] has box_music = true")


def _variants(r: _Reader, rounds: dict[str, Any], listed: Any) -> tuple[Variant, ...]:
    def count(data: Any, path: Path) -> int | None:
        if data == "until_event":
            return None
        if isinstance(data, str):
            raise r.expected(path, f"a number of rounds 1..{MAX_ROUNDS} or \"until_event\"",
                             data)
        return r.integer(data, path, 1, MAX_ROUNDS)

    if listed is None:
        if "count" not in rounds:
            raise r.error(("rounds",), "missing key 'count' (or give [[variant]] tables)")
        label = Label("Game", "ゲーム")
        return (Variant("game", label, count(rounds["count"], ("rounds", "count"))),)
    if "count" in rounds:
        raise r.error(("rounds", "count"), "give the rounds in each [[variant]], not here")
    out = []
    for at, item in r.items(listed, ("variant",), "[[variant]] tables"):
        table = r.table(item, at, ("id", "label", "rounds", "start_player", "start_gong",
                                   "config"),
                        ("id", "label", "rounds"))
        gong = table.get("start_gong")
        if not (gong is None or isinstance(gong, bool) or gong == "after_preparation"):
            raise r.expected((*at, "start_gong"), 'true, false or "after_preparation"', gong)
        rule = (r.choice(table["start_player"], (*at, "start_player"), START_RULES)
                if "start_player" in table else None)
        out.append(Variant(r.ident(table["id"], (*at, "id")), r.label(table["label"],
                                                                      (*at, "label")),
                           count(table["rounds"], (*at, "rounds")), rule, gong,
                           parse_variant_config(r, table, at)))
    unique(r, [(v.id, ("variant", i, "id")) for i, v in enumerate(out)])
    return tuple(out)


def _phase(r: _Reader, item: Any, at: Path, variants: tuple[Variant, ...], named: bool
           ) -> Phase:  # named: the file has [[variant]] tables (a phase's variants need them)
    table = r.table(item, at, ("id", "label", "steps", "each_player", "timer_s", "gong",
                               "timer_end", "music", "music_loop", "final_ticks_s", "call",
                               "lead_in_s", "variants", "next_leaves", "prompt_s",
                               "resume", "music_from", "hall", "track", "track_offset_s",
                               "guide", "config", "box_music"),
                    ("id", "label"))
    only: tuple[str, ...] = ()
    if "variants" in table:
        if not named:
            raise r.error((*at, "variants"), "this game has no [[variant]] tables")
        ids = tuple(v.id for v in variants)
        only = tuple(r.ident(v, p) for p, v in r.items(table["variants"], (*at, "variants"),
                                                       "variant ids"))
        for index, ident in enumerate(only):
            if ident not in ids:
                raise r.expected((*at, "variants", index), "the id of a [[variant]] ("
                                 + ", ".join(ids) + ")", ident)
    label = r.label(table["label"], (*at, "label"))
    steps = r.steps(table.get("steps", []), (*at, "steps")) or (label,)
    for index, item_step in enumerate(steps):
        for k, ident in enumerate(item_step.variants if isinstance(item_step, Step) else ()):
            if only and ident not in only and ident in (v.id for v in variants):
                raise r.error((*at, "steps", index, "variants", k), "never shown: the phase "
                              "is played only in " + ", ".join(repr(v) for v in only))
    timer = table.get("timer_s")
    if "gong" in table and timer is None:
        raise r.error((*at, "gong"), "a gong needs a timer (timer_s)")
    for key in ("timer_end", "final_ticks_s", "call", "lead_in_s", "next_leaves", "prompt_s",
                "resume", "hall"):
        if key in table and timer is None:
            raise r.error((*at, key), f"{key} needs a timer (timer_s)")
    seconds = None if timer is None else r.number(timer, (*at, "timer_s"), MAX_TIMER_S)
    ticks, lead = (_whole_seconds(r, table, at, key) for key in ("final_ticks_s",
                                                                  "lead_in_s"))
    return Phase(id=r.ident(table["id"], (*at, "id")), label=label, steps=steps,
                 each_player=r.flag(table.get("each_player", False), (*at, "each_player")),
                 timer_s=seconds, final_ticks_s=ticks, lead_in_s=lead,
                 calls=() if seconds is None else _calls(r, table.get("call", []), at, seconds),
                 gong=r.flag(table.get("gong", True), (*at, "gong")),
                 music=parse_music(r, table, at),
                 timer_end=r.choice(table.get("timer_end", "wait"), (*at, "timer_end"),
                                    TIMER_ENDS), variants=only,
                 next_leaves=r.flag(table.get("next_leaves", True), (*at, "next_leaves")),
                 prompt_s=r.number(table.get("prompt_s", PROMPT_S), (*at, "prompt_s"), 600),
                 resume=r.choice(table.get("resume", "running"), (*at, "resume"), RESUMES),
                 music_from=parse_music_from(r, table, at),
                 hall=r.flag(table.get("hall", False), (*at, "hall")),
                 track=parse_track(r, table, at, timer is not None),
                 guide=r.flag(table.get("guide", False), (*at, "guide")),
                 config=parse_phase_config(r, table, at))


def _whole_seconds(r: _Reader, table: dict[str, Any], at: Path, key: str) -> int:
    """`final_ticks_s` or `lead_in_s`: whole seconds from 0 to 60, as Time of Empires'."""
    value = table.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FINAL_TICKS:
        raise r.expected((*at, key), f"a whole number of seconds from 0 to {MAX_FINAL_TICKS}",
                         value)
    return value


def _round_name(r: _Reader, data: Any) -> Label:
    """`[rounds] name`: a text, with `{n}` at most once where the number goes."""
    name = r.label(data, ("rounds", "name"))
    for key, text in (("en", name.en), ("ja", name.ja)):
        if text.count("{") != text.count(ROUND_NUMBER) or text.count(ROUND_NUMBER) > 1:
            raise r.expected(("rounds", "name", key) if not isinstance(data, str)
                             else ("rounds", "name"),
                             "a name with at most one {n}, where the round's number goes", text)
    return name


def _calls(r: _Reader, data: Any, at: Path, timer: float) -> tuple[PhaseCall, ...]:
    """A countdown's `[[phase.call]]`s: each `at_s` after the one before and before the end."""
    calls: list[PhaseCall] = []
    for where, item in r.items(data, (*at, "call"), "[[phase.call]] tables", empty=True):
        table = r.table(item, where, ("at_s", "sound", "prompt"), ("at_s",))
        when = table["at_s"]
        if (isinstance(when, bool) or not isinstance(when, int | float) or not 0 < when < timer
                or (calls and when <= calls[-1].at_s)):
            raise r.expected((*where, "at_s"), "seconds into the countdown, above 0, after the "
                             f"call before and before its end ({timer:g} s)", when)
        sound = r.sound(table.get("sound", "cry"), (*where, "sound"), CALL_SOUNDS)
        prompt, box = None, ""
        if table.get("prompt") == "scholars":  # the box's own words, as [[realtime.call]]'s
            box = "scholars"
        elif "prompt" in table:
            prompt = r.label(table["prompt"], (*where, "prompt"))
            for key, text in (("en", prompt.en), ("ja", prompt.ja)):
                if len(text) > MAX_CALL_PROMPT:
                    raise r.expected((*where, "prompt", key), f"a text of at most "
                                     f"{MAX_CALL_PROMPT} characters (it is shown over the "
                                     "screen)", text)
        calls.append(PhaseCall(float(when), sound, prompt, "" if sound in CALL_SOUNDS
                               else r.where((*where, "sound")), box))
    return tuple(calls)


def _special(r: _Reader, item: Any, at: Path, variants: tuple[Variant, ...], named: bool
             ) -> Special:  # named: the file has [[variant]] tables (a message may name one)
    table = r.table(item, at, ("id", "label", "after", "steps", "sound",
                               "passes_start_player", "guide", "config"),
                    ("id", "label", "after"))
    label = r.label(table["label"], (*at, "label"))
    after_data = table["after"]
    if isinstance(after_data, dict):
        ids = tuple(v.id for v in variants)
        r.table(after_data, (*at, "after"), ids, ids)
        after = tuple(_rounds_list(r, after_data[v.id], (*at, "after", v.id), v, named)
                      for v in variants)
    else:
        after = tuple(_rounds_list(r, after_data, (*at, "after"), v, named) for v in variants)
    sound, key = _sound(r, table, at)
    if not any(after):  # one variant's list may be empty (not in that variant), not all
        raise r.error((*at, "after"), "empty: this special round would never come (give the "
                      "rounds it comes after, e.g. after = [4, 8], in one variant at least)")
    return Special(id=r.ident(table["id"], (*at, "id")), label=label, after=after,
                   steps=r.steps(table.get("steps", []), (*at, "steps")) or (label,),
                   passes_start_player=r.flag(table.get("passes_start_player", False),
                                              (*at, "passes_start_player")),
                   sound=sound, sound_key=key,
                   guide=r.flag(table.get("guide", False), (*at, "guide")),
                   config=parse_special_config(r, table, at, variants))


def _rounds_list(r: _Reader, data: Any, path: Path, variant: Variant, named: bool
                 ) -> tuple[int, ...]:
    last = variant.rounds or MAX_ROUNDS
    what = f"a list of increasing round numbers from 0 (before round 1) to {last}"
    if not isinstance(data, list):
        raise r.expected(path, what, data)
    for index, value in enumerate(data):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= last:
            raise r.expected((*path, index), f"a round number from 0 (before round 1) to {last}"
                             + (f" (the rounds of the variant '{variant.id}')" if named
                                else ""), value)
        if index and value <= data[index - 1]:
            raise r.expected((*path, index), what, data)
    return tuple(data)


def _event(r: _Reader, item: Any, at: Path, turns: bool) -> Event:
    """An event; `turns`: the profile has a phase played in turns (`one_more_turn` needs one)."""
    table = r.table(item, at, ("id", "label", "steps", "sound", "ends", "ends_game"),
                    ("id", "label"))
    label = r.label(table["label"], (*at, "label"))
    sound, key = _sound(r, table, at)
    ends = ""
    if "ends" in table:
        if "ends_game" in table:
            raise r.error((*at, "ends_game"), "give 'ends' or its older spelling 'ends_game' "
                          "(= ends = \"round\"), not both")
        ends = r.choice(table["ends"], (*at, "ends"), ENDS)
        if ends == "one_more_turn" and not turns:
            raise r.error((*at, "ends"), "\"one_more_turn\" counts turns: it needs a "
                          "[[phase]] with each_player = true")
    elif r.flag(table.get("ends_game", False), (*at, "ends_game")):
        ends = "round"
    return Event(id=r.ident(table["id"], (*at, "id")), label=label,
                 steps=r.steps(table.get("steps", []), (*at, "steps")) or (label,),
                 sound=sound, sound_key=key, ends=ends)


def _sound(r: _Reader, table: dict[str, Any], at: Path) -> tuple[str, str]:
    """A special round's or event's `sound`: one of `SOUNDS`, or the profile's own file
    (relative to the profile's folder), with where it was named for a warning."""
    sound = r.sound(table.get("sound", "none"), (*at, "sound"), SOUNDS)
    return sound, "" if sound in SOUNDS else r.where((*at, "sound"))

