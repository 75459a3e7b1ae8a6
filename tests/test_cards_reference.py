"""Every bundled card and corporation matches the reference facts in shared/reference/cards.tsv, and none is missing.

The TSV is facts, not a file format: this module translates its notation (`tag:jovian>=1`, `1/2 animals`) into
the facts `tharsis cards --format json` reports, and compares field by field.
"""

import csv
import json
import re

import pytest

from tharsis.compiler import vocabulary as v
from tharsis.compiler.facts import facts


def _reference(reference_dir):
    with open(reference_dir / "cards.tsv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _number(text: str) -> str:
    text = text.strip().lstrip("#")
    return text.lstrip("0") or "0" if text.isdigit() else text.upper()


def _requirement(text: str) -> dict:
    match = re.fullmatch(r"\s*([\w:() ]+?)\s*(>=|<=|==|>|<)\s*(-?\d+)\s*", text)
    assert match, f"unreadable requirement {text!r}"
    what, operator, value = match.groups()
    if what.startswith("tag:"):
        measure = f"{what[4:]} tags"
    elif what.startswith("prod:"):
        measure = f"{what[5:]} production"
    elif what.startswith("own "):
        measure = "your " + what[4:]
    elif what == "cities(all players)":
        measure = "cities"
    else:
        measure = what
    return {"measure": measure, "operator": operator, "value": int(value)}


def _vp(text: str):
    text = text.strip()
    if not text:
        return None
    if re.fullmatch(r"-?\d+", text):
        return {"points": int(text)}
    match = re.fullmatch(r"(\d+) if >=(\d+) (\w+) resource here", text)
    if match:
        points, at_least, resource = match.groups()
        return {"points": int(points), "condition": f"{resource} here >= {at_least}"}
    match = re.fullmatch(r"(\d+)/(?:(\d+) )?([\w ]+?)(?: \(all players\))?", text)
    assert match, f"unreadable VP {text!r}"
    points, divisor, what = match.groups()
    singular = v.singular(what.split()[-1])
    if what.startswith("adjacent "):
        per = "adjacent " + v.plural(singular)
    elif what.endswith(" tag"):
        per = what + "s"
    elif singular in v.CARD_RESOURCES:
        per = v.plural(singular) + " here"
    else:
        per = v.plural(singular)
    return {"points": int(points), "per": per, "divisor": int(divisor or 1)}


def expected_facts(row: dict, requirement=_requirement, vp=_vp) -> dict:
    """The facts a row of a reference table (cards.tsv, prelude.tsv, venus.tsv) says a card has, in the form of
    `tharsis cards --format json`; `requirement` and `vp` read the table's notation."""
    return {
        "number": _number(row["number"]),
        "set": row["set"],
        "type": row["type"],
        "cost": int(row["cost"]) if row["cost"] else 0,
        "tags": [t for t in row["tags"].split(",") if t],
        "requirements": [requirement(r) for r in row["requirements"].split(";") if r.strip()],
        "vp": vp(row["vp"]),
    }


def expected_with_start(row: dict, requirement=_requirement, vp=_vp) -> dict:
    """`expected_facts`, and a corporation's starting megacredits, read from its effect ("start 45 MC; ...")."""
    expected = expected_facts(row, requirement, vp)
    if row["type"] == "corporation":
        start = re.match(r"start (\d+) MC", row["effect"])
        assert start, f"no starting MC in the effect of {row['name']!r}"
        expected["starting_megacredits"] = int(start.group(1))
    return expected


def actual_with_start(ours: dict, expected: dict) -> dict:
    """`actual_facts`, with the starting megacredits where `expected` has them."""
    actual = actual_facts(ours)
    if "starting_megacredits" in expected:
        actual["starting_megacredits"] = ours.get("starting_megacredits")
    return actual


def actual_facts(ours: dict) -> dict:
    """The same facts of a compiled card (a row of `tharsis cards --format json`)."""
    return {
        "number": _number(ours["number"] or ""),
        "set": ours["set"],
        "type": ours["type"],
        "cost": ours["cost"],
        "tags": ours["tags"],
        "requirements": [{k: r[k] for k in ("measure", "operator", "value")} for r in ours["requirements"]],
        "vp": ours["vp"],
    }


@pytest.fixture(scope="module")
def bundled_facts(bundled):
    assert bundled.ok, [(d.code, d.message) for d in bundled.errors]
    return {row["name"]: row for row in map(facts, bundled.library.definitions)
            if row["kind"] in ("card", "corporation") and row["set"] in ("base", "corpera")}


def test_bundled_content_compiles_without_errors_or_warnings(bundled):
    assert [(d.code, d.span, d.message) for d in bundled.diagnostics] == []


def test_no_reference_card_is_missing_and_none_is_extra(reference_dir, bundled_facts):
    expected = {row["name"] for row in _reference(reference_dir)}
    assert sorted(expected - set(bundled_facts)) == [], "cards missing from cards/"
    assert sorted(set(bundled_facts) - expected) == [], "cards in cards/ that the reference does not know"


def test_facts_match_the_reference(reference_dir, bundled_facts):
    differences = []
    for row in _reference(reference_dir):
        ours = bundled_facts.get(row["name"])
        if ours is None:
            continue  # reported by the test above
        expected, actual = expected_facts(row), actual_facts(ours)
        for key in expected:
            if expected[key] != actual[key]:
                differences.append(f"{row['name']}: {key} is {actual[key]!r}, reference says {expected[key]!r}")
    assert differences == []


def _counts(definitions) -> dict:
    kinds = [d.kind for d in definitions]
    return {k: kinds.count(k) for k in set(kinds)}


def test_reference_counts(bundled):
    """The base game and Corporate Era (cards.tsv), then each expansion (prelude.tsv, venus.tsv, expansions.md)."""
    by_set: dict = {}
    for d in bundled.library.definitions:
        by_set.setdefault(getattr(d, "set", None) if d.kind != "expansion" else d.name, []).append(d)
    printed = by_set.get("base", []) + by_set.get("corpera", []) + by_set.get(None, [])
    assert _counts(printed) == {"card": 208, "corporation": 13, "standard_project": 7, "standard_action": 2,
                                "milestone": 15, "award": 15, "board": 3}
    assert _counts(by_set["prelude"]) == {"expansion": 1, "card_kind": 1, "card": 42, "corporation": 5}
    assert _counts(by_set["venus"]) == {"expansion": 1, "parameter": 1, "rule": 1, "card": 49, "corporation": 5,
                                        "standard_project": 1, "milestone": 1, "award": 1}
    # the content of Colonies besides its project cards and corporations (cards/colonies/colonies.mars)
    assert {kind: count for kind, count in _counts(by_set["colonies"]).items()
            if kind not in ("card", "corporation")} == {"expansion": 1, "piece": 2, "site": 11, "standard_action": 1,
                                                       "standard_project": 1, "rule": 2}
    # the content of Turmoil besides its project cards, corporations and global events (cards/turmoil/turmoil.mars)
    assert {kind: count for kind, count in _counts(by_set["turmoil"]).items()
            if kind not in ("card", "corporation")} == {"expansion": 1, "piece": 1, "faction": 6, "government": 1,
                                                       "card_kind": 1, "standard_action": 2, "rule": 2}
    # Turmoil's project cards and corporations, those still waiting for a construct in a waiting file
    turmoil = _counts(d for d in by_set["turmoil"] if getattr(d, "type", None) != "global event")
    waiting = _turmoil_waiting()
    assert (turmoil.get("card", 0) + waiting.count("card"), turmoil.get("corporation", 0) +
            waiting.count("corporation")) == (16, 5)
    colonies = _counts(by_set["colonies"])  # the cards still waiting for a construct are in a waiting file
    waiting = _colonies_waiting()
    assert (colonies.get("card", 0) + waiting.count("card"), colonies.get("corporation", 0) +
            waiting.count("corporation")) == (49, 5)
    assert set(by_set) == {"base", "corpera", None, "prelude", "venus", "colonies", "turmoil"}


def _turmoil_waiting() -> list:
    """The kinds of the project cards and corporations written out in cards/turmoil/waiting.txt (card or
    corporation), one a definition: they are not compiled until their construct lands. (The global events wait in
    waiting-global-events.txt.)"""
    from conftest import REPO

    path = REPO / "cards" / "turmoil" / "waiting.txt"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return re.findall(r'^(card|corporation)\s+"', text, re.M)


def _colonies_waiting() -> list:
    """The kinds of the definitions written out in cards/colonies/waiting*.txt (card or corporation), one a
    definition: they are not compiled until their construct lands."""
    from conftest import REPO

    return [kind for path in (REPO / "cards" / "colonies").glob("waiting*.txt")
            for kind in re.findall(r'^(card|corporation)\s+"', path.read_text(encoding="utf-8"), re.M)]


def test_cards_json_lists_every_definition(capsys):
    from tharsis.cli import main

    assert main(["cards", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    printed = 208 + 13 + 7 + 2 + 15 + 15 + 3
    prelude, venus = 1 + 1 + 42 + 5, 1 + 1 + 1 + 49 + 5 + 1 + 1 + 1
    colonies = 1 + 2 + 11 + 1 + 1 + 2 + sum(1 for row in rows if row.get("set") == "colonies"
                                            and row["kind"] in ("card", "corporation"))
    # turmoil.mars (expansion, piece, 6 factions, government, the global event kind, 2 standard actions, 2 rules),
    # then its project cards, corporations and global events (all of set turmoil)
    turmoil = 1 + 1 + 6 + 1 + 1 + 2 + 2 + sum(1 for row in rows if row.get("set") == "turmoil"
                                              and row["kind"] in ("card", "corporation"))
    assert len(rows) == printed + prelude + venus + colonies + turmoil
    livestock = next(r for r in rows if r["name"] == "Livestock")
    assert livestock["requirements_text"] == "oxygen >= 9%"
    assert livestock["vp_text"] == "1 per animal here"
