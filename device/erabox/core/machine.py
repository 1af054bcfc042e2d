"""A game profile played as a pure state machine: `step(play, event, now) -> (play, effects)`.

The box's own machine (`machine.py`) runs Time of Empires; this one runs any round-based game
a profile describes (`profile.py`, docs/profiles.md), with the same two buttons:

    setup --ERA--> round 1: phase 1 step 1 --NEXT--> step 2 ... --> phase 2 ... --> round end
    round end --> special rounds due after it (their steps, NEXT) --> round 2 ... --> scoring
    any step of a round --ERA hold--> an event's steps (NEXT) --> back where play was
    a phase's countdown --ERA--> paused (its calls and ticks held) --ERA--> running again
        (`[buttons] pause = "next_hold"`: NEXT hold, undo ERA hold; `HOLD_PAUSE`)
    scoring: each category, each player (NEXT +1, hold +5, ERA confirm) --> game_over
        (a category with `points = false`: shown, NEXT goes on; `entry = "totals"`: one
        era total per player, the hold's ramp, NEXT+ERA -1)
    a game of eras: scoring --> standings --ERA--> the next era's round 1 ... the last era's
    scoring --> game_over (the ranking on every era's numbers); with `variant_per_era`
    standings --ERA--> the era's setup (NEXT: its variant) --ERA--> its round 1
    with `guide_at_setup` and the guide on, a setup first walks the guide's steps (NEXT; NEXT
    hold skips them; ERA starts round 1 at once)

The table `TRANSITIONS` below is the whole of it: (state, button, gesture) -> what happens.
A gesture with no entry changes nothing and returns no effects. Everything undo takes back
lives in one frozen value, `Spot`; every move forward pushes the spot it left onto
`history`, and undo pops it, so an undo always lands exactly where play was.

Time only enters as `now`; `next_deadline` says when the loop must call `step(play, Tick(),
now)` (a phase's countdown, its calls and final ticks (`clock`), a question closing
itself, a periodic save while a countdown or a phase's music runs, a call's record written
the card's lead ahead of it: `Play.write_s`, the card's write time, is handed in as data).
Randomness only enters as `drawn_seat`, chosen by the caller (the start player of a "random"
profile; `spare_seat`, the draw a new game takes: the caller puts a fresh one in after it is
used).
`snapshot`/`restore` keep a play across a power cut.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import clock, prompts, scores, track, volume
from . import entry as entering
from . import restart as restarting
from .box_music import uses_box_music
from .config import SCORE_VARIANTS
from .countdown import pause, phase_timer
from .deadlines import ahead_at, arm_at, countdown_start, next_recorded, recorded_ahead
from .era_moves import begin_era, next_asked, next_era_variant, walk_next, walk_skip
from .era_moves import era_done as _era_done
from .era_moves import first_phase as _first
from .era_moves import next_era as _next_era
from .era_moves import start_gong as _start_gong
from .guide import walk_here
from .model import (
    Button,
    Event,
    FlashCue,
    Gesture,
    Input,
    PlaySound,
    Save,
    Sound,
)
from .music import move_music as _phase_music
from .music import on_gong, track_of
from .opening import opening_gong
from .play import (
    _SOUNDS,
    EPS,
    HISTORY,
    QUESTION_TIMEOUT_S,
    SHOWN,
    Called,
    ChooseGame,
    Entered,
    Play,
    PlayEffect,
    ShowPlay,
    Spot,
    State,
    asked,
    entries,
    era_number,
    first_seat,
    holds_next,
    new_play,
    rounds,
    save_every,
    screen,
    startable,
    steps_here,
    timed_out,
    whole_sheet,
)
from .play import moved as _moved
from .play_record import _saved_part, snapshot
from .profile import MAX_ROUNDS

# --- the step function --------------------------------------------------------------------------


def step(play: Play, event: Event, now: float, hall: bool = False
         ) -> tuple[Play, tuple[PlayEffect, ...]]:
    """Fire what fell due by `now`, then apply `event` (an `Input`, or a `Tick`); `hall`: in a
    hall, whose START a `hall = true` phase's countdown waits for (`steer.hold`)."""
    before = play
    play, effects = _advance(play, now)
    if any(isinstance(e, Save) for e in effects):
        before = play  # a countdown that ran out moved play on, and saved it
    if isinstance(event, Input):
        if play.why_played is not None:  # said until the first press
            play = replace(play, why_played=None)
        handled, more = _on_input(play, event, now)
        handled = prompts.pause_hint(play, handled, event, now)  # a press that did nothing
        paused = (handled.held_left is None) != (play.held_left is None)
        if handled.spot != play.spot or paused:  # on disk before anyone hears or sees it
            more = (*more, *opening_gong(play, handled))  # `"after_preparation"`
            handled = phase_timer(play, handled, now)
            handled, music = _phase_music(play, handled, now)
            due: tuple[PlayEffect, ...] = ()
            pressed = handled  # a countdown starting now gives its first cue with the press
            # (as ToE's era engine): a gong with no lead-in on disk first, a lead-in's tick
            # after the press's record; in a hall a steered one waits for START instead
            if handled.spot != play.spot and handled.timer_end is not None and not (
                    hall and handled.profile.phases[handled.spot.phase].hall):
                handled, due = _advance(handled, now, ahead=False)
            handled = _ahead_if_due(handled, now)
            saved, due = ((due[0],), due[1:]) if due and isinstance(due[0], Save) else (
                (Save(record_of(_ahead_if_due(pressed, now) if due else handled, now),
                      durable=True),), due)
            return handled, (*effects, *saved, *more, *music, *due,
                             ShowPlay(screen(handled, now)))
        play, effects = handled, (*effects, *more)
    after: list[PlayEffect] = []
    if _saved_part(play) != _saved_part(before) or (
            play.save_due is not None and play.save_due <= now + EPS):
        after.append(Save(record_of(play, now)))
        running = play.timer_end is not None or play.music_since is not None
        play = replace(play, save_due=now + save_every(play) if running else None)
    return play, (*effects, *after, ShowPlay(screen(play, now)))


def _advance(play: Play, now: float, ahead: bool = True
             ) -> tuple[Play, tuple[PlayEffect, ...]]:
    """What fell due by `now`, in order: the countdown's calls and ticks, its end (with
    `timer_end = "next"` the next phase's countdown may begin, and its cues fall due too);
    with `ahead`, the record of its next call (or start gong, or recorded end) written the
    card's lead before it (`_record_ahead`): then that call's own save is not waited for."""
    effects: list[PlayEffect] = []
    while (end := play.timer_end) is not None:
        start = countdown_start(play)
        due = clock.next_at(play.profile.phases[play.spot.phase], play.cues_done)
        given = recorded_ahead(play)
        if start is not None and due is not None and start + due <= now + EPS:
            play, more = _cue(play, now)
        elif end <= now + EPS:
            play, more = _timer_out(play, end, now)
        elif ahead and (at := arm_at(play)) is not None and at <= now + EPS and (
                (lead := ahead_at(play)) is None or at <= lead):
            play, more = _arm(play, now)
        elif ahead and (at := ahead_at(play)) is not None and at <= now + EPS:
            play, more = _record_ahead(play, now)
            given = False
        else:
            break
        if given:  # its record is on disk already: this save only repeats it
            more = tuple(replace(e, durable=False) if isinstance(e, Save) else e for e in more)
        effects += more
    if play.question_until is not None and play.question_until <= now + EPS:
        play = replace(play, question_until=None)
    if play.prompt_until is not None and play.prompt_until <= now + EPS:
        play = replace(play, prompt=None, prompt_until=None)
    return volume.hidden(play, now), tuple(effects)


def _record_ahead(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The countdown's next call (its start gong, its recorded end) is due within the card's
    lead: its record, the one it saves when it sounds, goes to disk now. The driver waits for
    it until the call's time at most (`Save.by`), so the call never waits for its record; a
    cut before the call then comes back showing it given, never to sound it twice."""
    due = next_recorded(play)
    assert due is not None
    play = replace(play, ahead=due[1])
    return play, (Save(record_of(play, now), durable=True, by=due[0]),)


def _arm(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The countdown's next call (or recorded end) is due within `ARM_LEAD_S` (`arm_at`):
    its countdown is recorded held at it, the call not given, on disk now (the loop waits
    for it); every save until the call's record ahead writes the same."""
    due = next_recorded(play)
    assert due is not None
    play = replace(play, armed=due[1])
    return play, (Save(snapshot(play, now), durable=True),)


def _ahead_if_due(play: Play, now: float) -> Play:
    """A press that starts or resumes a countdown (or moves play under one) within the lead
    of its next call: the call's record is what the press's own save writes."""
    at, due = ahead_at(play), next_recorded(play)
    if at is None or due is None or at > now + EPS or due[0] <= now + EPS:
        return play
    return replace(play, ahead=due[1])


def record_of(play: Play, now: float) -> dict[str, Any]:
    """What a save writes now: the play's record, or, its next call's record written ahead,
    that call's (the play as it will be then), so no save before the call takes it back."""
    due = next_recorded(play)
    if due is None or play.ahead != due[1]:
        return snapshot(play, now)
    _, effects = _advance(play, max(due[0], now), ahead=False)
    saves = [e.snapshot for e in effects if isinstance(e, Save)]
    return saves[-1] if saves else snapshot(play, now)


def _timer_out(play: Play, at: float, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The countdown ran out at `at` (handled at `now`): the gong; with `timer_end = "next"`
    the phase (or turn) ends by itself, as NEXT on its last step would, and what comes next
    starts at `at`, not when this was handled (a timed phase after it counts from `at`).
    Under an event the phase ends when the event does (`_forward`)."""
    phase = play.profile.phases[play.spot.phase]
    done = replace(play, timer_end=None, timer_done=True, save_due=None, question_until=None,
                   restart_asked=False)  # a question open over it closes with the countdown
    gong: tuple[PlayEffect, ...] = (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG))
    holds = track_of(play.profile, play.spot.phase, era_number(play))
    ring = track.held(holds, gong) if phase.gong else ()
    if on_gong(play):  # music on the countdown's time stops at its end
        done, stop = _phase_music(play, done, at)
        ring = (*ring, *stop)
    if phase.timer_end != "next" or play.spot.state is not State.ROUND:
        # the countdown shown run out is on disk before its gong: a cut after the gong
        # comes back to it run out, never to count down and sound again
        if not ring:
            return done, ()
        due = None if done.music_since is None else now + save_every(done)  # the music's place
        return replace(done, save_due=due), (Save(snapshot(done, now), durable=True), *ring)
    moved, more = _after_phase(done)
    moved = phase_timer(done, moved, at)
    moved, music = _phase_music(done, moved, at, now)
    if any(isinstance(e, PlaySound) and e.sound is Sound.GONG for e in more):
        ring = ring[len(gong) if phase.gong else 0:]  # the scoring's gong is the countdown's
        if phase.gong:  # (the track's end gong, when the phase plays one)
            more = track.held_gong(holds, more)
        # that gong first, then the music stopped with it (as the era engine's end gong)
        return moved, (Save(snapshot(moved, now), durable=True), *more, *ring, *music)
    return moved, (Save(snapshot(moved, now), durable=True), *ring, *more, *music)


def _cue(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The countdown's next cue: a tick (lead-in or final); or a call or the lead-in's start
    gong, on disk before it sounds (a cut after its record comes back showing its prompt or
    the countdown running, never to sound it a second time); written ahead of it by the
    card's lead as a rule (`_record_ahead`), its save here then only repeats it."""
    phase = play.profile.phases[play.spot.phase]
    cue = clock.cues(phase)[play.cues_done]
    before, play = play, replace(play, cues_done=play.cues_done + 1, call_owed=None if
                                 cue.call is not None else play.call_owed)  # its own
    sound, file = clock.cue_sound(phase, cue)
    # a publisher's track holds every cue of the countdown
    held = track_of(play.profile, play.spot.phase, era_number(play))
    if cue.gong:  # the lead-in's end, on disk before it sounds, as a call is; the music
        moved, music = _phase_music(before, play, now)  # on the gong starts with it
        return moved, track.held(held, (Save(snapshot(play, now), durable=True),
                                        PlaySound(sound, 0), FlashCue(sound), *music))
    if cue.call is None:
        return play, track.held(held, (PlaySound(sound, 0),))
    call, play = phase.calls[cue.call], replace(play, question_until=None, restart_asked=False)
    text = None if call.prompt is None else call.prompt.en  # (a question closed by the call)
    return play, track.held(held, (
        Save(snapshot(play, now), durable=True), PlaySound(sound, 0, file=file),
        FlashCue(sound), Called(phase.id, call.at_s, text, call.box_prompt)))


def _on_input(play: Play, event: Input, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    button, gesture = event.button, event.gesture
    if button in volume.VOLUME_BUTTONS:  # the box's volume, anywhere (`volume`)
        return volume.change(play, event, now)
    if play.question_until is not None:
        return _answer(play, event, now)
    if button is Button.BOTH and gesture is Gesture.HOLD:
        return _ask_new_game(play, now)
    state = play.spot.state
    if state is State.SCORING:
        at = asked(play)
        if at is not None and at[1] == SHOWN:  # a category that gives no points: go on
            shown = SHOWN_STEP.get((button, gesture))
            return (play, ()) if shown is None else shown(play, now)
        if play.profile.entry == "totals" or play.profile.ramp:  # the ramp and -1 chord
            play, done = entering.totals_gesture(play, button, gesture, now)
            if done is not None:
                return done
        turned = entering.dial(play, button)
        if turned is not None:
            return turned
    handler = TRANSITIONS.get((state, button, gesture))
    if play.profile.pause == "next_hold":
        handler = HOLD_PAUSE.get((state, button, gesture), handler)
    if restarting.asks(play, button, gesture) or restarting.undoes(play, button, gesture):
        handler = _ask_restart if button is Button.ERA else restarting.undo_within(_undo)
    if (play.profile.next_resumes and play.held_left is not None and state is State.ROUND
            and button is Button.NEXT and gesture in (Gesture.PRESS, Gesture.HOLD)):
        handler = pause  # NEXT on a paused countdown: it goes on (`[buttons] next_resumes`)
    if walk_here(play):  # `guide_at_setup`: NEXT walks the guide at the setup, hold skips it
        handler = WALK.get((button, gesture), handler)
    if handler is None:
        return play, ()
    return handler(play, now)


def _answer(play: Play, event: Input, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    key = (event.button, event.gesture)
    if key == (Button.NEXT, Gesture.PRESS):
        return replace(play, question_until=None), ()
    if key == (Button.ERA, Gesture.PRESS) and play.restart_asked:
        return restarting.restart(play)  # the era's setup again (`[buttons] restart_era`)
    if key == (Button.ERA, Gesture.PRESS):  # a new game: the start player drawn again
        seat = play.drawn_seat if play.spare_seat is None else play.spare_seat
        return replace(new_play(play.profile, play.players, seat), volume=play.volume,
                       take=play.take % SCORE_VARIANTS + 1 if uses_box_music(play.profile)
                       else 1), ()  # the box's scores' next take (`box_music`), as ToE's
    return play, ()


def _ask_new_game(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """"New game?" (ERA: yes, NEXT: no; unanswered it closes by itself)."""
    return replace(play, question_until=now + QUESTION_TIMEOUT_S, restart_asked=False), ()


def _ask_restart(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """"Restart the era?" (`[buttons] restart_era`; ERA: yes, NEXT: no; `restart`)."""
    return restarting.ask(play, now, QUESTION_TIMEOUT_S)


# --- the transitions ----------------------------------------------------------------------------


def _next_choice(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """NEXT at setup: the next variant; with a "chosen" start player, the next seat to start,
    and after the last seat the first again with the next variant."""
    spot = play.spot
    if play.profile.rule(spot.variant) == "chosen":
        seat = (spot.first_seat + 1) % len(play.players)
        spot = replace(spot, first_seat=seat)
        if seat:
            return replace(play, spot=spot), ()
    count = len(play.profile.variants)
    return replace(play, spot=replace(spot, variant=(spot.variant + 1) % count)), ()


def _start(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA at setup: the gong (`start_gong`), then a special round set before round 1
    (`after = [0]`), if any, else round 1."""
    spot = replace(play.spot, state=State.ROUND, round=1, phase=_first(play), turn=0,
                   step=0, first_seat=first_seat(play), guide=None)
    gong = _start_gong(play)
    for index, special in enumerate(play.profile.specials):
        if 0 in special.after[spot.variant]:
            before = replace(spot, state=State.SPECIAL, round=0, special=index)
            return _moved(play, before), gong + _sound(special.sound)
    return _moved(play, spot), gong


def _forward(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """NEXT: the next step; after a phase's last, the next turn or phase; after a round's
    last, the special rounds due, then the next round or the scoring."""
    profile, spot = play.profile, play.spot
    if spot.state is State.EVENT:
        if spot.event_step + 1 < len(steps_here(play)):
            return _moved(play, replace(spot, event_step=spot.event_step + 1)), ()
        back = replace(spot, state=State.ROUND, event_step=0)
        ends = profile.events[spot.event].ends
        if ends == "now":  # the game ends at once
            return _to_scoring(play, replace(back, last_round=spot.round))
        if ends and spot.last_round is None:  # the first ending decides
            back = replace(back, last_round=spot.round)
            if ends == "one_more_turn":  # the current turn, then one for each player
                back = replace(back, final_turn=spot.turn + len(play.players))
        if play.timer_done and profile.phases[spot.phase].timer_end == "next":
            # its countdown ran out under the event: the phase ends as the event does (one
            # move, which one undo takes back to the event's last step)
            moved, effects = _after_phase(replace(play, spot=back))
            return replace(moved, history=(*play.history, spot)[-HISTORY:]), effects
        return _moved(play, back), ()
    if spot.step + 1 < len(steps_here(play)):
        return _moved(play, replace(spot, step=spot.step + 1)), ()
    if spot.state is State.ROUND:
        if holds_next(play):  # `next_leaves = false`: the table waits for the countdown
            return play, ()
        return _after_phase(play)
    return _after_round(play, spot.special)


def _after_phase(play: Play) -> tuple[Play, tuple[PlayEffect, ...]]:
    """After a phase's (or turn's) last step, or its countdown run out: the next turn or
    phase; after the round's last, the special rounds due, then on."""
    profile, spot = play.profile, play.spot
    phase = profile.phases[spot.phase]
    if spot.final_turn is not None:  # the last turns, in this phase: then the scoring
        if spot.turn < spot.final_turn:
            return _moved(play, replace(spot, turn=spot.turn + 1, step=0)), ()
        return _to_scoring(play)
    if phase.each_player and spot.turn + 1 < len(play.players):
        return _moved(play, replace(spot, turn=spot.turn + 1, step=0)), ()
    following = profile.first_phase(spot.variant, spot.phase + 1)  # the variant's next
    if following is not None:
        return _moved(play, replace(spot, phase=following, turn=0, step=0)), ()
    return _after_round(play, -1)


def _after_round(play: Play, done: int) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The special rounds due after this round (those after index `done`), then on."""
    profile, spot = play.profile, play.spot
    for index in range(done + 1, len(profile.specials)):
        special = profile.specials[index]
        if spot.round in special.after[spot.variant]:
            moved = _moved(play, replace(spot, state=State.SPECIAL, special=index, step=0))
            return moved, _sound(special.sound)
    last = rounds(play)
    if (last is not None and spot.round >= last) or spot.round >= MAX_ROUNDS:
        return _to_scoring(play)
    return _moved(play, replace(spot, state=State.ROUND, round=spot.round + 1,
                                phase=_first(play), turn=0, step=0)), ()


def _to_scoring(play: Play, spot: Spot | None = None) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The gong, then the scoring (or the ranking); `spot`: where play ends, if not here."""
    end = (PlaySound(Sound.GONG, 0), FlashCue(Sound.GONG))
    spot = play.spot if spot is None else spot
    if not play.profile.categories:
        return _era_done(play, spot, end)
    entry = next_asked(play, spot.sheet, 0)
    if entry is None:  # nothing can change the ranking (not with a shipped profile), or
        return _era_done(play, spot, end)  # this era's scoring asks nothing
    return _moved(play, replace(spot, state=State.SCORING, entry=entry)), end


def _sound(name: str) -> tuple[PlayEffect, ...]:
    """A special round's or event's sound: the box's gong or cry, or the profile's own file
    (played as the cry is, which stands in for it), or none."""
    if name == "none":
        return ()
    sound = _SOUNDS.get(name)
    if sound is None:
        return PlaySound(Sound.CRY, 0, file=name), FlashCue(Sound.CRY)
    return PlaySound(sound, 0), FlashCue(sound)


def _start_event(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA hold: the first event of the profile that can start here (`startable`)."""
    spot = play.spot
    index = startable(play)
    if index is None:
        return play, ()
    event = play.profile.events[index]
    moved = replace(spot, state=State.EVENT, event=index, event_step=0,
                    events_done=(*spot.events_done, event.id))
    return _moved(play, moved), _sound(event.sound)


def _undo(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """Back to where play was before the last move forward (not past a `timed_out` end)."""
    if not play.history or timed_out(play):
        return play, ()
    back, value = play.history[-1], 0
    category, seat = entries(play)[back.entry] if back.state is State.SCORING else (0, SHOWN)
    if seat != SHOWN:  # the number confirmed there comes back to be corrected
        before = back.sheet[category][seat] or ()
        now_values = play.spot.sheet[category][seat] or ()
        value = now_values[len(before)] if len(now_values) > len(before) else 0
    return prompts.undone(play, replace(play, spot=back, history=play.history[:-1], value=value,
                                        prompt=None, prompt_until=None), now), ()


def _confirm(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA: record the number and go on (an `each` category: 0 ends the player's list)."""
    spot, profile = play.spot, play.profile
    at = asked(play)
    assert at is not None
    category_index, seat = at
    if seat == SHOWN:  # a category that gives no points: on to the next entry
        entry = next_asked(play, spot.sheet, spot.entry + 1)
        if entry is not None:
            return _moved(play, replace(spot, entry=entry)), ()
        return _era_done(play, spot)
    category = profile.categories[category_index]
    values = spot.sheet[category_index][seat] or ()
    more = category.each and play.value != 0
    if not category.each or more:
        values = (*values, play.value)
    rows = list(spot.sheet)
    row = list(rows[category_index])
    row[seat] = values
    rows[category_index] = tuple(row)
    sheet = tuple(rows)
    effects: list[PlayEffect] = []
    if not category.each or more:
        effects.append(Entered(category.id, play.players[seat], play.value,
                               category.points(play.value),
                               scores.total(profile, whole_sheet(play, sheet), seat)))
    # the next number that can still change the ranking (an out player's later criteria,
    # a tie-break no tie needs, are not asked)
    entry = spot.entry if more else next_asked(play, sheet, spot.entry + 1)
    if entry is not None:
        return _moved(play, replace(spot, sheet=sheet, entry=entry)), tuple(effects)
    return _era_done(play, replace(spot, sheet=sheet), tuple(effects))


def _clear_or_undo(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA hold while entering: clear the number (where it may be negative, a number above 0
    turns negative first); on 0, back to the one before."""
    at = asked(play)
    least = 0 if at is None else play.profile.categories[at[0]].least
    if play.value > 0 and least < 0:
        return replace(play, value=max(least, -play.value)), ()
    if play.value != 0:
        return replace(play, value=0), ()
    return _undo(play, now)


_Handler = Callable[[Play, float], tuple[Play, tuple[PlayEffect, ...]]]
N, E = Button.NEXT, Button.ERA
P, H = Gesture.PRESS, Gesture.HOLD

# The whole machine (docs/profiles.md, "Buttons"). A missing entry: nothing happens.
# Anywhere, BOTH held asks "New game?" (ERA: yes, NEXT: no); a dial turn adds +-1 in scoring.
def _choose_game(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    return play, (ChooseGame(),)


def _next_page(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """NEXT at the final ranking, NEXT hold at setup: the next page of the ranking or of the
    notes, where the panel cannot show them whole (the screen wraps round)."""
    return replace(play, page=play.page + 1), ()


# A scoring category that gives no points (`points = false`): NEXT or ERA goes on, ERA hold
# goes back; nothing else (no number to change).
SHOWN_STEP: dict[tuple[Button, Gesture], _Handler] = {
    (N, P): _confirm, (E, P): _confirm, (E, H): _undo}

TRANSITIONS: dict[tuple[State, Button, Gesture], _Handler] = {
    (State.SETUP, N, P): _next_choice,  # who starts ("chosen"), long game / short game ...
    (State.SETUP, E, P): _start,  # round 1, the gong
    (State.SETUP, E, H): _choose_game,  # the box's settings menu: another game
    (State.SETUP, N, H): _next_page,  # the notes' next page, where they do not fit
    (State.ROUND, N, P): _forward,  # next step, turn, phase, special round, round
    (State.ROUND, N, H): _undo,
    (State.ROUND, E, H): _start_event,  # the next event not yet happened
    (State.ROUND, E, P): pause,  # a running countdown pauses, a paused one goes on
    (State.SPECIAL, N, P): _forward,
    (State.SPECIAL, N, H): _undo,
    (State.EVENT, N, P): _forward,  # after its last step: back where play was
    (State.EVENT, N, H): _undo,
    (State.EVENT, E, P): pause,  # the countdown under the event
    (State.SCORING, N, P): entering.plus_one,
    (State.SCORING, N, H): entering.plus_five,
    (State.SCORING, E, P): _confirm,
    (State.SCORING, E, H): _clear_or_undo,
    (State.STANDINGS, E, P): _next_era,  # the next era's round 1 (or setup); or the ranking
    (State.ERA_SETUP, N, P): next_era_variant,  # `variant_per_era`: the era's variant
    (State.ERA_SETUP, E, P): begin_era,  # the era's round 1, the gong
    (State.ERA_SETUP, N, H): _undo,  # back to the standings
    (State.STANDINGS, N, H): _undo,  # back to the era's last number
    (State.STANDINGS, N, P): _next_page,  # more of the standings, on a small panel
    (State.GAME_OVER, N, P): _next_page,  # more of the ranking, on a small panel
    (State.GAME_OVER, E, H): _ask_new_game,  # as at Time of Empires' final ranking
}


# `[rounds] guide_at_setup`: on a step of the guide walked at a setup (ERA: as the setup's).
WALK: dict[tuple[Button, Gesture], _Handler] = {(N, P): walk_next, (N, H): walk_skip}


def _nothing(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    return play, ()


def _event_or_undo(play: Play, now: float) -> tuple[Play, tuple[PlayEffect, ...]]:
    """ERA hold with `pause = "next_hold"`: an event that can start here, else undo."""
    return _start_event(play, now) if startable(play) is not None else _undo(play, now)


# `[buttons] pause = "next_hold"` (Time of Empires' gesture): NEXT hold pauses and resumes a
# countdown (nothing else), ERA press does nothing there, undo is ERA hold where no event can
# start. These entries replace TRANSITIONS' in such a game.
HOLD_PAUSE: dict[tuple[State, Button, Gesture], _Handler] = {
    (State.ROUND, N, H): pause,
    (State.ROUND, E, P): _nothing,
    (State.ROUND, E, H): _event_or_undo,
    (State.EVENT, N, H): pause,  # the countdown under the event
    (State.EVENT, E, P): _nothing,
    (State.EVENT, E, H): _undo,
    (State.SPECIAL, N, H): _nothing,
    (State.SPECIAL, E, H): _undo,
}
