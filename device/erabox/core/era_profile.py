"""A game in eras on a running clock, read from its profile: Time of Empires as data.

`games/time-of-empires.toml` holds the rulebook's numbers: the eras, the real-time action
phase (its length, lead-in, final ticks, the timed calls and how long their prompt stays), the
introductory era (its rounds and the calls after given rounds), the preparation's numbers and
the scoring checklist. The box's clock, calls and records play what this module reads: the
real-time and introductory numbers become the defaults of the config, so
a copy of the profile with a 6:00 era and three cries plays those times, with no Python
changed. The config's own `[realtime]` and `[intro]` keys still win over the profile.

The preparation guide (the game's setup and each era's preparation: its steps by player
count, era and mode, and the wonders and bonus tokens it counts) is the profile's too
(`Config.prep`, handed in the same way); a step says one of the box's own texts
(`rules.GUIDE_TEXTS`, in English and Japanese). So is the scoring checklist's play: which
steps give points and how many times a step's number counts (`Config.checklist`). The number
of eras (1 to `MAX_ERAS`: `Config.eras`) and each real-time call's sound (the box's gong, cry
or tick, or a sound file of the profile's own, beside it: `Call.file`) and prompt (the box's
"Appoint scholars!" or the profile's own text, English and Japanese:
`RealtimeConfig.calls`) are the profile's too, so a profile in this format may
describe another real-time game (README's second example); so is each era's own music
(`[[era]] music` and `score`, files beside it: `EraProfile.music`, the config's
`AudioConfig.game_eras`; without them the box's, `audio_plan.music_era`). The seats, the
checklist's six steps (their texts are the box's), the final tie-break and the introductory
call (the cry, "Appoint scholars") are checked against the ones this engine plays
(`rules.py`): a profile that changes them is refused with the file, line and key, until the
engine takes them from the profile too.

Pure: parses text; finding and reading the file is `erabox.files.games`'s job. Every problem
raises `ProfileError` naming the file, the line and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from . import rules
from .config import Call, Checklist, IntroConfig, PrepNumbers, RealtimeConfig
from .model import GameMusic, Sound
from .profile_reader import Label, ProfileError, _Reader, _shown
from .rules import GUIDE_NUMBERS, GUIDE_TEXTS, GuideRow
from .toml_lines import Path, key_lines

CALL_SOUNDS = tuple(s.value for s in Sound)  # a real-time call sounds one of the box's cues
CALL_PROMPTS = ("scholars",)  # and shows the box's prompt, or the profile's own text
INTRO_SOUNDS = ("cry",)  # an introductory era's call: the baby's cry, "Appoint scholars"
MAX_ERAS = rules.MAX_ERAS
MAX_PROMPT = 40  # characters of a call's own prompt text
MAX_ERA_S = 24 * 3600
MAX_WONDERS = 12  # the game's wonder cards
MAX_BONUS_VP = 9  # a construction bonus token's VP per building, as the guide shows it
# The scoring checklist this engine plays: (id, gives points, multiply), docs/game.md.
SCORING_IDS = ("destruction", "construction_bonus", "leaders", "wonders",
               "cultural_influence", "city_sieges")


@dataclass(frozen=True)
class EraProfile:
    """A game in eras: its name, seats, and the numbers of its two ways to play an era."""

    id: str
    name: Label
    source: str
    min_players: int
    max_players: int
    eras: int  # the game's eras, 1 to MAX_ERAS
    realtime: RealtimeConfig
    intro: IntroConfig
    prep: PrepNumbers
    checklist: Checklist
    sound_files: tuple[tuple[str, str], ...] = ()  # (a call's own file, "file:line: key")
    music: tuple[GameMusic, ...] = ()  # each era's own music, () when no era names any
    music_files: tuple[tuple[str, str], ...] = ()  # (an era's music file, "file:line: key")


def is_era_profile(data: dict[str, Any]) -> bool:
    """A parsed TOML table is a profile of this kind when it has `[[era]]` tables and no
    `[[phase]]` (a round profile may have eras too: docs/profiles.md, "Eras")."""
    return "era" in data and "phase" not in data


def parse_era_profile(text: str, source: str = "<profile>", default_id: str = "game",
                      base_dir: str | None = None) -> EraProfile:
    """Parse and check a whole profile of this kind, or raise `ProfileError`. `base_dir`:
    the profile's folder, where a call's relative sound file name points."""
    data = tomllib.loads(text.removeprefix("\ufeff"))  # the caller has checked it parses
    r = _Reader(source, key_lines(text.removeprefix("\ufeff")), base_dir)
    top = r.table(data, (), ("game", "players", "era", "setup", "preparation", "realtime",
                             "intro", "scoring"),
                  ("game", "players", "era", "realtime", "intro", "scoring"))
    game = r.table(top["game"], ("game",), ("id", "name"), ("name",))
    profile_id = r.ident(game.get("id", default_id), ("game", "id"))
    name = r.label(game["name"], ("game", "name"))
    seats = r.table(top["players"], ("players",), ("min", "max"), ("min", "max"))
    low = _fixed(r, seats["min"], ("players", "min"), rules.MIN_PLAYERS)
    high = _fixed(r, seats["max"], ("players", "max"), rules.MAX_PLAYERS)

    eras = list(r.items(top["era"], ("era",), "[[era]] tables"))
    if len(eras) > MAX_ERAS:
        raise r.error(("era",), f"a game of 1 to {MAX_ERAS} eras, got {len(eras)} "
                      "[[era]] tables")
    wonders, bonus, music = [], [], []
    music_files: list[tuple[str, str]] = []
    for at, item in eras:
        era = r.table(item, at, ("wonders", "bonus_token_vp", "music", "score"))
        wonders.append(r.integer(era.get("wonders", 0), (*at, "wonders"), 0, MAX_WONDERS))
        bonus.append(r.integer(era.get("bonus_token_vp", 0), (*at, "bonus_token_vp"), 0,
                               MAX_BONUS_VP))
        # the era's own music: a file's name, relative to the profile's folder
        own = {key: r.sound(era[key], (*at, key), ()) for key in ("music", "score") if key in era}
        music.append(GameMusic(**own))
        music_files += [(file, r.where((*at, key))) for key, file in own.items()]
    prep = PrepNumbers(wonders=tuple(wonders), bonus_token_vp=tuple(bonus),
                       setup=_guide(r, top.get("setup", {}), "setup", len(eras)),
                       steps=_guide(r, top.get("preparation", {}), "preparation", len(eras)))

    realtime = _realtime(r, top["realtime"])
    files = tuple((c.file, r.where(("realtime", "call", n, "sound")))
                  for n, c in enumerate(realtime.calls) if c.file)
    intro = _intro(r, top["intro"])
    checklist = _scoring(r, top["scoring"])
    return EraProfile(id=profile_id, name=name, source=source, min_players=low,
                      max_players=high, eras=len(eras), realtime=realtime, intro=intro, prep=prep,
                      checklist=checklist, sound_files=files,
                      music=tuple(music) if any(m != GameMusic() for m in music) else (),
                      music_files=tuple(music_files))


def _guide(r: _Reader, data: Any, name: str, eras: int) -> tuple[GuideRow, ...]:
    """`[[setup.step]]` or `[[preparation.step]]`: the guide's screens, in order."""
    table = r.table(data, (name,), ("step",))
    rows = []
    for at, item in r.items(table.get("step", []), (name, "step"), f"[[{name}.step]] tables",
                            empty=True):
        row = r.table(item, at, ("say", "n", "players_at_least", "from_era", "era", "mode"),
                      ("say",))
        say = r.choice(row["say"], (*at, "say"), GUIDE_TEXTS)
        rows.append(GuideRow(
            say=say,
            n=r.choice(row.get("n", ""), (*at, "n"), ("", *GUIDE_NUMBERS)),
            players_at_least=r.integer(row.get("players_at_least", 0),
                                       (*at, "players_at_least"), 0, 99),
            from_era=r.integer(row.get("from_era", 1), (*at, "from_era"), 1, eras),
            era=r.integer(row.get("era", 0), (*at, "era"), 0, eras),
            mode=r.choice(row.get("mode", ""), (*at, "mode"), ("", "realtime", "intro")),
        ))
    return tuple(rows)


def _fixed(r: _Reader, data: Any, path: Path, value: int) -> int:
    """A number the engine does not take from the profile yet: it must be the rulebook's."""
    if isinstance(data, bool) or not isinstance(data, int):
        raise r.expected(path, "a whole number", data)
    if data != value:
        raise r.error(path, f"this engine plays {value} here (the rulebook's number), "
                      f"got {_shown(data)}")
    return data


def _seconds(r: _Reader, data: Any, path: Path, low: float, high: float, *,
             whole: bool = False, above: bool = False) -> float:
    kind = "a whole number of seconds" if whole else "a number of seconds"
    bound = f"above {low:g}" if above else f"from {low:g}"
    bad = isinstance(data, bool) or not isinstance(data, int | float) or (
        whole and not isinstance(data, int))
    if bad or not (data > low if above else data >= low) or data > high:
        raise r.expected(path, f"{kind} {bound} to {high:g}", data)
    return float(data)


def _call(r: _Reader, item: Any, at: Path, when: str, sounds: tuple[str, ...] = CALL_SOUNDS,
          own_text: bool = True) -> tuple[dict[str, Any], Call]:
    """A timed call's table and what it sounds and shows: `sound`, one of `sounds`; `prompt`,
    "scholars" (the box's) or, with `own_text`, the profile's `{ en = "...", ja = "..." }`."""
    call = r.table(item, at, (when, "sound", "prompt"), (when,))
    if own_text:  # a real-time call: the box's cue, or a sound file of the profile's own
        named = r.sound(call.get("sound", "cry"), (*at, "sound"), sounds)
    else:
        named = r.choice(call.get("sound", "cry"), (*at, "sound"), sounds)
    # an own file is played as the cry is (its channel, the music ducked; it stands in)
    sound, file = (Sound(named), "") if named in sounds else (Sound.CRY, named)
    prompt = call.get("prompt", "scholars")
    if not (own_text and isinstance(prompt, dict)):
        r.choice(prompt, (*at, "prompt"), CALL_PROMPTS)
        return call, Call(sound, file=file)
    label = r.label(prompt, (*at, "prompt"))
    for key, text in (("en", label.en), ("ja", label.ja)):
        if len(text) > MAX_PROMPT:
            raise r.expected((*at, "prompt", key), f"a text of at most {MAX_PROMPT} characters "
                             "(it is shown over the clock)", text)
    return call, Call(sound, (label.en, label.ja), file)


def _realtime(r: _Reader, data: Any) -> RealtimeConfig:
    at: Path = ("realtime",)
    table = r.table(data, at, ("length_s", "lead_in_s", "final_ticks_s", "prompt_s", "call"),
                    ("length_s",))
    length = _seconds(r, table["length_s"], (*at, "length_s"), 0, MAX_ERA_S, above=True)
    d = RealtimeConfig()
    lead_in = int(_seconds(r, table.get("lead_in_s", d.lead_in_s), (*at, "lead_in_s"), 0, 60,
                           whole=True))
    ticks = int(_seconds(r, table.get("final_ticks_s", d.final_ticks_s),
                         (*at, "final_ticks_s"), 0, 60, whole=True))
    prompt = _seconds(r, table.get("prompt_s", d.scholar_prompt_s), (*at, "prompt_s"), 0, 600)
    times: list[float] = []
    calls: list[Call] = []
    for where, item in r.items(table.get("call", []), (*at, "call"), "[[realtime.call]] tables",
                               empty=True):
        call, kind = _call(r, item, where, "at_s")
        calls.append(kind)
        t = _seconds(r, call["at_s"], (*where, "at_s"), 0, length, above=True)
        if t >= length or (times and t <= times[-1]):
            raise r.expected((*where, "at_s"), f"a running time after the call before and "
                             f"before the era's end ({length:g} s)", call["at_s"])
        times.append(t)
    # Calls that are all the box's cry and prompt are kept as no entries (the config's own).
    own = tuple(calls) if any(c != Call() for c in calls) else ()
    return RealtimeConfig(length_s=length, scholar_cues_s=tuple(times), lead_in_s=lead_in,
                          final_ticks_s=ticks, scholar_prompt_s=prompt, calls=own)


def _intro(r: _Reader, data: Any) -> IntroConfig:
    at: Path = ("intro",)
    table = r.table(data, at, ("rounds", "call"), ("rounds",))
    rounds = r.integer(table["rounds"], (*at, "rounds"), 1, 99)
    after: list[int] = []
    for where, item in r.items(table.get("call", []), (*at, "call"), "[[intro.call]] tables",
                               empty=True):
        call, _ = _call(r, item, where, "after_round", INTRO_SOUNDS, own_text=False)
        n = r.integer(call["after_round"], (*where, "after_round"), 1, max(1, rounds - 1))
        if n >= rounds or (after and n <= after[-1]):
            raise r.expected((*where, "after_round"), "a round after the call before and "
                             f"before the last ({rounds})", n)
        after.append(n)
    assert all(a < b for a, b in pairwise(after))
    return IntroConfig(rounds=rounds, scholar_after_rounds=tuple(after))


def _scoring(r: _Reader, data: Any) -> Checklist:
    at: Path = ("scoring",)
    table = r.table(data, at, ("step", "tie_break"), ("step",))
    steps = list(r.items(table["step"], (*at, "step"), "[[scoring.step]] tables"))
    if len(steps) != len(SCORING_IDS):
        raise r.error((*at, "step"), f"this engine plays the rulebook's {len(SCORING_IDS)} "
                      f"scoring steps, got {len(steps)}")
    points, multiply = [], []
    for n, (where, item) in enumerate(steps):
        step = r.table(item, where, ("id", "points", "multiply"), ("id", "points"))
        if r.ident(step["id"], (*where, "id")) != SCORING_IDS[n]:
            raise r.error((*where, "id"), f"this engine plays the step {SCORING_IDS[n]!r} "
                          f"here (its texts are the box's), got {_shown(step['id'])}")
        points.append(r.flag(step["points"], (*where, "points")))
        multiply.append(r.integer(step.get("multiply", 1), (*where, "multiply"), 1, 9))
        if multiply[-1] != 1 and not points[-1]:
            raise r.error((*where, "multiply"), "a step that gives no points (points = "
                          "false) has nothing to multiply")
    ties = list(r.items(table.get("tie_break", []), (*at, "tie_break"),
                        "[[scoring.tie_break]] tables", empty=True))
    if len(ties) != 1:
        raise r.error((*at, "tie_break"), "this engine plays one tie-break: "
                      "more = \"buildings\"")
    where, item = ties[0]
    tie = r.table(item, where, ("more",), ("more",))
    r.choice(tie["more"], (*where, "more"), ("buildings",))
    return Checklist(points=tuple(points), multiply=tuple(multiply))


def check_parses(text: str, source: str) -> dict[str, Any]:
    """The TOML table of `text`, or `ProfileError` naming the line where it is not TOML."""
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: not valid TOML: {exc}") from None
    except (RecursionError, ValueError):
        raise ProfileError(f"{source}: not valid TOML (nested too deeply, or a number too "
                           "long)") from None
