"""Every Turmoil card, corporation and global event of shared/reference/turmoil.tsv and global-events.tsv is in the
bundled content with the reference's facts; none is missing and none is extra.

turmoil.tsv: number, name, cost, tags, type, requirements, VP and a corporation's starting MC. global-events.tsv:
the events in the table's order (#GE01 to #GE36), each of the `global event` kind, of set turmoil and needing the
sets its `needs` column names besides, with a neutral delegate for the party of its revealed icon (`on reveal:`)
and of its current icon (`on current:`).

The cards written out in cards/turmoil/waiting*.txt while they wait for a construct the compiler does not have yet
are expected failures that say which cards are missing, rather than failures. A card that is written is compared in
full even while its name is still listed, so a listed name can only hide a card that is absent; a name listed
although its card is there is reported as a warning, to be removed.

The notation of turmoil.tsv is that of cards.tsv (tests/test_cards_reference.py translates it), plus the political
requirements: `party X` (X rules, or you have at least 2 delegates in X), `chairman` (you hold the chairman's role)
and `party leaders >= N` (you lead at least N parties), compared as the text of the compiled condition; and
Pristar's preservation resource, declared in cards/turmoil/corporations.mars.
"""

import csv
import re

import pytest
from conftest import REPO, SHARED
from test_cards_reference import _requirement, _vp, actual_facts, expected_facts

from tharsis.compiler import text, vocabulary as v
from tharsis.compiler.facts import facts

# Card resources Turmoil declares (`resource preservation`), counted `here` like the printed ones.
DECLARED_RESOURCES = ("preservation",)
PARTIES = ("Mars First", "Scientists", "Unity", "Greens", "Reds", "Kelvinists")


def _waiting() -> set[str]:
    """The names of the cards, corporations and global events written out in cards/turmoil/waiting*.txt."""
    names = set()
    for path in (REPO / "cards" / "turmoil").glob("waiting*.txt"):
        names.update(re.findall(r'^(?:card|corporation)\s+"([^"]+)"', path.read_text(encoding="utf-8"), re.M))
    return names


def _table(reference_dir, name: str) -> list[dict]:
    path = reference_dir / name
    if not path.exists():
        pytest.skip(f"reference facts not found at {path}")
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _names(name: str) -> list[str]:
    path = SHARED / "reference" / name
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as handle:
        return [row["name"] for row in csv.DictReader(handle, delimiter="\t")]


def _political(requirement: str):
    """The condition text a political requirement of turmoil.tsv compiles to, or None for another requirement."""
    requirement = requirement.strip()
    match = re.fullmatch(r"party leaders\s*(>=|<=|==|>|<)\s*(\d+)", requirement)
    if match:
        return f"factions you lead {match.group(1)} {match.group(2)}"
    match = re.fullmatch(r"party (.+)", requirement)
    if match:
        party = match.group(1)
        assert party in PARTIES, f"unknown party {party!r}"
        return f'"{party}" rules or delegates in "{party}" >= 2'
    if requirement == "chairman":
        return "chairman >= 1"
    return None


def _turmoil_vp(text_: str):
    match = re.fullmatch(r"(\d+)/(?:(\d+) )?(\w+)", text_.strip())
    if match and v.singular(match.group(3)) in DECLARED_RESOURCES:
        points, divisor, what = match.groups()
        return {"points": int(points), "per": v.plural(v.singular(what)) + " here", "divisor": int(divisor or 1)}
    return _vp(text_)


def _expected(row) -> dict:
    political = [_political(r) for r in row["requirements"].split(";") if r.strip()]
    others = ";".join(r for r in row["requirements"].split(";") if r.strip() and _political(r) is None)
    expected = expected_facts(dict(row, requirements=others), _requirement, _turmoil_vp)
    if any(political):
        del expected["requirements"]
        expected["requirements_text"] = " and ".join(p for p in political if p)
    if row["type"] == "corporation":
        start = re.match(r"start (\d+) MC", row["effect"])
        assert start, f"no starting MC in the effect of {row['name']!r}"
        expected["starting_megacredits"] = int(start.group(1))
    return expected


def _actual(ours: dict, expected: dict) -> dict:
    actual = actual_facts(ours)
    for key in ("requirements_text", "starting_megacredits"):
        if key in expected:
            actual[key] = ours.get(key)
    return actual


@pytest.fixture(scope="module")
def turmoil_facts(bundled):
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {row["name"]: row for row in map(facts, bundled.library.definitions)
            if row["kind"] in ("card", "corporation") and row["set"] == "turmoil" and row["type"] != "global event"}


@pytest.fixture(scope="module")
def global_events(bundled):
    """The compiled global events by name, whatever sets they need."""
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {d.name: d for d in bundled.library.definitions
            if d.kind == "card" and getattr(d, "type", None) == "global event"}


# ---------------------------------------------------------------- turmoil.tsv

def test_the_reference_has_every_turmoil_card(reference_dir):
    rows = _table(reference_dir, "turmoil.tsv")
    kinds = [row["type"] for row in rows]
    assert len(rows) == 21
    assert {k: kinds.count(k) for k in set(kinds)} == {"automated": 8, "active": 3, "event": 5, "corporation": 5}
    events = {row["name"] for row in _table(reference_dir, "global-events.tsv")}
    assert sorted(_waiting() - {row["name"] for row in rows} - events) == [], \
        "names in cards/turmoil/waiting*.txt that neither turmoil.tsv nor global-events.tsv has"


def test_a_waiting_card_is_not_also_bundled(turmoil_facts, global_events):
    assert sorted(_waiting() & (set(turmoil_facts) | set(global_events))) == [], \
        "written in cards/turmoil: delete it from the waiting file"


@pytest.mark.parametrize("name", _names("turmoil.tsv") or ["(turmoil.tsv not found)"])
def test_turmoil_card_matches_the_reference(name, reference_dir, turmoil_facts):
    row = next((r for r in _table(reference_dir, "turmoil.tsv") if r["name"] == name), None)
    assert row is not None, f"{name} is not in turmoil.tsv"
    ours = turmoil_facts.get(name)
    if ours is None:
        if name in _waiting():
            pytest.xfail(f"waiting for a construct: {name}")
        pytest.fail(f"{name} is missing from cards/turmoil (and not in a waiting file)")
    expected = _expected(row)
    actual = _actual(ours, expected)
    differences = [f"{key} is {actual[key]!r}, reference says {expected[key]!r}"
                   for key in expected if expected[key] != actual[key]]
    assert differences == [], f"{name}: " + "; ".join(differences)


def test_no_turmoil_card_beyond_the_reference(reference_dir, turmoil_facts):
    known = {row["name"] for row in _table(reference_dir, "turmoil.tsv")}
    assert sorted(set(turmoil_facts) - known) == [], "cards of set turmoil that turmoil.tsv does not know"


# ---------------------------------------------------------------- global-events.tsv

def test_the_reference_has_36_global_events_over_six_parties(reference_dir):
    rows = _table(reference_dir, "global-events.tsv")
    assert len(rows) == 36
    assert {row["revealed_party"] for row in rows} | {row["current_party"] for row in rows} == set(PARTIES)
    assert {row["needs"] for row in rows} == {"turmoil", "venus", "colonies", "venus+colonies"}
    assert sum(row["negative"] == "yes" for row in rows) == 17


def _stage_party(definition, stage: str):
    """The party of the `on STAGE: place neutral delegate in "PARTY"` field, read from the card's canonical text."""
    match = re.search(rf'^\s*on {stage}: place neutral delegate in "([^"]+)"\s*$', text.definition(definition), re.M)
    return match.group(1) if match else None


def _sets(needs: str) -> list[str]:
    """The sets an event is in play with: its own (turmoil) and those of the `needs` column (`venus+colonies`: an
    event in the deck only with both)."""
    return ["turmoil"] + [s for s in needs.split("+") if s != "turmoil"]


@pytest.mark.parametrize("name", _names("global-events.tsv") or ["(global-events.tsv not found)"])
def test_global_event_matches_the_reference(name, reference_dir, global_events):
    rows = _table(reference_dir, "global-events.tsv")
    index, row = next(((i, r) for i, r in enumerate(rows) if r["name"] == name), (None, None))
    assert row is not None, f"{name} is not in global-events.tsv"
    ours = global_events.get(name)
    if ours is None:
        if name in _waiting():
            pytest.xfail(f"waiting for a construct: {name}")
        pytest.fail(f"{name} is missing from cards/turmoil/global-events.mars (and not in a waiting file)")
    sets = [ours.set] + list(ours.needs)
    expected = {"number": f"GE{index + 1:02d}", "sets": _sets(row["needs"]),
                "on reveal": row["revealed_party"], "on current": row["current_party"]}
    actual = {"number": ours.number, "sets": list(sets),
              "on reveal": _stage_party(ours, "reveal"), "on current": _stage_party(ours, "current")}
    differences = [f"{key} is {actual[key]!r}, reference says {expected[key]!r}"
                   for key in expected if expected[key] != actual[key]]
    assert differences == [], f"{name}: " + "; ".join(differences)


def test_no_global_event_beyond_the_reference(reference_dir, global_events):
    known = {row["name"] for row in _table(reference_dir, "global-events.tsv")}
    assert sorted(set(global_events) - known) == [], "global events that global-events.tsv does not know"


# ---------------------------------------------------------------- nothing is missing

def test_every_card_and_global_event_is_written(reference_dir, turmoil_facts, global_events):
    """All 21 cards and corporations and all 36 global events are bundled, and no waiting file is left over."""
    missing = sorted([row["name"] for row in _table(reference_dir, "turmoil.tsv") if row["name"] not in turmoil_facts]
                     + [row["name"] for row in _table(reference_dir, "global-events.tsv")
                        if row["name"] not in global_events])
    assert missing == [] and _waiting() == set()
