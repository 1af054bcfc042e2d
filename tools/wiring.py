"""Draw the box's wiring diagram (docs/wiring.png) and print its wiring table.

One source of truth for how the parts meet the Raspberry Pi's 40-pin header: `CONNECTIONS`
below, and for the wires between two parts (the speaker on the amplifier, the resistor on the
LED): `LINKS`. `hardware.md` embeds the tables this prints (`--table`), and the picture is drawn
from the same data (`layout()` turns it into corner points, `draw_wiring()` draws those), so the two
cannot drift apart. tests/test_systemd.py checks both against the config's default pins;
tests/test_wiring.py follows every wire on the layout, as a builder follows the picture.

    python tools/wiring.py                 # writes docs/wiring.png
    python tools/wiring.py --table         # prints the Markdown wiring table
    python tools/wiring.py --out FILE.png  # writes elsewhere

The drawing is plain Pillow: the header in the middle with every pin named, the parts on both
sides, each wire routed in its own lane so that no two wires share a segment.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin
from PIL import __version__ as PILLOW_VERSION
from PIL import features as pillow_features

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "wiring.png"

# The Raspberry Pi 40-pin header (every model since the B+, including the Pi 5), by physical
# pin number. Even pins (2: 5V) form the row along the board's edge, odd pins (1: 3V3) the
# inner row; pin 1 is at the microSD card's end. On the drawing: odd pins the left column.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
# Second names worth printing beside a pin, for the functions the box uses.
PIN_ROLES: dict[int, str] = {3: "SDA", 5: "SCL", 12: "PCM CLK", 35: "PCM FS", 40: "PCM DOUT"}


@dataclass(frozen=True)
class Connection:
    """One wire: a part's terminal to a header pin."""

    part: str  # the part as named in hardware.md
    terminal: str  # the terminal as printed on the part
    pin: int  # physical header pin
    colour: str  # wire colour on the drawing (and a sensible jumper colour)
    role: str  # what it is for, in the game's words
    required: bool = True


RED, BLACK, BLUE, YELLOW = "#d62728", "#202020", "#1f5fbf", "#d4a000"
GREEN, ORANGE, PURPLE, BROWN, GREY = "#2ca02c", "#ff7f0e", "#8e44ad", "#8c564b", "#7f7f7f"

CONNECTIONS: tuple[Connection, ...] = (
    Connection("OLED", "VCC", 1, RED, "3.3 V supply for the SSD1306"),
    Connection("OLED", "SDA", 3, BLUE, "I2C data (bus 1)"),
    Connection("OLED", "SCL", 5, YELLOW, "I2C clock (bus 1)"),
    Connection("OLED", "GND", 9, BLACK, "ground"),
    Connection("NEXT button", "leg 1", 11, GREEN, "next round / pause (NO tab)"),
    Connection("NEXT button", "leg 2", 25, BLACK, "ground, shared with ERA and VOL+ (COM tab)"),
    Connection("ERA button", "leg 1", 13, ORANGE, "new era / restart era (NO tab)"),
    Connection("ERA button", "leg 2", 25, BLACK, "ground, shared with NEXT and VOL+ (COM tab)"),
    Connection("VOL+ button", "leg 1", 15, PURPLE, "volume up (NO tab)", required=False),
    Connection("VOL+ button", "leg 2", 25, BLACK, "ground, shared with NEXT and ERA (COM tab)",
               required=False),
    Connection("VOL- button", "leg 1", 16, BROWN, "volume down (NO tab)", required=False),
    Connection("VOL- button", "leg 2", 14, BLACK, "ground (COM tab)", required=False),
    Connection("cue LED", "anode via 330 ohm", 18, GREY,
               "flashes with every cue; the 330 ohm resistor sits in this wire (either way "
               "round), the anode is the LED's longer leg", required=False),
    Connection("cue LED", "cathode", 20, BLACK,
               "ground; the cathode is the shorter leg, by the flat edge of the LED's rim",
               required=False),
    Connection("MAX98357A", "Vin", 4, RED, "5 V supply for the amplifier", required=False),
    Connection("MAX98357A", "GND", 6, BLACK, "ground", required=False),
    Connection("MAX98357A", "BCLK", 12, BLUE, "I2S bit clock", required=False),
    Connection("MAX98357A", "LRC", 35, YELLOW, "I2S word select", required=False),
    Connection("MAX98357A", "DIN", 40, GREEN, "I2S data", required=False),
)


@dataclass(frozen=True)
class Link:
    """A wire between two parts (no header pin)."""

    part: str
    terminal: str
    to_part: str
    to_terminal: str
    colour: str
    role: str


LINKS: tuple[Link, ...] = (
    Link("speaker", "+", "MAX98357A", "+", RED,
         "speaker wire (2-core, 20-30 cm) to the amplifier's screw terminal; solder the "
         "terminal block and the pin header that come loose with the breakout first"),
    Link("speaker", "-", "MAX98357A", "-", BLACK,
         "the other core to the terminal's - side (swapped, it still plays)"),
)


def bcm_of(pin: int) -> int | None:
    """The BCM GPIO number of a physical pin, or None for power and ground pins."""
    name = HEADER[pin]
    return int(name.removeprefix("GPIO")) if name.startswith("GPIO") else None


def markdown_table() -> str:
    """The wiring table for hardware.md, one row per wire."""
    rows = [
        "| part | terminal | header pin | Pi signal | what for | needed |",
        "|---|---|---|---|---|---|",
    ]
    for c in CONNECTIONS:
        signal = HEADER[c.pin]
        if c.pin in PIN_ROLES:
            signal += f" ({PIN_ROLES[c.pin]})"
        needed = "yes" if c.required else "optional"
        rows.append(f"| {c.part} | {c.terminal} | {c.pin} | {signal} | {c.role} | {needed} |")
    rows += ["", "Between two parts (no header pin):", "",
             "| part | terminal | to part | terminal | what for |", "|---|---|---|---|---|"]
    for link in LINKS:
        rows.append(f"| {link.part} | {link.terminal} | {link.to_part} | {link.to_terminal} |"
                    f" {link.role} |")
    return "\n".join(rows)


# ---- Drawing ---------------------------------------------------------------------------------

WIDTH, HEIGHT = 1680, 1010
ROW_TOP, ROW_STEP = 150, 38  # y of header row 0 (pins 1 and 2), distance between rows
LEFT_PIN_X, RIGHT_PIN_X = 620, 900  # the two pin columns, with the pin names between them
PIN_RADIUS = 9
BELOW_HEADER_Y = ROW_TOP + 20 * ROW_STEP + 10  # corridor for wires crossing to the other side
BUTTON_BUS_X = 110  # the left-hand buttons' shared ground runs down this line
SPEAKER_X = 1480  # the speaker, right of the amplifier and of its wires' lanes
BOARD = (LEFT_PIN_X - 150, ROW_TOP - 50, RIGHT_PIN_X + 40, BELOW_HEADER_Y - 20)
AMP_OUT = (ROW_TOP + 35, ROW_TOP + 60)  # y of the amplifier's screw terminal, + and -

Point = tuple[int, int]


def pin_xy(pin: int) -> Point:
    """Centre of a header pin on the drawing."""
    row = (pin - 1) // 2
    return (LEFT_PIN_X if pin % 2 else RIGHT_PIN_X, ROW_TOP + row * ROW_STEP)


def row_y(pin: int) -> int:
    return pin_xy(pin)[1]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's own bundled font, so the drawing needs nothing from the system.
    return ImageFont.load_default(size=size)


@dataclass
class Part:
    """A part drawn as a labelled box. Terminals sit on the edge facing the header, except
    `back` ones, on the far edge, whose wires go round the outside of the part."""

    title: str
    subtitle: str
    x: int
    y: int
    w: int
    h: int
    faces_right: bool  # the part is left of the header, so its front edge is its right edge
    terminals: dict[str, int]  # front terminal name -> y
    back: dict[str, int] = field(default_factory=dict)  # back terminal name -> y

    def terminal_xy(self, name: str) -> Point:
        front_x, back_x = (self.x + self.w, self.x) if self.faces_right else (self.x,
                                                                             self.x + self.w)
        if name in self.back:
            return (back_x, self.back[name])
        return (front_x, self.terminals[name])


@dataclass(frozen=True)
class Wire:
    """One drawn wire: the connection it carries and its corner points, from the part's
    terminal to the header pin. Wires of one ground may overlap: that is a shared bus."""

    connection: Connection
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Layout:
    """Everything the picture shows, as geometry: where each part and each wire is."""

    parts: dict[str, Part]
    wires: tuple[Wire, ...]
    links: tuple[tuple[Link, tuple[Point, ...]], ...] = ()  # part-to-part wires
    board: tuple[int, int, int, int] = (0, 0, 0, 0)  # the Pi's outline around the header
    sd_slot: tuple[int, int, int, int] = (0, 0, 0, 0)  # the microSD card slot, pin 1's end


def _parts() -> dict[str, Part]:
    """Where each part sits. Front terminals line up with their pins' rows, so those wires are
    straight; the buttons' second legs and the amplifier's I2S data lines leave from the back
    and go round."""
    oled = Part("SSD1306 OLED", "128x64, I2C 0x3C", 60, row_y(1) - 30, 250, 200, True,
                {"VCC": row_y(1), "SDA": row_y(3), "SCL": row_y(5), "GND": row_y(9)})
    parts = {"OLED": oled}
    for name, pin in (("NEXT", 11), ("ERA", 13), ("VOL+", 15)):
        parts[f"{name} button"] = Part(name, "button", 150, row_y(pin) - 16, 160, 32, True,
                                       {"leg 1": row_y(pin)}, back={"leg 2": row_y(pin)})
    parts["VOL- button"] = Part("VOL-", "button", 1130, row_y(14) - 10, 200, 60, False,
                                {"leg 2": row_y(14), "leg 1": row_y(16)})
    parts["cue LED"] = Part("cue LED", "long leg: anode", 1130, row_y(18) - 10, 200, 60, False,
                            {"anode via 330 ohm": row_y(18), "cathode": row_y(20)})
    parts["MAX98357A"] = Part("MAX98357A", "I2S amplifier", 1100, row_y(2) - 30, 230,
                              row_y(12) - row_y(2) + 52, False,
                              {"Vin": row_y(4), "GND": row_y(6), "BCLK": row_y(12)},
                              back={"LRC": row_y(6), "DIN": row_y(8), "+": AMP_OUT[0],
                                    "-": AMP_OUT[1]})
    parts["speaker"] = Part("speaker", "4-8 ohm", SPEAKER_X, AMP_OUT[0] - 35, 150, 95, False,
                            {"+": AMP_OUT[0], "-": AMP_OUT[1]})
    return parts


def _route(part: Part, terminal: str, pin: int, back_lane: int) -> list[Point]:
    """The wire's corner points from a part's terminal to a header pin."""
    tx, ty = part.terminal_xy(terminal)
    hx, hy = pin_xy(pin)
    pin_on_left = bool(pin % 2)
    if terminal not in part.back:
        if ty == hy:
            return [(tx, ty), (hx, hy)]
        lane = (hx + tx) // 2
        return [(tx, ty), (lane, ty), (lane, hy), (hx, hy)]
    # From the back edge: out, then along a lane outside everything on this side.
    if pin_on_left == part.faces_right:  # the pin is in this side's column
        return [(tx, ty), (back_lane, ty), (back_lane, hy), (hx, hy)]
    far_x = LEFT_PIN_X - 60 if pin_on_left else RIGHT_PIN_X + 60
    return [(tx, ty), (back_lane, ty), (back_lane, BELOW_HEADER_Y), (far_x, BELOW_HEADER_Y),
            (far_x, hy), (hx, hy)]


def layout() -> Layout:
    """Every part and every wire of `CONNECTIONS`. On the left, back terminals share the
    buttons' ground bus; on the right each back wire gets its own lane outside the parts."""
    parts = _parts()
    right_lane = max(p.x + p.w for k, p in parts.items()
                     if not p.faces_right and k != "speaker") + 30
    wires = []
    for c in CONNECTIONS:
        part = parts[c.part]
        lane = BUTTON_BUS_X if part.faces_right else right_lane
        wires.append(Wire(c, tuple(_route(part, c.terminal, c.pin, lane))))
        if c.terminal in part.back and not part.faces_right:
            right_lane += 22
    links = tuple((link, (parts[link.to_part].terminal_xy(link.to_terminal),
                          parts[link.part].terminal_xy(link.terminal))) for link in LINKS)
    sd_x = (BOARD[0] + LEFT_PIN_X) // 2
    return Layout(parts, tuple(wires), links, BOARD, (sd_x - 40, BOARD[1], sd_x + 40,
                                                      BOARD[1] + 16))


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """Whether point p lies on the straight segment a-b (the drawing's wires are axis-aligned,
    but this holds for any segment)."""
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return cross == 0 and min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and \
        min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def junctions(wires: tuple[Wire, ...]) -> dict[Point, str]:
    """Where a wire's corner or end lands inside another wire's run (a T), with the wire's
    colour: drawn as a dot, the usual mark that two wires are joined. Wires that merely cross,
    or share a corner, get none."""
    dots: dict[Point, str] = {}
    for w in wires:
        for p in w.points:
            for other in wires:
                if other is w or p in other.points:
                    continue
                if any(on_segment(p, a, b) for a, b in zip(other.points, other.points[1:],
                                                           strict=False)):
                    dots.setdefault(p, w.connection.colour)
    return dots


def _wire(draw: ImageDraw.ImageDraw, points: tuple[Point, ...], colour: str) -> None:
    draw.line(list(points), fill=colour, width=4, joint="curve")
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)


def draw_wiring(plan: Layout | None = None) -> Image.Image:
    """The whole diagram as an RGB image, drawn from `layout()` (or the plan given)."""
    plan = plan or layout()
    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(img)
    title, label, small = _font(30), _font(17), _font(14)

    draw.text((40, 24), "erabox wiring: the Raspberry Pi seen from above, microSD card end "
              "at the top: pin 1 top left", font=title, fill="black")
    draw.text((40, 70), "Each button joins a GPIO (leg 1) to GND (leg 2); internal pull-ups, "
              "no resistors. Grey outlines are optional parts. Numbers are physical pins, "
              "names BCM.", font=label, fill="#444444")

    # The Pi itself, so the header is not turned in the head: its edge right of the even pins,
    # its microSD card slot at pin 1's end.
    draw.rounded_rectangle(plan.board, radius=18, fill="#dcefe2", outline="#1e6b3a", width=3)
    draw.rectangle(plan.sd_slot, fill="#505050")
    draw.text((plan.board[0] - 8, plan.sd_slot[1] + 4), "microSD card end", font=label,
              fill="#1e6b3a", anchor="ra")
    draw.text((plan.board[2] + 6, plan.board[1] + 4), "board\nedge", font=small,
              fill="#1e6b3a", anchor="la")
    # The header: both pin columns and every pin's name between them.
    draw.rounded_rectangle((LEFT_PIN_X - 30, ROW_TOP - 28, RIGHT_PIN_X + 30,
                            ROW_TOP + 19 * ROW_STEP + 28), radius=12, fill="#1e6b3a")
    used = {w.connection.pin for w in plan.wires}
    for pin, name in HEADER.items():
        x, y = pin_xy(pin)
        if name == "GND":
            fill = "#202020"
        elif name in ("5V", "3V3"):
            fill = RED
        else:
            fill = "#e0c060" if pin in used else "#a8a8a8"
        draw.ellipse((x - PIN_RADIUS, y - PIN_RADIUS, x + PIN_RADIUS, y + PIN_RADIUS),
                     fill=fill, outline="white", width=2)
        text = name + (f" {PIN_ROLES[pin]}" if pin in PIN_ROLES else "")
        colour = "white" if pin in used else "#9fc7ad"
        inner, outer = (("lm", "rm"), (16, -16)) if pin % 2 else (("rm", "lm"), (-16, 16))
        draw.text((x + outer[0], y), text, font=small, fill=colour, anchor=inner[0])
        draw.text((x + outer[1], y - 12), str(pin), font=small, fill="#cfe8d6",
                  anchor=inner[1])

    # Parts.
    optional = {w.connection.part for w in plan.wires if not w.connection.required}
    for key, part in plan.parts.items():
        box = (part.x, part.y, part.x + part.w, part.y + part.h)
        dashed = key in optional
        draw.rectangle(box, fill="#f4f4f4", outline="#8a8a8a" if dashed else "black",
                       width=3)
        tx = part.x + 12 if part.faces_right else part.x + part.w - 12
        anchor = "la" if part.faces_right else "ra"
        if part.h >= 50:
            draw.text((tx, part.y + 8), part.title, font=label, fill="black", anchor=anchor)
            draw.text((tx, part.y + 30), part.subtitle, font=small, fill="#555555",
                      anchor=anchor)
        else:
            draw.text((part.x + part.w // 2, part.y + part.h // 2), part.title, font=label,
                      fill="black", anchor="mm")
        for name in (*part.terminals, *part.back):
            px, py = part.terminal_xy(name)
            at_right_edge = px == part.x + part.w
            shown = name if name.startswith("leg") else name.split(" ")[0]
            draw.text((px - 8 if at_right_edge else px + 8, py), shown,
                      font=small, fill="black", anchor="rm" if at_right_edge else "lm")

    # The OLED's screen, so the module is recognisable.
    oled = plan.parts["OLED"]
    draw.rectangle((oled.x + 14, oled.y + 60, oled.x + 164, oled.y + 180), fill="#101828")
    draw.text((oled.x + 89, oled.y + 120), "6:42", font=_font(44), fill="#8fd3ff",
              anchor="mm")
    # The speaker, its own part on the amplifier's screw terminal (+ and -).
    speaker = plan.parts["speaker"]
    sx, sy = speaker.x + 60, speaker.y + speaker.h // 2 + 12
    draw.rectangle((sx - 16, sy - 14, sx, sy + 14), fill="#505050")
    draw.polygon([(sx, sy - 14), (sx + 24, sy - 30), (sx + 24, sy + 30), (sx, sy + 14)],
                 fill="#707070")
    amp = plan.parts["MAX98357A"]
    draw.text((amp.x + 70, amp.y + 142), "+ - : screw terminal\n(solder it on,\nand the header)",
              font=small, fill="#555555", anchor="la")
    # The cue LED's resistor, drawn in the wire where it goes.
    led = next(w for w in plan.wires if w.connection.terminal == "anode via 330 ohm")
    (ax, ay), (bx, _) = led.points[0], led.points[1]
    rx = (ax + bx) // 2 if bx != ax else ax - 60
    resistor = (rx - 22, ay - 9, rx + 22, ay + 9)

    for w in plan.wires:
        _wire(draw, w.points, w.connection.colour)
    for link, points in plan.links:
        _wire(draw, points, link.colour)
    draw.rectangle(resistor, fill="#e8d8b0", outline="black", width=2)
    draw.text((rx, ay - 12), "330 ohm", font=small, fill="black", anchor="ms")
    for (x, y), colour in junctions(plan.wires).items():
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=colour)
    bus_bottom = max(w.points[-1][1] for w in plan.wires if w.points[1][0] == BUTTON_BUS_X)
    draw.text((BUTTON_BUS_X - 10, bus_bottom - 14), "shared GND", font=small, fill="black",
              anchor="rs")

    draw.text((40, HEIGHT - 40), "Generated by tools/wiring.py from its CONNECTIONS and LINKS "
              "tables; hardware.md has the same tables.", font=small, fill="#666666")
    return img


def png_info() -> PngImagePlugin.PngInfo:
    """Text chunks naming the renderer, so a test knows when a pixel comparison is fair."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Software", "erabox tools/wiring.py")
    info.add_text("Renderer", renderer_id())
    return info


def renderer_id() -> str:
    """Pillow and FreeType versions: text rasterises differently across them."""
    return f"Pillow {PILLOW_VERSION}, FreeType {pillow_features.version('freetype2')}"


def main(argv: list[str] | None = None) -> int:
    """Command line: write the PNG (default) or print the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="PNG to write")
    args = parser.parse_args(argv)
    if args.table:
        print(markdown_table())
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    draw_wiring().save(args.out, pnginfo=png_info(), optimize=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
