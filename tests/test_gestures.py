"""The pure gesture recogniser (erabox.core.gestures): raw edges with times in, gestures out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from erabox.core.gestures import GestureRecogniser
from erabox.core.model import Button, Gesture, Input

NEXT, ERA, BOTH, UP, DOWN = Button.NEXT, Button.ERA, Button.BOTH, Button.VOL_UP, Button.VOL_DOWN
PRESS, HOLD, RELEASE = Gesture.PRESS, Gesture.HOLD, Gesture.RELEASE


# --- the pure recogniser ------------------------------------------------------------------------


def recogniser(**kw: float) -> GestureRecogniser:
    times = {"hold_s": 0.8, "both_s": 3.0, "bounce_s": 0.02} | kw
    return GestureRecogniser([NEXT, ERA, UP, DOWN], **times)


def run(r: GestureRecogniser, edges: list[tuple[float, Button, bool]],
        until: float) -> list[tuple[float, Input]]:
    """Feed edges (time, button, down) and settle up to `until`."""
    for t, button, down in edges:
        r.edge(button, down, t)
    return r.advance(until)


def tap(button: Button, start: float, length: float) -> list[tuple[float, Button, bool]]:
    return [(start, button, True), (start + length, button, False)]


def test_press_fires_at_release() -> None:
    out = run(recogniser(), tap(NEXT, 1.0, 0.1), until=5.0)
    assert out == [(1.1, Input(NEXT, PRESS))]


def test_press_is_not_reported_before_the_release_is_confirmed() -> None:
    r = recogniser()
    r.edge(NEXT, True, 1.0)
    r.edge(NEXT, False, 1.1)
    assert r.advance(1.11) == []  # release not yet stable for 20 ms
    assert r.next_deadline() == pytest.approx(1.12)
    assert r.advance(1.12) == [(1.1, Input(NEXT, PRESS))]


def test_hold_fires_once_at_threshold_and_not_on_release() -> None:
    r = recogniser()
    r.edge(ERA, True, 2.0)
    assert r.advance(2.5) == []
    assert r.next_deadline() == pytest.approx(2.8)
    assert r.advance(2.8) == [(2.8, Input(ERA, HOLD))]
    r.edge(ERA, False, 4.0)
    assert r.advance(10.0) == []
    assert r.next_deadline() is None


def test_release_exactly_at_the_hold_time_is_a_hold() -> None:
    out = run(recogniser(hold_s=0.5, bounce_s=0.0), tap(NEXT, 0.0, 0.5), until=1.0)
    assert out == [(0.5, Input(NEXT, HOLD)), (0.5, Input(NEXT, RELEASE))]


def test_next_let_go_after_its_hold_fires_release_at_the_let_go() -> None:
    """The points entry times a NEXT hold's ramp from its hold to its release."""
    out = run(recogniser(), tap(NEXT, 1.0, 2.5), until=9.0)
    assert out == [(1.8, Input(NEXT, HOLD)), (3.5, Input(NEXT, RELEASE))]


def test_release_just_before_threshold_is_a_press_though_confirmed_after_it() -> None:
    # Released 5 ms before the threshold; debounce confirms it 15 ms after: still a press.
    out = run(recogniser(), tap(NEXT, 0.0, 0.795), until=2.0)
    assert out == [(0.795, Input(NEXT, PRESS))]


def test_five_ms_glitch_is_nothing() -> None:
    r = recogniser()
    out = run(r, tap(NEXT, 1.0, 0.005), until=5.0)
    assert out == []
    assert not r.is_down(NEXT)


def test_bouncy_press_is_one_press() -> None:
    edges = []
    t = 1.0
    for length in (0.001, 0.002, 0.001):  # contact chatter going down
        edges += tap(NEXT, t, length)
        t += length + 0.001
    edges.append((t, NEXT, True))
    t += 0.150
    edges.append((t, NEXT, False))
    for length in (0.002, 0.001):  # and coming up
        edges += tap(NEXT, t + 0.001, length)
        t += length + 0.001
    out = run(recogniser(), edges, until=5.0)
    assert [g for _, g in out] == [Input(NEXT, PRESS)]


def test_both_fires_once_and_suppresses_single_gestures() -> None:
    r = recogniser()
    edges = [(0.0, NEXT, True), (0.3, ERA, True), (5.0, ERA, False), (5.2, NEXT, False)]
    assert run(r, edges, until=9.0) == [(3.3, Input(BOTH, HOLD))]


def test_both_let_go_early_is_a_short_chord_and_nothing_else() -> None:
    edges = [(0.0, ERA, True), (0.1, NEXT, True), (1.0, NEXT, False), (2.0, ERA, False)]
    assert run(recogniser(), edges, until=9.0) == [(2.0, Input(BOTH, PRESS))]


def test_a_chord_begun_after_a_hold_fired_is_not_a_short_chord() -> None:
    edges = [(0.0, ERA, True), (1.0, NEXT, True), (1.5, NEXT, False), (2.0, ERA, False)]
    assert run(recogniser(), edges, until=9.0) == [(0.8, Input(ERA, HOLD))]


def test_hold_that_fired_before_the_second_button_stays_fired() -> None:
    edges = [(0.0, NEXT, True), (1.0, ERA, True), (4.5, NEXT, False), (4.6, ERA, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(0.8, Input(NEXT, HOLD)), (4.0, Input(BOTH, HOLD)),
                   (4.5, Input(NEXT, RELEASE))]


def test_second_button_down_just_before_threshold_blocks_the_hold() -> None:
    # ERA goes down 10 ms before NEXT's hold threshold; debounce confirms it 10 ms after.
    r = recogniser()
    r.edge(NEXT, True, 0.0)
    r.edge(ERA, True, 0.79)
    assert r.advance(0.805) == []  # threshold passed, but ERA's edge before it is unsettled
    assert r.next_deadline() == pytest.approx(0.81)
    assert r.advance(0.81) == []
    r.edge(ERA, False, 1.0)
    r.edge(NEXT, False, 1.1)
    assert r.advance(9.0) == [(1.1, Input(BOTH, PRESS))]  # a short chord, no hold


def test_chord_fires_once_even_if_re_pressed() -> None:
    edges = [(0.0, NEXT, True), (0.1, ERA, True), (3.5, ERA, False), (3.7, ERA, True),
             (7.0, ERA, False), (7.1, NEXT, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(3.1, Input(BOTH, HOLD))]


def test_each_new_chord_can_fire_both_again() -> None:
    first = [(0.0, NEXT, True), (0.1, ERA, True), (3.5, ERA, False), (3.6, NEXT, False)]
    second = [(t + 10.0, b, d) for t, b, d in first]
    out = run(recogniser(), first + second, until=20.0)
    assert out == [(3.1, Input(BOTH, HOLD)), (13.1, Input(BOTH, HOLD))]


def test_released_half_of_a_chord_is_free_again_after_both_are_up() -> None:
    edges = [(0.0, NEXT, True), (0.1, ERA, True), (0.5, ERA, False), (0.6, NEXT, False),
             *tap(ERA, 1.0, 0.1)]
    assert run(recogniser(), edges, until=9.0) == [(0.6, Input(BOTH, PRESS)),
                                                   (1.1, Input(ERA, PRESS))]


def test_volume_buttons_press_and_hold_and_take_no_part_in_chords() -> None:
    edges = [(0.0, NEXT, True), *tap(UP, 0.1, 0.1), (0.3, DOWN, True), (1.5, DOWN, False),
             (2.0, NEXT, False)]
    out = run(recogniser(), edges, until=9.0)
    assert out == [(0.2, Input(UP, PRESS)), (0.8, Input(NEXT, HOLD)), (1.1, Input(DOWN, HOLD)),
                   (2.0, Input(NEXT, RELEASE))]  # only NEXT has a release


def test_button_down_at_start_is_ignored_until_released() -> None:
    r = GestureRecogniser([NEXT, ERA], hold_s=0.8, both_s=3, bounce_s=0.02, start=0.0,
                          down_at_start=[NEXT])
    assert r.next_deadline() is None  # no hold for a stuck button
    out = run(r, [(5.0, NEXT, False), *tap(NEXT, 6.0, 0.1)], until=9.0)
    assert out == [(6.1, Input(NEXT, PRESS))]


def test_zero_bounce_confirms_at_once() -> None:
    out = run(recogniser(bounce_s=0.0), tap(NEXT, 1.0, 0.001), until=1.001)
    assert out == [(1.001, Input(NEXT, PRESS))]


def test_times_going_backwards_are_clamped_not_fatal() -> None:
    r = recogniser()
    r.edge(NEXT, True, 1.0)
    r.edge(NEXT, False, 0.9)  # racing callback threads
    r.edge(NEXT, True, 1.2)
    r.edge(NEXT, False, 1.3)
    assert [g for _, g in r.advance(2.0)] == [Input(NEXT, PRESS)]


@pytest.mark.parametrize("kw", [{"hold_s": 0}, {"both_s": -1}, {"bounce_s": -0.1}])
def test_bad_times_are_rejected(kw: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="gesture times"):
        recogniser(**kw)


def test_both_is_not_a_pin() -> None:
    with pytest.raises(ValueError, match="BOTH"):
        GestureRecogniser([NEXT, BOTH], hold_s=1, both_s=3, bounce_s=0)


# Random edge streams: when `advance` is called must not change what is recognised.
edge_streams = st.lists(
    st.tuples(st.sampled_from([NEXT, ERA, UP]),
              st.floats(min_value=0.0005, max_value=1.5, allow_nan=False)),
    max_size=40,
)


def timed_edges(stream: list[tuple[Button, float]]) -> list[tuple[float, Button, bool]]:
    """Turn (button, gap) pairs into edges that toggle that button."""
    level = {b: False for b in (NEXT, ERA, UP)}
    t, edges = 0.0, []
    for button, gap in stream:
        t += gap
        level[button] = not level[button]
        edges.append((t, button, level[button]))
    return edges


@settings(max_examples=300, deadline=None)
@given(edge_streams, st.lists(st.floats(min_value=0, max_value=1), max_size=40))
def test_result_does_not_depend_on_when_advance_runs(
    stream: list[tuple[Button, float]], polls: list[float]
) -> None:
    edges = timed_edges(stream)
    end = (edges[-1][0] if edges else 0.0) + 10.0
    reference = run(recogniser(hold_s=0.3, both_s=1.0), edges, until=end)

    r = recogniser(hold_s=0.3, both_s=1.0)
    got: list[tuple[float, Input]] = []
    polls = polls + [0.0] * len(edges)
    for i, (t, button, down) in enumerate(edges):
        got += r.advance(t * polls[i])  # poll somewhere before the edge, possibly long before
        r.edge(button, down, t)
        # Sometimes also wake at the deadline, as the thread does, if it comes before the next
        # edge (a real clock never runs ahead of an edge still to come).
        next_edge = edges[i + 1][0] if i + 1 < len(edges) else end
        deadline = r.next_deadline()
        if deadline is not None and deadline <= next_edge and polls[i] > 0.5:
            got += r.advance(deadline)
    got += r.advance(end)
    assert got == reference
    assert [t for t, _ in got] == sorted(t for t, _ in got)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(min_value=0.03, max_value=2.0),
                          st.lists(st.floats(min_value=0.0005, max_value=0.009), max_size=4)),
                min_size=1, max_size=8))
def test_chattering_presses_give_one_gesture_each(
    presses: list[tuple[float, list[float]]]
) -> None:
    """Each press (length, chatter pulses < debounce) is one press or one hold, by its length.

    The debounced press lasts from its last chattering down edge to its last up edge.
    """
    hold_s = 0.5
    edges: list[tuple[float, Button, bool]] = []
    expected: list[Input] = []
    t = 0.0
    for length, chatter in presses:
        for pulse in chatter:  # chatter before the press settles
            edges += tap(NEXT, t, pulse)
            t += pulse + 0.0005
        edges.append((t, NEXT, True))
        down_at = t
        t += length
        edges.append((t, NEXT, False))
        for pulse in chatter:  # and when letting go: brief re-contacts
            t += 0.0005
            edges += tap(NEXT, t, pulse)
            t += pulse
        if abs(t - down_at - hold_s) < 1e-6:
            return  # a float tie at the threshold says nothing
        held = t - down_at >= hold_s
        expected += [Input(NEXT, HOLD), Input(NEXT, RELEASE)] if held else [Input(NEXT, PRESS)]
        t += 0.05  # rest between presses, longer than the debounce
    out = run(recogniser(hold_s=hold_s, bounce_s=0.02), edges, until=t + 5)
    assert [g for _, g in out] == expected
