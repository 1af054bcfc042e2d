"""Small summaries of timing samples: percentiles the same way everywhere in the report."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def percentile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank `q`-th percentile (0 < q <= 100) of `samples`.

    Nearest rank never interpolates, so a p99 is always a time that really happened: with
    fewer than 100 samples it is the maximum, which is the honest answer for a small run.
    """
    if not samples:
        raise ValueError("percentile of no samples")
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[rank - 1]


def summary_ms(seconds: Sequence[float]) -> dict[str, Any]:
    """p50 / p99 / max / mean / min in milliseconds, and the count, of samples in seconds."""
    if not seconds:
        return {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None,
                "min_ms": None}
    return {
        "n": len(seconds),
        "p50_ms": round(percentile(seconds, 50) * 1000, 3),
        "p99_ms": round(percentile(seconds, 99) * 1000, 3),
        "max_ms": round(max(seconds) * 1000, 3),
        "mean_ms": round(sum(seconds) / len(seconds) * 1000, 3),
        "min_ms": round(min(seconds) * 1000, 3),
    }
