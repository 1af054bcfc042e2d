"""`[buttons] pause = "next_hold"` (docs/profiles.md, "The buttons"): NEXT hold pauses and
resumes a countdown, as in Time of Empires' era; ERA press does nothing there; undo moves to
ERA hold where no event can start (an event that can start still starts with it). Hinted on
the screen in both languages; the default (`"era_press"`) is today's: ERA pauses, NEXT held
undoes.
"""

from __future__ import annotations

import pytest

from erabox.core.machine import step
from erabox.core.model import Button, Gesture, Input
from erabox.core.play import Play, new_play, screen
from erabox.core.profile import ProfileError, parse_profile
from erabox.ui.panel import Panel
from erabox.ui.screens import layout_play, render_play

GAME = """\
[game]
id = "sprint"
name = "Sprint"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 2

[buttons]
pause = "next_hold"

[[phase]]
id = "race"
label = "Race"
timer_s = 60
steps = ["Run", "Rest"]

[[phase]]
id = "tidy"
label = "Tidy"
steps = ["Tidy up"]

[[event]]
id = "storm"
label = "Storm"
steps = ["Take cover"]
"""
PLAYERS = ("red", "blue")
NEXT, NEXT_HOLD = Input(Button.NEXT, Gesture.PRESS), Input(Button.NEXT, Gesture.HOLD)
ERA, ERA_HOLD = Input(Button.ERA, Gesture.PRESS), Input(Button.ERA, Gesture.HOLD)


def started(text: str = GAME) -> Play:
    play, _ = step(new_play(parse_profile(text, "sprint.toml"), PLAYERS), ERA, 0.0)
    return play


def test_next_hold_pauses_and_resumes_the_countdown_era_press_does_not() -> None:
    play = started()
    play, _ = step(play, ERA, 10.0)
    assert play.held_left is None and play.timer_end == 60.0  # ERA press: nothing
    play, _ = step(play, NEXT_HOLD, 10.0)
    assert play.held_left == 50.0 and play.spot.step == 0  # paused, not undone
    play, _ = step(play, NEXT_HOLD, 30.0)
    assert play.held_left is None and play.timer_end == 80.0


def test_era_hold_undoes_where_no_event_can_start_and_starts_one_where_it_can() -> None:
    play = started()
    play, _ = step(play, ERA_HOLD, 1.0)  # round 1's start: the storm can start
    assert play.spot.state.value == "event"
    play, _ = step(play, NEXT, 2.0)  # its last step: back in the round, the storm done
    assert play.spot.state.value == "round" and play.spot.events_done == ("storm",)
    play, _ = step(play, NEXT, 3.0)
    play, _ = step(play, NEXT, 4.0)  # "Tidy": no countdown, no event left to start
    assert play.spot.phase == 1
    play, _ = step(play, NEXT_HOLD, 5.0)
    assert play.spot.phase == 1  # NEXT hold undoes nothing
    play, _ = step(play, ERA_HOLD, 6.0)
    assert play.spot.phase == 0 and play.spot.step == 1  # undo, back to "Rest"


def test_the_default_keeps_era_press_pausing_and_next_hold_undoing() -> None:
    play = started(GAME.replace('[buttons]\npause = "next_hold"\n', ""))
    play, _ = step(play, NEXT, 1.0)
    play, _ = step(play, ERA, 2.0)
    assert play.held_left == 58.0
    play, _ = step(play, NEXT_HOLD, 3.0)
    assert play.spot.step == 0


@pytest.mark.parametrize(("language", "hints"), [
    ("en", ("NEXT: next  hold ERA: undo", "hold: NEXT resume  ERA undo", "NEXT: next",
            "hold NEXT: resume")),
    ("ja", ("NEXT: 次へ ERA長押し: 戻す", "NEXT長押し:再開 ERA長押し:戻す", "NEXT: 次へ",
            "NEXT長押し: 再開")),
])
def test_the_hint_says_the_gestures(language: str, hints: tuple[str, ...]) -> None:
    """Undo by ERA hold where no event can start; where one can, ERA hold is the event's."""
    game = started()
    done, _ = step(game, ERA_HOLD, 0.5)
    done, _ = step(done, NEXT, 1.0)  # the storm done: no event can start
    shown = []
    for play in (done, game):
        for paused in (False, True):
            if paused:
                play, _ = step(play, NEXT_HOLD, 2.0)
            items = layout_play(screen(play, 2.0), Panel(128, 64), language)
            hint = next(i for i in items if i.role == "hint")
            assert hint.x + hint.mask.size[0] <= 128 and not hint.abbreviated  # it fits
            shown.append(hint.text)
            for size in ((128, 64), (128, 32)):  # drawn whole on both panels
                assert render_play(screen(play, 2.0), Panel(*size), language).size == size
    assert tuple(shown) == hints


def test_a_bad_pause_names_file_line_and_key() -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(GAME.replace('"next_hold"', '"both"'), "sprint.toml")
    assert str(caught.value) == ("sprint.toml:14: key 'buttons.pause': expected one of "
                                 "'era_press', 'next_hold', got 'both'")


@pytest.mark.parametrize(("language", "hints"), [
    ("en", ("Until the gong  hold ERA: undo", "Until the gong")),
    ("ja", ("終了の合図まで ERA長押し: 戻す", "終了の合図まで")),
])
def test_a_countdown_next_cannot_end_says_so_with_the_hold_pause(
        language: str, hints: tuple[str, ...]) -> None:
    """`next_leaves = false` with `pause = "next_hold"` (Time of Empires' round file): on the
    phase's last step the table waits for the gong, and undo is ERA hold where no event can
    start (where one can, ERA hold is the event's)."""
    text = GAME.replace('steps = ["Run", "Rest"]', 'steps = ["Run"]\nnext_leaves = false')
    game = started(text)
    done, _ = step(game, ERA_HOLD, 0.5)
    done, _ = step(done, NEXT, 1.0)  # the storm done: no event can start
    shown = []
    for play in (done, game):
        items = layout_play(screen(play, 2.0), Panel(128, 64), language)
        hint = next(i for i in items if i.role == "hint")
        assert hint.x + hint.mask.size[0] <= 128 and not hint.abbreviated  # it fits
        shown.append(hint.text)
    assert tuple(shown) == hints
