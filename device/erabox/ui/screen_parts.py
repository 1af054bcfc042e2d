"""The parts a game profile's screens share (`round_plans.py`, `screens.py`): the box's
marks, a placed item as a mask, the round's and era's words, the hint row's keys, the places
as pages of a line. Pure, like the screens they build.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from erabox.core.play import PlayScreen
from erabox.core.profile import ROUND_NUMBER, Label

from .game_words import word
from .strings import colour_name, era_name
from .text import drawable, text_width

GAP = 4  # px between items side by side

@dataclass(frozen=True)
class Marks:
    """What the box adds to a screen besides the game's own: the status marks (the box has
    no sound, cannot save, misses a sound file: the log says which), and how far NEXT+ERA
    have been held toward "New game?" (0..1, None: not held)."""

    no_sound: bool = False
    no_save: bool = False
    no_file: bool = False
    hold_progress: float | None = None
    turn: int = 0  # pages turned on their own since the screen was first shown (`turning`)



NO_MARKS = Marks()

@dataclass(frozen=True)
class Placed:
    """One drawn item: what it is (`role`), its mask (lit = ink) and where it goes."""

    role: str
    x: int
    y: int
    mask: Image.Image
    abbreviated: bool = False
    text: str = ""  # what the mask reads (the tests read screens by it)
    lit: bool = False  # a lit bar, edge to edge (its text dark, within the margins)

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.mask.width, self.y + self.mask.height)


def _round_text(screen: PlayScreen, language: str, room: int | None = None) -> str:
    """"Round 2/3"; in a game of eras "Act I Round 2/3", or "Act I 2/3" where that does
    not fit `room` px."""
    if screen.round == 0:  # a special round before round 1
        return word(language, "before_first")
    count = "" if screen.rounds is None else f"/{screen.rounds}"
    label = round_label(screen.round_name.text(language), screen.round, count)
    era = _era_text(screen, language)  # a game of eras: the era before its round
    if not era:
        return label
    whole = f"{era} {label}"
    fits = room is None or text_width(drawable(whole)) <= room
    return whole if fits else f"{era} {screen.round}{count}"


def round_label(name: str, number: int | None, count: str = "") -> str:
    """"Year 2/12"; a name with `{n}` has the number there and the count after it, as
    Japanese counts ("{n}巡目": "2巡目"; "{n}年目" of 12: "2年目/12")."""
    if ROUND_NUMBER in name:
        return f"{name.replace(ROUND_NUMBER, str(number))}{count}"
    return f"{name} {number}{count}"


def _era_text(screen: PlayScreen, language: str, era: int | None = None) -> str:
    """The era's own label, else the box's ("Era II", "時代Ⅱ"); "" in a game without eras.
    `era`: another era's (the next one's, on the standings)."""
    if screen.era is None:
        return ""
    number = screen.era if era is None else era
    own = screen.era_labels[number - 1] if 0 < number <= len(screen.era_labels) else None
    return era_name(number, language) if own is None else own.text(language)


def _colour(colour: str | None, language: str) -> str:
    return "" if colour is None else colour_name(colour, language)



def _label(label: Label | None, language: str) -> str:
    return "" if label is None else label.text(language)


STEP_KINDS = ("round", "special", "event")


def hint_key(screen: PlayScreen) -> str:
    """The hint row's words of a step on 128x64: NEXT, the pause and undo gestures."""
    paused = screen.paused and not screen.hall_only  # in a hall, the hall resumes it
    held = "hint_hall_start" if screen.hall_start else "hint_paused"  # the press starts it
    base = held if paused else "hint_wait" if screen.waits else "hint_step"
    # NEXT hold pauses: ERA undoes, or starts its event, or (`restart_era`) restarts the
    # era: then no undo is said
    told = screen.pause_hold and (screen.event is not None or screen.restart)
    press = paused and not screen.hall_start and screen.pause_hold and screen.next_resumes
    return (base + ("_hold" if screen.pause_hold else "") + ("_press" if press else "")
            + ("_event" if told else ""))


# A step's undo gesture alone, by its 128x64 hint (none where that hint says none): what
# 128x32's hint row shows every other page, its three rows being full
UNDO = {"hint_step": "undo_next_hold", "hint_wait": "undo_next_hold",
         "hint_paused": "undo_next_hold", "hint_hall_start": "undo_next_hold",
         "hint_step_hold": "undo_era_hold", "hint_wait_hold": "undo_era_hold",
         "hint_paused_hold": "undo_era_hold", "hint_hall_start_hold": "undo_era_hold",
         "hint_paused_hold_press": "undo_era_hold"}
# A paused clock's hint too long for 128x32's column beside the digits: what resumes it alone
PRESS_ONLY = {"hint_paused_hold_press": "hint_paused_hold_press_event"}


ROWS_OF_PLACES = 5  # the content rows of a 128x64 panel: more places take two columns


def line_pages(lines: list[str], width: int) -> list[str]:
    """The places as pages of one line each: as many as fit `width` side by side (one a
    page at the least, abbreviated if it alone is too wide)."""
    pages: list[str] = []
    for line in lines:
        joined = f"{pages[-1]}  {line}" if pages else line
        if pages and text_width(drawable(joined)) <= width:
            pages[-1] = joined
        else:
            pages.append(line)
    return pages
