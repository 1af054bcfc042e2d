"""The wiring picture (docs/wiring.png), checked from its own geometry.

tools/wiring.py lays every wire out as corner points (`layout()`) and draws the picture from
that layout. These tests follow the wires on the layout the way a builder follows them on the
picture: two wires are joined where a corner or end of one lies on the other (a drawn T or a
shared run, as the buttons' ground bus), never where they merely cross. Then every button's
both legs must reach a header pin, leg 1 a GPIO and leg 2 a ground; every connection must
reach its own pin and no other; and the rendered picture must show every wire's run in its
colour. hardware.md's table against the same source is checked in test_systemd.py.
"""

from __future__ import annotations

import importlib.util
import sys
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wiring() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wiring", REPO / "tools" / "wiring.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["wiring"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def segments(wire: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return list(pairwise(wire.points))


def joined(wiring: ModuleType, a: Any, b: Any) -> bool:
    """Whether two drawn wires touch at a corner or end (not a mere crossing)."""
    return any(wiring.on_segment(p, s, e) for p in a.points for s, e in segments(b)) or any(
        wiring.on_segment(p, s, e) for p in b.points for s, e in segments(a))


def net_of(wiring: ModuleType, wires: tuple[Any, ...], start: Any) -> list[Any]:
    """Every wire joined to `start`, directly or through others."""
    net, todo = [start], [start]
    while todo:
        w = todo.pop()
        for other in wires:
            if all(other is not n for n in net) and joined(wiring, w, other):
                net.append(other)
                todo.append(other)
    return net


def pins_reached(wiring: ModuleType, net: list[Any]) -> set[int]:
    """Header pins that a wire of the net ends on (on the drawing, by position)."""
    ends = {p for w in net for p in (w.points[0], w.points[-1])}
    return {pin for pin in wiring.HEADER if wiring.pin_xy(pin) in ends}


def leg_problems(wiring: ModuleType, plan: Any) -> list[str]:
    """What a builder following the picture would find wrong with the buttons' legs."""
    problems = []
    buttons = {k: p for k, p in plan.parts.items() if k.endswith(" button")}
    if not buttons:
        problems.append("no buttons drawn")
    for key, part in buttons.items():
        legs = {}
        for leg, kind in (("leg 1", "GPIO"), ("leg 2", "GND")):
            if leg not in part.terminals and leg not in part.back:
                problems.append(f"{key}: {leg} not drawn")
                continue
            xy = part.terminal_xy(leg)
            starting = [w for w in plan.wires if xy in (w.points[0], w.points[-1])]
            if not starting:
                problems.append(f"{key}: {leg} is a loose end (no wire at {xy})")
                continue
            pins = pins_reached(wiring, net_of(wiring, plan.wires, starting[0]))
            if len(pins) != 1:
                problems.append(f"{key}: {leg} reaches pins {sorted(pins)}, not exactly one")
                continue
            (pin,) = pins
            legs[leg] = pin
            name = wiring.HEADER[pin]
            if not (name.startswith("GPIO") if kind == "GPIO" else name == "GND"):
                problems.append(f"{key}: {leg} reaches pin {pin} ({name}), not a {kind}")
        if len(legs) == 2 and legs["leg 1"] == legs["leg 2"]:
            problems.append(f"{key}: both legs on pin {legs['leg 1']}")
    return problems


def test_every_button_has_both_legs_on_a_gpio_and_a_ground(wiring: ModuleType) -> None:
    plan = wiring.layout()
    assert {k for k in plan.parts if k.endswith(" button")} == {
        "NEXT button", "ERA button", "VOL+ button", "VOL- button"}
    assert leg_problems(wiring, plan) == []


def test_the_leg_check_finds_a_loose_leg(wiring: ModuleType) -> None:
    """The picture's old fault: the ground bus started at the last button, so NEXT's and ERA's
    second legs ended in a stub at the bus line. The check must say so."""
    plan = wiring.layout()
    stubbed = tuple(
        wiring.Wire(w.connection, w.points[:2])
        if w.connection.part in ("NEXT button", "ERA button") and w.connection.terminal == "leg 2"
        else w
        for w in plan.wires)
    problems = leg_problems(wiring, wiring.Layout(plan.parts, stubbed))
    assert problems == ["NEXT button: leg 2 reaches pins [], not exactly one",
                        "ERA button: leg 2 reaches pins [], not exactly one"]


def test_every_connection_reaches_its_own_pin_and_no_other(wiring: ModuleType) -> None:
    plan = wiring.layout()
    for c in wiring.CONNECTIONS:
        part = plan.parts[c.part]
        xy = part.terminal_xy(c.terminal)
        # The terminal sits on the part's outline.
        on_left_or_right = xy[0] in (part.x, part.x + part.w) and part.y <= xy[1] <= part.y + part.h
        assert on_left_or_right, (c, xy)
        starting = [w for w in plan.wires if w.points[0] == xy]
        assert starting, f"{c.part} {c.terminal}: no wire leaves {xy}"
        assert pins_reached(wiring, net_of(wiring, plan.wires, starting[0])) == {c.pin}, c


def test_every_pin_in_the_table_is_drawn_and_no_wire_runs_over_another_pin(
        wiring: ModuleType) -> None:
    plan = wiring.layout()
    ends = {w.points[-1] for w in plan.wires}
    assert {pin for pin in wiring.HEADER if wiring.pin_xy(pin) in ends} == {
        c.pin for c in wiring.CONNECTIONS}
    for w in plan.wires:
        for pin in wiring.HEADER:
            if pin == w.connection.pin:
                continue
            px, py = wiring.pin_xy(pin)
            for (x0, y0), (x1, y1) in segments(w):
                # Axis-aligned runs: near a pin means within its radius across the run.
                assert x0 == x1 or y0 == y1, f"{w.connection}: a slanted run"
                near = (abs(px - x0) <= wiring.PIN_RADIUS and min(y0, y1) <= py <= max(y0, y1)
                        if x0 == x1 else
                        abs(py - y0) <= wiring.PIN_RADIUS and min(x0, x1) <= px <= max(x0, x1))
                assert not near, f"{w.connection.part} {w.connection.terminal} runs over pin {pin}"


def test_the_picture_shows_every_run_of_every_wire(wiring: ModuleType) -> None:
    plan = wiring.layout()
    image = wiring.draw_wiring(plan)
    for w in plan.wires:
        colour = tuple(int(w.connection.colour[i:i + 2], 16) for i in (1, 3, 5))
        for (x0, y0), (x1, y1) in segments(w):
            samples = [(x0 + (x1 - x0) * k // 8, y0 + (y1 - y0) * k // 8) for k in range(1, 8)]
            shown = [p for p in samples if image.getpixel(p) == colour]
            # A run may be crossed by another wire, never hidden along most of its length.
            assert len(shown) >= 4, (w.connection.part, w.connection.terminal, (x0, y0),
                                     (x1, y1))
    for (x, y), colour in wiring.junctions(plan.wires).items():
        assert image.getpixel((x + 4, y + 4)) == tuple(
            int(colour[i:i + 2], 16) for i in (1, 3, 5)), "junction dot missing"


def test_the_speaker_and_the_leds_resistor_are_drawn_where_they_go(wiring: ModuleType) -> None:
    """The builder's guide's gaps: the speaker is its own part on the amplifier's screw
    terminal (it was drawn inside the amplifier's box), the LED's resistor sits in the
    anode's wire and the table names the legs."""
    plan = wiring.layout()
    image = wiring.draw_wiring(plan)
    assert {(link.part, link.terminal, link.to_part, link.to_terminal)
            for link, _ in plan.links} == {("speaker", "+", "MAX98357A", "+"),
                                           ("speaker", "-", "MAX98357A", "-")}
    amp, speaker = plan.parts["MAX98357A"], plan.parts["speaker"]
    assert speaker.x > amp.x + amp.w  # outside the amplifier
    for link, points in plan.links:
        assert points[0] == plan.parts[link.to_part].terminal_xy(link.to_terminal)
        assert points[-1] == plan.parts[link.part].terminal_xy(link.terminal)
        colour = tuple(int(link.colour[i:i + 2], 16) for i in (1, 3, 5))
        (x0, y0), (x1, y1) = points[0], points[-1]
        samples = [(x0 + (x1 - x0) * k // 8, y0 + (y1 - y0) * k // 8) for k in range(1, 8)]
        assert sum(image.getpixel(p) == colour for p in samples) >= 4
    table = wiring.markdown_table()
    assert "solder the terminal block" in table and "Between two parts" in table
    led = next(c for c in wiring.CONNECTIONS if c.terminal == "anode via 330 ohm")
    assert "longer leg" in led.role and "resistor sits in this wire" in led.role
    cathode = next(c for c in wiring.CONNECTIONS if c.terminal == "cathode")
    assert "shorter leg" in cathode.role and "flat edge" in cathode.role
    (ax, ay), (bx, _) = next(w for w in plan.wires if w.connection is led).points[:2]
    assert image.getpixel(((ax + bx) // 2, ay)) == (0xe8, 0xd8, 0xb0)  # the resistor, on it


def test_the_header_sits_on_a_board_with_its_microsd_end(wiring: ModuleType) -> None:
    """Pin 1 on a bare header had to be turned in the head: the Pi's outline is drawn, its
    edge beside the even pins and its microSD card slot at pin 1's end."""
    plan = wiring.layout()
    image = wiring.draw_wiring(plan)
    left, top, right, bottom = plan.board
    for pin in wiring.HEADER:
        x, y = wiring.pin_xy(pin)
        assert left < x < right and top < y < bottom
    assert right - wiring.pin_xy(2)[0] < wiring.pin_xy(2)[0] - wiring.pin_xy(1)[0]  # edge row
    slot = plan.sd_slot
    slot_y = (slot[1] + slot[3]) / 2
    assert abs(slot_y - wiring.pin_xy(1)[1]) < abs(slot_y - wiring.pin_xy(39)[1])
    assert slot[1] == top  # on the board's end
    assert image.getpixel(((slot[0] + slot[2]) // 2, (slot[1] + slot[3]) // 2)) == (80, 80, 80)


def test_the_shopping_list_has_what_the_build_needs() -> None:
    guide = (REPO / "hardware.md").read_text(encoding="utf-8")
    shopping = guide[guide.index("### Shopping list"):guide.index("### Tools")]
    for wanted in ("speaker wire", "rubber feet", "heat-shrink"):
        assert wanted in shopping, wanted
    assert "solder both on" in guide and "longer leg" in guide
