"""The pure game as the driver sees it: one seam, one engine.

`erabox.run.driver.Driver` runs any game through an `Engine`: it starts one fresh or from a saved
record, steps it (`step(state, event, now) -> (state, effects)`), asks it for its next
deadline, its screen and its record, and applies the effects by one rule. `ProfileEngine` is
the engine: a game profile's play (`machine.py`, `play_record.py`,
`play.py`), Time of Empires' included; its state a `Play`.

Everything here is pure: what the driver needs from the outside (the chosen settings, a
drawn start player, the card's measured write time) is handed in as data.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from . import (
    box_music,
    deadlines,
    era_lines_state,
    era_save,
    era_screen,
    machine,
    menu,
    play_record,
    prompts,
    steer,
)
from . import play as playing
from .config import Config
from .entry import by_setting
from .game_config import configured
from .guide import guided
from .jsontext import json_object
from .model import (
    Event,
    FlashCue,
    Input,
    Mode,
    Music,
    MusicAction,
    Phase,
    Prompt,
    Screen,
    SetVolume,
    Show,
    Steer,
)
from .play import ChooseGame, Play, PlayEffect, PlayScreen, ShowPlay
from .profile import Profile
from .record import clean_write_s
from .settings import Settings, apply, defaults, fit_seats, palette
from .snapshot import loads

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)
AnyEffect = PlayEffect  # every effect either game gives (a profile's are Time of Empires' and more)
Effects = tuple[AnyEffect, ...]
AnyScreen = Screen | PlayScreen  # what either game shows


class Engine(Protocol[S]):
    """A game as a driver runs it; `S` is the game's state, an immutable value."""

    @property
    def config(self) -> Config:
        """The config the game runs with (the chosen settings are read against it)."""
        ...

    @property
    def seats(self) -> int:
        """A fresh game's start player is drawn from this many seats (0: none is drawn)."""
        ...

    def settled(self, chosen: Settings | None) -> Engine[S]:
        """This game with the settings chosen on the box (None: none chosen)."""
        ...

    def parse(self, text: str) -> dict[str, Any]:
        """A saved text as this game's record, or `ValueError` saying why it is not one."""
        ...

    def fresh(self, now: float, seat: int) -> tuple[S, Effects]:
        """A fresh game and its opening effects; `seat`: the drawn start player."""
        ...

    def restore(self, saved: dict[str, Any], now: float) -> tuple[S, Effects]:
        """The game a record (`parse`d) holds, and the effects of coming back to it."""
        ...

    def resumed(self, state: S, saved: dict[str, Any]) -> str:
        """Where a restored game stands (`saved`: its record), for the log."""
        ...

    def step(self, state: S, event: Event, now: float) -> tuple[S, Effects]: ...

    def spare(self, state: S) -> int | None:
        """A draw the game wants to keep for a new game: from how many seats (None: none)."""
        ...

    def with_spare(self, state: S, seat: int) -> S: ...

    def with_write_time(self, state: S, write_s: float) -> S:
        """The game knowing the card's measured durable-write time."""
        ...

    def next_deadline(self, state: S, now: float) -> float | None: ...

    def screen(self, state: S, now: float) -> AnyScreen: ...

    def care_view(self, shown: object) -> Screen | None:
        """What OLED care reads of a screen this game shows (None: not one of its own)."""
        ...

    def snapshot(self, state: S, now: float) -> dict[str, Any]: ...

    def snapshot_at_stop(self, state: S, now: float) -> dict[str, Any]:
        """The record of a clean stop."""
        ...

    def silence(self, state: S) -> Music:
        """The music stopped, as a power cut stops it."""
        ...

    def switch_to(self, before: S, after: S, effects: Effects) -> str | None:
        """Another game the step asked for: a profile's name, "" Time of Empires."""
        ...

    def pending(self, before: S, after: S) -> Settings | None:
        """Settings chosen in the settings menu, closed by this step, that this game is to be
        set up anew with (`settled`, fresh); None: none."""
        ...

    def played(self, state: S) -> Config:
        """The config the game plays with, the settings chosen on the box laid over it (those
        of a menu just closed included): the config another game chosen there plays with."""
        ...

    def language(self, state: S) -> str: ...

    def contrast(self, state: S) -> int: ...


class Recorder(Protocol[S_in]):
    """The event stream of a game (`events.EventRecorder`, `events.PlayRecorder`)."""

    def input(self, event: Input, t: float) -> None: ...

    def effects(self, effects: Iterable[AnyEffect], t: float) -> None: ...

    def seen(self, state: S_in, t: float, now: float) -> None:
        """The game after a step, stamped `t` (`now`: the game's own clock)."""
        ...


# --- the engine: every game -----------------------------------------------------------------------


@dataclass(frozen=True)
class ProfileEngine:
    """A game profile's play: its state a `playing.Play`, for `config`'s players.

    Its saved record says its kind (`"kind": "profile"`) and its game's id: a record of Time
    of Empires, of another game or with other players is not this play's (`parse`), but
    the round file of Time of Empires reads Time of Empires' own record
    (`era_save`: a box updated mid-game resumes its game)."""

    profile: Profile
    config: Config
    # why this game plays ("game": given with `--game`, "menu": chosen in the settings menu,
    # "config": the config's `game`; None: not said): its first setup says so a few seconds
    why_played: str | None = None
    # The box's settings menu (`menu`): `base` the config file's (None: `config` is),
    # the settings chosen on the box laid over it in `config` (`chosen`; None: none), and the
    # profile as read (`source`; None: `profile`), set up for the settings chosen (`settled`).
    base: Config | None = None
    chosen: Settings | None = None
    source: Profile | None = None

    def __post_init__(self) -> None:
        # `[scoring] entry = "setting"`: the points entered as the box's "Points entry" says
        object.__setattr__(self, "profile", by_setting(self.profile, self.config.points_entry))

    @property
    def seats(self) -> int:
        return len(self.config.players)

    def settled(self, chosen: Settings | None) -> ProfileEngine:
        """This game with the settings chosen on the box laid over the config file's (the
        players as many as the game seats); its profile set up for them (the first-game
        guide, the config's numbers and modes) where the profile as read is known."""
        if chosen is None:
            return self
        base = self._base()
        chosen = fit_seats(chosen, palette(base),
                           (self.profile.min_players, self.profile.max_players))
        config = apply(base, chosen)
        profile = self.profile if self.source is None else configured(
            guided(self.source, config.guide), config)
        return replace(self, profile=profile, config=config, chosen=chosen)

    def _base(self) -> Config:
        return self.config if self.base is None else self.base

    def _settings(self) -> Settings:
        """The settings the game plays with: those chosen on the box, else the file's."""
        return defaults(self._base()) if self.chosen is None else self.chosen

    def parse(self, text: str) -> dict[str, Any]:
        saved = json_object(text)
        own = era_save.reads_time_of_empires(self.profile)  # Time of Empires itself
        if own and era_save.is_era_record(saved):
            return self._era_record(text)
        game = str(saved.get("game"))[:40]
        if saved.get("kind") != "profile" or (  # Time of Empires' own, on either engine
                game != self.profile.id and game in era_save.READS_TIME_OF_EMPIRES):
            raise ValueError(f"it holds a Time of Empires game, not a play of {self.profile.id}")
        if saved.get("game") != self.profile.id:  # Time of Empires says it in its words
            raise ValueError(f"it holds a play of the game profile {game!r}, not a Time of "
                             "Empires game" if own else f"it holds a play of {game!r}, "
                             f"not of {self.profile.id!r}")
        try:
            play_record.restore(saved, self.profile, self.config.players, 0.0)  # checked
        except (TypeError, KeyError, AttributeError, IndexError) as exc:
            raise ValueError(f"a value of the wrong type ({exc})") from None
        return saved

    def fresh(self, now: float, seat: int) -> tuple[Play, Effects]:
        play = replace(playing.new_play(self.profile, self.config.players, seat),
                       volume=self.config.audio.volume)  # the box's, as configured
        if self.why_played is not None:  # said until the first press, or `CHOSEN_S`
            play = replace(play, why_played=(self.why_played, now + playing.CHOSEN_S))
        # the volume first (as Time of Empires' opening), then the profile's own sounds
        # decoded, before any press can call for them
        return self._words(play, self._box(None, play, (
            self._volume(play), *playing.prepare_sounds(self.profile),
            ShowPlay(playing.screen(play, now)))), now)

    def _volume(self, play: Play) -> SetVolume:
        """The play's volume to the mixer (`volume`), the music's share as set."""
        level = self.config.audio.volume if play.volume is None else play.volume
        return SetVolume(level, music=self.config.audio.music_level)

    def _era_record(self, text: str) -> dict[str, Any]:
        """Time of Empires' own record, read by its round file (docs/state-file.md): checked
        as the era engine checks it, then as the play it converts to."""
        saved = loads(text, self.config)
        try:
            era_save.play_of(saved, self.profile, self.config.players, 0.0,
                                      self.config.era_modes)
        except (TypeError, KeyError, AttributeError, IndexError) as exc:
            raise ValueError(f"a value of the wrong type ({exc})") from None
        return saved

    def restore(self, saved: dict[str, Any], now: float) -> tuple[Play, Effects]:
        if (era_save.reads_time_of_empires(self.profile)
                and era_save.is_era_record(saved)):  # the era engine's record
            play, effects = era_save.play_of(saved, self.profile, self.config.players,
                                                      now, self.config.era_modes)
            # the volume the table set with VOL+/VOL- (kept in the era engine's record, not
            # in the settings), as the era engine restores it; the play keeps it
            play = replace(play, volume=float(saved["volume"]),
                           take=int(saved.get("variant", 1)))  # its scores' take, kept
            return self._words(play, self._box(None, play, (
                self._volume(play), *playing.prepare_sounds(self.profile), *effects)), now)
        play, effects = play_record.restore(saved, self.profile, self.config.players, now)
        if play.volume is None:  # a record written without the box's volume: as configured
            play = replace(play, volume=self.config.audio.volume)
        return self._words(*self._in_hall(play, self._box(None, play, (
            self._volume(play), *playing.prepare_sounds(self.profile), *effects))), now)

    def resumed(self, state: Play, saved: dict[str, Any]) -> str:
        return (f"resumed the saved play of {self.profile.id}: {state.spot.state.value}, "
                f"round {state.spot.round}")

    def step(self, state: Play, event: Event, now: float) -> tuple[Play, Effects]:
        if (state.menu is not None and isinstance(event, Input)  # the box's settings menu
                and event.button not in menu.VOLUME_BUTTONS):
            after, effects = menu.step(state, event, self._base(), now)
            if after.menu is None:
                after = menu.closed(after, self._settings())
            shown = ShowPlay(playing.screen(after, now))
            return self._words(after, (*effects, shown), now)
        if isinstance(event, Steer):  # a hall steers a `hall = true` phase's countdown
            after, effects = steer.steer(state, event, now)
        else:
            after, effects = machine.step(state, event, now,
                                                  hall=self.config.hall is not None)
        if any(isinstance(e, ChooseGame) for e in effects):  # ERA held at the game's setup
            after = menu.opened(after, self._settings())
            effects = tuple(e for e in effects if not isinstance(e, ChooseGame))
        effects = self._box(state, after, effects)
        if self.config.hall is None:
            return self._words(after, effects, now)
        # a countdown begun waits for the hall's start; the table pauses one alone only if
        # the hall allows it (its own orders pause and resume it)
        ordered = isinstance(event, Steer)
        alone = self.config.hall.pause_alone or ordered
        if not alone and after.prompt is Prompt.PAUSE_HINT and steer.steered(after):
            # the hall alone pauses its countdown: no gesture of the table's to hint
            after = prompts.paused(after)
            effects = tuple(ShowPlay(playing.screen(after, now))
                            if isinstance(e, ShowPlay) else e for e in effects)
        return self._words(*self._in_hall(*steer.hold(state, after, effects, now,
                                                              alone, ordered)), now)

    def _box(self, before: Play | None, play: Play, effects: Effects) -> Effects:
        """The box's own era music's effects (`box_music`, `box_music`); the cue
        LED's flashes only with the setting on."""
        fixed = self.config.audio.score_variant  # else each game's take, as `score_variant`
        effects = box_music.box_effects(before, play, effects, fixed)
        if not self.config.cue_led:  # the settings' "Cue LED" off: no flashes
            effects = tuple(e for e in effects if not isinstance(e, FlashCue))
        return effects

    def _words(self, play: Play, effects: Effects, now: float) -> tuple[Play, Effects]:
        """`[game] lines = "eras"`: every screen the effects draw is Time of Empires' own
        (`era_screen`: ui/plans.py draws it), the play's as the step leaves it. The settings
        menu open: its screen, Time of Empires' own, in every game."""
        if self.profile.lines != "eras" and play.menu is None:
            return play, effects
        return play, tuple(Show(self._era_screen(play, now)) if isinstance(e, ShowPlay) else e
                           for e in effects)

    def _era_screen(self, play: Play, now: float) -> Screen:
        hall = self.config.hall
        shown = era_screen.screen(play, now, language=self.config.language,
                                  hall_held=hall is not None and not hall.pause_alone)
        if play.menu is None:
            return shown
        return menu.screen(play, shown, self._base())

    def _in_hall(self, play: Play, effects: Effects) -> tuple[Play, Effects]:
        """In a hall, the last screen the effects draw says what the hall holds (`screen`)."""
        last = max((n for n, e in enumerate(effects) if isinstance(e, ShowPlay)), default=None)
        if self.config.hall is None or last is None:
            return play, effects
        shown = effects[last]
        assert isinstance(shown, ShowPlay)
        seen = ShowPlay(steer.in_hall(play, shown.screen, self.config.hall.pause_alone))
        return play, (*effects[:last], seen, *effects[last + 1:])

    def spare(self, state: Play) -> int | None:
        # A "random" profile's play holds the next draw, for a new game to take.
        wanted = "random" in (self.profile.start_rule, *(v.start_rule for v in
                                                         self.profile.variants)) and (
            state.spare_seat is None)
        return len(self.config.players) if wanted else None

    def with_spare(self, state: Play, seat: int) -> Play:
        return replace(state, spare_seat=seat)

    def with_write_time(self, state: Play, write_s: float) -> Play:
        # a countdown's calls are recorded this card's lead ahead (`record.card_lead`); a
        # press's record waits as long as the card takes: the driver's rule
        clean = clean_write_s(write_s)
        return state if clean == state.write_s else replace(state, write_s=clean)

    def next_deadline(self, state: Play, now: float) -> float | None:
        return deadlines.next_deadline(state, now)

    def screen(self, state: Play, now: float) -> AnyScreen:
        if self.profile.lines == "eras" or state.menu is not None:  # Time of Empires' own
            return self._era_screen(state, now)
        shown = playing.screen(state, now)
        if self.config.hall is None:
            return shown
        return steer.in_hall(state, shown, self.config.hall.pause_alone)

    def care_view(self, shown: object) -> Screen | None:
        """A running countdown, a question or a prompt keeps the screen bright (like a running
        era); a new step, turn or round is activity. Time of Empires' own screens (`[game]
        lines = "eras"`) are read as its engine's."""
        if isinstance(shown, Screen):
            return shown
        if not isinstance(shown, PlayScreen):
            return None
        if shown.kind == "confirm":
            kind = Phase.CONFIRM
        elif shown.timer_left is not None and not shown.timer_done:
            kind = Phase.RUNNING
        elif shown.kind == "game_over":
            kind = Phase.GAME_OVER
        else:
            kind = Phase.INTRO_ROUND
        where = shown.position[0] if shown.position is not None else None
        return Screen(kind=kind, era=shown.era or 1, mode=Mode.INTRO, round=shown.round,
                      prompt=shown.prompt, scoring_step=where)

    def snapshot(self, state: Play, now: float) -> dict[str, Any]:
        return machine.record_of(state, now)  # a call's record written ahead, kept

    def snapshot_at_stop(self, state: Play, now: float) -> dict[str, Any]:
        # A clean stop knows that no call is being handed to the mixer: the play as it is.
        return play_record.snapshot(state, now)

    def silence(self, state: Play) -> Music:
        return Music(MusicAction.STOP, 0, Mode.INTRO, 0.0)

    def switch_to(self, before: Play, after: Play, effects: Effects) -> str | None:
        # The settings menu closed on another game: that one ("" Time of Empires).
        chosen = self.pending(before, after)
        if chosen is None or chosen.game == self._settings().game:
            return None
        return chosen.game

    def pending(self, before: Play, after: Play) -> Settings | None:
        return after.chosen if before.menu is not None and after.menu is None else None

    def played(self, state: Play) -> Config:
        # the settings chosen in the menu, open or closed on them
        return self.config if state.chosen is None else apply(self._base(), state.chosen)

    def language(self, state: Play) -> str:
        return self.played(state).language  # the settings menu's, as it is chosen there

    def contrast(self, state: Play) -> int:
        return self.played(state).display.contrast  # the menu's brightness, seen at once


def shown(effects: Effects) -> AnyScreen | None:
    """The last screen the effects ask to draw (None: none)."""
    screens = [e.screen for e in effects if isinstance(e, Show | ShowPlay)]
    return screens[-1] if screens else None


def phase_of(game: Play, now: float) -> Phase:
    """Where a game stands at `now`, in Time of Empires' words (a question open is not a
    phase), as its `state` lines say it."""
    return Phase(era_lines_state.state_word(game, now)[0])


def state_of(game: Play, now: float) -> Phase:
    """The state the table sees: `confirm` while a question is open, else `phase_of`."""
    return Phase.CONFIRM if game.question_until is not None else phase_of(game, now)
