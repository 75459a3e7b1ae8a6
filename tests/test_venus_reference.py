"""Every Venus Next card and corporation of shared/reference/venus.tsv is in the bundled content with the
reference's number, name, cost, tags, type, requirements and VP; none is missing and none is extra.

The rows not written yet (NOT_YET_WRITTEN, and the cards written out in cards/venus/waiting-*.txt while they wait
for a construct the compiler does not have yet) are expected failures that say which cards are missing, rather than
failures.
A card that is written is compared in full even while its name is still listed, so a listed name can only hide a
card that is absent; a name listed although its card is there is reported as a warning, to be removed.

The notation of venus.tsv is that of cards.tsv (tests/test_cards_reference.py translates it), plus: `venus>=10` is
the Venus scale in %, `own floaters>=5` counts the floaters on all your cards (`floaters on cards >= 5`), `TR>=25`
is your terraform rating, and floaters and asteroids are card resources declared by cards/venus/venus.mars.
"""

import csv
import re
import warnings

import pytest
from conftest import REPO, SHARED
from test_cards_reference import _requirement, _vp, actual_facts, expected_facts

from tharsis.compiler import vocabulary as v
from tharsis.compiler.facts import facts

# Cards and corporations of venus.tsv that the bundled content does not have yet, besides those listed by name in
# cards/venus/waiting-*.txt (read below).
NOT_YET_WRITTEN: set[str] = set()  # every card of venus.tsv is written


def _waiting() -> set[str]:
    """The names of the cards and corporations written out in cards/venus/waiting-*.txt (not compiled)."""
    names = set()
    for path in (REPO / "cards" / "venus").glob("waiting*.txt"):
        names.update(re.findall(r'^(?:card|corporation)\s+"([^"]+)"', path.read_text(encoding="utf-8"), re.M))
    return names


# Card resources that Venus Next declares (`resource floater, asteroid`), counted `here` like the printed ones.
DECLARED_RESOURCES = ("floater", "asteroid")


def _rows(reference_dir):
    path = reference_dir / "venus.tsv"
    if not path.exists():
        pytest.skip(f"reference facts not found at {path}")
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _venus_requirement(text: str) -> dict:
    text = text.strip()
    match = re.fullmatch(r"own (\w+)\s*(>=|<=|==|>|<)\s*(\d+)", text)
    if match:  # the resources of that type on all your cards
        resource, operator, value = match.groups()
        return {"measure": f"{v.plural(v.singular(resource))} on cards", "operator": operator, "value": int(value)}
    match = re.fullmatch(r"TR\s*(>=|<=|==|>|<)\s*(\d+)", text)
    if match:
        return {"measure": "tr", "operator": match.group(1), "value": int(match.group(2))}
    return _requirement(text)  # tag:science>=3 -> science tags; venus>=10 -> the Venus scale (%)


def _venus_vp(text: str):
    match = re.fullmatch(r"(\d+)/(?:(\d+) )?(\w+)", text.strip())
    if match and v.singular(match.group(3)) in DECLARED_RESOURCES:
        points, divisor, what = match.groups()
        return {"points": int(points), "per": v.plural(v.singular(what)) + " here", "divisor": int(divisor or 1)}
    return _vp(text)


def _expected(row) -> dict:
    return expected_facts(row, _venus_requirement, _venus_vp)


def _actual(ours) -> dict:
    return actual_facts(ours)


@pytest.fixture(scope="module")
def venus_facts(bundled):
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {row["name"]: row for row in map(facts, bundled.library.definitions)
            if row["kind"] in ("card", "corporation") and row["set"] == "venus"}


def _reference_names():
    path = SHARED / "reference" / "venus.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        return [row["name"] for row in csv.DictReader(handle, delimiter="\t")]


def test_the_reference_has_every_venus_card(reference_dir):
    rows = _rows(reference_dir)
    kinds = [row["type"] for row in rows]
    assert len(rows) == 54
    assert {k: kinds.count(k) for k in set(kinds)} == {"automated": 23, "active": 19, "event": 7, "corporation": 5}
    names = {row["name"] for row in rows}
    assert sorted(NOT_YET_WRITTEN - names) == [], "names in NOT_YET_WRITTEN that venus.tsv lacks"
    assert sorted(_waiting() - names) == [], "names in cards/venus/waiting-*.txt that venus.tsv lacks"


def test_a_waiting_card_is_not_also_bundled(venus_facts):
    assert sorted(_waiting() & set(venus_facts)) == [], "written in cards/venus: delete them from the waiting file"


@pytest.mark.parametrize("name", _reference_names() or ["(venus.tsv not found)"])
def test_venus_card_matches_the_reference(name, reference_dir, venus_facts):
    row = next((r for r in _rows(reference_dir) if r["name"] == name), None)
    assert row is not None, f"{name} is not in venus.tsv"
    ours = venus_facts.get(name)
    if ours is None:
        if name in NOT_YET_WRITTEN | _waiting():
            pytest.xfail(f"not written yet: {name}")
        pytest.fail(f"{name} is missing from cards/venus (and not listed in NOT_YET_WRITTEN nor in a waiting file)")
    if name in NOT_YET_WRITTEN:
        warnings.warn(f"{name} is written now: remove it from NOT_YET_WRITTEN in {__file__}", stacklevel=2)
    expected, actual = _expected(row), _actual(ours)
    differences = [f"{key} is {actual[key]!r}, reference says {expected[key]!r}"
                   for key in expected if expected[key] != actual[key]]
    assert differences == [], f"{name}: " + "; ".join(differences)


def test_no_venus_card_beyond_the_reference(reference_dir, venus_facts):
    known = {row["name"] for row in _rows(reference_dir)}
    assert sorted(set(venus_facts) - known) == [], "cards of set venus that venus.tsv does not know"


def test_what_is_still_missing(reference_dir, venus_facts):
    """The list of missing cards, one expected failure naming them all (empty once every card is written)."""
    missing = sorted(row["name"] for row in _rows(reference_dir) if row["name"] not in venus_facts)
    listed = NOT_YET_WRITTEN | _waiting()
    assert set(missing) <= listed, f"missing and not listed: {sorted(set(missing) - listed)}"
    if missing:
        pytest.xfail(f"{len(missing)} Venus Next cards not written yet: {', '.join(missing)}")
