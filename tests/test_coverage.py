"""Every bundled definition is exercised: each card and corporation by a scenario named after it, each milestone
and award of each board by a scenario that claims or funds it, each RULES.md section by the scenarios or tests
listed in docs/rules-coverage.md."""

import re
from pathlib import Path

import pytest

from tharsis.designer import scenarios

ROOT = Path(__file__).parent / "scenarios"


@pytest.fixture(scope="module")
def all_scenarios():
    specs = []
    for path in scenarios.find([ROOT]):
        specs.extend((path, spec) for spec in scenarios.load(path))
    return specs


def test_every_card_and_corporation_has_a_scenario_named_after_it(bundled, all_scenarios):
    names = [str(spec.get("name", "")) for path, spec in all_scenarios if "cards" in path.parts]
    untested = []
    for definition in bundled.library.definitions:
        if definition.kind not in ("card", "corporation") or getattr(definition, "variant", None) == "beginner":
            continue
        if not any(name.startswith(definition.name) for name in names):
            untested.append(definition.name)
    assert untested == []


def test_there_are_at_least_as_many_card_scenarios_as_cards(bundled, all_scenarios):
    count = sum(1 for path, _ in all_scenarios if "cards" in path.parts)
    assert count >= 221


def test_every_milestone_and_award_is_claimed_or_funded_on_its_board(bundled, all_scenarios):
    missing = []
    for board in bundled.library.of_kind("board"):
        steps = [(spec.get("options") or {}).get("board", "Tharsis").lower() + ":" + str(step[key])
                 for _, spec in all_scenarios for step in spec.get("steps") or [] if isinstance(step, dict)
                 for key in ("claim", "fund") if key in step]
        for name in board.milestones + board.awards:
            if f"{board.name.lower()}:{name}" not in steps:
                missing.append(f"{board.name}: {name}")
    assert missing == []


def test_every_site_has_a_rules_scenario_named_after_it(bundled, all_scenarios):
    """Every declared site (Colonies' tiles) has a scenario of tests/scenarios/rules/ whose name begins with it."""
    names = [str(spec.get("name", "")) for path, spec in all_scenarios if "rules" in path.parts]
    missing = [site.name for site in bundled.library.of_kind("site")
               if not any(name.startswith(site.name + ":") for name in names)]
    assert missing == []


def test_every_rules_section_is_covered(repo):
    rules = (repo.parent / "shared" / "rules" / "RULES.md")
    if not rules.exists():
        pytest.skip("RULES.md not found")
    sections = re.findall(r"^## (\d+)\. (.+)$", rules.read_text(encoding="utf-8"), re.M)
    coverage = (repo / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    for number, title in sections:
        assert f"## {number}. {title}" in coverage, f"docs/rules-coverage.md lacks section {number}. {title}"
    for reference in re.findall(r"`(tests/[^`:]+)", coverage):
        assert (repo / reference).exists(), f"docs/rules-coverage.md names {reference}, which does not exist"


def test_every_part_of_the_colonies_and_turmoil_reference_is_covered(repo):
    """docs/rules-coverage.md answers each numbered part of colonies-turmoil.md under its own title, and says what was
    chosen for every point the reference marks unverified."""
    reference = repo.parent / "shared" / "reference" / "colonies-turmoil.md"
    if not reference.exists():
        pytest.skip("colonies-turmoil.md not found")
    text = reference.read_text(encoding="utf-8")
    coverage = (repo / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (\d+)\. (.+)$", text, re.M)
    assert len(sections) == 13
    for number, title in sections:
        assert f"### {number}. {title}" in coverage, f"docs/rules-coverage.md lacks part {number}. {title}"
    # each point marked unverified is answered, quoting its part's number: "(6: ...unverified...)"
    unverified = {number for part in re.split(r"^(?=## \d+\. )", text, flags=re.M)[1:]
                  for number in re.findall(r"^## (\d+)\. ", part, re.M) if "unverified" in part}
    assert unverified == {"1", "6", "7", "9"}
    for number in unverified:
        assert re.search(rf"\({number}: [^)]*unverified", coverage), f"part {number}: its unverified point unanswered"
