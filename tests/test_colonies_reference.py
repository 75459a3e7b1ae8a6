"""Every Colonies card and corporation of shared/reference/colonies.tsv is in the bundled content with the
reference's number, name, cost, tags, type, requirements and VP (and a corporation's starting MC); none is missing
and none is extra.

The cards written out in cards/colonies/waiting*.txt while they wait for a construct the compiler does not have yet
are expected failures that say which cards are missing, rather than failures. A card that is written is compared in
full even while its name is still listed, so a listed name can only hide a card that is absent; a name listed
although its card is there is reported as a warning, to be removed.

The notation of colonies.tsv is that of cards.tsv (tests/test_cards_reference.py translates it), plus:
`own floaters>=3` counts the floaters on all your cards (`floaters on cards >= 3`), `own colonies<=1` your colonies
on every tile (the `colonies` quantity), `own cities>=1` your cities, `1/2 colonies (all players)` every player's
colonies, and floaters (Venus Next) and camps (Refugee Camps) are declared card resources.
"""

import csv
import re
import warnings

import pytest
from conftest import REPO, SHARED
from test_cards_reference import _requirement, _vp, actual_with_start, expected_with_start

from tharsis.compiler import vocabulary as v
from tharsis.compiler.facts import facts

# Card resources the bundled content declares (`resource floater` in cards/venus/venus.mars, `resource camp` in
# cards/colonies/active.mars), counted `here` like the printed ones.
DECLARED_RESOURCES = ("floater", "camp")
# The pieces a player owns (cards/colonies/colonies.mars): counted by their name, yours by default.
PIECES = ("colony",)


def _waiting() -> set[str]:
    """The names of the cards and corporations written out in cards/colonies/waiting*.txt (not compiled)."""
    names = set()
    for path in (REPO / "cards" / "colonies").glob("waiting*.txt"):
        names.update(re.findall(r'^(?:card|corporation)\s+"([^"]+)"', path.read_text(encoding="utf-8"), re.M))
    return names


def _rows(reference_dir):
    path = reference_dir / "colonies.tsv"
    if not path.exists():
        pytest.skip(f"reference facts not found at {path}")
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _reference_names():
    path = SHARED / "reference" / "colonies.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        return [row["name"] for row in csv.DictReader(handle, delimiter="\t")]


def _colonies_requirement(text: str) -> dict:
    text = text.strip()
    match = re.fullmatch(r"own (\w+)\s*(>=|<=|==|>|<)\s*(\d+)", text)
    if match:
        what, operator, value = match.groups()
        singular = v.singular(what)
        if singular in DECLARED_RESOURCES or singular in v.CARD_RESOURCES:  # on all your cards
            measure = f"{v.plural(singular)} on cards"
        elif singular in PIECES:  # yours on every tile, named as the table writes them (`colonies`)
            measure = what
        else:  # your tiles
            measure = f"your {what}"
        return {"measure": measure, "operator": operator, "value": int(value)}
    return _requirement(text)  # tag:science>=3 -> science tags; temperature>=-6; cities(all players)>=2 -> cities


def _colonies_vp(text: str):
    match = re.fullmatch(r"(\d+)/(?:(\d+) )?(\w+)( \(all players\))?", text.strip())
    if match:
        points, divisor, what, everyone = match.groups()
        singular = v.singular(what)
        if singular in DECLARED_RESOURCES:
            return {"points": int(points), "per": v.plural(singular) + " here", "divisor": int(divisor or 1)}
        if singular in PIECES:
            per = what + (" in play" if everyone else "")
            return {"points": int(points), "per": per, "divisor": int(divisor or 1)}
    return _vp(text)


def _expected(row) -> dict:
    return expected_with_start(row, _colonies_requirement, _colonies_vp)


_actual = actual_with_start


@pytest.fixture(scope="module")
def colonies_facts(bundled):
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {row["name"]: row for row in map(facts, bundled.library.definitions)
            if row["kind"] in ("card", "corporation") and row["set"] == "colonies"}


def test_the_reference_has_every_colonies_card(reference_dir):
    rows = _rows(reference_dir)
    kinds = [row["type"] for row in rows]
    assert len(rows) == 54
    assert {k: kinds.count(k) for k in set(kinds)} == {"automated": 24, "active": 18, "event": 7, "corporation": 5}
    assert sorted(_waiting() - {row["name"] for row in rows}) == [], \
        "names in cards/colonies/waiting*.txt that colonies.tsv lacks"


def test_a_waiting_card_is_not_also_bundled(colonies_facts):
    assert sorted(_waiting() & set(colonies_facts)) == [], "written in cards/colonies: delete it from the waiting file"


@pytest.mark.parametrize("name", _reference_names() or ["(colonies.tsv not found)"])
def test_colonies_card_matches_the_reference(name, reference_dir, colonies_facts):
    row = next((r for r in _rows(reference_dir) if r["name"] == name), None)
    assert row is not None, f"{name} is not in colonies.tsv"
    ours = colonies_facts.get(name)
    if ours is None:
        if name in _waiting():
            pytest.xfail(f"waiting for a construct: {name}")
        pytest.fail(f"{name} is missing from cards/colonies (and not in a waiting file)")
    expected = _expected(row)
    actual = _actual(ours, expected)
    differences = [f"{key} is {actual[key]!r}, reference says {expected[key]!r}"
                   for key in expected if expected[key] != actual[key]]
    assert differences == [], f"{name}: " + "; ".join(differences)


def test_no_colonies_card_beyond_the_reference(reference_dir, colonies_facts):
    known = {row["name"] for row in _rows(reference_dir)}
    assert sorted(set(colonies_facts) - known) == [], "cards of set colonies that colonies.tsv does not know"


def test_what_is_still_missing(reference_dir, colonies_facts):
    """The list of missing cards, one expected failure naming them all (empty once every card is written)."""
    missing = sorted(row["name"] for row in _rows(reference_dir) if row["name"] not in colonies_facts)
    listed = _waiting()
    assert set(missing) <= listed, f"missing and not listed: {sorted(set(missing) - listed)}"
    if listed - set(missing):
        warnings.warn(f"written now, remove from the waiting file: {sorted(listed - set(missing))}", stacklevel=1)
    if missing:
        pytest.xfail(f"{len(missing)} Colonies cards not written yet: {', '.join(missing)}")
