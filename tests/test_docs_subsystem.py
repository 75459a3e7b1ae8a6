"""docs/designing-cards.md "Designing a subsystem" stays true to docs/examples/outer-ring/: the folder checks clean,
every definition and scenario the chapter quotes is the folder's own, its scenarios pass, the checker's output shown
for the four slips is what `tharsis check` prints, and whole games are played with both subsystems."""

import re
import shutil

import pytest
import yaml

from tharsis.cli import main


@pytest.fixture(scope="module")
def folder(repo):
    return repo / "docs" / "examples" / "outer-ring"


@pytest.fixture(scope="module")
def chapter(repo) -> str:
    text = (repo / "docs" / "designing-cards.md").read_text(encoding="utf-8")
    return text[text.index("## 8. Designing a subsystem"):text.index("## 9. ")]


def _definitions(block: str) -> list[str]:
    """A block's definitions, each the lines from its header to the blank line after it."""
    return [chunk.strip("\n") for chunk in re.split(r"\n\s*\n", block) if chunk.strip()]


def test_the_folder_checks_clean_and_its_scenarios_pass(folder, capsys):
    assert main(["check", "--with-bundled", str(folder)]) == 0
    assert main(["test", str(folder / "scenarios"), "--cards", str(folder)]) == 0
    assert "30 passed, 0 failed" in capsys.readouterr().out


def test_every_definition_the_chapter_quotes_is_the_folders_own_text(folder, chapter):
    """A reader who copies the chapter's definitions gets the folder's (which the scenarios and games prove)."""
    files = "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.mars")))
    blocks = re.findall(r"```mars\n(.*?)```", chapter, re.S)
    assert len(blocks) == 3
    quoted = [definition for block in blocks for definition in _definitions(block)]
    assert len(quoted) >= 30
    for definition in quoted:
        assert definition in files, f"not in docs/examples/outer-ring/*.mars:\n{definition}"


def test_every_scenario_the_chapter_quotes_is_one_of_the_folder(folder, chapter):
    written = {scenario["name"]: scenario for path in sorted((folder / "scenarios").glob("*.yaml"))
               for scenario in yaml.safe_load(path.read_text(encoding="utf-8"))}
    blocks = re.findall(r"```yaml\n(.*?)```", chapter, re.S)
    assert len(blocks) == 2
    for block in blocks:
        for scenario in yaml.safe_load(block):
            assert written.get(scenario["name"]) == scenario, scenario["name"]


def test_the_checkers_output_shown_for_four_slips_is_real(folder, chapter, tmp_path, monkeypatch, capsys):
    """The chapter's `tharsis check mine/` shows what four slips in a copy of the folder give, word for word."""
    shown = re.search(r"```\n\$ tharsis check mine/\n(.*?)```", chapter, re.S).group(1)
    mine = tmp_path / "mine"
    shutil.copytree(folder, mine, ignore=shutil.ignore_patterns("scenarios"))
    slips = {"stations.mars": [("  marker: 1\n  bonus: gain 1 titanium", "  marker: 5\n  bonus: gain 1 titanium"),
                               ("| 2 titanium\n", "| 2 titanum\n")],
             "guild-hall.mars": [('factions: "Prospectors", "Engineers", "Auditors"',
                                  'factions: "Prospectors", "Engineers"'),
                                 ("  cost: 0\n  once per generation\n", "  cost: 0\n")]}
    for name, changes in slips.items():
        text = (mine / name).read_text(encoding="utf-8")
        for old, new in changes:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        (mine / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "mine/"]) == 1
    assert capsys.readouterr().out == shown


def test_a_whole_game_with_both_subsystems_docks_canvasses_and_ends(folder, capsys):
    assert main(["play", "--cards", str(folder), "--expansion", "stations", "--expansion", "guild-hall",
                 "--seat", "a=greedy", "--seat", "b=random", "--no-log", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for told in ("sends a freighter to", "uses standard action Canvass", "comes to power", "takes the role of speaker",
                 "is revealed", "winner"):
        assert told in out, told
