"""The numbers of the box's own game profile, laid over a round game that asks for them
(docs/profiles.md, "The box's settings"), as Time of Empires' era engine plays a user's copy
of games/time-of-empires.toml (`own_game`: its numbers land in the config):

- `[rounds] config = "eras"`: the config's era count (`Config.eras`) is the game's: fewer
  eras drop the last `[[era]]` tables, more repeat the last one (its label the box's own,
  "Era IV"); each era's `numbers` named `wonders` and `bonus_token_vp` are the config's
  preparation numbers of that era (`PrepNumbers`); a category asked only in the file's last
  era is asked in the last era played; each step the box says (`say`, one of its guide's
  texts) is shown as the own game's guide row of that text (`PrepNumbers.setup`, `steps`:
  from how many players, from which era, only in which era).
- `[scoring] config = "checklist"`: the config's scoring checklist (`Checklist`: whether
  each step asks points, and its multiply) lays over the categories, in order.

Each era's own music comes with the box's own era music (`box_music`: the sound plays the
own game profile's `[[era]] music` and `score`, `audio_plan.profile_music`). Pure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .config import Config
from .profile_reader import _Reader
from .toml_lines import Path


def parse_rounds_config(r: _Reader, rounds: dict[str, Any], eras: int) -> str:
    """`[rounds] config`: "eras" (the config's era count and numbers; needs [[era]] tables)."""
    path: Path = ("rounds", "config")
    if "config" not in rounds:
        return ""
    chosen = r.choice(rounds["config"], path, ("eras",))
    if not eras:
        raise r.error(path, 'config = "eras" needs [[era]] tables')
    return chosen


def parse_scoring_config(r: _Reader, table: dict[str, Any], base: Path, categories: int
                         ) -> str:
    """`[scoring] config`: "checklist" (the config's checklist over the categories)."""
    if "config" not in table:
        return ""
    chosen = r.choice(table["config"], (*base, "config"), ("checklist",))
    if not categories:
        raise r.error((*base, "config"), 'config = "checklist" needs [[scoring.category]] '
                      "tables")
    return chosen


def own_numbers(profile: Any, config: Config) -> Any:
    """The profile (a `profile.Profile`) with the own game's numbers it asks for."""
    if getattr(profile, "walk", None) is not None:  # the guide's walk (`guide`) too
        profile = replace(profile, walk=own_numbers(profile.walk, config))
    if profile.rounds_config == "eras":
        profile = _eras(profile, config)
    if profile.scoring_config == "checklist":
        points, multiply = config.checklist.points, config.checklist.multiply
        if profile.entry == "totals":  # the categories are reminders: the era total asked
            points = ()
        profile = replace(profile, categories=tuple(
            replace(c, asked=points[i] if i < len(points) else c.asked,
                    multiply=multiply[i] if i < len(multiply) else c.multiply)
            for i, c in enumerate(profile.categories)))
    return profile


def _eras(profile: Any, config: Config) -> Any:
    count, last = config.eras, len(profile.eras)
    eras = [*profile.eras[:count]]
    eras += [replace(profile.eras[-1], label=None)] * (count - len(eras))
    prep = {"wonders": config.prep.wonders, "bonus_token_vp": config.prep.bonus_token_vp}
    eras = [replace(era, numbers=tuple(
        (name, prep[name][n] if name in prep and n < len(prep[name]) else value)
        for name, value in era.numbers)) for n, era in enumerate(eras)]
    categories = tuple(replace(c, eras=(count,)) if c.eras == (last,) and count != last else c
                       for c in profile.categories)
    rows = {row.say: row for row in (*config.prep.setup, *config.prep.steps)}
    phases = tuple(replace(p, steps=_guide_rows(p.steps, rows)) for p in profile.phases)
    specials = tuple(replace(s, steps=_guide_rows(s.steps, rows)) for s in profile.specials)
    return replace(profile, eras=tuple(eras), categories=categories, phases=phases,
                   specials=specials)


def _guide_rows(steps: tuple[Any, ...], rows: dict[str, Any]) -> tuple[Any, ...]:
    """`steps` with each step the box says (`say`) shown as the own game's guide row of that
    text: from how many players, from which era, only in which era."""
    return tuple(replace(step, players_at_least=max(1, rows[step.say].players_at_least),
                         from_era=rows[step.say].from_era, era=rows[step.say].era)
                 if getattr(step, "say", "") in rows else step for step in steps)
