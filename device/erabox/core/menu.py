"""The box's settings menu in a round game: core/settings.py's menu, opened by the play.

The menu is the box's, one for every game (core/settings.py: its items, its gestures, its
file). A play opens it where ERA is held at its game's setup, before the first round
(`machine`'s `ChooseGame`), and `ProfileEngine` (core/engine.py) runs it with this
module:

- `opened`: the menu over the setup, on "Game" (saying why, where the game to play cannot
  be: `settings.game_problem`), the settings it starts from the box's (the file's when none
  were chosen);
- `step`: every gesture as `settings.menu_step` takes it (BOTH does nothing; VOL+ and VOL-
  are not the menu's: they step the box's volume everywhere, `VOLUME_BUTTONS`, as in the era
  engine); each change is saved at once (`SaveSettings`, as the era engine saves it), the
  volume and the music's share heard at once (`SetVolume`);
- `closed`: the menu gone; the settings chosen in it stay on the play (`Play.chosen`) when
  they differ from those it plays with, for the driver to set the game up anew with them
  (another game chosen: that game, `ProfileEngine.switch_to`);
- `screen`: the menu's screen, Time of Empires' `Screen` (ui/plans.py draws it) over the
  setup's, in the language chosen.

The menu is not part of the play's record: a power cut with the menu open comes back to the
setup with the menu closed, as the era engine's does, the settings chosen so far saved (the
setup is then that of the settings on disk: `ProfileEngine.settled`).
"""

from __future__ import annotations

from dataclasses import replace

from . import settings as box_settings
from .config import Config
from .effects import PlayEffect
from .machine import record_of
from .model import Button, Event, Input, Phase, Save, SaveSettings, Screen, SetVolume
from .play import Play
from .settings import Menu, Settings

VOLUME_BUTTONS = (Button.VOL_UP, Button.VOL_DOWN)  # the box's volume, the menu open or not


def opened(play: Play, current: Settings) -> Play:
    """The menu open over the play's setup, on "Game" (saying why, if that game cannot be
    played), from the settings the play runs with."""
    problem = box_settings.game_problem(current)
    menu = Menu() if problem is None else Menu(
        item=box_settings.items(current).index("game"), note=problem)
    return replace(play, menu=menu, chosen=current)


def step(play: Play, event: Event, base: Config, now: float
         ) -> tuple[Play, tuple[PlayEffect, ...]]:
    """One gesture in the open menu (`base`: the config file's, before the box's settings:
    the palette and "Back to defaults" are its)."""
    assert play.menu is not None and play.chosen is not None
    if not isinstance(event, Input) or event.button not in (Button.NEXT, Button.ERA):
        return play, ()
    before = play.chosen
    menu, chosen = box_settings.menu_step(play.menu, before, box_settings.palette(base),
                                          box_settings.defaults(base), event)
    play = replace(play, menu=menu, chosen=chosen)
    if chosen == before:
        return play, ()
    effects: list[PlayEffect] = []
    if chosen.volume != before.volume:  # heard at once, and kept as a VOL+/VOL- step is
        play = replace(play, volume=chosen.volume)
        effects += [SetVolume(chosen.volume), Save(record_of(play, now))]
    if chosen.music_level != before.music_level:
        effects.append(SetVolume(chosen.volume, music=chosen.music_level))
    effects.append(SaveSettings(box_settings.to_dict(chosen)))
    return play, tuple(effects)


def closed(play: Play, current: Settings) -> Play:
    """The play once its menu closed: the settings chosen kept only where they differ from
    `current` (those it plays with), for the game to be set up anew with them."""
    return replace(play, chosen=None) if play.chosen == current else play


def screen(play: Play, under: Screen, base: Config) -> Screen:
    """The open menu's screen over `under` (the setup's, Time of Empires' model): the item
    shown, its value, where it is in the menu, a note, a game's own name; in the language
    chosen."""
    assert play.menu is not None and play.chosen is not None
    chosen = play.chosen
    config = box_settings.apply(base, chosen)
    names = box_settings.items(chosen)
    index = min(play.menu.item, len(names) - 1)
    value = box_settings.value(chosen, names[index])
    return replace(
        under, kind=Phase.SETTINGS, language=config.language,
        menu_item=names[index], menu_value=value, menu_position=(index + 1, len(names)),
        menu_note=play.menu.note or (
            box_settings.game_problem(chosen) if names[index] == "game" else None),
        menu_names=next(((en, ja) for name, en, ja in config.game_names
                         if names[index] == "game" and name == value), None))
