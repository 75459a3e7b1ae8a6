"""The README's two lines, read out of README.md (never copied here), so that the README cannot drift from what
passes.

The set-up line is run for real, as a new user runs it: in a fresh copy of the repository (tests/fresh_copy.py)
with no virtual environment yet, where it installs Tharsis, says how its engine was built, checks the bundled
cards and plays a whole bot game, within the five minutes the README promises.

The test line is not run again here: it runs this very suite, so it would run itself. Instead CI runs it, as
written: .ci/run reads it out of the README and runs it, and the test below checks that .ci/run runs whatever the
README's test line says, by giving .ci/run a README whose test line leaves a mark and fails.
"""

import os
import re
import shutil
import subprocess
import time

import pytest
from fresh_copy import fresh_copy

SET_UP_MINUTES = 5   # the README: "under 5 minutes on a busy 2-core machine"


def readme_lines(readme: str) -> tuple[str, str]:
    """The set-up line and the test line: the README's Set-up section holds them as two one-line ```sh blocks."""
    section = re.search(r"^## Set-up\n(.*?)(?=^## )", readme, re.S | re.M)
    assert section, "README.md has no '## Set-up' section"
    blocks = re.findall(r"^```sh\n(.*?)\n```$", section.group(1), re.S | re.M)
    assert len(blocks) == 2 and all("\n" not in block for block in blocks), blocks
    return blocks[0], blocks[1]


def _user_environment(tmp_path) -> dict[str, str]:
    """The environment of a user who has not asked for a compiled engine, with a compile cache of this test's."""
    skipped = {"THARSIS_COMPILE", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONSAFEPATH"}
    environment = {name: value for name, value in os.environ.items() if name not in skipped}
    environment["THARSIS_CACHE_DIR"] = str(tmp_path / "cache")
    return environment


@pytest.mark.slow
def test_the_set_up_line_installs_says_the_build_checks_the_cards_and_plays_a_game(repo, tmp_path):
    set_up, _ = readme_lines((repo / "README.md").read_text(encoding="utf-8"))
    copy = fresh_copy(repo, tmp_path / "tharsis")
    started = time.monotonic()
    try:
        run = subprocess.run(["sh", "-c", set_up], cwd=copy, capture_output=True, text=True,
                             env=_user_environment(tmp_path), timeout=SET_UP_MINUTES * 60)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"the README's set-up line took over {SET_UP_MINUTES} minutes, which the README promises it "
                    f"does not; it had printed:\n{(expired.stdout or b'')[-3000:]!r}")
    seconds = time.monotonic() - started
    assert run.returncode == 0, f"after {seconds:.0f} s:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    out = run.stdout
    assert (copy / ".venv" / "bin" / "tharsis").exists()
    assert "Successfully installed" in out and "tharsis-0.1.0" in out   # pip said what it was doing
    assert "\ntharsis 0.1.0 (engine: plain Python)\n" in out
    assert re.search(r"^checked \d+ files: \d+ definitions, no problems$", out, re.M), out[:3000]
    assert re.search(r"^» ann ", out, re.M) and re.search(r"^» bob ", out, re.M)   # the moves, as they are made
    assert re.search(r"^(winner: (ann|bob)|tied: ann and bob)\b", out, re.M), out[-3000:]
    assert re.search(r"^generations: \d+$", out, re.M)


def test_ci_runs_the_readme_test_line_as_written(repo, tmp_path):
    """.ci/run, given a README whose test line writes a mark and exits 42, runs that line and stops there with its
    exit code: it reads the line out of the README (not a copy of its own), and runs it as the shell would."""
    readme = (repo / "README.md").read_text(encoding="utf-8")
    set_up, test_line = readme_lines(readme)
    marked = "echo \"the README's test line ran in $PWD\" > mark && exit 42"
    scratch = tmp_path / "checkout"
    (scratch / ".ci").mkdir(parents=True)
    shutil.copy2(repo / ".ci" / "run", scratch / ".ci" / "run")
    (scratch / "README.md").write_text(readme.replace(f"```sh\n{test_line}\n```", f"```sh\n{marked}\n```"),
                                       encoding="utf-8")
    assert readme_lines((scratch / "README.md").read_text(encoding="utf-8")) == (set_up, marked)
    run = _ci_run(scratch, tmp_path)
    assert run.returncode == 42, run.stdout + run.stderr
    assert (scratch / "mark").read_text(encoding="utf-8") == f"the README's test line ran in {scratch}\n"
    assert f"CI: the README's test line: {marked}\n" in run.stdout
    assert not (scratch / ".venv-compiled").exists()   # nothing after the line ran


def test_ci_refuses_a_readme_without_its_two_lines(repo, tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy2(repo / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text("# Tharsis\n\n## Set-up\n\n```sh\npython3 -m venv .venv\n```\n\n## Next\n",
                                        encoding="utf-8")
    run = _ci_run(tmp_path, tmp_path)
    assert run.returncode != 0
    assert "README.md's Set-up section must hold two one-line ```sh blocks" in run.stderr
    assert "CI: the README's test line:" not in run.stdout


def _ci_run(checkout, tmp_path) -> subprocess.CompletedProcess:
    """`bash .ci/run` of `checkout`, with a chromium on the PATH so that it does not install one first."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "chromium").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    (tools / "chromium").chmod(0o755)
    return subprocess.run(["bash", str(checkout / ".ci" / "run")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"))
