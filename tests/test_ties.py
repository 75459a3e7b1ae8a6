"""A full tie (points and megacredits equal, RULES.md 6: the win is shared) is a tie in the results: the game's
result names the seats that share it, a results file records no winner but those seats, and win counts split the
win among them (simulate's summary and win rates, the report's balance)."""

from tharsis.games.balance import balance
from tharsis.games.results_files import win_share
from tharsis.games.simulate import summary, win_rates
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.rules.scoring import final_scores


def _record(seed: int, winner, tied=None) -> dict:
    players = [{"seat": seat, "bot": "greedy", "corporation": corporation, "total": 80, "played": ["Comet"],
                "megacredits": 10} for seat, corporation in (("ann", "Ecoline"), ("bob", "Helion"))]
    return {"seed": seed, "winner": winner, "tie_break": tied is not None, "generations": 10, "players": players,
            **({"tied": tied} if tied else {})}


def test_a_full_tie_is_a_shared_win_in_the_result_and_a_tie_on_points_alone_is_not():
    game = Game(GameOptions(players=("ann", "bob"), seed=1))
    for player in game.state.players:
        player.tr, player.resources["megacredits"] = 30, 12
    assert final_scores(game)["tied"] == ["ann", "bob"]
    game.state.players[1].resources["megacredits"] = 13
    result = final_scores(game)
    assert "tied" not in result and result["winner"] == "bob" and result["tie_break"]


def test_win_counts_split_a_full_tie():
    records = [_record(1, "ann"), _record(2, None, ["ann", "bob"])]
    assert [win_share(records[1], seat) for seat in ("ann", "bob")] == [0.5, 0.5]
    assert dict((name, wins) for name, _, wins in win_rates(records, lambda row: row["seat"])) == \
        {"ann": 1.5, "bob": 0.5}
    numbers = balance(records)
    assert [(s.name, s.wins) for s in numbers.seats] == [("ann", 1.5), ("bob", 0.5)]
    card = next(c for c in numbers.cards if c.name == "Comet")
    assert card.wins == 2    # every win is someone's: the tied game's half wins add up to one
    table = summary(records, [("ann", "greedy"), ("bob", "greedy")])
    assert "   1.5" in table and "   0.5" in table
