"""What a round game takes from the box's config and settings (docs/profiles.md, "The box's
settings"), as Time of Empires' era engine takes them:

- `[rounds] variant_from_setting = true`: the box's mode setting (the config's `default_mode`,
  the settings menu's mode of each era: "realtime" or "intro") picks the variant each era's
  setup opens on, the variant of that id (NEXT still chooses another); a setting naming no
  variant of the game opens on the first, as without the key.
- a countdown phase's `config = "realtime"`: the config's `[realtime]` numbers play in it
  instead of the file's: `length_s` (its `timer_s`), `lead_in_s`, `final_ticks_s`,
  `scholar_prompt_s` (its `prompt_s`) and `scholar_cues_s` (its calls' `at_s`, in order: more
  times than calls repeat the last call's sound and prompt, fewer drop the calls left over);
  and when the box's own game profile gives its calls their own sound, file or prompt
  (`[[realtime.call]]`, `RealtimeConfig.calls`), each call those.
- a variant's `config = "intro"`: its `rounds` are the config's `[intro] rounds`; a special
  round's `config = "intro"`: in such a variant it comes after the config's `[intro]
  scholar_after_rounds` (those before the last round) instead of its `after`.
- `[scoring] entry = "setting"`: the box's "Points entry" (`points_entry`) chooses how each
  era's points are asked, "totals" as `entry = "totals"`, "steps" each category
  (`entry.by_setting`).
- the config's `keep_score = false` (the box's "keep score" setting off: the score is kept on
  paper): no scoring is asked after an era, its standings (or the final ranking) straight
  after its end gong, as Time of Empires' "Era N complete" (every game, without a key).

`configured` lays the config over a parsed profile before it is played (as `guide`'s
`guided` sets the guide's parts aside). Pure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .config import Config
from .model import Mode
from .own_numbers import own_numbers
from .profile_reader import Label, _Reader
from .toml_lines import Path

CONFIG_TABLES = ("realtime",)  # a phase's `config`: the config tables it may take numbers from
# (a variant's and a special round's `config`: "intro", the config's [intro] numbers)


def parse_variant_setting(r: _Reader, rounds: dict[str, Any], variants: tuple[str, ...]
                          ) -> bool:
    """`[rounds] variant_from_setting`: needs a variant named by one of the setting's values."""
    path: Path = ("rounds", "variant_from_setting")
    chosen = r.flag(rounds.get("variant_from_setting", False), path)
    if chosen and not set(variants) & {m.value for m in Mode}:
        raise r.error(path, "variant_from_setting needs a [[variant]] whose id is one of the "
                      "box's modes (" + ", ".join(repr(m.value) for m in Mode) + ")")
    return chosen


def parse_phase_config(r: _Reader, table: dict[str, Any], at: Path) -> str:
    """A phase's `config`: the config table whose numbers its countdown takes ("": none)."""
    if "config" not in table:
        return ""
    if "timer_s" not in table:
        raise r.error((*at, "config"), "config needs a timer (timer_s): the config's numbers "
                      "are a countdown's")
    return r.choice(table["config"], (*at, "config"), CONFIG_TABLES)


def parse_variant_config(r: _Reader, table: dict[str, Any], at: Path) -> str:
    """A variant's `config`: "intro", its rounds the config's `[intro] rounds` ("": none)."""
    if "config" not in table:
        return ""
    chosen = r.choice(table["config"], (*at, "config"), ("intro",))
    if not isinstance(table.get("rounds"), int):
        raise r.error((*at, "config"), 'config = "intro" needs a number of rounds (rounds = '
                      "n): the config's [intro] rounds stand in for it")
    return chosen


def parse_special_config(r: _Reader, table: dict[str, Any], at: Path, variants: Any) -> str:
    """A special round's `config`: "intro", after the config's `[intro] scholar_after_rounds`
    in each variant with `config = "intro"` ("": none)."""
    if "config" not in table:
        return ""
    chosen = r.choice(table["config"], (*at, "config"), ("intro",))
    if not any(v.config == chosen for v in variants):
        raise r.error((*at, "config"), 'config = "intro" needs a [[variant]] with config = '
                      '"intro": its rounds are the ones the config\'s numbers are of')
    return chosen


def mode(config: Config, era: int) -> Mode:
    """The mode an era is set up in: chosen per era on the box, else the config's default."""
    return config.era_modes[era - 1] if len(config.era_modes) >= era >= 1 else config.default_mode


def configured(profile: Any, config: Config) -> Any:
    """The profile (a `profile.Profile`) as played with the box's `config`."""
    profile = own_numbers(profile, config)  # first: the eras played
    ids = [v.id for v in profile.variants]
    openings = tuple(ids.index(mode(config, era).value) if mode(config, era).value in ids else 0
                     for era in range(1, max(1, len(profile.eras)) + 1)
                     ) if profile.variant_setting else ()
    phases = tuple(_realtime(p, config) if p.config == "realtime" else p for p in profile.phases)
    profile = _intro(profile, config)
    if not config.keep_score:  # the score kept on paper: no points asked, no ranking by them
        profile = replace(profile, categories=(), tie_breaks=(), entry="categories",
                          tie_break_after="scoring")
    return replace(profile, openings=openings, phases=phases)


def opening_variant(profile: Any, era: int) -> int:
    """The variant (its index) era `era`'s setup opens on (`variant_from_setting`)."""
    return int(profile.openings[era - 1]) if len(profile.openings) >= era >= 1 else 0


def _intro(profile: Any, config: Config) -> Any:
    """The profile with the config's `[intro]` numbers in its variants and special rounds
    with `config = "intro"`: the variant's rounds, the special round after the scholar
    rounds (those inside the variant's rounds)."""
    if not any(v.config == "intro" for v in profile.variants):
        return profile
    rounds = config.intro.rounds
    variants = tuple(replace(v, rounds=rounds) if v.config == "intro" else v
                     for v in profile.variants)
    after = tuple(n for n in config.intro.scholar_after_rounds if 0 < n < rounds)
    specials = tuple(replace(s, after=tuple(
        after if v.config == "intro" else a for v, a in zip(profile.variants, s.after,
                                                            strict=True)))
        if s.config == "intro" else s for s in profile.specials)
    return replace(profile, variants=variants, specials=specials)


def _realtime(phase: Any, config: Config) -> Any:
    """A countdown phase with the config's `[realtime]` numbers."""
    rt = config.realtime
    times = [t for t in rt.scholar_cues_s if 0 < t < rt.length_s]
    calls = tuple(_call(phase.calls[min(i, len(phase.calls) - 1)], i, float(t), rt)
                  for i, t in enumerate(times)) if phase.calls else ()
    return replace(phase, timer_s=float(rt.length_s), lead_in_s=rt.lead_in_s,
                   final_ticks_s=rt.final_ticks_s, prompt_s=float(rt.scholar_prompt_s),
                   calls=calls, start_gong=True)  # rung with no lead-in too, as ToE's


def _call(own: Any, n: int, at_s: float, rt: Any) -> Any:
    """A countdown's call `n` at `at_s`: the phase's own, or, when the box's own game profile
    gives its calls (`RealtimeConfig.calls`: a sound, an own file, an own prompt), that one,
    as Time of Empires' era plays it."""
    own = replace(own, at_s=at_s)
    if not rt.calls:
        return own
    call = rt.call(n)
    prompt = None if call.prompt is None else Label(*call.prompt)
    return replace(own, sound=call.file or call.sound.value, prompt=prompt,
                   sound_key=f"the own game's profile: call {n + 1}" if call.file else "",
                   box_prompt=own.box_prompt)  # its text over the box's "scholars" prompt
