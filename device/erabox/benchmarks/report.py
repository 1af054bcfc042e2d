"""The bench's table: one line per figure, with its target, the measurement and a verdict.

Targets are reported, not asserted: a MISS line says by how much, and `docs/performance.md`
says why. Lines without a target are context ("info").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Line:
    """One line of the table."""

    section: str
    figure: str
    target: str
    measured: str
    verdict: str  # PASS, MISS (by ...), or info

    def as_dict(self) -> dict[str, Any]:
        """For the JSON report."""
        return asdict(self)


def below(section: str, figure: str, value: float | None, limit: float, unit: str,
          digits: int = 2) -> Line:
    """A line whose target is `value < limit`; a miss names the excess."""
    target = f"< {limit:g} {unit}"
    if value is None:
        return Line(section, figure, target, "not measured", "MISS (no value)")
    measured = f"{value:.{digits}f} {unit}"
    if value < limit:
        return Line(section, figure, target, measured, "PASS")
    return Line(section, figure, target, measured,
                f"MISS by {value - limit:.{digits}f} {unit} (x{value / limit:.1f})")


def equals(section: str, figure: str, value: int | None, wanted: int) -> Line:
    """A line whose target is an exact count (exceptions: 0)."""
    if value is None:
        return Line(section, figure, f"= {wanted}", "not measured", "MISS (no value)")
    verdict = "PASS" if value == wanted else f"MISS ({value - wanted:+d})"
    return Line(section, figure, f"= {wanted}", str(value), verdict)


def info(section: str, figure: str, measured: str) -> Line:
    """A line for context, without a target."""
    return Line(section, figure, "-", measured, "info")


def table(lines: list[Line]) -> str:
    """The lines as a plain-text table (fits a terminal and a Markdown code block)."""
    head = Line("section", "figure", "target", "measured", "verdict")
    rows = [head, *lines]
    widths = [max(len(getattr(r, f)) for r in rows)
              for f in ("section", "figure", "target", "measured")]
    out = []
    for index, row in enumerate(rows):
        cells = [row.section, row.figure, row.target, row.measured]
        out.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
                   + "  " + row.verdict)
        if index == 0:
            out.append("-" * len(out[0]))
    return "\n".join(out)
