"""Diagnostics as a SARIF 2.1.0 log (`tharsis check --format sarif`), the format GitHub code scanning uploads.

A fourth rendering of the same diagnostic records as compiler/diagnostics.py's text, JSON and GitHub output. Each
code is a rule (`ruleId`, its level, and docs/errors.md named in its help text); each diagnostic with a place is a
result whose location is the file relative to the project root (`%SRCROOT%`: the folder of the pyproject.toml in
use, else the working directory; the repository root in CI) and the region of its span. Columns count Unicode
code points, as our spans do (`columnKind`). A problem with no place (an unreadable path) is a notification of
the run instead. A diagnostic with fixes (the edits `tharsis check --fix` applies) carries them as SARIF `fixes`,
each one replacement of a region.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from tharsis import __version__
from tharsis.compiler.diagnostics import Diagnostic, sort_key

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render_sarif(diagnostics: Sequence[Diagnostic], root: Path | None = None) -> str:
    root = (root or Path.cwd()).resolve()
    ordered = sorted(diagnostics, key=sort_key)
    placed = [d for d in ordered if d.span is not None]
    rules: dict[str, int] = {}
    descriptors: list[dict] = []
    for d in placed:
        if d.code not in rules:
            rules[d.code] = len(descriptors)
            descriptors.append({
                "id": d.code,
                "shortDescription": {"text": f"Tharsis {d.severity} {d.code}"},
                "help": {"text": f"See docs/errors.md, code {d.code}, for what it means and its usual fix."},
                "defaultConfiguration": {"level": _level(d)},
            })
    results = [_result(d, rules[d.code], root) for d in placed]
    # A problem with no place in a file (a path that cannot be read) is about the run, not the code: SARIF's tool
    # execution notifications are where it goes (code scanning needs a location for every result).
    notifications = [{"level": _level(d), "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
                      "descriptor": {"id": d.code}} for d in ordered if d.span is None]
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "tharsis", "version": __version__, "semanticVersion": __version__,
                                "rules": descriptors}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
            "invocations": [{"executionSuccessful": not notifications,
                             "toolExecutionNotifications": notifications}],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _level(d: Diagnostic) -> str:
    return "error" if d.is_error else "warning"


def _result(d: Diagnostic, index: int, root: Path) -> dict:
    text = d.message + (f" ({d.hint})" if d.hint else "")
    result: dict = {"ruleId": d.code, "ruleIndex": index, "level": _level(d), "message": {"text": text}}
    s = d.span
    region = {"startLine": s.line, "startColumn": s.column}
    if s.end_line >= s.line:
        region["endLine"] = s.end_line
        if s.end_line > s.line or s.end_column > s.column:
            region["endColumn"] = s.end_column
    result["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(s.path, root), "region": region}}]
    if d.fixes:  # what `tharsis check --fix` would do, as SARIF's proposed fixes (one replacement each)
        result["fixes"] = [_fix(fix, root) for fix in d.fixes]
    return result


def _region(s) -> dict:
    """A span as a SARIF region; an empty span (an insertion point) keeps its end column equal to its start."""
    return {"startLine": s.line, "startColumn": s.column, "endLine": s.end_line, "endColumn": s.end_column}


def _fix(fix, root: Path) -> dict:
    s = fix.span
    insertion = (s.line, s.column) == (s.end_line, s.end_column)
    what = f"insert '{fix.replacement}'" if insertion else \
        f"replace with '{fix.replacement}'" if fix.replacement else "delete"
    return {"description": {"text": what},
            "artifactChanges": [{"artifactLocation": _artifact(fix.span.path, root),
                                 "replacements": [{"deletedRegion": _region(fix.span),
                                                   "insertedContent": {"text": fix.replacement}}]}]}


def _artifact(path: str, root: Path) -> dict:
    """A relative URI under %SRCROOT% when the file is inside the root, else an absolute file URI."""
    resolved = Path(path).resolve()
    try:
        relative = resolved.relative_to(root)
    except ValueError:
        return {"uri": resolved.as_uri()} if resolved.is_absolute() else {"uri": _quote(path)}
    return {"uri": _quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}


def _quote(path: str) -> str:
    """A path as URI text: a name that is not UTF-8 (its bytes came to Python as surrogates) keeps its bytes, %80."""
    return quote(path, errors="surrogateescape")
