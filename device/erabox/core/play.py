"""A game profile's play as a value: where the table is, and what it shows.

`Play` is everything `machine.py` moves; `Spot` is the part undo takes back. The
queries here (the round, the start player, the asked entry, the screen model, the next
deadline) read a play and change nothing. Pure, like the rest of the core.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from . import asking, clock, scores
from .asking import SHOWN as SHOWN
from .effects import Called as Called
from .effects import ChooseGame as ChooseGame
from .effects import Entered as Entered
from .effects import Paused as Paused
from .effects import PlayEffect as PlayEffect
from .effects import PlayScreen as PlayScreen
from .effects import Ranked as Ranked
from .effects import ShowPlay as ShowPlay
from .effects import Standings as Standings
from .effects import prepare_sounds as prepare_sounds
from .eras import MAX_VALUE, TOTAL_ID
from .game_config import opening_variant
from .guide import walk_here
from .model import (
    Prompt,
    Sound,
)
from .profile import Label, Profile, shown_steps
from .profile_reader import filled
from .settings import Menu, Settings

SCHEMA_VERSION = 1
HISTORY = 100  # undo steps kept (in memory and in the saved play)
HOLD_ADDS = 5  # NEXT hold adds this many while a number is entered
# `entry = "totals"` (Time of Empires' era totals, core/points.py): a NEXT hold adds +5 at
# once and +5 more for every RAMP_S it is held on, up to RAMP_MAX, chosen when let go
RAMP_S = 0.5
RAMP_MAX = 50
QUESTION_TIMEOUT_S = 10.0
RESUMED_PROMPT_S = 5.0
CHOSEN_S = 8.0  # the first setup says why its game plays (two of the hint row's pages)
SAVE_EVERY_S = 5.0  # while a countdown runs, at least this often (less on a slow card:
SAVE_SLACK_S = 0.1  # `save_every`); a card whose two writes take this long still saves every 5 s
EPS = 1e-6
_SOUNDS = {"gong": Sound.GONG, "cry": Sound.CRY}
SCHOLARS = Label("Appoint scholars!", "学者の任命！")  # a call's `prompt = "scholars"` (strings.py)


class State(StrEnum):
    SETUP = "setup"  # choose the variant (NEXT), start (ERA)
    ERA_SETUP = "era_setup"  # `variant_per_era`: an era's own variant (NEXT), start (ERA)
    ROUND = "round"  # a step of a phase of a round
    SPECIAL = "special"  # a step of a special round, after a round
    EVENT = "event"  # a step of an event the players started
    SCORING = "scoring"  # entering a category's number for a player
    STANDINGS = "standings"  # a game of eras: each player's era points and total so far
    GAME_OVER = "game_over"  # the final ranking


@dataclass(frozen=True)
class Spot:
    """Where the play is: everything an undo takes back, and everything a save keeps."""

    state: State = State.SETUP
    variant: int = 0
    first_seat: int = 0  # the start player of round 1
    round: int = 0
    phase: int = 0
    turn: int = 0  # in a phase played by each player: how many have had it this round
    step: int = 0  # within the phase or special round
    special: int = 0  # index into profile.specials (state SPECIAL)
    event: int = 0  # index into profile.events (state EVENT)
    event_step: int = 0  # within the event (the round's `step` waits underneath)
    events_done: tuple[str, ...] = ()
    last_round: int | None = None  # set by an event that ends the game
    final_turn: int | None = None  # `one_more_turn`: the `turn` after which scoring comes
    entry: int = 0  # index into `entries(...)` (state SCORING)
    sheet: scores.Sheet = ()  # this era's numbers (a game without eras: its only one)
    past: tuple[scores.Sheet, ...] = ()  # the eras before this one's (their number: the era)
    past_variants: tuple[int, ...] = ()  # `variant_per_era`: the variant each of them played
    guide: int | None = None  # `guide_at_setup`: the guide's step walked at the setup


@dataclass(frozen=True)
class Play:
    """A game being played. Build the first one with `new_play`."""

    profile: Profile
    players: tuple[str, ...]
    spot: Spot
    drawn_seat: int = 0  # the caller's random draw, for a "random" start player
    spare_seat: int | None = None  # the caller's next draw: a new game's (not saved)
    history: tuple[Spot, ...] = ()
    # transient: the number being entered, the countdown, a question, a prompt, a save clock
    value: int = 0
    timer_end: float | None = None
    timer_done: bool = False
    cues_done: int = 0  # the countdown's calls and final ticks given (`clock`)
    held_left: float | None = None  # a paused countdown: its seconds left (timer_end None)
    question_until: float | None = None
    restart_asked: bool = False  # the question is "Restart the era?" (`restart`)
    prompt: Prompt | None = None
    prompt_until: float | None = None
    save_due: float | None = None
    music_since: float | None = None  # when the phase's music began (its running time 0)
    page: int = 0  # the notes' or the final ranking's page shown (a small panel pages them)
    hold_since: float | None = None  # `entry = "totals"`: when the NEXT being held began
    write_s: float = 0.0  # the card's measured durable-write time (`record.clean_write_s`)
    ahead: tuple[int, float] | None = None  # `next_recorded`'s key whose record is on disk
    call_owed: float | None = None  # the last call's prompt owed at a cut: until (countdown s)
    armed: tuple[int, float] | None = None  # `next_recorded`'s key recorded "armed" (`arm_at`)
    volume: float | None = None  # the box's volume, 0..1 (`volume`; None: as configured)
    volume_until: float | None = None  # the volume shown after VOL+/VOL- until then (not saved)
    anchor: float | None = None  # the countdown's time zero (paused: its seconds run), as ToE's
    take: int = 1  # the box's scores' version this game plays (`box_music`): each new game
    # the next, as Time of Empires' `variant` (`config.SCORE_VARIANTS`)
    why_played: tuple[str, float] | None = None  # why the game plays, said at setup until
    # the box's settings menu open over the setup (`menu`; not saved), and the
    # settings chosen in it: once it closes on a change, the play to set up anew with them
    menu: Menu | None = None
    chosen: Settings | None = None


# --- building and reading a play --------------------------------------------------------------


def save_every(play: Play) -> float:
    """A running countdown's save period: `SAVE_EVERY_S` less the whole seconds two durable
    writes take on this card (a save may wait behind one being written), at least 1 s, so a
    cut loses at most `SAVE_EVERY_S` + `SAVE_SLACK_S` of running time on a slow card too."""
    return max(1.0, SAVE_EVERY_S - math.ceil(2.0 * play.write_s - SAVE_SLACK_S - EPS))


def new_play(profile: Profile, players: tuple[str, ...], drawn_seat: int = 0) -> Play:
    """A fresh play in `setup`; ValueError if the profile takes another number of players."""
    if not profile.min_players <= len(players) <= profile.max_players:
        span = (f"{profile.min_players}" if profile.min_players == profile.max_players
                else f"{profile.min_players} to {profile.max_players}")
        raise ValueError(f"{profile.name.en} is for {span} players, not {len(players)}")
    return Play(profile=profile, players=players, drawn_seat=drawn_seat % len(players),
                spot=Spot(sheet=scores.blank(profile, len(players)),
                          variant=opening_variant(profile, 1),  # `variant_from_setting`
                          guide=None if profile.walk is None else 0))


def era_number(play: Play) -> int:
    """The era played (1-based; a game without eras is in its only one)."""
    return len(play.spot.past) + 1


def moved(play: Play, spot: Spot) -> Play:
    """Go forward to `spot`, keeping where play was for undo (an undo's prompt stays its while)."""
    history = (*play.history, play.spot)[-HISTORY:]
    kept = play.prompt is Prompt.UNDONE and spot.state in (State.ROUND, State.SPECIAL)
    return replace(play, spot=spot, history=history, value=0, prompt=play.prompt if kept else None,
                   prompt_until=play.prompt_until if kept else None, page=0)


def last_era(play: Play) -> bool:
    """Is this the game's last era (its scoring ends in the final ranking)?"""
    return era_number(play) >= len(play.profile.eras)


def step_era(play: Play) -> int | None:
    """The era a step's `from_era`/`era` are compared with (None: a game without eras)."""
    return era_number(play) if play.profile.eras else None


def rounds(play: Play) -> int | None:
    """The last round, as far as it is known: the era's or variant's, or the one an event
    ended."""
    fixed = play.profile.era_rounds(play.spot.variant, len(play.spot.past))
    ended = play.spot.last_round
    if ended is None:
        return fixed
    return ended if fixed is None else min(fixed, ended)


def start_seat(play: Play) -> int | None:
    """The start player's seat in the current round (None for a profile without one)."""
    profile, spot = play.profile, play.spot
    rule = profile.rule(spot.variant)
    if rule == "none":
        return None
    seat = spot.first_seat if spot.state is not State.SETUP else first_seat(play)
    moves = 0
    if rule in ("pass_left", "pass_right", "chosen"):
        moves += max(0, spot.round - 1)
    for special in profile.specials:
        if special.passes_start_player:
            moves += sum(1 for r in special.after[spot.variant] if r < spot.round)
    return (seat + passing(profile, spot.variant) * moves) % len(play.players)


def passing(profile: Profile, variant: int) -> int:
    """Which way the start player passes: +1 to the next seat, -1 (`pass_right`) to the
    previous one (a special round that passes it follows the same way)."""
    return -1 if profile.rule(variant) == "pass_right" else 1


def next_start_player(play: Play) -> str | None:
    """Who starts the round after this one (a special round that passes the start player
    says so): the start passes the rule's way, and once more for the special round."""
    later = replace(play, spot=replace(play.spot, round=play.spot.round + 1))
    return start_player(later)


def start_player(play: Play) -> str | None:
    seat = start_seat(play)
    return None if seat is None else play.players[seat]


def turn_seat(play: Play) -> int | None:
    """Whose turn it is in a phase each player plays (in seat order from the start player)."""
    spot = play.spot
    if spot.state not in (State.ROUND, State.EVENT):
        return None
    if not play.profile.phases[spot.phase].each_player:
        return None
    return ((start_seat(play) or 0) + spot.turn) % len(play.players)


def entries(play: Play) -> tuple[tuple[int, int], ...]:
    """(category, seat) in the order numbers are asked (`asking.order`): this
    era's categories, a category that gives no points as one entry, seat `SHOWN`."""
    return asking.order(play.profile, era_number(play), len(play.players))


def checklist(play: Play) -> tuple[Label, ...]:
    """`entry = "totals"`: the categories this era's total adds up (and those that give no
    points), in their order, as reminders; else none."""
    if play.profile.entry != "totals":
        return ()
    era = era_number(play)
    return tuple(c.label for c in play.profile.categories if not c.asked and c.in_era(era))


def whole_sheet(play: Play, sheet: scores.Sheet | None = None) -> scores.Sheet:
    """The numbers of every era so far (`asking.whole`; a game without eras: its
    sheet), this era's being `sheet` (default: the play's)."""
    sheet = play.spot.sheet if sheet is None else sheet
    return asking.whole(play.profile, play.spot.past, sheet, era_number(play))


def questions(play: Play, sheet: scores.Sheet | None = None) -> asking.Asking:
    """The scoring's questions (`asking.Asking`) over `sheet` (default: the play's),
    for a caller that asks many of them: what they share is worked out once."""
    return asking.Asking(play.profile, len(play.players), era_number(play), play.spot.past,
                         play.spot.sheet if sheet is None else sheet, start_seat(play))


def wanted(play: Play, sheet: scores.Sheet, entry: int) -> bool:
    """Is entry `entry` asked: can its number still change the ranking (scores)?
    Before the last era every number is asked (the eras after it may need it)."""
    return questions(play, sheet).wanted(entry)


def next_entry(play: Play, sheet: scores.Sheet, entry: int) -> int | None:
    """The first entry from `entry` on that is asked (None: the scoring is done)."""
    return questions(play, sheet).next_entry(entry)


def late_entry(play: Play) -> int | None:
    """On the last era's standings, the first entry asked after them (`late`: ERA opens it,
    as Time of Empires asks a tie's buildings); None: ERA opens the final ranking."""
    return questions(play).late_entry()


def late(play: Play, entry: int) -> bool:
    """`[scoring] tie_break_after = "standings"`: is entry `entry` one the last era asks
    after its standings (a category only for the tie-breaks, `counts = false`), as Time of
    Empires asks the tied players' buildings after Era III's standings?"""
    return questions(play).late(entry)


def scoring_position(play: Play) -> tuple[int, int, bool]:
    """(n, count, more) of the number asked (`asking.Asking.position`)."""
    return questions(play).position(play.spot.entry)


def surely(play: Play, sheet: scores.Sheet, entry: int) -> bool:
    """Is entry `entry` sure to be asked, whatever the numbers not yet entered?"""
    return questions(play, sheet).surely(entry)


def asked(play: Play) -> tuple[int, int] | None:
    """The (category, seat) being asked in `scoring`."""
    if play.spot.state is not State.SCORING:
        return None
    order = entries(play)
    return order[play.spot.entry] if play.spot.entry < len(order) else None


def ranking(play: Play) -> tuple[scores.RankLine, ...]:
    return scores.ranking(play.profile, whole_sheet(play), start_seat(play))


def standings(play: Play) -> tuple[tuple[int, str, int, int], ...]:
    """After an era: (place, colour, era points, total so far), most total first (equal
    totals share a place, in seat order)."""
    profile, spot = play.profile, play.spot
    era = scores.totals(profile, spot.sheet) or (0,) * len(play.players)
    total = scores.totals(profile, whole_sheet(play)) or (0,) * len(play.players)
    order = sorted(range(len(play.players)), key=lambda s: (-total[s], s))
    return tuple((1 + sum(1 for q in order if total[q] > total[s]), play.players[s], era[s],
                  total[s]) for s in order)


def steps_here(play: Play) -> tuple[Label, ...]:
    """The steps of the phase, special round or event being shown (those for this many
    players, this variant and this round: a special round's is the round it comes after)."""
    profile, spot = play.profile, play.spot
    era = step_era(play)
    case = (len(play.players), profile.variants[spot.variant].id, spot.round, era)
    numbers = {"players": len(play.players),
               **dict(profile.eras[era - 1].numbers if era is not None else ())}
    if spot.state is State.ROUND:
        steps = shown_steps(profile.phases[spot.phase].steps, *case)
    elif spot.state is State.SPECIAL:
        steps = shown_steps(profile.specials[spot.special].steps, *case)
    elif spot.state is State.EVENT:
        steps = shown_steps(profile.events[spot.event].steps, *case)
    else:
        return ()
    return tuple(filled(step, numbers) for step in steps)  # `{wonders}`: the era's number


def step_index(spot: Spot) -> int:
    """The step shown: the event's while an event is shown, else the phase's or special's."""
    return spot.event_step if spot.state is State.EVENT else spot.step


def screen(play: Play, now: float) -> PlayScreen:
    """The screen model for this moment."""
    profile, spot = play.profile, play.spot
    base = PlayScreen(kind=State.SETUP.value, game=profile.name, round_name=profile.round_name,
                      variant=profile.variants[spot.variant].label if len(profile.variants) > 1
                      else None, start_player=start_player(play), rounds=rounds(play),
                      ending=spot.last_round is not None,  # its own prompt: "Resumed" only
                      prompt=play.prompt if play.prompt is Prompt.RESUMED else None,
                      totals=tuple(zip(play.players, scores.totals(profile, whole_sheet(play))
                                       or (0,) * len(play.players), strict=True)))
    base = _with_era(play, base)
    if play.question_until is not None:
        question = "restart_era" if play.restart_asked else "new_game"  # `restart`
        # a countdown asked over stays in sight, as it runs on under the question
        return replace(base, kind="confirm", question=question, timer_left=_clock(play, now)[0])
    if walk := walk_here(play):  # `guide_at_setup`: the guide's step, over the setup
        shown = walk[min(spot.guide or 0, len(walk) - 1)]
        return replace(base, kind=spot.state.value, title=shown.title, text=shown.text,
                       position=shown.position, guide=True)
    if spot.state is State.ERA_SETUP:  # `variant_per_era`: the era's variant, who starts
        return replace(base, kind=State.ERA_SETUP.value, drawn=base.start_player is not None)
    if spot.state is State.SETUP:
        return replace(base, notes=profile.notes, page=play.page, why_played=said_why(play, now),
                       drawn=profile.rule(spot.variant) in ("random", "chosen"),
                       chosen=profile.rule(spot.variant) == "chosen")
    if spot.state in (State.ROUND, State.SPECIAL, State.EVENT):
        steps = steps_here(play)
        index = min(step_index(spot), len(steps) - 1)
        title = (profile.phases[spot.phase].label if spot.state is State.ROUND else
                 profile.specials[spot.special].label if spot.state is State.SPECIAL else
                 profile.events[spot.event].label)
        turn = turn_seat(play)
        left, lead = _clock(play, now)
        elapsed = countdown_elapsed(play, now)
        passes = (spot.state is State.SPECIAL
                  and profile.specials[spot.special].passes_start_player)
        timed = profile.phases[spot.phase]
        following = next_start_player(play) if passes else None
        return replace(base, kind=spot.state.value, round=spot.round, title=title,
                       text=steps[index], position=(index + 1, len(steps)),
                       event=next_event(play),
                       player=None if turn is None else play.players[turn],
                       timer_left=left, lead_in=lead, timer_done=play.timer_done,
                       timer_s=None if left is None else timed.timer_s,
                       timer_run=None if elapsed is None else float(math.floor(elapsed + EPS)),
                       timer_marks=() if left is None else clock.marks(timed),
                       paused=play.held_left is not None, call=call_words(play, now),
                       next_start_player=following, last_turns=spot.final_turn is not None,
                       waits=holds_next(play),
                       pause_hold=profile.pause == "next_hold",
                       next_resumes=profile.next_resumes, restart=profile.restart_era)
    if spot.state is State.SCORING:
        at = asked(play)
        assert at is not None
        category = profile.categories[at[0]]
        n, count, more = scoring_position(play)
        if at[1] == SHOWN:  # `points = false`: its name, no number
            return replace(base, kind=State.SCORING.value, round=spot.round,
                           title=category.label, position=(n, count), more=more,
                           shown=True)
        listed = (tuple(category.points(v) for v in spot.sheet[at[0]][at[1]] or ())
                  if category.each else None)
        value = shown_value(play, now)
        return replace(base, kind=State.SCORING.value, round=spot.round, title=category.label,
                       player=play.players[at[1]], value=value,
                       points=category.points(value), minus=category.least < 0,
                       position=(n, count), more=more, listed=listed,
                       checklist=checklist(play) if category.id == TOTAL_ID else (),
                       ramp=ramp(play, now))
    if spot.state is State.STANDINGS:
        return replace(base, kind=State.STANDINGS.value, round=spot.round,
                       standings=standings(play), page=play.page,
                       next_start_player=next_era_start_player(play),
                       tie_break=last_era(play) and late_entry(play) is not None)
    return replace(base, kind=State.GAME_OVER.value, round=spot.round, places=_places(play),
                   page=play.page, decided=_decided(play))


def _clock(play: Play, now: float) -> tuple[int | None, int | None]:
    """A countdown's whole seconds left (its full time in its lead-in, rounded up) and the
    seconds to its start gong in its lead-in; None where there is none."""
    left = lead = None
    if play.timer_end is not None:
        left = max(0, math.ceil(play.timer_end - now - EPS))
    elif play.held_left is not None:
        left = max(0, math.ceil(play.held_left - EPS))
    elapsed = countdown_elapsed(play, now)
    if left is not None and elapsed is not None and elapsed < -EPS:  # the lead-in
        lead = math.ceil(-elapsed - EPS)
        left = math.ceil(play.profile.phases[play.spot.phase].timer_s or 0)
    return left, lead


def _with_era(play: Play, base: PlayScreen) -> PlayScreen:
    """A game of eras: the era, its label and the count, on every screen."""
    eras = play.profile.eras
    if not eras:
        return base
    number = min(era_number(play), len(eras))
    return replace(base, era=number, era_labels=tuple(era.label for era in eras))


def next_era_seat(play: Play) -> int:
    """Who starts the next era's round 1: the seat the start rule gives after the last round
    played (the start carried across eras, a special round that passed it counted), not the
    first seat again."""
    later = replace(play, spot=replace(play.spot, state=State.ROUND,
                                       round=play.spot.round + 1))
    seat = start_seat(later)
    return play.spot.first_seat if seat is None else seat


def next_era_start_player(play: Play) -> str | None:
    rule = play.profile.rule(play.spot.variant)
    if rule == "none" or last_era(play):  # no era after the last
        return None
    return play.players[next_era_seat(play)]


def _places(play: Play) -> tuple[tuple[int, str, int, int | None, Label | None], ...]:
    if not play.profile.categories:
        return ()
    return tuple((line.place, play.players[line.seat], line.score, line.out_after, line.rank)
                 for line in ranking(play))


def next_event(play: Play) -> Label | None:
    """The label of the event ERA hold starts now (None: none can start here)."""
    index = startable(play)
    return None if index is None else play.profile.events[index].label


def startable(play: Play) -> int | None:
    """The event ERA hold starts now: the first not yet happened, during a round; one that
    ends the game with `one_more_turn` only in a player's turn (it counts from there)."""
    spot = play.spot
    if spot.state is not State.ROUND:
        return None
    turns = play.profile.phases[spot.phase].each_player
    return next((i for i, e in enumerate(play.profile.events) if e.id not in spot.events_done
                 and (turns or e.ends != "one_more_turn")), None)


_SEAT_RULES = {
    "furthest_from_start": Label("the seat furthest from the start player",
                                 "スタートから遠い席"),
    "closest_to_start": Label("the seat closest to the start player", "スタートに近い席"),
}


def rule_label(profile: Profile, index: int) -> Label:
    """A tie-break in words: "more Units in hand (for ties)", or the seat rule."""
    rule = profile.tie_breaks[index]
    if rule.kind == "seat":
        return _SEAT_RULES[rule.seat]
    labels = {c.id: c.label for c in profile.categories}
    en = " + ".join(labels[c].en for c in rule.categories)
    ja = "・".join(labels[c].ja for c in rule.categories)
    more = rule.kind == "more"
    return Label(f"{'more' if more else 'fewer'} {en}", f"{ja}が{'多い' if more else '少ない'}方")


def _decided(play: Play) -> tuple[tuple[Label | None, Label | None, bool], ...]:
    profile = play.profile
    if not profile.categories:
        return ()
    labels = {c.id: c.label for c in profile.categories}
    out: list[tuple[Label | None, Label | None, bool]] = []
    for line in ranking(play):
        by = (None if line.stage is None
              else labels[profile.stages[line.stage - 1].category])
        tie = (rule_label(profile, line.tie)
               if line.tie is not None and line.tie != scores.UNBROKEN else None)
        out.append((by, tie, line.tie == scores.UNBROKEN))
    return tuple(out)


def countdown_elapsed(play: Play, now: float) -> float | None:
    """Seconds into the countdown of the phase played (paused: where it is held), or None."""
    timer = play.profile.phases[play.spot.phase].timer_s
    if timer is None or play.spot.state not in (State.ROUND, State.EVENT):
        return None
    if play.timer_end is not None:
        return timer - (play.timer_end - now)
    return None if play.held_left is None else timer - play.held_left


def holds_next(play: Play) -> bool:
    """NEXT on a phase's last step does nothing: its `next_leaves = false` and its countdown
    (or lead-in) runs, or is paused (the phase ends with the end gong)."""
    spot = play.spot
    phase = play.profile.phases[spot.phase]
    return (spot.state is State.ROUND and not phase.next_leaves
            and (play.timer_end is not None or play.held_left is not None)
            and spot.step + 1 >= len(steps_here(play)))


def call_words(play: Play, now: float) -> Label | None:
    """What shows over the screen for a countdown's call just given: its prompt, or without
    one the box's words ("Call at 0:40"); None when no call's prompt is up."""
    at = countdown_elapsed(play, now)
    if at is None:
        return None
    phase = play.profile.phases[play.spot.phase]
    index = clock.shown_call(phase, play.cues_done, at + EPS, play.call_owed)
    if index is None:
        return None
    call = phase.calls[index]
    if call.box_prompt:  # the box's own words (ui/strings.py's "prompt_scholars")
        return SCHOLARS
    if call.prompt is not None:
        return call.prompt
    when = int(call.at_s)
    mark = f"{when // 60}:{when % 60:02d}"
    return Label(f"Call at {mark}", f"{mark}の合図")


def said_why(play: Play, now: float) -> str | None:
    """Why the game plays ("game": `--game`, "menu", "config"), while its first setup says
    it: `CHOSEN_S` from the box's start, until the first press (None after)."""
    if play.why_played is None or play.why_played[1] <= now + EPS:
        return None
    return play.why_played[0]


def hold_adds(held_s: float) -> int:
    """What a NEXT hold adds in all when let go `held_s` seconds after it began (totals)."""
    return min(RAMP_MAX, HOLD_ADDS * (1 + max(0, int(held_s / RAMP_S + 1e-9))))


def ramp(play: Play, now: float) -> int | None:
    """While NEXT is held at the era totals: what letting go now adds in all, else None."""
    return None if play.hold_since is None else hold_adds(now - play.hold_since)


def shown_value(play: Play, now: float) -> int:
    """The number on screen: the one entered, with what the NEXT being held would add (its
    first +5 is in already), within the category's bounds."""
    extra = ramp(play, now)
    if extra is None:
        return play.value
    at = asked(play)
    most = MAX_VALUE if at is None else play.profile.categories[at[0]].most
    return min(most, play.value + extra - HOLD_ADDS)


def first_seat(play: Play) -> int:
    """The seat that starts the first round: the drawn one for a "random" start rule, the
    one chosen at setup for "chosen"."""
    rule = play.profile.rule(play.spot.variant)
    return play.drawn_seat if rule == "random" else play.spot.first_seat if (
        rule == "chosen") else 0


def timed_out(play: Play) -> bool:
    """The scoring began as a countdown ended by itself (`timer_end = "next"`): its time is
    up, so undo does not go back into it (it would count the whole countdown down again)."""
    if play.spot.state is not State.SCORING or not play.history:
        return False
    back = play.history[-1]
    phase = play.profile.phases[back.phase]
    return back.state is State.ROUND and phase.timer_s is not None and phase.timer_end == "next"
