"""The numbers of the box's own game, read from its round profile (games/time-of-empires.toml,
or a user's copy found first: `erabox.files.games.own_game_profile`).

The config carries them (`Config.realtime`, `intro`, `prep`, `checklist`, `eras`,
`audio.game_eras`), so that the config file's `[realtime]` and `[intro]` keys lay over them;
the engine takes them back from the config (`game_config`, `own_numbers`). What
each comes from (docs/profiles.md, "The box's settings"):

- `RealtimeConfig`: the countdown phase with `config = "realtime"`: its `timer_s`,
  `lead_in_s`, `final_ticks_s`, `prompt_s`, and its calls' `at_s`, sound (a box's cue or an
  own file) and own prompt;
- `IntroConfig`: the variant with `config = "intro"` (its `rounds`) and the special round with
  `config = "intro"` (its `after` in that variant);
- the era count and `PrepNumbers`: the `[[era]]` tables (their `numbers` named `wonders` and
  `bonus_token_vp`) and the steps the box says (`say`): the game's setup's and each era's
  preparation's guide rows, from how many players, from which era, only in which era, only in
  which mode (the variant whose phases show it), the number they show (`{players}` ...);
- `Checklist`: the scoring categories in order, whether each asks points and its multiply;
- each era's own music: its `[[era]] music` and `score` (the box's era music plays them,
  `box_music`).

Where the profile has no such part, the rulebook's numbers stand (`rules.py`). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import rules
from .config import Call, Checklist, IntroConfig, PrepNumbers, RealtimeConfig
from .model import GameMusic, Mode, Sound
from .profile import Phase, Profile
from .profile_reader import Label
from .rules import GUIDE_NUMBERS, GuideRow

OWN_GAME = "time-of-empires"  # the box's own game: its profile's file name (and id)
SETUP_TEXTS = tuple(row.say for row in rules.SETUP_STEPS)  # the rest: an era's preparation


@dataclass(frozen=True)
class OwnNumbers:
    """What the config takes from the own game's profile."""

    realtime: RealtimeConfig = field(default_factory=RealtimeConfig)
    intro: IntroConfig = field(default_factory=IntroConfig)
    prep: PrepNumbers = field(default_factory=PrepNumbers)
    checklist: Checklist = field(default_factory=Checklist)
    eras: int = rules.ERAS
    music: tuple[GameMusic, ...] = ()  # each era's own, () when no era names any


def own_numbers_of(profile: Profile) -> OwnNumbers:
    """The numbers the config takes from the own game's round profile."""
    eras = profile.eras
    music = tuple(GameMusic(music=era.music, score=era.score) for era in eras)
    return OwnNumbers(
        realtime=_realtime(profile), intro=_intro(profile), prep=_prep(profile),
        checklist=_checklist(profile), eras=len(eras) or rules.ERAS,
        music=music if any(m != GameMusic() for m in music) else ())


def _realtime(profile: Profile) -> RealtimeConfig:
    phase = countdown(profile)
    if phase is None or phase.timer_s is None:
        return RealtimeConfig()
    cues = tuple(s.value for s in Sound)
    calls = tuple(Call(Sound(c.sound) if c.sound in cues else Sound.CRY,
                       None if c.prompt is None else (c.prompt.en, c.prompt.ja),
                       "" if c.sound in cues else c.sound) for c in phase.calls)
    return RealtimeConfig(
        length_s=phase.timer_s, scholar_cues_s=tuple(c.at_s for c in phase.calls),
        lead_in_s=phase.lead_in_s, final_ticks_s=phase.final_ticks_s,
        scholar_prompt_s=phase.prompt_s,
        calls=calls if any(c != Call() for c in calls) else ())  # all the box's cry: ()


def _intro(profile: Profile) -> IntroConfig:
    at = next((n for n, v in enumerate(profile.variants) if v.config == "intro"), None)
    if at is None or profile.variants[at].rounds is None:
        return IntroConfig()
    special = next((s for s in profile.specials if s.config == "intro"), None)
    after = IntroConfig().scholar_after_rounds if special is None else special.after[at]
    return IntroConfig(rounds=profile.variants[at].rounds or 1,
                       scholar_after_rounds=tuple(after))


def _prep(profile: Profile) -> PrepNumbers:
    numbers = [dict(era.numbers) for era in profile.eras]
    if not numbers:
        return PrepNumbers()
    rows: list[GuideRow] = []
    for rows_of_one in [_rows(profile, s.steps, ()) for s in profile.specials] + [
            _rows(profile, p.steps, p.variants) for p in profile.phases]:
        rows = _merged(rows, rows_of_one)
    return PrepNumbers(wonders=tuple(n.get("wonders", 0) for n in numbers),
                       bonus_token_vp=tuple(n.get("bonus_token_vp", 0) for n in numbers),
                       setup=tuple(r for r in rows if r.say in SETUP_TEXTS),
                       steps=tuple(r for r in rows if r.say not in SETUP_TEXTS))


def _rows(profile: Profile, steps: tuple[Label, ...], variants: tuple[str, ...]
          ) -> list[GuideRow]:
    """The guide rows of `steps` (those the box says), played in `variants` (none: all)."""
    ids = tuple(v.id for v in profile.variants)
    rows = []
    for step in steps:
        say = getattr(step, "say", "")
        if not say:
            continue
        played = set(getattr(step, "variants", ()) or variants or ids)
        modes = {Mode.REALTIME.value, Mode.INTRO.value} & played
        mode = modes.pop() if len(modes) == 1 and not set(ids) <= played else ""
        shown = next((n for n in GUIDE_NUMBERS if "{" + n + "}" in step.en), "")
        least = getattr(step, "players_at_least", 1)
        rows.append(GuideRow(say, n=shown, players_at_least=least if least > 1 else 0,
                             from_era=getattr(step, "from_era", 1), era=getattr(step, "era", 0),
                             mode=mode))
    return rows


def _merged(rows: list[GuideRow], more: list[GuideRow]) -> list[GuideRow]:
    """`rows` with the rows of `more` they lack, each placed after the one before it in
    `more` (a step only one mode shows comes where that mode's phase has it); a row said in
    both, shown in one mode in one and the other in the other, is shown in both."""
    out = list(rows)
    at = len(out)
    for row in more:
        same = next((n for n, r in enumerate(out) if r.say == row.say), None)
        if same is None:
            out.insert(at, row)
            at += 1
            continue
        if out[same].mode != row.mode:
            out[same] = GuideRow(row.say, row.n, row.players_at_least, row.from_era, row.era)
        at = same + 1
    return out


def _checklist(profile: Profile) -> Checklist:
    """Whether each category asks points and its multiply, of the checklist's steps."""
    steps = profile.categories[:len(rules.SCORING_GIVES_POINTS)]
    if not steps:
        return Checklist()
    return Checklist(points=tuple(c.asked for c in steps),
                     multiply=tuple(c.multiply for c in steps))


def countdown(profile: Profile) -> Phase | None:
    """The own game's real-time phase (`config = "realtime"`), if it has one."""
    return next((p for p in profile.phases if p.config == "realtime"), None)
