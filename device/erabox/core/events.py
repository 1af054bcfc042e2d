"""The JSON-lines event stream of `erabox simulate --game` (docs/simulate.md, "Game profiles").

`PlayRecorder` turns what happened (inputs, effects, the play after each step) into event
dicts in time order: a line when the state, the round, the phase or turn, the step, a
special round or event, or the ending changes, and one for each sound, number and ranking,
each call of a countdown and each pause and resume of one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import Any

from .config import AudioConfig, ButtonsConfig
from .era_lines import EraLines
from .guide import walk_here
from .model import Input, Music, PlaySound, ShowPrompt
from .play import (
    Called,
    Entered,
    Paused,
    Play,
    PlayEffect,
    Ranked,
    Standings,
    State,
    era_number,
    next_start_player,
    rounds,
    start_player,
    start_seat,
    step_index,
    steps_here,
    turn_seat,
)

Emit = Callable[[dict[str, Any]], None]


class PlayRecorder:
    """Builds event dicts; each kind of line is written when its own fields change."""

    def __init__(self, emit: Emit, hold_s: float = ButtonsConfig.hold_s,
                 audio: AudioConfig | None = None) -> None:
        """`hold_s`: the config's hold threshold (`lines = "eras"`: an `entry` line's
        button time counts it per hold); `audio`: the config's, whose eras' music the box's
        own era music's lines name (`era_lines.music_of`)."""
        self._emit = emit
        self._audio = audio
        self._hold_s = hold_s
        self._last: dict[str, Any] = {}
        # The step's effects, written before the position's: its sounds say its era.
        self._pending: list[tuple[tuple[PlayEffect, ...], float]] = []
        # a profile of `[game] lines = "eras"`: its lines in Time of Empires' words
        self._words: EraLines | None = None

    def input(self, event: Input, t: float) -> None:
        if self._words is not None:
            self._words.input(event, t)
        else:
            self._line(t, "input", button=event.button.value, gesture=event.gesture.value)

    def effects(self, effects: Iterable[PlayEffect], t: float) -> None:
        """The step's effects, held until the position after it is seen (`play`)."""
        self._pending.append((tuple(effects), t))

    def _effect_lines(self, effects: Iterable[PlayEffect], t: float) -> None:
        for effect in effects:
            era = {"era": None}  # a game of eras: the era of the position the step leads to
            if isinstance(effect, PlaySound) and effect.file:  # the profile's own sound
                self._line(t, "sound", sound=effect.sound.value, **era,
                           file=PurePath(effect.file).name)
            elif isinstance(effect, PlaySound):
                self._line(t, "sound", sound=effect.sound.value, **era)
            elif isinstance(effect, Music):  # a phase's music: its file, and where in it
                named = ({"music": PurePath(effect.path).name} if effect.path  # else the
                         else {"mode": effect.mode.value})  # box's own era music (`box_music`)
                self._line(t, "sound", sound=effect.action.value, **era, **named,
                           position=round(effect.elapsed, 3))
            elif isinstance(effect, ShowPrompt):
                self._line(t, "prompt", prompt=effect.prompt.value,
                           **({} if effect.text is None else {"text": effect.text}))
            elif isinstance(effect, Called):  # a countdown's call (its sound line before)
                self._line(t, "call", phase=effect.phase, at_s=effect.at_s,
                           **({} if effect.text is None else {"text": effect.text}),
                           **({"prompt": effect.prompt} if effect.prompt else {}))
            elif isinstance(effect, Paused):
                self._line(t, "pause" if effect.paused else "resume", phase=effect.phase,
                           left=effect.left)
            elif isinstance(effect, Entered):
                self._line(t, "points", category=effect.category, player=effect.player,
                           value=effect.value, points=effect.points, total=effect.total)
            elif isinstance(effect, Ranked):
                places = [{"place": place, "player": player, "score": score}
                          | ({} if out is None else {"out_after": out})
                          | ({} if rank is None else {"rank": rank.en})
                          for place, player, score, out, rank in effect.places]
                self._line(t, "ranking", places=places,  # solo: a score and a rank, no winner
                           winners=[p["player"] for p in places
                                    if p["place"] == 1 and len(places) > 1],
                           **({"variants": list(effect.variants)} if effect.variants else {}))
            elif isinstance(effect, Standings):  # after an era: its points, the totals
                self._line(t, "standings", era=effect.era, places=[
                    {"place": place, "player": player, "era_points": points, "total": total}
                    for place, player, points, total in effect.places],
                    **({} if effect.variant is None else {"variant": effect.variant}))

    def play(self, play: Play, t: float, now: float | None = None) -> None:
        """The lines the play's position calls for, each only when it changed (`now`: the
        play's clock when it differs from the stamp)."""
        profile, spot = play.profile, play.spot
        pending, self._pending = self._pending, []
        if profile.lines == "eras":
            if self._words is None:
                self._words = EraLines(self._emit, self._hold_s, self._audio)
            self._words.step(pending, play, t, t if now is None else now)
            return
        self._words = None
        state = spot.state
        era_now = era_number(play) if profile.eras else None
        lines: list[dict[str, Any]] = []
        self._emit, emit = lines.append, self._emit
        try:
            for effects, at in pending:
                self._effect_lines(effects, at)
        finally:
            self._emit = emit
        for line in lines:  # the step's sounds, numbers and calls, in their order
            if "era" in line and line["type"] == "sound":
                if era_now is None:
                    del line["era"]
                else:
                    line["era"] = era_now
            self._emit(line)
        # the box's settings menu open over the setup (`menu`): `settings`, as the
        # era engine's state line says it
        self._changed(t, "state", state="settings" if play.menu is not None else state.value)
        per_era = profile.variant_per_era  # each era's setup says its variant, as the game's
        if state in (State.SETUP, State.ERA_SETUP):
            chosen = ({"start_player": start_player(play)}
                      if profile.rule(spot.variant) == "chosen" or state is State.ERA_SETUP
                      else {})  # NEXT chooses it; an era's start player is carried
            self._changed(t, "setup", game=profile.id,
                          variant=profile.variants[spot.variant].id, players=list(play.players),
                          **chosen, **({"era": era_number(play)} if per_era else {}))
            self._forget("round", "phase", "prompt", "step", "ending", "era")
            walk = walk_here(play)  # `guide_at_setup`: the guide's step walked there
            if walk:
                shown = walk[min(spot.guide or 0, len(walk) - 1)]
                self._changed(t, "guide", **({"era": era_number(play)} if profile.eras else {}),
                              phase=shown.part, step=shown.position[0],
                              steps=shown.position[1], text=shown.text.en)
            else:
                self._forget("guide")
            return
        self._forget("guide")
        era: dict[str, Any] = {"era": era_number(play)} if profile.eras else {}
        chose = {"variant": profile.variants[spot.variant].id} if per_era else {}
        if era and state in (State.ROUND, State.SPECIAL, State.EVENT):  # an era begins
            label = profile.eras[era["era"] - 1].label
            if self._last.get("era") != era:  # once, as it begins (or comes back)
                self._last["era"] = era
                self._line(t, "era", **era, eras=len(profile.eras), rounds=rounds(play),
                           start_player=start_player(play), **chose,
                           **({} if label is None else {"label": label.en}))
        if state in (State.ROUND, State.SPECIAL, State.EVENT):
            self._changed(t, "round", round=spot.round, rounds=rounds(play),
                          start_player=start_player(play), **era)
        if spot.last_round is not None:  # with the last turns: whose turn is the last
            last: dict[str, Any] = {} if spot.final_turn is None else {
                "last_turn": play.players[((start_seat(play) or 0) + spot.final_turn)
                                          % len(play.players)]}
            self._changed(t, "ending", last_round=spot.last_round, **last)
        else:
            self._forget("ending")
        if state is State.ROUND:
            turn = turn_seat(play)
            self._changed(t, "phase", round=spot.round, phase=profile.phases[spot.phase].id,
                          player=None if turn is None else play.players[turn])
        if state in (State.SPECIAL, State.EVENT):
            item = (profile.specials[spot.special] if state is State.SPECIAL
                    else profile.events[spot.event])
            extra: dict[str, Any] = {}
            following = next_start_player(play)
            if (state is State.SPECIAL and following is not None
                    and profile.specials[spot.special].passes_start_player):
                extra["next_start_player"] = following
            self._changed(t, "prompt", prompt=item.id, kind=state.value, round=spot.round,
                          start_player=start_player(play), **extra)
        else:
            self._forget("prompt")
        if state in (State.ROUND, State.SPECIAL, State.EVENT):
            steps = steps_here(play)
            name = (profile.phases[spot.phase].id if state is State.ROUND else
                    profile.specials[spot.special].id if state is State.SPECIAL else
                    profile.events[spot.event].id)
            turn = turn_seat(play)
            index = step_index(spot)
            self._changed(t, "step", round=spot.round, phase=name,
                          player=None if turn is None else play.players[turn],
                          step=index + 1, steps=len(steps), text=steps[index].en)
        else:
            self._forget("step")

    def seen(self, play: Play, t: float, now: float) -> None:
        """The play after a step (`play`): the driver's call."""
        self.play(play, t, now)

    def step(self, effects: Iterable[PlayEffect], play: Play, t: float) -> None:
        """Everything one step produced: its sounds and numbers, then the position."""
        self.effects(effects, t)
        self.play(play, t)

    def _changed(self, t: float, line_type: str, /, **fields: Any) -> None:
        if self._last.get(line_type) != fields:
            self._last[line_type] = fields
            self._line(t, line_type, **fields)

    def _forget(self, *line_types: str) -> None:
        for line_type in line_types:
            self._last.pop(line_type, None)

    def _line(self, t: float, line_type: str, /, **fields: Any) -> None:
        self._emit({"t": round(t, 3), "type": line_type, **fields})
