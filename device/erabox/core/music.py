"""A round profile's phase music as `Music` effects (docs/profiles.md, "Phase music").

A phase with `music` plays it while play is in the phase (its steps, turns, an event shown
over it). Which file: the phase's own, or in a game of eras the era's `music` in its place
(`music_of`). When it starts:

- `music_from = "phase"` (the default): when the phase begins, from the file's start; its
  place is the time since (`Play.music_since`), going on through a pause of the countdown.
- `music_from = "gong"`: at the countdown's start gong (after its lead-in), its place the
  countdown's running time, as Time of Empires' era music (`timers.begin_running`,
  `pause_era`, `resume_era`): a pause of the countdown pauses it, resuming resumes it at the
  running time, a power cut brings it back at the running time the countdown comes back at,
  and the countdown's end stops it. `music_since` is then the countdown's anchor.
- `music_from = "era"`: from the era's start (`opening.py`), on across its rounds,
  its special rounds and the phases that play the same file, stopped at the era's scoring,
  as Time of Empires loops an introductory era's music; its place the time since.
- `box_music = true` (`music_keys.py`): the box's own era music, named by the era
  and its mode (`box_mode`) instead of a file, chosen by the sound as Time of Empires'.
- a publisher's track (`track`, or the era's `track` in place of a phase's track or music on
  the gong: `track_of`, `core/track.py`): on the gong too, played once from its
  offset + the running time (`Music.track_offset`).

Pure: a play before and after a move in, the play with its music's clock and the effects out.
"""

from __future__ import annotations

from dataclasses import replace

from .clock import cues
from .deadlines import countdown_start
from .model import Mode, Music, MusicAction
from .opening import preparing
from .play import EPS, Play, PlayEffect, State, countdown_elapsed, era_number, save_every
from .profile import PhaseMusic, Profile
from .track import PhaseTrack


def track_of(profile: Profile, phase: int, era: int) -> PhaseTrack | None:
    """The track phase `phase` plays in era `era` (1-based; None: none): the era's `track`
    in place of the phase's own track or music on the gong, else the phase's own."""
    own = profile.phases[phase]
    if 1 <= era <= len(profile.eras) and profile.eras[era - 1].track is not None and (
            own.track is not None or (own.music is not None and own.music_from == "gong")):
        return profile.eras[era - 1].track
    return own.track


def music_of(profile: Profile, phase: int, era: int) -> PhaseMusic | None:
    """The music phase `phase` plays in era `era` (1-based): the era's `music` in place of
    the phase's own, when both are given; None: the phase has no music. A phase's
    publisher's track is its music, played once (`track`), in every era."""
    track = track_of(profile, phase, era)
    if track is not None:
        return PhaseMusic(track.path, False, track.key)
    own = profile.phases[phase].music
    if own is None or own.box or not profile.eras or not profile.eras[era - 1].music:
        return own  # the box's own era music: the sound chooses it by the era (`box_music`)
    era_music = profile.eras[era - 1]
    return PhaseMusic(era_music.music, own.loop, era_music.music_key)


def phase_music(play: Play, action: MusicAction, elapsed: float) -> Music:
    """The `Music` effect for the phase's music (`elapsed`: its place, in seconds)."""
    music = music_of(play.profile, play.spot.phase, era_number(play))
    path, loop = ("", True) if music is None else (music.path, music.loop)
    track = track_of(play.profile, play.spot.phase, era_number(play))
    if track is not None:  # on the countdown's running time, from its offset in the file
        return Music(action, 0, Mode.INTRO, elapsed, path=path, loop=False,
                     track_offset=track.offset_s)
    if music is not None and music.box:  # the box's own: the era and its mode, as ToE's
        return Music(action, era_number(play), box_mode(play), elapsed)
    return Music(action, 0, Mode.INTRO, elapsed, path=path, loop=loop)


def box_mode(play: Play) -> Mode:
    """The mode the box's own era music plays in (`box_music`): real time on a countdown's
    running time (its timed score or track), else introductory (its loop)."""
    return Mode.REALTIME if on_gong(play) else Mode.INTRO


def on_gong(play: Play) -> bool:
    """Does the phase played run its music on its countdown's time (`music_from = "gong"`,
    or a publisher's track)?"""
    phase = play.profile.phases[play.spot.phase]
    return (phase.music_from == "gong" or phase.track is not None) and phase.timer_s is not None


def music_key(play: Play, now: float) -> tuple[int, int, int] | None:
    """The era, round and phase whose music plays (None: no music): a phase's music goes on
    through its steps and turns and under an event shown over it; on the gong, only while
    its countdown runs or is paused, from its start gong on; the era's (`"era"`), the era's
    whole play after its preparation, its key the first phase that plays the same file."""
    spot, era = play.spot, era_number(play)
    music = music_of(play.profile, spot.phase, era)
    if music is not None and play.profile.phases[spot.phase].music_from == "era" and (
            spot.state in (State.ROUND, State.EVENT) or (spot.round and
            spot.state is State.SPECIAL)):  # the era's music: on through its rounds
        if preparing(play):  # its start is the gong after the preparation
            return None
        return era, 0, -1 - next(i for i, p in enumerate(play.profile.phases) if (
            p.music_from == "era" and music_of(play.profile, i, era) == music))
    if spot.state not in (State.ROUND, State.EVENT) or music is None:
        return None
    if on_gong(play):
        at = countdown_elapsed(play, now)
        if at is None or at < -EPS or gong_owed(play):  # no countdown (run out, left),
            return None  # still in its lead-in, or its start gong not yet rung
    return era_number(play), spot.round, spot.phase


def gong_owed(play: Play) -> bool:
    """Is the countdown's start gong still to ring (the music starts with it)?"""
    phase = play.profile.phases[play.spot.phase]
    return any(cue.gong for cue in cues(phase)[play.cues_done:])


def music_place(play: Play, now: float) -> float:
    """Where the playing music is at `now`: on the gong, the countdown's running time."""
    if on_gong(play):
        at = countdown_elapsed(play, now)
        if at is not None:
            return max(0.0, at)
        timer = play.profile.phases[play.spot.phase].timer_s or 0.0
        return timer  # run out: the music stops at the countdown's end
    return 0.0 if play.music_since is None else max(0.0, now - play.music_since)


def move_music(before: Play, play: Play, now: float, heard: float | None = None
               ) -> tuple[Play, tuple[PlayEffect, ...]]:
    """The music after a move from `before` to `play`: a phase's music starts when the phase
    begins (on the gong: at its start gong), also when undo comes back into it; leaving the
    phase stops it (a short fade), as a new game does; on the gong, a pause of the
    countdown pauses it, resuming resumes it, and the countdown's end stops it.
    `now`: when the change happened; `heard`: when it is handled (a countdown's end handled
    late starts the next phase's music that much into it)."""
    heard = now if heard is None else heard
    since = before.music_since
    old = None if since is None else music_key(before, now)
    if since is not None and old is None:  # it played until the countdown's end: stop it
        old = (-1, -1, -1)
    new = music_key(play, now)
    effects: list[PlayEffect] = []
    if new != old:
        if since is not None:
            effects.append(phase_music(before, MusicAction.STOP, music_place(before, heard)))
        since = None
        if new is not None:
            if on_gong(play):
                effects.append(phase_music(play, MusicAction.START, music_place(play, heard)))
                since = countdown_start(play) or now
            else:
                effects.append(phase_music(play, MusicAction.START, max(0.0, heard - now)))
                since = now
    elif new is not None and on_gong(play) and (
            (before.held_left is None) != (play.held_left is None)):
        held = play.held_left is not None
        action = MusicAction.PAUSE if held else MusicAction.RESUME
        effects.append(phase_music(play, action, music_place(play, heard)))
        since = since if held else countdown_start(play) or now
    save_due = play.save_due
    if since is not None and save_due is None:
        save_due = now + save_every(play)  # its place is saved while it plays
    return replace(play, music_since=since, save_due=save_due), tuple(effects)
