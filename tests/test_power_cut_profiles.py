"""The power-cut proof over games read from their profiles: every cut sequence around every
timed call of the shipped Time of Empires profile's real-time era, of its introductory era,
and of real-time profiles the test writes itself (calls close together, a call just before
the end, lead-in and final ticks), each call heard once or, cut in the one unknowable window,
shown (docs/power-cuts.md). The enumeration is tests/test_power_cut_exhaustive.py's; here the
eras come from profile text through the profile parser, as the box reads them."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from erabox.adapters.state_file import StateFile
from erabox.core.config import Config
from erabox.core.machine import new_game, timeline
from erabox.core.model import Button, Gesture, Input, Mode, Phase
from erabox.core.own_game import OwnNumbers, own_numbers_of
from erabox.core.profile import parse_profile
from erabox.files.games import shipped_games
from test_power_cut_exhaustive import (
    AFTER_MS,
    END,
    MAX_CUTS,
    Box,
    Disk,
    IntroEnumeration,
    Table,
    explore,
)

SHIPPED = (shipped_games() / "time-of-empires.toml").read_text(encoding="utf-8")


def generated(length_s: float, calls: tuple[float, ...], lead_in_s: int, ticks_s: int,
              prompt_s: float) -> OwnNumbers:
    """A real-time game in the profile format: the shipped file with its era replaced (its
    numbers, as the box's config takes them: `own_game`)."""
    head, rest = SHIPPED.split("[[phase.call]]\n", 1)
    tail = rest[rest.index("# Introductory: each round"):]
    for key, value in (("timer_s", 540), ("lead_in_s", 5), ("final_ticks_s", 10),
                       ("prompt_s", 15)):
        wanted = {"timer_s": length_s, "lead_in_s": lead_in_s, "final_ticks_s": ticks_s,
                  "prompt_s": prompt_s}[key]
        assert head.count(f"\n{key} = {value}") == 1
        head = head.replace(f"\n{key} = {value}", f"\n{key} = {wanted}")
    era = "".join(f'[[phase.call]]\nat_s = {at}\nsound = "cry"\nprompt = "scholars"\n\n'
                  for at in calls)
    return own_numbers_of(parse_profile(head + era + tail, "generated.toml"))


PROFILES = {
    # calls 0.25 s apart (their windows overlap), one 0.15 s before the end, ticks over them
    "dense": generated(20, (2, 2.25, 9.5, 19.85), 3, 5, 3),
    # the shipped era and a 6:00 one with three cries (the README's copy): about 30 s each,
    # so `make test-deep` plays them
    "time-of-empires": own_numbers_of(parse_profile(SHIPPED, "time-of-empires.toml")),
    "six minutes": generated(360, (90, 180, 270), 5, 10, 15),
}
DEEP = ("time-of-empires", "six minutes")


def realtime(profile: OwnNumbers) -> Config:
    """The profile's era as the enumeration plays it: from the start gong (its lead-in's
    ticks come before the era's anchor and carry no call, so it starts with none)."""
    return Config(guide=False, default_mode=Mode.REALTIME,
                  realtime=replace(profile.realtime, lead_in_s=0), intro=profile.intro)


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_cut_around_every_call_of_a_profile_gives_each_call_once(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if name in DEEP and not os.environ.get("ERABOX_TEST_DEEP"):
        pytest.skip("a whole 6:00 or 9:00 era: make test-deep")
    config = realtime(PROFILES[name])
    cases, restarts = explore(config, tmp_path)
    with capsys.disabled():
        print(f"\n{name}: {cases:,} cut sequences checked ({restarts:,} distinct restarts)")
    calls = [c for c in timeline(config) if c.recorded]
    assert len(calls) == len(config.realtime.scholar_cues_s) + 1  # the calls and the end gong
    assert cases > len(calls) * (AFTER_MS + 1) ** 2


def test_every_cut_in_the_profiles_introductory_era_gives_each_call_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    intro = PROFILES["time-of-empires"].intro
    assert END not in intro.scholar_after_rounds  # the enumeration's label for the era's end
    config = Config(guide=False, default_mode=Mode.INTRO, intro=intro)
    state_file = StateFile(tmp_path / "state.json")
    try:
        run = IntroEnumeration(config, state_file)
        box = Box(new_game(config), 0.0, Disk(None), Table())
        box, _ = run.stepped(box, Input(Button.ERA, Gesture.PRESS), 0.0)
        assert box.game.phase is Phase.INTRO_ROUND
        cases = run.play_on(box, MAX_CUTS)
    finally:
        state_file.close()
    with capsys.disabled():
        print(f"\nthe profile's introductory era: {cases:,} cut sequences checked")
    assert cases > 10_000
