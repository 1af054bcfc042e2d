"""Random play: hypothesis mashes every button at random moments through whole games.

The test drives the core as the box's loop does: it wakes at every deadline `next_deadline`
names on the way to the next input, then hands the input in. From the effects alone it keeps
its own account of each real-time era (start gong, pauses, resumes, restarts) and checks:

- each scholar cry and the end gong fire exactly once per real-time era, in order, at their
  running times, and never while the era is paused;
- introductory rounds never skip: each step moves the round by at most one;
- eras only move forward, except by a new game ("New game?" yes, or ERA hold in game_over);
- `next_deadline` is never in the past after a step; the machine never raises;
- snapshot -> JSON -> loads -> restore works from every moment, keeping era, mode, round and
  start player (a real-time era comes back paused at its running time, at its armed cue, or
  with the scholar prompt a sounded cry still owes);
- power cuts never lose or double a call: a restart into a cry's prompt counts as that call
  given once the table resumes with the prompt on screen (docs/power-cuts.md); the era's
  running time after a restart is the restored game's (at an armed cue: the cue's time);
- no era music plays in setup, lead-in, scoring, game over or a pause.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from erabox.core.config import Config, IntroConfig, RealtimeConfig
from erabox.core.machine import (
    Game,
    describe,
    elapsed,
    new_game,
    next_deadline,
    recorded_ahead,
    restore,
    screen_kind,
    sheet,
    snapshot,
    state_name,
    step,
    timeline,
)
from erabox.core.model import (
    Button,
    Effect,
    Event,
    Gesture,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    PlaySound,
    Prompt,
    Question,
    Save,
    Sound,
    Tick,
)
from erabox.core.snapshot import dumps, loads

CONFIGS = [
    Config(),
    # Short eras with many cues, so that random play finishes many of them.
    Config(players=("red", "blue"), default_mode=Mode.INTRO,
           realtime=RealtimeConfig(length_s=40.0, scholar_cues_s=(5.0, 12.5, 30.0, 39.5),
                                   lead_in_s=2, final_ticks_s=3, scholar_prompt_s=4.0),
           intro=IntroConfig(rounds=6, scholar_after_rounds=(1, 3, 5))),
    Config(players=("red", "blue", "green"), guide=False,
           realtime=RealtimeConfig(length_s=25.0, scholar_cues_s=(10.0, 20.0), lead_in_s=0,
                                   final_ticks_s=0),
           intro=IntroConfig(rounds=4, scholar_after_rounds=(2,))),
]
TOLERANCE = 2e-3  # the saved running time is rounded to the millisecond

waits = st.one_of(st.just(0.0), st.floats(0, 2), st.floats(0, 30), st.floats(0, 700))
buttons = st.sampled_from(list(Button))
gestures = st.sampled_from(list(Gesture))


def tally(what: str) -> None:
    """Count what random play reached (`pytest --hypothesis-show-statistics` shows it)."""
    if currently_in_test_context():
        event(what)


@dataclass
class EraRun:
    """Our own account of one real-time era, kept from the effects only."""

    era: int
    anchor: float | None  # wall time of running time 0, while running
    held: float | None = None  # running time, while paused
    cries: list[float] = field(default_factory=list)  # running times they fired at
    owed: float | None = None  # a cry shown as a restart's prompt, given when the table resumes

    def running(self, now: float) -> float:
        assert self.anchor is not None, "a cue while the era is paused"
        return now - self.anchor


class RandomPlay(RuleBasedStateMachine):
    """One box, played at random."""

    config: Config
    game: Game
    now: float
    saved: dict[str, Any] | None
    run: EraRun | None
    music: MusicAction

    @initialize(config=st.sampled_from(CONFIGS))
    def switch_on(self, config: Config) -> None:
        self.config = config
        self.game = new_game(config)
        self.now = 0.0
        self.saved = None
        self.run = None
        self.music = MusicAction.STOP

    # --- driving the core as the loop does --------------------------------------------------

    def wait(self, seconds: float) -> None:
        until = self.now + seconds
        while (due := next_deadline(self.game, self.now)) is not None and due <= until:
            self.now = max(self.now, due)
            self.feed(Tick())
        self.now = until

    def feed(self, event: Event) -> None:
        before = self.game
        self.game, effects = step(before, event, self.now)
        self.account(effects)
        self.check_step(before, event, effects)

    # --- rules --------------------------------------------------------------------------------

    @rule(button=buttons, gesture=gestures, wait=waits)
    def gesture(self, button: Button, gesture: Gesture, wait: float) -> None:
        self.wait(wait)
        self.feed(Input(button, gesture))

    @rule(wait=waits, toggle=st.booleans())
    def play_on(self, wait: float, toggle: bool) -> None:
        """What a table would do next, so that random play also gets through whole games."""
        self.wait(wait)
        state = screen_kind(self.game)  # `prepare`: the guide in an era's setup
        moves = {
            Phase.PREPARE: [(Button.NEXT, Gesture.HOLD)] * toggle + [(Button.ERA, Gesture.PRESS)],
            Phase.SETUP: [(Button.NEXT, Gesture.PRESS)] * toggle + [(Button.ERA, Gesture.PRESS)],
            Phase.PAUSED: [(Button.NEXT, Gesture.PRESS)],
            Phase.INTRO_ROUND: [(Button.NEXT, Gesture.PRESS)],
            Phase.SCHOLARS: [(Button.NEXT, Gesture.PRESS)],
            Phase.SCORING: [(Button.ERA, Gesture.PRESS)],
            Phase.GAME_OVER: [(Button.ERA, Gesture.HOLD), (Button.ERA, Gesture.PRESS)],
            Phase.CONFIRM: [(Button.NEXT, Gesture.PRESS)],
        }.get(state, [])
        for button, gesture in moves:
            self.feed(Input(button, gesture))
        for _ in range(40):  # enter points (a few) until the scoring is over
            if state_name(self.game) is not Phase.SCORING:
                break
            self.feed(Input(Button.NEXT if toggle else Button.ERA, Gesture.PRESS))
            toggle = False
            self.feed(Input(Button.ERA, Gesture.PRESS))
        if state in (Phase.LEAD_IN, Phase.RUNNING):
            self.wait(self.config.realtime.lead_in_s + self.config.realtime.length_s)

    @rule(wait=waits)
    def time_passes(self, wait: float) -> None:
        self.wait(wait)

    @rule(wait=waits)
    def power_cut(self, wait: float) -> None:
        """The plug is pulled; the box restarts from what it last saved, through JSON."""
        self.wait(wait)
        self.music = MusicAction.STOP  # the process died with its mixer
        if self.saved is None:  # nothing saved yet: a fresh game, as on first start
            self.game, self.run = new_game(self.config), None
            return
        was = self.game
        snap = loads(dumps(self.saved), self.config)
        self.game, effects = restore(snap, self.config, self.now)
        if self.run is not None and snap["phase"] in ("running", "paused"):
            tally("a power cut in a real-time era")
            # From the restored game: at an armed cue, the cue's time (not the saved one).
            self.run.anchor, self.run.held = None, elapsed(self.game, self.now)
            self.run.owed = None
            if self.game.prompt is Prompt.SCHOLARS:  # a cry's prompt, shown silently
                self.run.owed = timeline(self.config)[self.game.cues_done - 1].at
        else:
            self.run = None
        self.account(effects)
        assert self.game.era == was.era and self.game.mode is was.mode
        self.check_deadline()

    # --- our account of the effects -----------------------------------------------------------

    def account(self, effects: tuple[Effect, ...]) -> None:
        now = self.now
        for effect in effects:
            if isinstance(effect, Save):
                self.saved = effect.snapshot
            elif isinstance(effect, Music):
                self.account_music(effect)
        starts = any(isinstance(e, Music) and e.action is MusicAction.START for e in effects)
        for effect in effects:
            if not isinstance(effect, PlaySound) or self.run is None or starts:
                continue
            assert effect.era == self.run.era
            rt = self.config.realtime
            if effect.sound is Sound.CRY:
                running = self.run.running(now)
                expected = rt.scholar_cues_s[len(self.run.cries)]  # the next one, in order
                assert running == pytest.approx(expected, abs=TOLERANCE)
                self.run.cries.append(running)
                tally("a scholar cry in a real-time era")
            elif effect.sound is Sound.GONG:
                assert self.run.running(now) == pytest.approx(rt.length_s, abs=TOLERANCE)
                assert len(self.run.cries) == len(rt.scholar_cues_s)  # none lost
                tally("a real-time era ended")
                self.run = None
            elif effect.sound is Sound.TICK:
                left = rt.length_s - self.run.running(now)
                assert 0 < round(left) <= rt.final_ticks_s
                assert left == pytest.approx(round(left), abs=TOLERANCE)

    def account_music(self, music: Music) -> None:
        now = self.now
        self.music = music.action
        if music.mode is not Mode.REALTIME:
            return
        if music.action is MusicAction.START:
            assert self.run is None
            self.run = EraRun(era=music.era, anchor=now)
        elif self.run is None:
            assert music.action is MusicAction.STOP
        elif music.action is MusicAction.PAUSE:
            self.run.held = self.run.running(now)
            self.run.anchor = None
            assert music.elapsed == pytest.approx(self.run.held, abs=TOLERANCE)
        elif music.action is MusicAction.RESUME:
            assert self.run.held is not None and self.run.anchor is None
            self.run.anchor, self.run.held = now - self.run.held, None
            owed = self.run.owed
            if (owed is not None and self.game.prompt is Prompt.SCHOLARS
                    and not any(c == pytest.approx(owed, abs=TOLERANCE) for c in self.run.cries)):
                # The table resumes with the prompt of a cry it did not hear: that call is
                # given (a cut between the "sounded" record and the sound, docs/power-cuts.md).
                self.run.cries.append(owed)
            self.run.owed = None
        elif music.action is MusicAction.STOP and self.game.phase is not Phase.SCORING:
            self.run = None  # the era was abandoned ("restart era?" or "new game?" yes)

    # --- checks -------------------------------------------------------------------------------

    def check_step(self, before: Game, event: Event, effects: tuple[Effect, ...]) -> None:
        after = self.game
        self.check_deadline()
        if state_name(after) is Phase.GAME_OVER:
            tally("game over")
        # Eras move forward one at a time, from scoring; back to Era I only by a new game.
        if after.era < before.era:
            # (the final ranking too asks "New game?" first: one hold never wipes it)
            assert (before.question is Question.NEW_GAME
                    and event == Input(Button.ERA, Gesture.PRESS))
            assert (after.era, after.phase) == (1, Phase.SETUP)
        elif after.era > before.era:
            assert after.era == before.era + 1
            assert state_name(before) is Phase.SCORING
            assert event == Input(Button.ERA, Gesture.PRESS)
        # Introductory rounds never skip.
        was, now = describe(before, self.now), describe(after, self.now)
        if was["round"] is not None and now["round"] is not None and was["era"] == now["era"]:
            assert abs(now["round"] - was["round"]) <= 1
        if now["round"] is not None and was["round"] is None:
            assert now["round"] == 1  # an introductory era opens on round 1
        # Every change worth keeping is saved at once (the question is not worth keeping).
        def kept(game: Game, shown: dict[str, Any]) -> tuple[Any, ...]:
            return (game.phase, shown["era"], shown["mode"], shown["round"],
                    shown["start_player"])

        if kept(before, was) != kept(after, now):
            saves = [e.snapshot for e in effects if isinstance(e, Save)]
            assert saves
            # ... unless the call falls due at this very moment (a resume at the end of the
            # era's time): then the save written is the call's "sounded" record, on disk ahead
            # of the call (docs/power-cuts.md), which the next tick sounds.
            ahead = after.sounded_ahead
            assert saves[-1]["phase"] == after.phase.value or (
                ahead is not None and saves[-1] == loads(ahead[2], after.config)), saves[-1]
        # No era music under a screen without a running era.
        if after.phase in (Phase.SETUP, Phase.LEAD_IN, Phase.SCORING, Phase.GAME_OVER,
                           Phase.PAUSED):
            assert self.music is not MusicAction.START and self.music is not MusicAction.RESUME
        # A cue never fires in a paused era.
        if before.phase is Phase.PAUSED and after.phase is Phase.PAUSED:
            assert not [e for e in effects if isinstance(e, PlaySound)]

    def check_deadline(self) -> None:
        due = next_deadline(self.game, self.now)
        assert due is None or due >= self.now

    @invariant()
    def survives_a_save_and_restore(self) -> None:
        if not hasattr(self, "game"):
            return
        text = dumps(snapshot(self.game, self.now))
        # The settings chosen on the box come back from their own file (the box passes them).
        back, _ = restore(loads(text, self.config), self.config, self.now,
                          settings=self.game.settings)
        was, now = describe(self.game, self.now), describe(back, self.now)
        assert (now["era"], now["mode"]) == (was["era"], was["mode"])
        if self.game.phase in (Phase.INTRO_ROUND, Phase.SCHOLARS):
            assert (now["round"], now["start_player"]) == (was["round"], was["start_player"])
        # Points entered survive; the entry comes back on the same player and step.
        assert sheet(back) == sheet(self.game)
        if self.game.phase is Phase.SCORING:
            assert self.game.entry is not None and back.entry is not None
            assert (back.entry.index, back.entry.tie) == (self.game.entry.index,
                                                          self.game.entry.tie)
        armed = self.game.armed if self.game.armed == self.game.cues_done else None
        if self.game.phase is Phase.RUNNING and recorded_ahead(self.game):
            # Cut after a call's "sounded" record went on disk ahead of it: the call is shown,
            # not sounded (docs/power-cuts.md): a cry's prompt, or the era's scoring.
            cue = timeline(self.config)[self.game.cues_done]
            if cue.ends_era:
                assert back.phase is Phase.SCORING
            else:
                assert back.phase is Phase.PAUSED and back.cues_done == self.game.cues_done + 1
                assert back.prompt is Prompt.SCHOLARS and back.sounded == self.game.cues_done
                assert elapsed(back, self.now) == pytest.approx(cue.at, abs=TOLERANCE)
        elif self.game.phase is Phase.RUNNING and armed is not None:
            # Cut while a cry or the end gong was about to sound: back paused AT that cue, not
            # yet given, to sound when the table resumes (docs/power-cuts.md).
            cue = timeline(self.config)[armed]
            assert back.phase is Phase.PAUSED and back.cues_done == armed
            assert elapsed(back, self.now) == pytest.approx(cue.at, abs=TOLERANCE)
        elif self.game.phase in (Phase.RUNNING, Phase.PAUSED):
            assert back.phase is Phase.PAUSED and back.cues_done == self.game.cues_done
            running = elapsed(self.game, self.now)
            assert running is not None
            assert elapsed(back, self.now) == pytest.approx(running, abs=TOLERANCE)
        if self.game.sounded is not None and not recorded_ahead(self.game):
            # A sounded cry whose prompt is still owed: shown again, silently, after the cut
            # (unless the next call's record went ahead: then that call's prompt is shown).
            assert back.prompt is Prompt.SCHOLARS and back.sounded == self.game.sounded


RandomPlay.TestCase.settings = settings(
    # `make test-deep` (the "deep" profile in conftest.py) runs many more, with random seeds.
    max_examples=max(200, settings.default.max_examples), stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
TestRandomPlay = RandomPlay.TestCase


def test_random_play_reaches_whole_games() -> None:
    """The random player is not stuck in setup: a purposeful run ends a whole game."""
    machine = RandomPlay()
    machine.switch_on(CONFIGS[1])
    for _ in range(200):
        machine.play_on(0.5, toggle=False)
        if state_name(machine.game) is Phase.GAME_OVER:
            break
    assert state_name(machine.game) is Phase.GAME_OVER
    machine.teardown()


def test_random_play_notices_a_lost_cry() -> None:
    """The account is not blind: a machine that skips a cue is caught."""
    machine = RandomPlay()
    machine.switch_on(CONFIGS[1])
    machine.feed(Input(Button.NEXT, Gesture.HOLD))  # past the preparation guide
    machine.feed(Input(Button.NEXT, Gesture.PRESS))  # to real-time
    machine.feed(Input(Button.ERA, Gesture.PRESS))
    machine.wait(machine.config.realtime.lead_in_s + 1)
    machine.game = replace(machine.game, cues_done=1)  # sabotage: the first cry is gone
    with pytest.raises(AssertionError):
        machine.wait(machine.config.realtime.length_s)


def test_random_play_found_case_two_quick_cuts_before_a_cry() -> None:
    """The case random play found: two power cuts 0.4 s and 0.3 s before a cry, the table
    resuming after the second. Kept as a fixed example (hypothesis's stateful tests take no
    `@example`, and CI runs them derandomized, where this case never came up): the cry must
    sound once, on resume."""
    machine = RandomPlay()
    machine.switch_on(CONFIGS[2])  # a 25 s era, cries at 10 and 20 s, no lead-in
    machine.feed(Input(Button.ERA, Gesture.PRESS))
    machine.power_cut(19.6)
    machine.power_cut(0.1)
    machine.play_on(1.3, toggle=False)  # the table resumes
    assert machine.run is not None and machine.run.cries == [pytest.approx(10.0)]
    machine.time_passes(30.0)  # to the end gong: the model checks every cry was given
    assert machine.run is None and state_name(machine.game) is Phase.SCORING
    machine.teardown()
