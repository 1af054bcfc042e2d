"""What the box plays and what its settings menu holds, read through what both engines
expose: Time of Empires on its own engine (a `machine.Game`, with ERABOX_ONE_ENGINE=0) or on
the round engine from its round file (a `profile_play.Play`, the driver's profile the round
file). Tests of the settings menu read them here, so they check the same guarantee on both."""

from __future__ import annotations

from typing import Any

from erabox.core.settings import Settings
from erabox.files.games import OWN_GAME


def plays_own(driver: Any) -> bool:
    """Is the box playing Time of Empires (on either engine), not another game?"""
    return driver.profile is None or driver.profile.id == OWN_GAME


def menu_settings(game: Any) -> Settings | None:
    """The settings the open settings menu holds (the era engine's `Game.settings`, the
    round engine's `Play.chosen`); None where none were chosen."""
    from erabox.core.machine import Game

    chosen: Settings | None = game.settings if isinstance(game, Game) else game.chosen
    return chosen
