"""JSON text the box wrote itself and reads back (the saved game, the settings).

One parser for both, so both refuse the same things the same way: a file that is not JSON,
not an object, nested or numeric beyond what Python converts, raises `JsonTextError` (a
`ValueError`), never another exception.
"""

from __future__ import annotations

import json
from typing import Any


class JsonTextError(ValueError):
    """Text that is not a JSON object the box can read."""


def json_object(text: str) -> dict[str, Any]:
    """`text` as a JSON object, or `JsonTextError` saying why not."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise JsonTextError("not JSON the box wrote (nested too deeply)") from None
    except ValueError as exc:  # not JSON, or a number with more digits than Python converts
        raise JsonTextError(f"not JSON ({short(str(exc))})") from None
    if not isinstance(data, dict):
        raise JsonTextError("not a JSON object")
    return data


def _no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity are not JSON, and never a number the box saved."""
    raise ValueError(f"{name} is not a number the box saves")


def short(text: str, limit: int = 80) -> str:
    """`text`, cut to `limit` characters for a message."""
    return text if len(text) <= limit else text[:limit] + "..."
