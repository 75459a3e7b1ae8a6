"""Every Prelude card and corporation matches the reference facts in shared/reference/prelude.tsv, and none is missing.

The notation of the TSV is translated by the helpers of test_cards_reference.py; preludes have type `prelude` and
an empty cost in the TSV (0 compiled); a corporation's starting MC is read from its effect (`start 38 MC`).
Every card is bundled today. Should one have to wait for a construct that does not compile, its text goes in
cards/prelude/waiting.txt (not a .mars file): each card named there is an expected failure here (strict, so that a
card moved into the bundled content must also leave the waiting list), and the list must name exactly the missing
cards.
"""

import csv
import re
from pathlib import Path

import pytest
from test_cards_reference import actual_with_start, expected_with_start

from tharsis.compiler.facts import facts

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO.parent / "shared" / "reference" / "prelude.tsv"
WAITING = REPO / "cards" / "prelude" / "waiting.txt"


def _rows() -> list[dict]:
    if not REFERENCE.exists():
        return []
    with open(REFERENCE, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _waiting() -> set[str]:
    if not WAITING.exists():
        return set()
    text = WAITING.read_text(encoding="utf-8")
    return set(re.findall(r'^(?:card|corporation)[ \t]+"([^"\n]+)"', text, re.M))


ROWS = _rows()
WAITING_NAMES = _waiting()


_expected = expected_with_start
_actual = actual_with_start


@pytest.fixture(scope="module")
def bundled_facts(bundled):
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {row["name"]: row for row in map(facts, bundled.library.definitions)
            if row["kind"] in ("card", "corporation")}


@pytest.fixture(scope="module")
def reference_rows():
    if not ROWS:
        pytest.skip(f"reference facts not found at {REFERENCE}")
    return ROWS


def test_the_reference_lists_the_whole_set(reference_rows):
    types = [row["type"] for row in reference_rows]
    assert len(reference_rows) == 47
    assert types.count("prelude") == 35
    assert (types.count("automated"), types.count("event"), types.count("active")) == (5, 1, 1)
    assert types.count("corporation") == 5
    assert {row["set"] for row in reference_rows} == {"prelude"}


@pytest.mark.parametrize(
    "row",
    [pytest.param(row, id=f"{row['number']} {row['name']}",
                  marks=[pytest.mark.xfail(strict=True, reason="waiting: see cards/prelude/waiting.txt")]
                  if row["name"] in WAITING_NAMES else [])
     for row in ROWS])
def test_card_is_bundled_with_the_reference_facts(row, bundled_facts):
    ours = bundled_facts.get(row["name"])
    assert ours is not None, f"{row['name']!r} is missing from cards/prelude/"
    expected = _expected(row)
    assert _actual(ours, expected) == expected
    assert ours["kind"] == ("corporation" if row["type"] == "corporation" else "card")
    assert "/cards/prelude/" in "/" + ours["file"].replace("\\", "/")


def test_no_card_is_missing_but_the_waiting_ones(reference_rows, bundled_facts):
    names = {row["name"] for row in reference_rows}
    assert sorted(WAITING_NAMES - names) == [], "waiting.txt names cards that prelude.tsv does not know"
    assert sorted(WAITING_NAMES & set(bundled_facts)) == [], "cards both bundled and still in waiting.txt"
    assert sorted(names - set(bundled_facts) - WAITING_NAMES) == [], "prelude cards missing from cards/prelude/"


def test_no_prelude_card_is_unknown_to_the_reference(reference_rows, bundled_facts):
    names = {row["name"] for row in reference_rows}
    ours = {name for name, row in bundled_facts.items() if row["set"] == "prelude"}
    assert sorted(ours - names) == [], "set: prelude cards that prelude.tsv does not know"


def test_prelude_numbers_are_unique(bundled_facts):
    numbers = [row["number"] for row in bundled_facts.values() if row["set"] == "prelude"]
    assert len(numbers) == len(set(numbers))
