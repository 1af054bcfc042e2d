"""The audio adapter's threads, with a recording mixer in place of pygame.

The fault this guards against: ERA pressed 1 s after the setup screen opened, on a slow CPU, gave
a first gong 550 ms late, because the cue waited for the era music's decoding. Here the mixer's
`prepare` (opening the era's music) blocks until the test lets it go: the gong must be played,
on the loop's thread, while the music is still being opened, and every music call must run on the
adapter's worker. Order, not timing, is asserted.
"""

from __future__ import annotations

import threading
from pathlib import Path

from erabox.adapters.audio import Audio
from erabox.core.config import AudioConfig
from erabox.core.model import (
    FlashCue,
    Mode,
    Music,
    MusicAction,
    PlaySound,
    PrepareMusic,
    Sound,
)

HANG_GUARD_S = 60.0  # only so a broken adapter fails instead of hanging the suite


class SlowMixer:
    """Records every call with its thread; `prepare` waits until `release` is set."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []  # (call, thread name)
        self.lock = threading.Lock()
        self.preparing = threading.Event()
        self.release = threading.Event()
        self.played = threading.Condition(self.lock)
        self.loaded: str | None = None

    def _note(self, call: str) -> None:
        with self.lock:
            self.calls.append((call, threading.current_thread().name))
            self.played.notify_all()

    def open(self, config: AudioConfig) -> str:
        self._note("open")
        return "a recording mixer"

    def close(self) -> None:
        self._note("close")

    def load_cue(self, sound: Sound, path: str) -> float:
        self._note(f"load_cue {sound.value}")
        return 1.0

    def load_sound(self, path: str) -> float:
        self._note(f"load_sound {Path(path).name}")
        return 1.0

    def play_cue(self, sound: Sound, file: str = "") -> None:
        self._note(f"play_cue {sound.value}" + (f" {Path(file).name}" if file else ""))

    def set_cue_gain(self, gain: float) -> None:
        self._note("set_cue_gain")

    def check(self, path: str) -> None:
        self._note("check")

    def prepare(self, path: str, start: float | None = None, loop: bool = False) -> None:
        if path == self.loaded:
            return
        self.loaded = path
        self._note(f"prepare {Path(path).name}")
        self.preparing.set()
        self.release.wait(HANG_GUARD_S)  # a slow CPU decoding a long file
        self._note("prepared")

    def play_music(self, path: str, position: float, loop: bool, gain: float) -> bool:
        self.prepare(path)  # like pygame's: opens the file first if it is not open yet
        self._note(f"play_music {Path(path).name} {position:g}")
        return True

    def pause_music(self) -> None:
        self._note("pause_music")

    def resume_music(self) -> None:
        self._note("resume_music")

    def stop_music(self, fade_s: float) -> None:
        self._note("stop_music")

    def set_music_gain(self, gain: float) -> None:
        self._note("set_music_gain")

    def wait_for(self, call: str) -> None:
        with self.lock:
            assert self.played.wait_for(lambda: any(c == call for c, _ in self.calls),
                                        HANG_GUARD_S), self.calls


def test_the_first_gong_does_not_wait_for_the_era_music_being_opened(tmp_path: Path) -> None:
    mixer = SlowMixer()
    audio = Audio(AudioConfig(), tmp_path, mixer=mixer, clock=lambda: 100.0)
    try:
        audio.apply([PrepareMusic(1, Mode.REALTIME)], 100.0)  # the setup screen opened
        assert mixer.preparing.wait(HANG_GUARD_S)
        loop_thread = threading.current_thread().name
        # ERA: the lead-in is over, the era starts (the core's effects, in its order)
        audio.apply([PlaySound(Sound.GONG, 1), FlashCue(Sound.GONG),
                     Music(MusicAction.START, 1, Mode.REALTIME, 0.0)], 100.0)
        with mixer.lock:
            calls = list(mixer.calls)
        assert ("play_cue gong", loop_thread) in calls  # sounded already ...
        assert "prepared" not in [c for c, _ in calls]  # ... while the music is still opening
        mixer.release.set()
        mixer.wait_for("play_music era1.ogg 0")
    finally:
        mixer.release.set()
        audio.close()
    names = [c for c, _ in mixer.calls]
    assert names.index("play_cue gong") < names.index("prepared") < names.index(
        "play_music era1.ogg 0")
    music = [(c, t) for c, t in mixer.calls
             if c.startswith(("prepare", "play_music", "set_music_gain"))]
    assert music and all(t == "erabox-audio" for _, t in music)


def test_a_cue_is_not_held_up_by_the_worker_being_busy_with_music(tmp_path: Path) -> None:
    """A cry during a pause-resume while the worker is still opening the music: at once."""
    mixer = SlowMixer()
    audio = Audio(AudioConfig(), tmp_path, mixer=mixer, clock=lambda: 100.0)
    try:
        audio.apply([Music(MusicAction.RESUME, 2, Mode.REALTIME, 30.0)], 100.0)  # after restart
        assert mixer.preparing.wait(HANG_GUARD_S)
        audio.apply([PlaySound(Sound.CRY, 2)], 100.0)
        with mixer.lock:
            names = [c for c, _ in mixer.calls]
        assert "play_cue cry" in names and "prepared" not in names
    finally:
        mixer.release.set()
        audio.close()


def test_a_phase_music_file_that_cannot_be_read_is_said_to_stay_silent(tmp_path: Path) -> None:
    """A game profile's phase music has no stand-in: the log says it stays silent (only a
    configured era music file falls back to the built-in music)."""
    import logging

    from erabox.adapters.mixer import FileProblem
    from erabox.core.config import EraMusic

    class Missing(SlowMixer):
        """The two configured files are missing; the built-in music plays."""

        def play_music(self, path: str, position: float, loop: bool, gain: float) -> bool:
            if path in ("/games/dance.ogg", "/home/me/era1.ogg"):
                self._note(f"play_music {Path(path).name}")
                raise FileProblem("No such file or directory")
            return super().play_music(path, position, loop, gain)

    lines: list[str] = []

    class Heard(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log = logging.getLogger("erabox.test.phase_music")
    log.addHandler(Heard())
    mixer = Missing()
    mixer.release.set()
    own = EraMusic(music="/home/me/era1.ogg")
    audio = Audio(AudioConfig(eras=(own, EraMusic(), EraMusic())), tmp_path, mixer=mixer,
                  clock=lambda: 100.0, log=log)
    try:
        audio.apply([Music(MusicAction.START, 0, Mode.INTRO, 0.0, path="/games/dance.ogg")],
                    100.0)
        mixer.wait_for("stop_music")  # nothing stands in for it
        audio.apply([Music(MusicAction.START, 1, Mode.INTRO, 0.0)], 100.0)
        mixer.wait_for("play_music era1.ogg")  # the configured file: cannot be read
        mixer.wait_for("play_music era1.ogg 0")  # the built-in one stands in: the last word
    finally:
        audio.close()
    said = [line for line in lines if line.startswith("cannot play sound file")]
    assert said == [
        "cannot play sound file /games/dance.ogg: No such file or directory; "
        "this music stays silent",
        "cannot play sound file /home/me/era1.ogg: No such file or directory; "
        "the built-in music plays instead"], said
