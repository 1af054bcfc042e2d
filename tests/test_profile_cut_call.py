"""A power cut at a countdown's call, just before it, among its final ticks, or in an era's
music: the round engine comes back as Time of Empires' era engine does (docs/power-cuts.md,
"A round game's countdown"; docs/profiles.md, "Real-time phases").

- a cut while a call's prompt is up (at the call, in its record's lead before it, or after
  it): the call is not sounded again and its prompt comes back instead of "Resumed", owed
  whole (`prompt_s` of countdown time from where the countdown comes back);
- `resume = "paused"`: a cut within `ARM_LEAD_S` (0.5 s) before a call, before its record
  ahead lands, comes back held AT the call, not given: it sounds the moment the table resumes;
- a cut among the final ticks loses at most a second (each tick given is saved);
- `music_from = "era"`: the era's music comes back before "Resumed" shows.

Played on the pure core: each step's saves kept as a card would (the last one), the restart
read back from that record through JSON, as the state file holds it.
"""

from __future__ import annotations

import json
from typing import Any

from erabox.core.deadlines import next_deadline
from erabox.core.machine import step
from erabox.core.model import (
    Button,
    Gesture,
    Input,
    Music,
    PlaySound,
    Prompt,
    Save,
    ShowPrompt,
    Sound,
    Tick,
)
from erabox.core.play import Play, PlayEffect, call_words, countdown_elapsed, new_play
from erabox.core.play_record import restore
from erabox.core.profile import parse_profile

PLAYERS = ("red", "blue")
GAME = """
[game]
id = "relay"
name = "Relay"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 1

[[phase]]
id = "race"
label = "Race"
timer_s = 60
final_ticks_s = 5
timer_end = "next"
prompt_s = 15
resume = "paused"
steps = ["Run"]

[[phase.call]]
at_s = 20
sound = "cry"
prompt = "scholars"

[[phase.call]]
at_s = 40
prompt = { en = "Swap runners", ja = "走者交代" }

[[phase]]
id = "rest"
label = "Rest"
steps = ["Breathe"]
"""
PAUSED = parse_profile(GAME, "relay.toml")
RUNNING = parse_profile(GAME.replace('resume = "paused"\n', ""), "relay.toml")


class Box:
    """The core played on a virtual clock, the last record saved kept as the card keeps it."""

    def __init__(self, play: Play) -> None:
        self.play, self.now = play, 0.0
        self.record: dict[str, Any] | None = None
        self.heard: list[tuple[float, Sound]] = []

    def _apply(self, effects: tuple[PlayEffect, ...], now: float) -> None:
        for effect in effects:
            if isinstance(effect, Save):
                self.record = json.loads(json.dumps(effect.snapshot))
            elif isinstance(effect, PlaySound):
                self.heard.append((round(now, 3), effect.sound))

    def run_to(self, until: float) -> None:
        while (due := next_deadline(self.play, self.now)) is not None and due <= until:
            self.now = max(self.now, due)
            self.play, effects = step(self.play, Tick(), self.now)
            self._apply(effects, self.now)
        self.now = until

    def press(self, button: Button, gesture: Gesture = Gesture.PRESS) -> None:
        self.play, effects = step(self.play, Input(button, gesture), self.now)
        self._apply(effects, self.now)

    def cut(self) -> tuple[PlayEffect, ...]:
        """The power fails now: the box comes back from the record on its card."""
        assert self.record is not None
        self.play, effects = restore(self.record, self.play.profile, PLAYERS, self.now)
        self._apply(effects, self.now)
        return effects


def started(profile: Any) -> Box:
    box = Box(new_play(profile, PLAYERS))
    box.press(Button.ERA)  # the race's countdown starts at 0
    return box


def said(effects: tuple[PlayEffect, ...]) -> list[tuple[str, str | None]]:
    return [(e.prompt.value, e.text) for e in effects if isinstance(e, ShowPrompt)]


def test_a_cut_while_a_calls_prompt_is_up_shows_it_again_owed_whole() -> None:
    box = started(PAUSED)
    box.run_to(22.0)  # the cry at 20 (saved), its prompt up until 35
    effects = box.cut()
    assert said(effects) == [("scholars", None)]  # not "Resumed"
    assert box.play.held_left == 40.0  # back held at the last save, the call given
    assert box.heard.count((20.0, Sound.CRY)) == 1
    assert box.record is not None and box.record.get("call_owed") is None  # not saved yet
    box.run_to(40.0)
    box.press(Button.ERA)  # the table resumes at 40: the prompt is up 15 s more, whole
    assert box.play.call_owed == 35.0
    box.run_to(54.9)
    assert call_words(box.play, box.now) is not None
    box.run_to(55.1)
    assert call_words(box.play, box.now) is None
    assert [t for t, s in box.heard if s is Sound.CRY] == [20.0]  # never sounded again
    box.run_to(57.0)  # once the prompt is gone: "Resumed"
    assert said(box.cut()) == [("resumed", None)]


def test_a_second_cut_shows_the_owed_prompt_again() -> None:
    box = started(PAUSED)
    box.run_to(34.0)
    box.cut()
    box.run_to(40.0)
    box.press(Button.ERA)  # resumed at 30 s into the countdown: the prompt owed until 45
    box.run_to(47.0)  # saved at 45 (35 s in), the prompt still owed then
    assert box.record is not None and box.record["call_owed"] == 45.0
    effects = box.cut()
    assert said(effects) == [("scholars", None)]
    assert countdown_elapsed(box.play, box.now) == 35.0 and box.play.call_owed == 50.0


def test_a_calls_own_prompt_comes_back_in_its_words() -> None:
    box = started(RUNNING)  # back running: the prompt is owed whole all the same
    box.run_to(41.0)
    effects = box.cut()
    assert said(effects) == [("scholars", "Swap runners")]
    assert box.play.call_owed == 55.0 and box.play.timer_end == 41.0 + 20.0
    box = started(RUNNING)  # coming back running, a call is not recorded "armed"
    box.run_to(19.7)
    box.cut()
    assert box.play.timer_end == 19.7 + 45.0  # the last save's, at 15


def test_resume_paused_a_cut_just_before_a_call_comes_back_held_at_it() -> None:
    box = started(PAUSED)
    box.run_to(19.7)  # armed at 19.5: on disk held at the call, the call not given
    box.cut()
    assert box.play.held_left == 40.0 and box.heard.count((20.0, Sound.CRY)) == 0
    box.run_to(30.0)
    box.press(Button.ERA)
    box.run_to(30.0)
    assert [t for t, s in box.heard if s is Sound.CRY] == [30.0]  # at once, once
    box = started(PAUSED)
    box.run_to(19.4)  # before the arm: back at the last save
    box.cut()
    assert box.play.held_left == 45.0  # saved at 15


def test_resume_paused_the_end_is_armed_too() -> None:
    box = started(PAUSED)
    box.run_to(59.7)
    box.cut()
    assert box.play.held_left == 0.0 and box.play.spot.phase == 0
    box.press(Button.ERA)
    box.run_to(box.now)
    assert box.heard[-1] == (59.7, Sound.GONG) and box.play.spot.phase == 1


def test_a_cut_among_the_final_ticks_loses_at_most_a_second() -> None:
    box = started(PAUSED)
    box.run_to(57.4)  # ticks at 55, 56, 57 (a save at 55 too)
    box.cut()
    assert box.play.held_left == 3.0  # back at the tick at 57, not the save at 55
    box.press(Button.ERA)
    box.run_to(box.now + 1.5)
    ticks = [t for t, s in box.heard if s is Sound.TICK]
    assert ticks == [55.0, 56.0, 57.0, 58.4]  # 57's not again: the next one, 58's


ERA_MUSIC = """
[game]
id = "hall"
name = "Hall"

[players]
min = 2
max = 4

[rounds]
name = "Round"
count = 3

[[phase]]
id = "dance"
label = "Dance"
steps = ["Dance"]
music = "dance.ogg"
music_from = "era"
"""


def test_the_eras_music_comes_back_before_resumed() -> None:
    profile = parse_profile(ERA_MUSIC, "/nowhere/hall.toml")
    box = Box(new_play(profile, PLAYERS))
    box.press(Button.ERA)
    box.run_to(7.0)
    box.press(Button.NEXT)  # round 2 (saved), the music on
    box.run_to(12.0)
    effects = box.cut()
    order = [type(e) for e in effects if isinstance(e, Music | ShowPrompt)]
    assert order == [Music, ShowPrompt]
    assert said(effects) == [(Prompt.RESUMED.value, None)]
