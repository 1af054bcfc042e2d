"""Where in an era's score the music belongs at a given running time (pure).

The built-in era scores (`sounds/era{1,2,3}_score.ogg`) are 540 s long, in three sections that
end at 3:00, 6:00 and 9:00, the rulebook's scholar calls and end gong; the last minute of the
third section rises towards the gong. A box configured with another era length or other
scholar times still hears each section end on its own call and the rise end on the gong:

- the era is cut into sections at its scholar calls (when it has as many calls as the score
  has inner boundaries, two; otherwise the whole era is one section, mapped onto the whole
  score);
- a section **shorter** than the score's plays that section's *end*: it starts late in the
  section (at a scholar call, where the cry covers the change of place);
- a section **longer** than the score's first plays the section's opening part (all of it but
  its last `SECTION_TAIL_S`) round and round for the extra time, then the whole section from
  its start, so its end still meets the call or the gong.

With the rulebook's 540 s era and calls at 180 s and 360 s the mapping is the identity.
"""

from __future__ import annotations

from collections.abc import Sequence

SCORE_LENGTH_S = 540.0
SCORE_SECTIONS_S = (0.0, 180.0, 360.0, 540.0)
SECTION_TAIL_S = 60.0  # the part of a section that is kept for its end (the rise, a cadence)


def era_sections(length_s: float, cues_s: Sequence[float]) -> tuple[float, ...]:
    """Section boundaries of an era in running time: 0, its scholar calls, its end."""
    inner = len(SCORE_SECTIONS_S) - 2
    calls = [c for c in cues_s if 0.0 < c < length_s]
    if len(calls) != inner:
        return (0.0, length_s)
    return (0.0, *sorted(calls), length_s)


def score_segments(length_s: float, cues_s: Sequence[float]) -> tuple[tuple[float, float], ...]:
    """The mapping as pieces that play straight on: ((running start, score position), ...).

    From each piece's start the score runs at normal speed until the next piece starts, where
    the player seeks. The rulebook's era is one piece, ((0.0, 0.0),): no seeking at all.
    """
    era = era_sections(length_s, cues_s)
    score = SCORE_SECTIONS_S if len(era) == len(SCORE_SECTIONS_S) else (0.0, SCORE_LENGTH_S)
    pieces: list[tuple[float, float]] = []
    for index in range(len(era) - 1):
        start, end = era[index], era[index + 1]
        first, last = score[index], score[index + 1]
        span = last - first
        extra = (end - start) - span
        if extra <= 0.0:
            pieces.append((start, last - (end - start)))  # a short section: its end
            continue
        body = max(span - SECTION_TAIL_S, 1.0)  # a long one: round its opening part ...
        turns = 0
        while turns * body < extra:
            pieces.append((start + turns * body, first))
            turns += 1
        pieces.append((start + extra, first))  # ... then all of it, to end on time
    merged: list[tuple[float, float]] = []
    for at, position in pieces:
        if merged and abs(merged[-1][1] + (at - merged[-1][0]) - position) < 1e-9:
            continue  # it goes on from where the piece before has got to: no seek
        merged.append((at, position))
    return tuple(merged)

