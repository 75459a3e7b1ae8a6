"""Cross-check the bundled boards, milestones and awards against shared/reference/boards.md.

The reference file is parsed here (space tables, milestone/award tables, track thresholds), so a change on either
side -- the `.mars` content or the reference -- shows up as a failing test naming the space or definition.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tharsis.compiler import bundled_cards_path, compile_paths
from tharsis.compiler.effects import ChangeParameter, PlaceTile, Production

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "boards.md"
BOARDS = ("Tharsis", "Hellas", "Elysium")
ROW_LENGTHS = (5, 6, 7, 8, 9, 8, 7, 6, 5)
BONUS_WORDS = {"steel", "titanium", "plant", "card", "heat"}


# ---------------------------------------------------------------------------------------------- reference parsing

@pytest.fixture(scope="module")
def reference() -> str:
    if not REFERENCE.is_file():
        pytest.skip(f"reference facts not available: {REFERENCE} does not exist (it lives outside the repository)")
    return REFERENCE.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The text after a markdown heading line containing `heading`, up to the next heading of any level."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("#") and heading in line:
            body = []
            for following in lines[i + 1:]:
                if following.startswith("#"):
                    break
                body.append(following)
            return "\n".join(body)
    raise AssertionError(f"boards.md has no heading containing {heading!r}")


def _table(section: str) -> list[list[str]]:
    """Rows of the first markdown table in `section`, header and separator left out."""
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert len(rows) >= 2, "expected a markdown table"
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows[2:]]


def _bonuses(cell: str) -> tuple[tuple[str, int], ...]:
    if cell in ("-", ""):
        return ()
    if cell == "ocean(6MC)":
        return (("ocean", 1),)
    bonuses = []
    for part in cell.split(","):
        words = part.split()
        assert words[0] in BONUS_WORDS, f"unexpected bonus {part!r} in boards.md"
        bonuses.append((words[0], int(words[1]) if len(words) > 1 else 1))
    return tuple(sorted(bonuses))


def _space_table(text: str, board: str) -> dict[str, dict]:
    expected = {}
    for cells in _table(_section(text, f"{board} — space table")):
        space_id, row, x, pos, kind, bonus, note = cells
        reserved = None
        match = re.match(r"(.+?) \(reserved for ", note)
        if match:
            reserved = match.group(1)
        expected[space_id] = dict(row=int(row), x=int(x), pos=int(pos), kind=kind, volcanic="(volcanic)" in note,
                                  bonuses=_bonuses(bonus), reserved=reserved,
                                  extra_cost=6 if bonus == "ocean(6MC)" else 0)
    return expected


def _counts(text: str, board: str) -> tuple[int, int, int]:
    section = _section(text, f"{board} — space table")
    match = re.search(r"Counts: (\d+) ocean-reserved spaces, (\d+) land spaces \((\d+) volcanic\)", section)
    assert match, f"no 'Counts:' line for {board}"
    return tuple(int(n) for n in match.groups())


def _offboard(text: str) -> dict[str, str]:
    found = dict(re.findall(r"`(0[12])` ([A-Z][a-z]+(?: [A-Z][a-z]+)*)", _section(text, "1. Geometry")))
    assert set(found) == {"01", "02"}, f"off-board spaces not found in boards.md section 1: {found}"
    return found


def _board_lists(text: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    lists = {}
    for board, milestones, awards in _table(_section(text, "3. Milestones and awards")):
        lists[board] = (tuple(m.strip() for m in milestones.split(",")), tuple(a.strip() for a in awards.split(",")))
    return lists


def _milestone_thresholds(text: str) -> dict[str, tuple[str, int]]:
    return {name: (board, int(threshold))
            for board, name, _measure, threshold in _table(_section(text, "Milestones (claimable"))}


def _award_rows(text: str) -> dict[str, str]:
    return {name: board for board, name, _measure in _table(_section(text, "Awards (highest"))}


def _track_bonuses(text: str) -> list[tuple[str, int, str]]:
    """(parameter, value, description) for every `reaching **V**: description` in the section 2 table."""
    bonuses = []
    for parameter, _range, thresholds in _table(_section(text, "2. Global parameters")):
        for value, description in re.findall(r"reaching \*\*(-?\d+)(?: ?%)?\*\*: ([^;|]+)", thresholds):
            bonuses.append((parameter, int(value), description.strip()))
    return bonuses


# ---------------------------------------------------------------------------------------------- compiled content

@pytest.fixture(scope="module")
def library():
    result = compile_paths([bundled_cards_path()])
    board_errors = [d for d in result.errors if d.span and "boards" in Path(d.span.path).parts]
    assert not board_errors, "\n".join(f"{d.code} {d.message} at {d.span.path}:{d.span.line}" for d in board_errors)
    return result.library


@pytest.fixture(scope="module")
def boards(library) -> dict:
    found = {board.name: board for board in library.of_kind("board")}
    assert set(found) == set(BOARDS), f"expected boards {BOARDS}, compiled {sorted(found)}"
    return found


# ---------------------------------------------------------------------------------------------- spaces

@pytest.mark.parametrize("name", BOARDS)
def test_board_lives_in_its_own_file(boards, library, reference, name):
    board = boards[name]
    expected_file = f"{name.lower()}.mars"
    assert Path(board.source.path).name == expected_file
    for item in board.milestones + board.awards:
        assert Path(library.get(item).source.path).name == expected_file, f"{item} is not in {expected_file}"


@pytest.mark.parametrize("name", BOARDS)
def test_space_ids_and_geometry(boards, reference, name):
    spaces = boards[name].spaces
    assert len(spaces) == 63
    assert [s.id for s in spaces] == [f"{i:02d}" for i in range(1, 64)]
    mars = [s for s in spaces if s.on_mars]
    assert len(mars) == 61
    for y, length in enumerate(ROW_LENGTHS):
        row = [s for s in mars if s.row == y]
        assert [s.x for s in row] == list(range(9 - length, 9)), f"{name} row {y}"


@pytest.mark.parametrize("name", BOARDS)
def test_offboard_spaces(boards, reference, name):
    expected = _offboard(reference)
    offboard = [s for s in boards[name].spaces if not s.on_mars]
    assert [s.id for s in offboard] == ["01", "02"]
    for space in offboard:
        assert (space.kind, space.row, space.x, space.volcanic, space.bonuses, space.reserved, space.extra_cost) == \
               ("offboard", -1, -1, False, (), expected[space.id], 0), f"{name} space {space.id}"


@pytest.mark.parametrize("name", BOARDS)
def test_every_space_matches_reference_table(boards, reference, name):
    expected = _space_table(reference, name)
    assert sorted(expected) == [f"{i:02d}" for i in range(3, 64)], f"boards.md table for {name} is incomplete"
    compiled = {s.id: s for s in boards[name].spaces if s.on_mars}
    differences = []
    for space_id, want in expected.items():
        space = compiled.get(space_id)
        if space is None:
            differences.append(f"{space_id}: missing")
            continue
        got = dict(row=space.row, x=space.x, kind=space.kind, volcanic=space.volcanic,
                   bonuses=tuple(sorted(space.bonuses)), reserved=space.reserved, extra_cost=space.extra_cost)
        for key, value in got.items():
            if value != want[key]:
                differences.append(f"{space_id}: {key} is {value!r}, boards.md says {want[key]!r}")
        # the table's own x must agree with its pos-in-row (x = 9 - rowLength + index)
        assert want["x"] == 9 - ROW_LENGTHS[want["row"]] + want["pos"] - 1, f"boards.md {name} {space_id}"
    assert not differences, f"{name}:\n" + "\n".join(differences)


@pytest.mark.parametrize("name", BOARDS)
def test_space_counts(boards, reference, name):
    oceans, land, volcanic = _counts(reference, name)
    mars = [s for s in boards[name].spaces if s.on_mars]
    assert sum(s.kind == "ocean" for s in mars) == oceans
    assert sum(s.kind == "land" for s in mars) == land
    assert sum(s.volcanic for s in mars) == volcanic
    assert all(s.kind == "land" for s in mars if s.volcanic)


def test_reserved_and_special_spaces(boards, reference):
    reserved = {(name, s.id): s.reserved for name in BOARDS for s in boards[name].spaces if s.on_mars and s.reserved}
    assert reserved == {("Tharsis", "31"): "Noctis City"}
    costly = {(name, s.id): (s.extra_cost, s.bonuses) for name in BOARDS for s in boards[name].spaces if s.extra_cost}
    assert costly == {("Hellas", "61"): (6, (("ocean", 1),))}


# ---------------------------------------------------------------------------------------------- milestones, awards

@pytest.mark.parametrize("name", BOARDS)
def test_milestone_and_award_names(boards, reference, name):
    milestones, awards = _board_lists(reference)[name]
    assert boards[name].milestones == milestones
    assert boards[name].awards == awards


def test_milestone_thresholds(library, boards, reference):
    thresholds = _milestone_thresholds(reference)
    assert len(thresholds) == 15
    for milestone_name, (board, threshold) in thresholds.items():
        assert milestone_name in boards[board].milestones, f"{milestone_name} should be on {board}"
        milestone = library.get(milestone_name)
        assert milestone.kind == "milestone"
        comparisons = milestone.requirement.comparisons
        assert len(comparisons) == 1, milestone_name
        assert comparisons[0].operator == ">=", milestone_name
        assert comparisons[0].value == threshold, f"{milestone_name}: {comparisons[0].value} != {threshold}"


def test_awards_defined(library, boards, reference):
    rows = _award_rows(reference)
    assert len(rows) == 15
    for award_name, board in rows.items():
        assert award_name in boards[board].awards, f"{award_name} should be on {board}"
        assert library.get(award_name).kind == "award"


# (kind, scope, name, extra attributes) for each measure; one Measure per term, in order.
EXPECTED_MEASURES = {
    "Terraformer": [("tr", "you", None, {})],
    "Mayor": [("tiles", "you", "city", {"on_mars": False})],           # off-board cities count
    "Gardener": [("tiles", "you", "greenery", {})],
    "Builder": [("tags", "you", "building", {})],
    "Planner": [("cards_in_hand", "you", None, {})],
    "Diversifier": [("distinct_tags", "you", None, {})],
    "Tactician": [("cards", "you", None, {"names": ("automated", "active"), "with_requirements": True})],
    "Polar Explorer": [("tiles", "you", "tile", {"rows": (7, 8)})],
    "Energizer": [("production", "you", "energy", {})],
    "Rim Settler": [("tags", "you", "jovian", {})],
    "Generalist": [("raised_productions", "you", None, {})],
    "Specialist": [("highest_production", "you", None, {})],
    "Ecologist": [("tags", "you", "plant", {}), ("tags", "you", "microbe", {}), ("tags", "you", "animal", {})],
    "Tycoon": [("cards", "you", None, {"names": ("automated", "active"), "with_requirements": False})],
    "Legend": [("events_played", "you", None, {})],
    "Landlord": [("tiles", "you", "tile", {"on_mars": False})],        # off-board cities count (issue 9)
    "Scientist": [("tags", "you", "science", {})],
    "Banker": [("production", "you", "megacredits", {})],
    "Thermalist": [("stock", "you", "heat", {})],
    "Miner": [("stock", "you", "steel", {}), ("stock", "you", "titanium", {})],
    "Cultivator": [("tiles", "you", "greenery", {})],
    "Magnate": [("cards", "you", None, {"names": ("automated",)})],
    "Space Baron": [("tags", "you", "space", {})],
    "Excentric": [("card_resources", "you", None, {})],
    "Contractor": [("tags", "you", "building", {})],
    "Celebrity": [("cards", "you", None, {"names": ("automated", "active"), "min_cost": 20})],
    "Industrialist": [("stock", "you", "steel", {}), ("stock", "you", "energy", {})],
    "Desert Settler": [("tiles", "you", "tile", {"rows": (5, 8)})],
    "Estate Dealer": [("tiles", "you", "tile", {"next_to": "ocean"})],
    "Benefactor": [("tr", "you", None, {})],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_MEASURES))
def test_measure_kinds(library, name):
    definition = library.get(name)
    quantity = definition.requirement.comparisons[0].quantity if definition.kind == "milestone" else definition.measure
    terms = quantity.terms
    expected = EXPECTED_MEASURES[name]
    assert len(terms) == len(expected), f"{name}: {terms}"
    for term, (kind, scope, measured, extra) in zip(terms, expected):
        assert (term.kind, term.scope, term.name) == (kind, scope, measured), f"{name}: {term}"
        for attribute, value in extra.items():
            if attribute == "names":
                assert set(getattr(term, attribute)) == set(value), f"{name}: {term}"
            else:
                assert getattr(term, attribute) == value, f"{name}.{attribute}: {term}"


def test_every_board_measure_is_covered(boards):
    named = {n for board in boards.values() for n in board.milestones + board.awards}
    assert named == set(EXPECTED_MEASURES)


# ---------------------------------------------------------------------------------------------- track bonuses

def _describe(effect) -> tuple:
    """A compiled track effect as a comparable tuple."""
    if isinstance(effect, ChangeParameter):
        return ("parameter", effect.parameter, effect.amount.coefficient)
    if isinstance(effect, Production):
        return ("production",) + tuple((c.resource, c.amount.coefficient) for c in effect.changes)
    if isinstance(effect, PlaceTile):
        return ("place", effect.tile, effect.count, effect.filters)
    return ("other", repr(effect))


def _expected_effect(description: str) -> tuple:
    text = description.lower()
    if "heat production" in text:
        return ("production", ("heat", int(re.search(r"\+(\d+)", text).group(1))))
    if "ocean tile" in text:
        return ("place", "ocean", 1, ())
    if text.startswith("temperature +"):
        return ("parameter", "temperature", int(re.search(r"\+(\d+)", text).group(1)))
    raise AssertionError(f"track bonus not understood by this test: {description!r}")


@pytest.mark.parametrize("name", BOARDS)
def test_track_bonuses(boards, reference, name):
    expected = sorted((parameter, value, (_expected_effect(description),))
                      for parameter, value, description in _track_bonuses(reference))
    assert len(expected) == 4, f"boards.md lists {len(expected)} track bonuses: {expected}"
    compiled = sorted((t.parameter, t.value, tuple(_describe(e) for e in t.effects)) for t in boards[name].tracks)
    assert compiled == expected
