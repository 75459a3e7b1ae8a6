"""Fuzzing the compiler (hypothesis): whatever the card text, `tharsis check` ends in positioned diagnostics.

Two sources of input, both bounded so the whole file runs in well under a minute:
- text generated from the grammar's shape (definitions, fields, nested effects, conditions), with the words and
  numbers designers get wrong mixed in (misspellings, keywords glued to words, `=>`, missing units, huge numbers);
- the real bundled files, mutated: bytes or tokens inserted, deleted or duplicated, spans swapped.

For every input: no exception escapes; every diagnostic has a code listed in docs/errors.md and a position inside
the file (line and column, end after start); the three renderings work; and compiling takes bounded time.
What this fuzzing found is kept in tests/broken/ as golden cases (see test_broken_corpus.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from tharsis.cli import main
from tharsis.compiler import bundled_cards_path, compile_paths
from tharsis.compiler.diagnostics import render_github, render_json, render_text

REPO = Path(__file__).resolve().parents[1]
DOCUMENTED = set(re.findall(r"^\| ([EW]\d{3}) \|", (REPO / "docs" / "errors.md").read_text(encoding="utf-8"),
                            re.M))
BUNDLED = {str(path.relative_to(bundled_cards_path())): path.read_bytes()
           for path in sorted(bundled_cards_path().rglob("*.mars"))}
SECONDS_PER_INPUT = 5  # a generous bound on a loaded CI machine; typical inputs take milliseconds
# CI runs a bounded number of examples per test; THARSIS_FUZZ_EXAMPLES=5000 fuzzes deeper by hand.
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                max_examples=int(os.environ.get("THARSIS_FUZZ_EXAMPLES", "150")))
_WORKDIR = tempfile.TemporaryDirectory(prefix="tharsis-fuzz-")


def _check(data: bytes, command: bool = False) -> None:
    """Compile `data` as a card file and assert every property of a clean failure (or success); `command`: also
    run `tharsis check` on it (alone: a mutated bundled file would clash with its original), which must exit 0 or
    1 (never 3, an internal error) with a JSON report of the same diagnostics."""
    path = Path(_WORKDIR.name) / "fuzz.mars"
    path.write_bytes(data)
    started = time.perf_counter()
    result = compile_paths([path], use_cache=False)
    elapsed = time.perf_counter() - started
    assert elapsed < SECONDS_PER_INPUT, f"compiling {len(data)} bytes took {elapsed:.1f} s"
    text = result.sources.get(str(path))
    lines = text.split("\n") if text is not None else data.split(b"\n")
    for d in result.diagnostics:
        assert d.code in DOCUMENTED, f"{d.code} is not in docs/errors.md: {d.message}"
        assert d.severity in ("error", "warning") and d.message
        span = d.span
        assert span is not None and span.path == str(path), d
        assert 1 <= span.line <= len(lines), (d, len(lines))
        assert 1 <= span.column <= len(lines[span.line - 1]) + 1, (d, lines[span.line - 1][:200])
        assert (span.end_line, span.end_column) > (span.line, span.column), d
    render_text(result.diagnostics, result.sources)
    render_json(result.diagnostics, len(result.files))
    render_github(result.diagnostics)
    if command:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", "--no-cache", "--no-with-bundled", "--format", "json", str(path)])
        assert code == (1 if result.errors else 0), err.getvalue()
        report = json.loads(out.getvalue())
        assert sorted(d["code"] for d in report["diagnostics"]) == sorted(d.code for d in result.diagnostics)


# ------------------------------------------------------------------------------------ grammar-shaped text

WORDS = ["plants", "plant", "heat", "energy", "steel", "titanium", "megacredits", "mc", "animal", "animals",
         "microbe", "floater", "science", "city", "cities", "ocean", "greenery", "tile", "card", "cards", "tags",
         "jovian", "space", "building", "earth", "power", "venus", "here", "any", "anyone", "anyplayer", "player",
         "your", "yourself", "per", "on", "mars", "X", "Xenon", "oxygen", "temperature", "oceans", "tr", "plnts",
         "aminal", "sceince", "cost", "tag", "event"]
HUGE = st.integers(4_300, 6_000).map(lambda digits: "9" * digits)  # more digits than Python's int() reads
NUMBERS = st.integers(0, 30).map(str) | st.sampled_from(["0", "007"])
TOO_LONG = st.sampled_from(["1000000", "99999999999"]) | HUGE  # in a definition of their own, now and then
SIGNED = st.tuples(st.sampled_from(["+", "-", ""]), NUMBERS).map("".join)
WORD = st.sampled_from(WORDS) | st.from_regex(r"[a-z]{1,10}", fullmatch=True)
VALUE = st.tuples(SIGNED, st.sampled_from(["", "%", "C", "°C", "x"])).map("".join)
COMPARATOR = st.sampled_from([">=", "<=", "==", ">", "<", "=>", "=<", "=", "≥", "!="])
QUANTITY = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
CONDITION = st.lists(st.tuples(QUANTITY, COMPARATOR, VALUE).map(" ".join), min_size=1, max_size=2).map(
    " and ".join)
SIMPLE_EFFECT = st.one_of(
    st.tuples(st.sampled_from(["gain", "lose", "spend", "pay"]), NUMBERS, WORD).map(" ".join),
    st.tuples(NUMBERS, WORD, QUANTITY).map(lambda t: f"gain {t[0]} {t[1]} per {t[2]}"),
    st.lists(st.tuples(WORD, SIGNED).map(" ".join), min_size=1, max_size=3).map(
        lambda ds: f"production({', '.join(ds)})"),
    st.tuples(WORD, SIGNED).map(" ".join),
    st.tuples(st.sampled_from(["", "2 "]), WORD, st.sampled_from(["", " on land", " next to city", " isolated",
                                                                  ' on reserved "Noctis City"'])).map(
        lambda t: f"place {t[0]}{t[1]}{t[2]}"),
    st.tuples(NUMBERS, WORD, st.sampled_from(["here", "to another card", "to any card", "from any player"])).map(
        lambda t: f"add {t[0]} {t[1]} {t[2]}"),
    st.tuples(NUMBERS, WORD, st.sampled_from(["here", "from any card", "from any player", "from anyone"])).map(
        lambda t: f"remove {t[0]} {t[1]} {t[2]}"),
    NUMBERS.map(lambda n: f"draw {n}"),
    st.sampled_from(["look 4 keep 1", "look 1 buy", "discard X", "copy production of building card"]),
)
EFFECTS = st.recursive(
    st.lists(SIMPLE_EFFECT, min_size=1, max_size=3).map("; ".join),
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda options: "choose { " + " | ".join(options) + " }"),
        st.tuples(CONDITION, inner).map(lambda t: f"if {t[0]} {{ {t[1]} }}"),
        inner.map(lambda body: f"may {{ {body} }}"),
        st.tuples(QUANTITY, inner).map(lambda t: f"choose X up to {t[0]} {{ {t[1]} }}"),
        st.tuples(inner, inner).map("; ".join),
    ),
    max_leaves=6)
PASSIVE = st.one_of(
    st.tuples(st.sampled_from(["you", "any player", "anyone"]),
              st.sampled_from(["play card", "play science tag", "places city tile", "raise oxygen", "produce",
                               "use standard project"]), EFFECTS).map(lambda t: f"when {t[0]} {t[1]} -> {t[2]}"),
    st.tuples(NUMBERS, st.sampled_from(["cards", "space cards", 'standard project "Aquifer"'])).map(
        lambda t: f"discount {t[0]} on {t[1]}"),
    st.sampled_from(["global requirements +-2", "protect animals here", "use heat as megacredits",
                     "steel value +1"]),
)
FIELD = st.one_of(
    st.sampled_from(["automated", "active", "event", "automatd"]).map(lambda t: f"type: {t}"),
    NUMBERS.map(lambda n: f"cost: {n}"),
    st.lists(WORD, min_size=1, max_size=3).map(lambda tags: "tags: " + ", ".join(tags)),
    WORD.map(lambda w: f"holds: {w}"),
    CONDITION.map(lambda c: f"requires: {c}"),
    EFFECTS.map(lambda e: f"play: {e}"),
    st.lists(st.tuples(st.sampled_from(["", "spend 1 energy -> "]), EFFECTS).map("".join), min_size=1,
             max_size=2).map(lambda options: "action: " + " | ".join(options)),
    PASSIVE.map(lambda p: f"effect: {p}"),
    st.tuples(SIGNED, st.sampled_from(["", " per 2 animals here", " per jovian tag"])).map(
        lambda t: f"vp: {t[0]}{t[1]}"),
    st.sampled_from(["set: base", 'set: "my set"', "tgas: science", "first action: draw 1", "variant: solo"]),
)
NAME = st.sampled_from(['"Livestock"', '"Fuzzed"', '""', '"Unclosed', '"Name With Spaces"'])
NUMBER = st.sampled_from(["", " #184", " #X1", " #007", " #"])
# Most cards have their required fields, so that the checks after parsing see them too.
REQUIRED = st.sampled_from(["type: automated  cost: 10", "type: active  cost: 3", "type: event  cost: 1",
                            "start: 42 megacredits", ""])
DEFINITION = st.one_of(
    st.tuples(st.sampled_from(["card", "corporation"]), NAME, NUMBER, REQUIRED, st.lists(FIELD, max_size=7)).map(
        lambda t: f"{t[0]} {t[1]}{t[2]} {{\n  {t[3]}\n" + "".join(f"  {f}\n" for f in t[4]) + "}\n"),
    st.tuples(st.sampled_from(["milestone", "award", "standard project", "standard action"]), NAME,
              st.lists(FIELD | CONDITION.map(lambda c: f"requires: {c}") | QUANTITY.map(lambda q: f"measure: {q}"),
                       max_size=3)).map(
        lambda t: f"{t[0]} {t[1]} {{\n" + "".join(f"  {f}\n" for f in t[2]) + "}\n"),
    st.tuples(EFFECTS, TOO_LONG).map(lambda t: f'card "Big" #B1 {{\n  type: event  cost: 1\n  play: {t[0]}; '
                                               f'gain {t[1]} heat\n}}\n'),
    st.lists(WORD, min_size=1, max_size=3).map(lambda names: f"resource {', '.join(names)}\n"),
    st.lists(WORD, min_size=1, max_size=3).map(lambda names: f"tag {', '.join(names)}\n"),
)
SEPARATOR = st.sampled_from(["\n", "\n\n", "\n// a comment\n", "", " ", "\r\n", "\n}\n", "\n{\n"])
CARD_TEXT = st.lists(st.tuples(DEFINITION, SEPARATOR).map("".join), min_size=1, max_size=4).map("".join)


@FUZZ
@given(CARD_TEXT)
def test_grammar_shaped_text_always_ends_in_positioned_diagnostics(source):
    _check(source.encode("utf-8"))


# ------------------------------------------------------------------------------ mutated bundled files

TOKEN = re.compile(rb"\s+|\w+|[^\w\s]")


def _slice(data: bytes, start: int, length: int) -> bytes:
    """A few definitions of a bundled file, cut at line boundaries (whole files are too slow to fuzz many)."""
    lines = data.split(b"\n")
    start = start % len(lines)
    return b"\n".join(lines[start:start + length])


@st.composite
def mutated_bundled_file(draw) -> bytes:
    name = draw(st.sampled_from(sorted(BUNDLED)))
    data = _slice(BUNDLED[name], draw(st.integers(0, 400)), draw(st.integers(5, 60)))
    for _ in range(draw(st.integers(1, 4))):
        tokens = TOKEN.findall(data) or [b""]
        where = draw(st.integers(0, len(tokens) - 1))
        mutation = draw(st.sampled_from(["insert byte", "delete byte", "duplicate byte", "insert token",
                                         "delete token", "duplicate tokens", "swap tokens"]))
        if mutation.endswith("byte"):
            at = draw(st.integers(0, max(len(data) - 1, 0)))
            if mutation == "insert byte":
                data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at:]
            elif mutation == "delete byte":
                data = data[:at] + data[at + 1:]
            else:
                data = data[:at + 1] + data[at:]
            continue
        if mutation == "insert token":
            tokens.insert(where, draw(st.sampled_from(tokens + [b"{", b"}", b"(", b";", b"|", b"->", b"=>", b":",
                                                                b'"', b"#", b"any"])
                                      | HUGE.map(str.encode) | st.integers(1, 3_000).map(lambda n: b" " * n)))
        elif mutation == "delete token":
            del tokens[where]
        elif mutation == "duplicate tokens":
            span = tokens[where:where + draw(st.integers(1, 8))]
            tokens[where:where] = span * draw(st.integers(1, 3))
        else:
            other = draw(st.integers(0, len(tokens) - 1))
            tokens[where], tokens[other] = tokens[other], tokens[where]
        data = b"".join(tokens)
    return data


@FUZZ
@given(mutated_bundled_file())
def test_mutated_bundled_files_always_end_in_positioned_diagnostics(data):
    _check(data, command=True)


def test_the_fuzzed_files_are_the_real_bundled_content():
    """The mutations start from every bundled file, so they keep up with the content; unmutated, each file alone
    has the same properties."""
    assert len(BUNDLED) >= 10 and sum(len(data) for data in BUNDLED.values()) > 40_000
    for data in BUNDLED.values():
        _check(data)
