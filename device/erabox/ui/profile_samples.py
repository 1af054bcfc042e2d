"""Every screen of a game profile, played through: for the gallery (`ui/gallery.py`) and the
renderer's tests (tests/test_profile_screens.py).

A whole play of each variant, with the most players (and one, for a profile that can be
played solo), its events, a number in every category, the ranking, "New game?" and
"Resumed". Pure: the profile machine stepped without a clock.
"""

from __future__ import annotations

from dataclasses import replace

from erabox.core.model import Button, Gesture, Input, Prompt
from erabox.core.profile import Profile
from erabox.core.profile_machine import step
from erabox.core.profile_play import PlayScreen, State, asked, new_play, screen

COLOURS = ("red", "blue", "green", "yellow", "purple")
N_PRESS, E_PRESS = Input(Button.NEXT, Gesture.PRESS), Input(Button.ERA, Gesture.PRESS)
E_HOLD, BOTH = Input(Button.ERA, Gesture.HOLD), Input(Button.BOTH, Gesture.HOLD)


def every_screen(profile: Profile) -> list[PlayScreen]:
    """A whole play of each variant, with the most players, its events, a number in every
    category, the ranking, "New game?" and "Resumed": each distinct screen once (the round
    number aside)."""
    seen: dict[PlayScreen, PlayScreen] = {}

    def keep(shown: PlayScreen) -> None:
        """The same screen in another round is not another screen: the first is kept (a
        census after year 4 says year 4)."""
        seen.setdefault(replace(shown, round=1 if shown.round else None), shown)

    players = COLOURS[:min(profile.max_players, len(COLOURS))]
    solo = [COLOURS[:1]] if profile.min_players == 1 else []
    for seats in [players, *solo]:
        for variant in range(len(profile.variants)):
            play = new_play(profile, seats)
            for _ in range(variant):
                play, _ = step(play, N_PRESS, 0.0)
            keep(screen(play, 0.0))
            play, _ = step(play, E_PRESS, 0.0)
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
                        for _ in range(7 * at[1] + 12):  # a different number for each
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
        key = (shown.kind, variant, shown.title, shown.text, shown.prompt, shown.ending, solo)
        if key in seen:
            continue
        seen.add(key)
        chosen.append((f"{len(chosen) + 1:03d}_{shown.kind}", shown))
    return chosen
