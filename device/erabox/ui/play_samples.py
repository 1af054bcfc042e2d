"""Every screen of a game profile, played through: for the gallery (`ui/gallery.py`) and the
renderer's tests (tests/test_profile_screens.py).

A whole play of each variant, with the most players (and one, for a profile that can be
played solo, and the fewest that see other steps, for steps shown only to some player
counts), its events, a number in every category, the ranking, "New game?" and "Resumed".
Pure: the profile machine stepped without a clock.
"""

from __future__ import annotations

from dataclasses import replace

from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input, Prompt, Tick
from erabox.core.play import PlayScreen, State, asked, new_play, screen
from erabox.core.profile import Label, Profile, shown_steps
from erabox.core.rules import SEAT_COLOURS

from .screens import Marks

NOTE_PAGES = 3  # setup screens shown for a profile with notes: the first pages of them
COLOURS = SEAT_COLOURS  # the box seats up to eight: a profile for eight is shown with eight
N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
E_HOLD, BOTH = Input(Button.ERA, Gesture.HOLD), Input(Button.BOTH, Gesture.HOLD)


def _steps_shown(profile: Profile, players: int) -> tuple[tuple[Label, ...], ...]:
    return tuple(shown_steps(item.steps, players)
                 for group in (profile.phases, profile.specials, profile.events)
                 for item in group)


def _seatings(profile: Profile) -> list[tuple[str, ...]]:
    """The most players, one where the game allows it, and the fewest players that see other
    steps than these (steps for some player counts only)."""
    counts = [min(profile.max_players, len(COLOURS))]
    if profile.min_players == 1:
        counts.append(1)
    seen = {_steps_shown(profile, count) for count in counts}
    for count in range(profile.min_players, profile.max_players + 1):
        if (steps := _steps_shown(profile, count)) not in seen:
            seen.add(steps)
            counts.append(count)
    return [COLOURS[:count] for count in counts]


def every_screen(profile: Profile) -> list[PlayScreen]:
    """A whole play of each variant, with the most players, its events, a number in every
    category, the ranking, "New game?" and "Resumed": each distinct screen once (the round
    number aside)."""
    seen: dict[PlayScreen, PlayScreen] = {}

    def keep(shown: PlayScreen) -> None:
        """The same screen in another round is not another screen: the first is kept (a
        census after year 4 says year 4)."""
        seen.setdefault(replace(shown, round=1 if shown.round else None), shown)

    for seats in _seatings(profile):
        for variant in range(len(profile.variants)):
            play = new_play(profile, seats)
            for _ in range(variant):
                play, _ = step(play, N_PRESS, 0.0)
            keep(screen(play, 0.0))
            if profile.notes and variant == 0:  # the notes' next pages (NEXT hold)
                for page in range(1, NOTE_PAGES):
                    keep(replace(screen(play, 0.0), page=page))
            play, _ = step(play, E_PRESS, 0.0)
            while play.spot.state is State.SPECIAL and play.spot.round == 0:  # the setup
                keep(screen(play, 0.0))
                play, _ = step(play, N_PRESS, 0.0)
            keep(screen(play, 0.0))  # before the events: the round hints the first of them
            for _ in range(len(profile.events)):
                play, _ = step(play, E_HOLD, 0.0)
            for _ in range(3000):
                shown = screen(play, 0.0)
                keep(shown)
                if play.spot.state is State.GAME_OVER:
                    break
                at = asked(play)
                if at is not None:
                    if play.profile.categories[at[0]].each and play.spot.sheet[at[0]][at[1]]:
                        pass  # one value was entered: ERA on 0 ends the list
                    else:
                        # a different number for each (the first two tie where players
                        # are put out, so that a tie-break is asked and shown)
                        tie = profile.order == "eliminations" and at[1] == 1
                        for _ in range(7 * (0 if tie else at[1]) + 12):
                            play, _ = step(play, N_PRESS, 0.0)
                        keep(screen(play, 0.0))
                play, _ = step(play, E_PRESS if at is not None else N_PRESS, 0.0)
            assert play.spot.state is State.GAME_OVER
            asking, _ = step(play, BOTH, 0.0)
            keep(screen(asking, 0.0))
            keep(replace(screen(play, 0.0), prompt=Prompt.RESUMED))
    return list(seen.values())


def gallery_screens(profile: Profile) -> list[tuple[str, PlayScreen]]:
    """(name, screen) of each different screen of `profile`, in play order: one for each
    variant's setup, step, special round, event, category and ranking (who plays it, the
    numbers, the countdown and the variant's round count aside), "New game?" and
    "Resumed"."""
    seen: set[object] = set()
    chosen: list[tuple[str, PlayScreen]] = []
    for shown in every_screen(profile):
        solo = bool(shown.places) and shown.places[0][4] is not None
        variant = shown.variant if shown.kind == State.SETUP.value else None
        page = shown.page if shown.kind == State.SETUP.value else 0
        key = (shown.kind, variant, shown.title, shown.text, shown.prompt, shown.ending, solo,
               page)
        if key in seen:
            continue
        seen.add(key)
        chosen.append((f"{len(chosen) + 1:03d}_{shown.kind}", shown))
    return chosen


# What the box adds, shown over one screen of each kind: (name, kind, marks).
MARKED: tuple[tuple[str, str, Marks], ...] = (
    ("setup_no_sound", "setup", Marks(no_sound=True)),
    ("round_all_marks", "round", Marks(no_sound=True, no_save=True, no_file=True)),
    ("round_cannot_save", "round", Marks(no_save=True)),
    ("round_holding_for_new_game", "round", Marks(hold_progress=0.5)),
    ("special_missing_file_holding", "special", Marks(no_file=True, hold_progress=0.17)),
    ("scoring_no_sound_cannot_save", "scoring", Marks(no_sound=True, no_save=True)),
    ("scoring_holding_for_new_game", "scoring", Marks(no_sound=True, hold_progress=0.83)),
    ("game_over_cannot_save", "game_over", Marks(no_save=True)),
    ("confirm_no_sound", "confirm", Marks(no_sound=True)),
)


# The box's first setup of a game: which game plays and why (`PlayScreen.why_played`), each
# reason; the last with the hint row's second page (how to choose another game).
CHOSEN: tuple[tuple[str, str, Marks], ...] = (
    ("setup_given_with_game", "game", Marks()),
    ("setup_chosen_in_menu", "menu", Marks()),
    ("setup_config_game", "config", Marks()),
    ("setup_config_game_page2", "config", Marks(turn=1)),
)


def marked_screens(profile: Profile) -> list[tuple[str, PlayScreen, Marks]]:
    """(name, screen, marks): the box's status marks and the NEXT+ERA hold's progress over
    the first screen of each kind of `profile` (a kind it never shows is left out); then its
    first setup saying which game plays and why (`CHOSEN`)."""
    first: dict[str, PlayScreen] = {}
    for shown in every_screen(profile):
        first.setdefault(shown.kind, shown)
    marked = [(name, first[kind], marks) for name, kind, marks in MARKED if kind in first]
    return marked + [(name, replace(first["setup"], why_played=why), marks)
                     for name, why, marks in CHOSEN]


# A countdown as every game shows it (`ui/round_plans.py`), over README's real-time example
# (`erabox/examples/camp-run.toml`: ERA starts a 5 s lead-in, a 10:00 clock, "Return to camp"
# at 3:20 and 6:40): (name, seconds after ERA, NEXT held then to pause, marks).
CLOCK_GAME = "camp-run"
CLOCK_MOMENTS: tuple[tuple[str, float, float | None, Marks], ...] = (
    ("lead_in", 2.0, None, Marks()),
    ("running", 65.0, None, Marks()),
    ("call", 206.0, None, Marks()),
    ("paused", 120.0, 100.0, Marks()),
    ("running_no_sound_holding_for_new_game", 65.0, None, Marks(no_sound=True,
                                                                 hold_progress=0.5)),
)


def clock_screens(profile: Profile) -> list[tuple[str, PlayScreen, Marks]]:
    """(name, screen, marks) of `profile`'s countdown at each of `CLOCK_MOMENTS`, the first two
    seats playing: ERA at 0, the clock's own deadlines stepped (pure: no clock of the box)."""
    found = []
    for name, at, paused_at, marks in CLOCK_MOMENTS:
        play, _ = step(new_play(profile, COLOURS[:2]), E_PRESS, 0.0)
        now = 0.0
        while True:
            due = next_deadline(play, now)
            if paused_at is not None and (due is None or due > paused_at):
                play, _ = step(play, Input(Button.NEXT, Gesture.HOLD), paused_at)
                now, paused_at = paused_at, None
                continue
            if due is None or due > at:
                break
            play, _ = step(play, Tick(), due)
            now = due
        found.append((name, screen(play, at), marks))
    return found
