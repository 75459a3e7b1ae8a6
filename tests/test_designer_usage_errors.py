"""The designer and CI commands (`check`, `fmt`, `test`, `gallery`, `cards`) refuse a bad flag as the game
commands do: every problem of the run with a stable E7xx/E8xx code (docs/errors.md), a did-you-mean where the words
are a closed list, exit code 2, nothing else done, and for `check --format json|github|sarif` the problems in that
report. (Missing paths, E705, are tested in tests/test_broken_corpus.py.)"""

import json
import math
import re
import textwrap
from pathlib import Path

import pytest

from tharsis.cli import main
from tharsis.code_filter import WARNINGS

TESTS = Path(__file__).resolve().parent
CARD_FILE = str(TESTS / "broken" / "typo_in_tag.mars")        # exists; usage errors stop before it is read
SCENARIO_FILE = str(TESTS / "scenarios" / "rules" / "triggers.yaml")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_an_unknown_code_in_the_configuration_is_e804_at_its_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.tharsis]\ncards = ["."]\nignore = ["W201", "W8"]\n',
                                             encoding="utf-8")
    code, _, err = run(capsys, "check")
    assert code == 2
    assert "pyproject.toml:3:1: error[E804]: 'ignore': no warning has the code W201" in err
    assert "did you mean 'W801'?" in err and err.endswith("tharsis: fix the configuration above\n")


def test_the_warning_vocabulary_is_the_documented_designer_warnings():
    """--select/--ignore check codes against WARNINGS: a new warning must join it (and docs/errors.md)."""
    documented = re.findall(r"^\| (W[0-68]\d\d) \|", (TESTS.parent / "docs" / "errors.md").read_text("utf-8"), re.M)
    assert sorted(WARNINGS) == sorted(documented)
