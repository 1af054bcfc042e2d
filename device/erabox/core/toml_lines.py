"""Where each key of a TOML text is: line numbers from the text itself.

tomllib parses a text but keeps no line numbers, so an error about a key could not say where
the key is. `key_lines` scans the text once and places every table, key and array element;
`dotted` spells a key path the way people count (1-based array elements). Used by the game
profiles' loader (`profile.py`) for errors that name file, line and key.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]


def dotted(path: Path) -> str:
    """`('phase', 1, 'steps', 0, 'en')` -> `phase[2].steps[1].en` (1-based, as people count)."""
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else ("." if out else "") + part
    return out


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def key_lines(text: str) -> dict[Path, int]:
    """The line where each table, key and array element of TOML `text` starts.

    A small scanner, not a parser: it follows headers, keys, inline tables, arrays and
    strings well enough to place every key of a text tomllib has already accepted. Keys of
    an array of tables carry the element's index, as in the parsed data.
    """
    lines: dict[Path, int] = {}
    counts: dict[Path, int] = {}  # arrays of tables seen so far -> elements
    table: Path = ()
    pos, line, n = 0, 1, len(text)

    def skip_space(newlines: bool) -> None:
        nonlocal pos, line
        while pos < n:
            ch = text[pos]
            if ch in " \t\r":
                pos += 1
            elif ch == "#":
                while pos < n and text[pos] != "\n":
                    pos += 1
            elif ch == "\n" and newlines:
                line += 1
                pos += 1
            else:
                return

    def read_string() -> str:
        nonlocal pos, line
        quote = text[pos]
        triple = text.startswith(quote * 3, pos)
        end_mark = quote * 3 if triple else quote
        pos += 3 if triple else 1
        start = pos
        while pos < n and not text.startswith(end_mark, pos):
            if text[pos] == "\\" and quote == '"':
                pos += 1
            elif text[pos] == "\n":
                line += 1
            pos += 1
        value = text[start:pos]
        pos += len(end_mark)
        while triple and pos < n and text[pos] == quote:  # up to two quotes end a """ string
            pos += 1
        return value

    def read_key() -> list[str]:
        nonlocal pos
        parts: list[str] = []
        while True:
            skip_space(False)
            if pos < n and text[pos] in "\"'":
                parts.append(read_string())
            else:
                match = _BARE.match(text, pos)
                if match is None:
                    return parts
                parts.append(match.group())
                pos = match.end()
            skip_space(False)
            if pos < n and text[pos] == ".":
                pos += 1
                continue
            return parts

    def resolve(parts: list[str]) -> Path:
        path: Path = ()
        for part in parts:
            path = (*path, part)
            if path in counts:
                path = (*path, counts[path] - 1)
        return path

    def value(path: Path) -> None:
        nonlocal pos, line
        skip_space(False)
        if pos >= n:
            return
        ch = text[pos]
        if ch in "\"'":
            read_string()
        elif ch == "[":
            pos += 1
            index = 0
            while True:
                skip_space(True)
                if pos >= n or text[pos] == "]":
                    pos += 1
                    return
                if text[pos] == ",":
                    pos += 1
                    index += 1
                    continue
                lines.setdefault((*path, index), line)
                start = pos
                value((*path, index))
                pos += pos == start  # never stand still (text tomllib accepted moves on)
        elif ch == "{":
            pos += 1
            while True:
                skip_space(True)
                if pos >= n or text[pos] == "}":
                    pos += 1
                    return
                if text[pos] == ",":
                    pos += 1
                    continue
                start = pos
                keyed(path)
                pos += pos == start
        else:
            while pos < n and text[pos] not in ",]}\n#":
                pos += 1

    def keyed(base: Path) -> None:
        nonlocal pos
        start = line
        parts = read_key()
        skip_space(False)
        if not parts or pos >= n or text[pos] != "=":
            while pos < n and text[pos] not in "\n,}]":  # not a key: move on
                pos += 1
            return
        pos += 1
        path = (*base, *parts)
        lines.setdefault(path, start)
        value(path)

    while pos < n:
        skip_space(True)
        if pos >= n:
            break
        if text[pos] == "[":
            many = text.startswith("[[", pos)
            pos += 2 if many else 1
            parts = read_key()
            pos = text.find("\n", pos) if "\n" in text[pos:] else n
            if many:
                head = resolve(parts[:-1]) + (parts[-1],) if parts else ()
                counts[head] = counts.get(head, 0) + 1
                table = (*head, counts[head] - 1)
                lines.setdefault(head, line)
            else:
                table = resolve(parts)
            lines[table] = line
            for end in range(1, len(table)):  # tables made by this header ([[a.b]] makes a)
                lines.setdefault(table[:end], line)
        else:
            start = pos
            keyed(table)
            pos += pos == start
    return lines


def deepest_line(text: str) -> int:
    """The line where `[` and `{` (outside quotes, roughly) nest deepest: where a parser
    that gave up on the nesting gave up."""
    depth, deepest, line, at = 0, -1, 1, 1
    quote = ""
    for char in text:
        if char == "\n":
            line += 1
        elif quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, line
        elif char in "]}":
            depth -= 1
    return at


def longest_number_line(text: str) -> int:
    """The line holding the longest run of digits."""
    runs = [(len(m.group()), text.count("\n", 0, m.start()) + 1)
            for m in re.finditer(r"[0-9_]+", text)]
    return max(runs)[1] if runs else 1
