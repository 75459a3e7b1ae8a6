"""The documentation's command transcripts are what the commands print: each `$ tharsis ...` block listed here is run
as a reader would run it (from a folder holding the repository's docs/, and `mine/` rebuilt from the guide's own
cards where the guide checks a folder of its own), and its output compared with the block, so a count that goes
stale (a gallery of 224 cards when there are 436) fails here. A `...` line in a block stands for lines left out;
the others must come out in the order shown.

docs/ci.md's GitHub Actions workflow is read too: every `tharsis` command in it parses, and it runs on pushes and
pull requests, installs Tharsis and publishes the JUnit report it writes.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from tharsis.cli import _parser, main

DOCS = Path(__file__).resolve().parents[1] / "docs"

# (document, the command after `$ `, which of the document's blocks running it): the transcripts a reader can run
TRANSCRIPTS = [
    ("designing-cards.md", "tharsis check mine/", 0),
    ("designing-cards.md", "tharsis check --fix mine/", 0),
    ("designing-cards.md", "tharsis cards docs/examples/venus-labs --format rules", 0),
    ("designing-cards.md", "tharsis gallery site/ docs/examples/venus-labs", 0),
    ("designing-cards.md", "tharsis test docs/examples/venus-labs/scenarios --cards docs/examples/venus-labs", 0),
    ("designing-cards.md", "tharsis cards docs/examples/solar-storms --format rules --lang zh", 0),
    ("gallery.md", "tharsis cards --format rules --lang zh", 0),
    ("gallery.md", "tharsis cards --format rules --lang zh --kind milestone", 0),
    ("gallery.md", "tharsis cards --format rules --kind award", 0),
    ("gallery.md", "tharsis gallery site/ docs/examples/venus-labs --lang zh", 0),
]


def transcripts(text: str) -> list[tuple[str, list[str]]]:
    """Every `$ COMMAND` of the document's ``` blocks, with the lines shown after it (up to the next `$` line or
    the block's end)."""
    found, fence, current = [], None, None
    for line in text.splitlines():
        if line.startswith("```"):
            fence = line[3:] if fence is None else None   # ``` opens a plain block, ```mars a block of card text
            current = None
        elif fence == "" and line.startswith("$ "):
            current = (line[2:], [])
            found.append(current)
        elif fence == "" and current is not None:
            current[1].append(line)
    return found


def shown(document: str, command: str, occurrence: int) -> list[str]:
    matching = [lines for said, lines in transcripts((DOCS / document).read_text(encoding="utf-8"))
                if said == command]
    assert len(matching) > occurrence, f"docs/{document} has no block '$ {command}'"
    return matching[occurrence]


def _mine(folder: Path) -> None:
    """The guide's chapter 2 folder: chapter 1's cards with the lines the transcript of `check mine/` shows."""
    text = (DOCS / "designing-cards.md").read_text(encoding="utf-8")
    cards = re.search(r"```mars\n(.*?)```", text, re.S).group(1).splitlines()
    for line in shown("designing-cards.md", "tharsis check mine/", 0):
        excerpt = re.match(r" *(\d+) \| (.*)$", line)
        if excerpt:
            cards[int(excerpt.group(1)) - 1] = excerpt.group(2)
    folder.mkdir()
    (folder / "cards.mars").write_text("\n".join(cards) + "\n", encoding="utf-8")


@pytest.mark.parametrize("document, command, occurrence", TRANSCRIPTS,
                         ids=[f"{d}: {c}" for d, c, _ in TRANSCRIPTS])
def test_a_documented_transcript_is_what_the_command_prints(document, command, occurrence, tmp_path, monkeypatch,
                                                             capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").symlink_to(DOCS)
    if " mine/" in command:
        _mine(tmp_path / "mine")
    main(shlex.split(command)[1:])
    printed = capsys.readouterr().out.rstrip("\n").splitlines()
    expected = shown(document, command, occurrence)
    if "..." not in expected:
        assert printed == expected
        return
    at = 0
    for line in (line for line in expected if line != "..."):
        assert line in printed[at:], f"not printed (in this order): {line!r}"
        at = printed.index(line, at) + 1


# ------------------------------------------------------------------ docs/ci.md's workflow

def _workflow() -> dict:
    text = (DOCS / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"A GitHub Actions workflow.*?```yaml\n(.*?)```", text, re.S).group(1)
    return yaml.safe_load(block)


def test_the_ci_workflow_runs_on_pushes_and_pull_requests_and_installs_tharsis():
    workflow = _workflow()
    triggers = workflow.get("on", workflow.get(True))   # YAML 1.1 reads a bare `on` as true
    assert set(triggers) == {"push", "pull_request"}
    [job] = workflow["jobs"].values()
    steps = job["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["submodules"] is True
    installs = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    assert installs == ["pip install ./tharsis"]   # the submodule the page tells how to add: no placeholder


def test_every_tharsis_command_of_the_ci_workflow_parses_and_the_junit_report_is_published():
    steps = next(iter(_workflow()["jobs"].values()))["steps"]
    commands = [s["run"] for s in steps if s.get("run", "").startswith("tharsis ")]
    assert len(commands) >= 4
    for command in commands:
        words = shlex.split(command.split(">")[0])
        _parser().parse_args(words[1:])   # argparse exits on a flag that does not exist
    junit = next(c for c in commands if "--junit-xml" in c)
    report = shlex.split(junit)[shlex.split(junit).index("--junit-xml") + 1]
    publish = next(s for s in steps if s.get("uses", "").startswith("EnricoMi/publish-unit-test-result-action@"))
    assert publish["with"]["files"] == report and publish["if"] == "always()"
    permissions = next(iter(_workflow()["jobs"].values()))["permissions"]
    assert permissions["checks"] == "write" and permissions["pull-requests"] == "write"
