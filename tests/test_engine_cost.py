"""The cost guard: a game must not grow more than 10 % dearer than the figure recorded in tests/engine_cost.json,
counted in Python bytecodes and frames, which the machine's load cannot change (tharsis/games/cost.py says how and
why the count follows callgrind's CPU instructions; docs/benchmarks.md has the figures). A change that is meant to
cost more (or that saves more than 10 %) records the figures anew: `python -m tharsis.games.cost record`, with the
reason in the commit message."""

import pytest

from tharsis.games import cost


def test_every_workload_costs_within_ten_percent_of_its_recorded_figure():
    try:
        lines, problems = cost.check()
    except LookupError as error:   # another Python's bytecodes, or a compiled engine: nothing to compare
        pytest.skip(str(error))
    assert not problems, "\n".join(lines + problems)


def test_a_game_eleven_percent_dearer_or_cheaper_than_recorded_is_refused_and_ten_percent_is_not():
    recorded = {"base, 2 players": 1_000_000}
    assert cost.compare(recorded, {"base, 2 players": 1_100_000})[1] == []
    assert cost.compare(recorded, {"base, 2 players": 900_000})[1] == []
    over = cost.compare(recorded, {"base, 2 players": 1_110_000})[1]
    under = cost.compare(recorded, {"base, 2 players": 890_000})[1]
    assert len(over) == 1 and "over the recorded figure" in over[0]
    assert len(under) == 1 and "under the recorded figure" in under[0]
    assert "no figure recorded" in cost.compare({}, {"base, 2 players": 1})[1][0]


def test_the_count_is_the_same_in_every_run_and_grows_with_the_work():
    one, again = cost.measure(2, (), 1), cost.measure(2, (), 1)
    assert one == again
    two = cost.measure(2, (), 2)
    assert two["cost_per_game"] * 2 > one["cost_per_game"] * 1.5   # two games are counted, not one
    assert one["cost_per_game"] > 100_000 and one["decisions_per_game"] > 100
