"""What the box plays and what its settings menu holds, read from the round engine's
`play.Play` (Time of Empires plays its round file; every game is a profile). Tests
of the settings menu read them here."""

from __future__ import annotations

from typing import Any

from erabox.core.settings import Settings
from erabox.files.games import OWN_GAME


def plays_own(driver: Any) -> bool:
    """Is the box playing Time of Empires (its round file, the default), not another game?"""
    return driver.profile is None or driver.profile.id == OWN_GAME


def menu_settings(game: Any) -> Settings | None:
    """The settings the open settings menu holds (the play's `chosen`); None where none
    were chosen."""
    chosen: Settings | None = game.chosen
    return chosen
