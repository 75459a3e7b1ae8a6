"""Project configuration for the designer and CI commands: the `[tool.tharsis]` table of pyproject.toml.

Found the way ruff and pytest find theirs: walking up from the working directory, the first pyproject.toml that
has a `[tool.tharsis]` table is the project's (a pyproject.toml without one is skipped, so a Tharsis folder inside
a larger Python project still finds its own). Paths in it are relative to that file's folder.

A mistake in the configuration is a usage error (exit 2) reported like a card error: file:line:col, the line, a
caret, a stable code (E8xx, docs/errors.md) and a did-you-mean for a misspelt key.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Optional

import attrs

from tharsis.compiler.diagnostics import Diagnostic, Span, did_you_mean
from tharsis.compiler.source import on_disk, read_bounded, why_unusable
from tharsis.designer.code_filter import code_errors

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 has no tomllib; pyproject.toml depends on tomli there
    import tomli as tomllib

FILENAME = "pyproject.toml"
MAX_BYTES = 1_000_000   # a pyproject.toml is a few KB; more is the wrong file (or /dev/zero)

# key -> (what the value must be, the Config attribute)
KEYS = {
    "cards": ("a list of paths", "cards"),
    "scenarios": ("a list of paths", "scenarios"),
    "select": ("a list of warning codes", "select"),
    "ignore": ("a list of warning codes", "ignore"),
    "strict": ("true or false", "strict"),
    "with-bundled": ("true or false", "with_bundled"),
}


@attrs.frozen
class Config:
    """What `[tool.tharsis]` says; the defaults are what a run without any configuration does."""

    path: Optional[Path] = None               # the pyproject.toml it came from
    cards: tuple[str, ...] = ()               # default PATHs of check and fmt, and --cards of test
    scenarios: tuple[str, ...] = ()           # default PATHs of test
    select: tuple[str, ...] = ()              # warnings to report (prefixes); empty: all
    ignore: tuple[str, ...] = ()              # warnings never to report (prefixes)
    strict: bool = False                      # warnings fail the run (exit 1)
    with_bundled: bool = True                 # check with the bundled content, as a game loads it


class ConfigError(Exception):
    """The configuration is wrong; `diagnostics` say where and why, `sources` hold the text for the carets."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.sources = sources


def find(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml at or above `start` that has a [tool.tharsis] table."""
    for folder in [start, *start.parents]:
        candidate = folder / FILENAME
        if on_disk(candidate).kind == "file":
            try:  # bounded: a pyproject.toml larger than MAX_BYTES is found here, and refused by `load`
                text = read_bounded(candidate, MAX_BYTES).decode("utf-8", errors="replace")
            except (OSError, ValueError):
                continue
            if _HEADER.search(text):
                return candidate
    return None


def discover(explicit: Optional[str] = None, start: Optional[Path] = None) -> Config:
    """The configuration in force: `explicit` (--config FILE) or the nearest one found; defaults when none."""
    if explicit is not None:
        return load(Path(explicit))
    found = find((start or Path.cwd()).resolve())
    return load(found) if found is not None else Config()


_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*tharsis[ \t]*\][ \t]*(#.*)?$", re.M)


def load(path: Path) -> Config:
    """Read and validate one pyproject.toml; raises ConfigError with every problem in it."""
    try:
        data = read_bounded(path, MAX_BYTES)  # bounded: a huge file is refused, not read whole; a device never opened
        if len(data) > MAX_BYTES:
            raise ConfigError([Diagnostic("E801", "error", f"{path} is larger than {MAX_BYTES // 1_000_000} MB: "
                                                           "not a pyproject.toml", None)], {})
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError([Diagnostic("E801", "error", f"{path} is not UTF-8 text", None)], {}) from None
    except (OSError, ValueError) as exc:
        reason, hint = why_unusable(exc)
        raise ConfigError([Diagnostic("E801", "error", f"cannot read {path}: {reason}", None, hint)], {}) from None
    name = display(path)
    sources = {name: text}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, column = _position(str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "invalid TOML"
        raise ConfigError([Diagnostic("E801", "error", f"not valid TOML: {message}",
                                      Span.point(name, line, column))], sources) from None
    table = data.get("tool", {}).get("tharsis", {})
    problems: list[Diagnostic] = []
    if not isinstance(table, dict):
        problems.append(Diagnostic("E803", "error", "tool.tharsis must be a table ([tool.tharsis])",
                                   _key_span(name, text, "tharsis")))
        raise ConfigError(problems, sources)
    values: dict[str, object] = {}
    for key, value in table.items():
        span = _key_span(name, text, key)
        if key not in KEYS:
            hint = did_you_mean(key, KEYS) or "keys: " + ", ".join(KEYS)
            problems.append(Diagnostic("E802", "error", f"unknown key '{key}' in [tool.tharsis]", span, hint))
            continue
        wanted, attribute = KEYS[key]
        if wanted == "true or false":
            if not isinstance(value, bool):
                problems.append(Diagnostic("E803", "error", f"'{key}' must be {wanted}", span))
                continue
            values[attribute] = value
            continue
        if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
            problems.append(Diagnostic("E803", "error", f"'{key}' must be {wanted}, like {key} = [\"...\"]", span))
            continue
        if key in ("select", "ignore"):
            errors = code_errors(value)
            problems += [Diagnostic("E804", "error", f"'{key}': {error}", span, error.hint) for error in errors]
            if not errors:
                values[attribute] = tuple(value)
        else:
            values[attribute] = tuple(_relative(path.parent / item) for item in value)
    if problems:
        raise ConfigError(problems, sources)
    return Config(path=path, **values)


def _relative(path: Path) -> str:
    """A configured path as the user would type it from the working directory (for readable diagnostics)."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def display(path: Path) -> str:
    """A pyproject.toml's path as messages show it: relative to the working directory when absolute."""
    return _relative(path) if path.is_absolute() else str(path)


def _position(message: str) -> tuple[int, int]:
    match = re.search(r"at line (\d+), column (\d+)", message)
    return (int(match.group(1)), int(match.group(2))) if match else (1, 1)


def _key_span(name: str, text: str, key: str) -> Span:
    """Where `key = ...` is written inside the [tool.tharsis] table (or the table's header if not found)."""
    lines = text.split("\n")
    header = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if header is None:
        return Span.point(name, 1, 1)
    pattern = re.compile(r"^([ \t]*)(\"%s\"|'%s'|%s)[ \t]*=" % ((re.escape(key),) * 3))
    for index in range(header + 1, len(lines)):
        if lines[index].lstrip().startswith("["):
            break
        match = pattern.match(lines[index])
        if match:
            return Span(name, index + 1, len(match.group(1)) + 1, index + 1, match.end(2) + 1)
    return Span(name, header + 1, 1, header + 1, len(lines[header]) + 1)
