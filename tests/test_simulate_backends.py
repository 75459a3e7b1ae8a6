"""`tharsis simulate` backends: the Ray backend plays the same games as the local one, and progress suits its reader.

The Ray tests start one small local Ray instance for the module (2 CPUs, no dashboard) and play a handful of games:
Ray's start-up dominates, the whole module stays well under a minute.
"""

import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest

from tharsis.cli import main
from tharsis.games.simulate import Simulation
from tharsis.runtime.api.game import GameOptions

SEATS = [("g", "greedy"), ("r", "random")]


def _without_timing(records):
    return [{k: v for k, v in record.items() if k != "seconds"} for record in records]


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the Ray backend is an optional extra: pip install 'tharsis[ray]'")
    context = ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield context.address_info["address"]
    finally:
        ray.shutdown()


def test_ray_plays_the_same_games_as_the_local_backend(ray_cluster):
    options = GameOptions(players=("g", "r"), seed=40)
    local = Simulation(options, SEATS, 4, jobs=1).run(progress=None)
    on_ray = Simulation(options, SEATS, 4, backend="ray").run(progress=None)
    assert [r["seed"] for r in on_ray] == [40, 41, 42, 43]
    assert _without_timing(on_ray) == _without_timing(local)


def test_simulate_joins_a_ray_cluster_by_address_and_logs_plain_progress(ray_cluster, tmp_path):
    """As a CI job runs it: stderr is a pipe, so progress is a few plain lines, and the summary is the local one's."""
    common = ["simulate", "--games", "4", "--seed", "7", "--seat", "g=greedy", "--seat", "r=random"]
    on_ray = subprocess.run([sys.executable, "-m", "tharsis", *common, "--backend", "ray",
                             "--address", ray_cluster, "--out", str(tmp_path / "ray.jsonl")],
                            capture_output=True, text=True, timeout=120)
    assert on_ray.returncode == 0, on_ray.stderr
    assert "\r" not in on_ray.stderr
    progress = [line for line in on_ray.stderr.splitlines() if line.startswith("simulate: ")]
    assert len(progress) == 4
    for n, line in enumerate(progress, start=1):
        assert re.fullmatch(rf"simulate: {n}/4 games \({n * 25}%\), \d+\.\d games/s", line), line
    assert main([*common, "--quiet", "--out", str(tmp_path / "local.jsonl")]) == 0
    read = lambda name: [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]  # noqa: E731
    assert _without_timing(read("ray.jsonl")) == _without_timing(read("local.jsonl"))
    assert "4 games" in on_ray.stdout and "95% CI" in on_ray.stdout and "results written to" in on_ray.stdout


@pytest.mark.slow
def test_on_ray_the_csv_tables_and_the_report_are_the_local_ones(ray_cluster, tmp_path):
    """The tables but for each game's `seconds`, and the report byte for byte (it shows no timing)."""
    pytest.importorskip("matplotlib", reason="the report extra: pip install 'tharsis[report]'")
    common = ["simulate", "--games", "3", "--seed", "9", "--seat", "g=greedy", "--seat", "r=random", "--quiet",
              "--format", "csv"]
    for name, backend in (("local", []), ("ray", ["--backend", "ray"])):
        assert main([*common, *backend, "--out", str(tmp_path / f"{name}.csv"),
                     "--report", str(tmp_path / f"{name}-report")]) == 0
    def read(name):
        with open(tmp_path / name, encoding="utf-8", newline="") as handle:
            return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]

    assert read("ray.csv") == read("local.csv") and len(read("ray.csv")) == 6
    assert read("ray.cards.csv") == read("local.cards.csv")
    page = lambda name: (tmp_path / f"{name}-report" / "index.html").read_text()  # noqa: E731
    assert page("ray") == page("local") and "Balance report" in page("ray")


def test_without_ray_installed_the_ray_backend_is_a_usage_error_that_says_how_to_install_it(monkeypatch, capsys,
                                                                                          tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as it does where Ray is not installed
    assert main(["simulate", "--backend", "ray", "--games", "1", "--out", str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "error[E720]: --backend ray needs Ray, which is not installed" in err and "pip install 'tharsis[ray]'" in err


def test_an_address_where_no_cluster_answers_is_a_usage_error_not_a_long_wait(tmp_path):
    pytest.importorskip("ray", reason="the Ray backend is an optional extra: pip install 'tharsis[ray]'")
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "tharsis", "simulate", "--backend", "ray", "--address",
                          f"127.0.0.1:{port}", "--games", "1", "--out", str(tmp_path / "r.jsonl")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert f"error[E721]: cannot join the Ray cluster at 127.0.0.1:{port}: nothing answers" in run.stderr
    assert time.monotonic() - started < 60  # Ray alone would retry the address for minutes


def test_an_address_without_the_ray_backend_is_a_usage_error(capsys):
    assert main(["simulate", "--address", "10.0.0.1:6379", "--games", "1", "--out", os.devnull]) == 2
    err = capsys.readouterr().err
    assert "error[E706]" in err and "add --backend ray" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_in_a_log_is_one_plain_line_per_tenth_of_the_run():
    log = io.StringIO()
    Simulation(GameOptions(players=("g", "r"), seed=3), SEATS, 20, jobs=2).run(progress=log)
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert [line.split()[1] for line in lines] == [f"{n}/20" for n in range(2, 21, 2)]


def test_progress_on_a_terminal_redraws_one_bar():
    screen = _Terminal()
    Simulation(GameOptions(players=("g", "r"), seed=3), SEATS, 3).run(progress=screen)
    frames = screen.getvalue().split("\r")[1:]
    assert len(frames) == 3 and frames[-1].startswith("[" + "#" * 30 + "] 3/3 games")
    assert screen.getvalue().endswith("\n") and screen.getvalue().count("\n") == 1
