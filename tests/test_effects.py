"""`tharsis simulate --effect CARD`: what difference a card makes, from paired games with and without it.

The pairing itself (the two games of a seed are dealt alike and are the same move for move until the card's holder
meets the card), the statistics (Student's t against its tables, the Bonferroni correction, the verdicts and their
"not enough games to say"), real runs (a card worth 20 VP raises its holder's win rate; a card that does nothing but
can be sold shows an interval holding zero; the same records whatever --jobs), the CSV tables for pandas, the
report's section, and every refused argument. The report's other sections where seats use different bots (no
verdict, who played) are here too. tharsis/games/paired.py, effects.py and intervals.py.
"""

import csv
import json
import random

import pytest

from tharsis.cli import main
from tharsis.games import report
from tharsis.games.balance import Yours
from tharsis.games.effects import EFFECT_COLUMNS, FEW, LOWERS, NONE, RAISES, UNSURE, effects
from tharsis.games.intervals import paired_estimate, t_quantile, t_two_sided
from tharsis.games.paired import MIN_PAIRS, HandedGame, Plan, moves_digest
from tharsis.games.results_files import card_columns, player_columns
from tharsis.games.simulate import Simulation, summary
from tharsis.runtime.api.game import GameOptions, load_library
from tharsis.runtime.bots import BOTS

# Two cards of a designer's own: one that does nothing (it costs more than a bot ever spends on nothing, so it is
# never played; it can still be sold for 1 MC) and one worth 20 VP for 3 MC.
PROBES = '''\
card "Paperweight" #PW1 {
  set: probes  type: automated  cost: 60
}

card "Trophy" #PW2 {
  set: probes  type: automated  cost: 3
  vp: 20
}
'''
PAIRS = MIN_PAIRS
SEATS = ["--seat", "a=greedy", "--seat", "b=greedy"]


@pytest.fixture(scope="module")
def probes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("probes") / "probes"
    folder.mkdir()
    (folder / "cards.mars").write_text(PROBES, encoding="utf-8")
    return folder


def _experiment(folder, *more: str) -> list[str]:
    return ["simulate", "--cards", str(folder), "--effect", "Trophy", "--effect", "Paperweight", "--games", str(PAIRS),
            "--seed", "5", "--quiet", "--max-generations", "6", *SEATS, *more]


@pytest.fixture(scope="module")
def runs(probes, tmp_path_factory):
    """The same experiment twice: one process writing JSONL and the report, two processes writing CSV."""
    root = tmp_path_factory.mktemp("effects")
    with pytest.MonkeyPatch.context() as patch:
        printed = []
        patch.setattr("builtins.print", lambda *args, **kwargs: printed.append(" ".join(map(str, args)))
                      if kwargs.get("file") is None else None)
        report_args = ["--report", str(root / "report")] if report.available() else []
        assert main(_experiment(probes, "--jobs", "1", "--out", str(root / "r.jsonl"), *report_args)) == 0
        assert main(_experiment(probes, "--jobs", "2", "--out", str(root / "r.csv"), "--format", "csv")) == 0
    records = [json.loads(line) for line in (root / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    return {"root": root, "records": records, "printed": "\n".join(printed), "folder": probes}


def _table(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


# ------------------------------------------------------------------------------------------------ the statistics

def test_student_t_is_that_of_the_tables():
    for probability, df, expected in ((0.975, 10, 2.228138851986274), (0.975, 29, 2.045229642132703),
                                      (0.995, 5, 4.032142983557536), (0.975, 1, 12.706204736174698),
                                      (1 - 0.05 / 40, 99, 3.1026168), (0.975, 10_000, 1.9602012)):
        assert t_quantile(probability, df) == pytest.approx(expected, rel=1e-4)
        assert t_two_sided(t_quantile(probability, df), df) == pytest.approx(2 * (1 - probability), rel=1e-6)


def test_student_t_agrees_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 7, 29, 99, 1999):
        for probability in (0.9, 0.975, 0.995, 1 - 0.05 / 200):
            assert t_quantile(probability, df) == pytest.approx(stats.t.ppf(probability, df), rel=1e-8)
        for t in (0.05, 1.0, 2.5, 9.0):
            assert t_two_sided(t, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-8, abs=1e-15)


def test_bonferroni_widens_each_interval_to_the_level_of_alpha_over_the_cards_compared():
    differences = [1] * 9 + [-1] * 2 + [0] * 29          # 40 pairs: an effect of +17.5 points
    alone, among_twenty = paired_estimate(differences, 1), paired_estimate(differences, 20)
    assert alone.mean == among_twenty.mean == pytest.approx(0.175)
    ratio = (among_twenty.high - among_twenty.mean) / (alone.high - alone.mean)
    assert ratio == pytest.approx(t_quantile(1 - 0.05 / 40, 39) / t_quantile(0.975, 39))
    assert among_twenty.p == alone.p and among_twenty.p_adjusted == pytest.approx(min(1.0, 20 * alone.p))
    assert alone.excludes_zero and not among_twenty.excludes_zero   # shown alone, chance among twenty cards


def test_the_corrected_intervals_keep_the_chance_of_any_false_effect_under_five_percent():
    """Ten cards with no effect (most pairs equal, the others won or lost by the card at random), 600 runs of 30
    pairs each: the corrected intervals show an effect in some card in at most 5 % of the runs (give or take the
    Monte Carlo's error), where intervals at 95 % each would show one in about a third of them."""
    rng = random.Random(7)
    corrected = uncorrected = 0
    runs = 600
    for _ in range(runs):
        cards = [[rng.choice((1, -1)) if rng.random() < 0.3 else 0 for _ in range(30)] for _ in range(10)]
        corrected += any(paired_estimate(d, 10).excludes_zero for d in cards)
        uncorrected += any(paired_estimate(d, 1).excludes_zero for d in cards)
    assert corrected / runs <= 0.05 + 0.02
    assert uncorrected / runs > 0.2


def test_no_difference_at_all_is_a_point_and_no_effect():
    estimate = paired_estimate([0] * 40, 3)
    assert (estimate.mean, estimate.low, estimate.high, estimate.p, estimate.p_adjusted) == (0, 0, 0, 1, 1)
    assert not estimate.excludes_zero
    assert paired_estimate([1], 1).low is None and paired_estimate([], 1).pairs == 0


# ------------------------------------------------------------------------------------------------ the pairing

def _pair(folder, seed: int, card: str, holder: int, without=("Paperweight", "Trophy")):
    options = GameOptions(players=("a", "b", "c"), seed=seed, card_paths=(str(folder),))
    library = load_library(options.card_paths)
    return [HandedGame(options, library, without=without, holder=holder, card=handed) for handed in (None, card)]


def test_the_two_games_of_a_pair_are_dealt_alike_but_for_the_card_in_the_holders_hand(probes):
    without, with_card = _pair(probes, 3, "Trophy", holder=1)
    first, second = without.snapshot(), with_card.snapshot()
    assert second["players"][1]["hand"] == first["players"][1]["hand"] + ["Trophy"]
    second["players"][1]["hand"] = first["players"][1]["hand"]
    assert first == second                          # the deck, the other hands, the board, the random numbers
    assert without.pending().options == with_card.pending().options    # the corporations dealt
    for game in (without, with_card):
        assert not {"Trophy", "Paperweight"} & set(game.state.deck)     # out of the deck in both games
    plain = HandedGame(without.options, without.content, without=(), holder=0, card=None)
    assert [c for c in plain.state.deck if c not in ("Trophy", "Paperweight")] == without.state.deck   # same order


@pytest.mark.parametrize("card", ["Paperweight", "Trophy"])
def test_paired_games_are_the_same_move_for_move_until_the_holder_meets_the_card(probes, card):
    """Played side by side, the game with the card and the game without it make the same choices, until a choice
    of the holder: the holder's choice is the first to differ (playing the card, selling one card more, a random
    bot's draw among possible actions that include the card). Before it, every other player's choices and the
    whole state but the holder's hand are the same."""
    kinds = ("greedy", "random", "greedy")
    for seed in range(3):
        holder = seed % 3
        games = _pair(probes, seed, card, holder)
        bots = [{i: BOTS[kind](seed * 10 + i) for i, kind in enumerate(kinds)} for _ in games]
        while True:
            decisions = [game.pending() for game in games]
            chosen = [bot[decision.player].choose(game, decision).label
                      for game, bot, decision in zip(games, bots, decisions)]
            if chosen[0] != chosen[1]:
                break
            states = [game.snapshot() for game in games]
            for state in states:
                state["players"][holder]["hand"] = [c for c in state["players"][holder]["hand"] if c != card]
            assert states[0] == states[1]
            for game, label in zip(games, chosen):
                game.apply(label)
            assert not games[0].over, "the card never mattered: no divergence to test"
        assert decisions[0].player == decisions[1].player == holder
        assert list(games[0].log) == list(games[1].log)


def test_a_game_without_the_card_is_the_same_whichever_card_is_measured(probes):
    """The game without the tested cards is shared by all of them: played twice, it is the same game."""
    options = GameOptions(players=("a", "b"), seed=9, card_paths=(str(probes),))
    library = load_library(options.card_paths)
    digests = []
    for _ in range(2):
        game = HandedGame(options, library, without=("Trophy", "Paperweight"), holder=0, card=None)
        bots = {i: BOTS["greedy"](90 + i) for i in range(2)}
        while not game.over:
            decision = game.pending()
            game.apply(bots[decision.player].choose(game, decision))
        digests.append(moves_digest(game))
    assert digests[0] == digests[1]


def test_the_plan_plays_each_seed_without_the_cards_then_with_each_holders_in_turn():
    tasks = list(Plan(("X", "Y")).tasks(GameOptions(players=("a", "b", "c"), seed=10), [("a", "greedy"),
                                                                                     ("b", "greedy"),
                                                                                     ("c", "random")], 4))
    assert len(tasks) == Plan(("X", "Y")).games(4) == 12
    assert [(t[0]["seed"], t[2]["card"], t[2]["holder"]) for t in tasks[:6]] == [
        (10, None, "a"), (10, "X", "a"), (10, "Y", "a"), (11, None, "b"), (11, "X", "b"), (11, "Y", "b")]
    assert all(t[2]["without"] == ["X", "Y"] for t in tasks)
    fixed = list(Plan(("X",), holder="c").tasks(GameOptions(players=("a", "c"), seed=0), [("a", "greedy"),
                                                                                       ("c", "greedy")], 3))
    assert {t[2]["holder"] for t in fixed} == {"c"}


# ------------------------------------------------------------------------------------------------ the verdicts

def _record(seed: int, card, holder: str, won: bool, score: int, moves: str = "") -> dict:
    other = "b" if holder == "a" else "a"
    return {"seed": seed, "board": "Tharsis", "options": {}, "winner": holder if won else other, "tie_break": False,
            "generations": 12, "effect": {"holder": holder, "card": card, "without": ["X"]},
            "moves": moves or f"{seed}-{card}",
            "players": [{"seat": seat, "bot": "greedy", "corporation": corporation,
                         "total": score if holder == seat else 50, "played": [card] if card and holder == seat else []}
                        for seat, corporation in (("a", "Helion"), ("b", "Ecoline"))]}


def _records(pairs: int, flips: int, against: int = 0) -> list[dict]:
    """`pairs` pairs: the holder wins `flips` of them only with the card, `against` only without it."""
    records = []
    for seed in range(pairs):
        holder = "ab"[seed % 2]
        won_with, won_without = (True, False) if seed < flips else (False, True) if seed < flips + against \
            else (seed % 3 == 0, seed % 3 == 0)
        records += [_record(seed, None, holder, won_without, 60), _record(seed, "X", holder, won_with, 64)]
    return records


def test_an_effect_shown_from_thirty_pairs_on_is_a_verdict():
    card = effects(_records(40, 12)).cards[0]
    assert card.verdict_key == RAISES and card.verdict == "raises the win rate (more VP shown)"
    assert card.win.mean == pytest.approx(0.3) and card.vp.mean == 4
    assert card.holders == (("a", "greedy", 20), ("b", "greedy", 20)) and card.played == 40
    assert effects(_records(40, 0, 12)).cards[0].verdict_key == LOWERS


def test_fewer_than_thirty_pairs_are_not_enough_games_whatever_the_interval():
    card = effects(_records(MIN_PAIRS - 1, MIN_PAIRS - 1)).cards[0]    # the holder won every pair with it alone
    assert card.win.excludes_zero
    assert card.verdict_key == FEW
    assert card.verdict == f"not enough games to say ({MIN_PAIRS - 1} pairs; a verdict needs {MIN_PAIRS})"


def test_an_interval_holding_zero_is_not_enough_games_to_say():
    card = effects(_records(40, 3, 2)).cards[0]
    assert card.win.low < 0 < card.win.high
    assert card.verdict_key == UNSURE and card.verdict.startswith("not enough games to say")


def test_pairs_that_were_the_same_game_are_counted_and_all_of_them_changed_no_game():
    records = []
    for seed in range(40):
        records += [_record(seed, None, "a", True, 60, "same"), _record(seed, "X", "a", True, 60, "same")]
    card = effects(records).cards[0]
    assert card.identical == 40 and card.verdict_key == NONE and card.verdict == "changed no game"


def test_a_pair_missing_one_of_its_games_is_left_out_and_said():
    records = _records(40, 12)
    del records[1]                                   # the game of seed 0 with the card failed
    measured = effects(records)
    assert measured.cards[0].pairs == 39 and measured.incomplete == 1 and measured.seeds == 40


def test_the_cards_are_sorted_by_their_effect_on_the_win_rate():
    records = []
    for seed in range(40):
        records.append(_record(seed, None, "a", False, 60))
        records.append({**_record(seed, "X", "a", seed < 5, 61), "effect": {"holder": "a", "card": "X",
                                                                            "without": ["X", "Y"]}})
        records.append({**_record(seed, "Y", "a", seed < 20, 70), "effect": {"holder": "a", "card": "Y",
                                                                             "without": ["X", "Y"]}})
    measured = effects(records)
    assert [c.name for c in measured.cards] == ["Y", "X"] and measured.compared == 2
    # each interval is corrected for the two cards compared
    assert measured.cards[0].win == paired_estimate([1] * 20 + [0] * 20, 2)
    assert measured.cards[1].vp == paired_estimate([1] * 40, 2)


# ------------------------------------------------------------------------------------------------ real runs

def test_a_card_worth_20_vp_raises_its_holders_win_rate(runs):
    trophy = next(c for c in effects(runs["records"]).cards if c.name == "Trophy")
    assert trophy.pairs == PAIRS and trophy.played == PAIRS
    assert trophy.verdict_key == RAISES and trophy.win.low > 0
    assert 10 < trophy.vp.low and trophy.vp.mean == pytest.approx(20, abs=4)


def test_a_card_that_does_nothing_but_can_be_sold_shows_an_interval_holding_zero(runs):
    paperweight = next(c for c in effects(runs["records"]).cards if c.name == "Paperweight")
    assert paperweight.played == 0
    assert paperweight.win.low < 0 < paperweight.win.high
    assert paperweight.verdict_key == UNSURE


def test_an_experiment_plays_each_seed_without_the_cards_and_with_each(runs):
    records = runs["records"]
    assert len(records) == Plan(("Trophy", "Paperweight")).games(PAIRS)
    assert [r["effect"]["card"] for r in records[:3]] == [None, "Trophy", "Paperweight"]
    for record in records:
        holder = record["effect"]["holder"]
        for player in record["players"]:   # the tested cards reach no one but the holder of the one handed
            if player["seat"] != holder or record["effect"]["card"] is None:
                assert not {"Trophy", "Paperweight"} & set(player["played"])


def test_the_records_are_the_same_whatever_the_number_of_processes(runs):
    table = _table(runs["root"] / "r.csv")
    from_jsonl = [(str(r["seed"]), r["effect"]["holder"], r["effect"]["card"] or "", p["seat"], str(p["total"]))
                  for r in runs["records"] for p in r["players"]]
    assert [(row["seed"], row["holder"], row["handed"], row["seat"], row["total"]) for row in table] == from_jsonl


def test_the_summary_is_of_the_games_without_the_cards_then_the_effects(runs):
    printed = runs["printed"]
    assert f"{PAIRS} games without the tested cards" in printed
    assert "what each card changes for the seat that holds it from the start" in printed
    assert f"({PAIRS} seeds; holder: each seat in turn: a (greedy), b (greedy))" in printed
    assert "* simultaneous 95% intervals for the 2 cards compared (Bonferroni: each at 97.5%)" in printed
    lines = printed.splitlines()
    trophy = next(line for line in lines if line.startswith("Trophy "))
    assert "raises the win rate" in trophy
    assert lines.index(trophy) < lines.index(next(line for line in lines if line.startswith("Paperweight ")))


def test_the_effects_table_is_a_row_per_card_for_pandas(runs):
    pandas = pytest.importorskip("pandas")
    root = runs["root"]
    frame = pandas.read_csv(root / "r.effects.csv")
    assert tuple(frame.columns) == EFFECT_COLUMNS
    assert list(frame.card) == ["Trophy", "Paperweight"]
    measured = {c.name: c for c in effects(runs["records"]).cards}
    for row in frame.itertuples():
        card = measured[row.card]
        assert (row.pairs, row.played, row.compared, row.verdict) == (card.pairs, card.played, 2, card.verdict_key)
        assert (row.win_effect, row.win_low, row.win_high) == pytest.approx((card.win.mean, card.win.low,
                                                                             card.win.high))
        assert (row.vp_effect, row.vp_low, row.vp_high) == pytest.approx((card.vp.mean, card.vp.low, card.vp.high))
        assert row.p_adjusted == pytest.approx(min(1, 2 * row.p_value))
        assert row.yours
    players = pandas.read_csv(root / "r.csv", keep_default_na=False)
    assert tuple(players.columns) == player_columns(False, experiment=True)
    assert len(players) == Plan(("Trophy", "Paperweight")).games(PAIRS) * 2
    assert set(players.handed) == {"", "Trophy", "Paperweight"}
    cards = pandas.read_csv(root / "r.cards.csv", keep_default_na=False)
    assert tuple(cards.columns) == card_columns(experiment=True)
    # the paired differences, as a pandas user computes them from the per-player table
    holders = players[players.seat == players.holder].pivot(index="seed", columns="handed", values="won")
    difference = (holders["Trophy"].astype(int) - holders[""].astype(int)).mean()
    assert difference == pytest.approx(measured["Trophy"].win.mean)


def test_the_report_shows_each_cards_effect_sorted_with_its_interval(runs):
    pytest.importorskip("matplotlib")
    page = (runs["root"] / "report" / "index.html").read_text(encoding="utf-8")
    section = " ".join(page[page.index('<section id="effects">'):page.index('<section id="yours">')].split())
    assert section.index('data-name="Trophy"') < section.index('data-name="Paperweight"')
    assert 'class="effect-raises">raises the win rate' in section
    assert "simultaneous 95% intervals for the 2 cards" in section
    assert "Effect on the win rate" in section and "Effect on VP" in section     # the chart's panels
    assert f"{PAIRS} seeds" in page and "Your cards were the tested ones" in page
    assert f"of the {PAIRS} games without the tested cards" in section


def test_tharsis_report_draws_an_experiments_page_again(runs, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    assert main(["report", str(runs["root"] / "r.jsonl"), "--out", str(tmp_path / "again"),
                 "--cards", str(runs["folder"])]) == 0
    again = (tmp_path / "again" / "index.html").read_text(encoding="utf-8")
    assert again == (runs["root"] / "report" / "index.html").read_text(encoding="utf-8")


def test_a_results_line_with_a_broken_effect_is_refused(runs, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    record = dict(runs["records"][1])
    record["effect"] = {"holder": "zed", "card": "Trophy", "without": ["Trophy"]}
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(runs["records"][0]) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["report", str(broken), "--out", str(tmp_path / "r")]) == 1
    assert "error[E763]: line 2: 'effect.holder' is none of the seats" in capsys.readouterr().err


def test_an_interrupted_experiment_keeps_the_effects_of_its_finished_pairs(probes, monkeypatch, tmp_path, capsys):
    from tharsis.games.records import play_one

    def interrupted(self, progress=None):
        self.interrupted = True
        tasks = self.tasks()
        return [play_one(next(tasks)) for _ in range(3)]     # the first seed's three games, then Ctrl-C

    monkeypatch.setattr(Simulation, "run", interrupted)
    out = tmp_path / "r.csv"
    assert main(_experiment(probes, "--out", str(out), "--format", "csv")) == 130
    total = Plan(("Trophy", "Paperweight")).games(PAIRS)
    assert f"tharsis: interrupted: 3 of {total} games finished" in capsys.readouterr().err
    rows = _table(tmp_path / "r.effects.csv")
    assert {(row["card"], row["pairs"], row["verdict"]) for row in rows} == {("Trophy", "1", FEW),
                                                                             ("Paperweight", "1", FEW)}
    assert all(row["win_low"] == row["win_high"] == "" for row in rows)     # one pair: no interval


# ------------------------------------------------------------------------------------------------ refused arguments

@pytest.mark.parametrize("argv, code, problem, hint", [
    (["--effect", "Trophi"], 2, "error[E707]: --effect Trophi: no card is called 'Trophi'", "did you mean 'Trophy'?"),
    (["--effect", "Ecoline"], 2, "error[E764]: --effect Ecoline: Ecoline is a corporation, not a project card",
     "--corporation SEAT=NAME"),
    (["--effect", "Dirigibles"], 2, "error[E764]: --effect Dirigibles: these games do not deal Dirigibles (a card of "
                                    "the venus set)", "add --expansion venus"),
    (["--effect", "Sell Patents"], 2, "error[E764]: --effect Sell Patents: Sell Patents is a standard project, not "
                                      "a project card", None),
    (["--effect", "Allied Bank", "--expansion", "prelude"], 2,
     "error[E764]: --effect Allied Bank: Allied Bank is a prelude", None),
    (["--effect", "Trophy", "--games", "10"], 2, "error[E701]: --games 10 with --effect: a card's effect needs at "
                                                 f"least {MIN_PAIRS} pairs of games", f"--games {MIN_PAIRS} or more"),
    (["--effect", "Trophy", "--games", "999999"], 2, "error[E701]: --games 999999 with 1 --effect cards is "
                                                     "1,999,998 games", None),
    (["--effect", "Trophy", "--holder", "zed"], 2, "error[E702]: --holder zed: there is no seat 'zed'", "a, b"),
    (["--holder", "a"], 2, "error[E706]: --holder a: the holder of a card is a seat of the card-effect experiment",
     "add --effect CARD"),
])
def test_bad_arguments_are_refused_before_any_game(probes, tmp_path, monkeypatch, capsys, argv, code, problem, hint):
    monkeypatch.chdir(tmp_path)
    games = [] if "--games" in argv else ["--games", str(PAIRS)]
    assert main(["simulate", "--cards", str(probes), "--quiet", *SEATS, *games, *argv]) == code
    captured = capsys.readouterr()
    assert problem in captured.err and (hint is None or hint in captured.err), captured.err
    assert captured.out == "" and not list(tmp_path.iterdir())     # no game was played, no file written


# ------------------------------------------------------------------------------------------- the descriptive tables

@pytest.fixture(scope="module")
def mixed():
    """Six games of two greedy seats and a random one."""
    options = GameOptions(players=("me", "rival", "r"), seed=40)
    seats = [("me", "greedy"), ("rival", "greedy"), ("r", "random")]
    return seats, Simulation(options, seats, 6).run(progress=None)


@pytest.mark.slow
def test_where_the_seats_use_different_bots_the_report_draws_no_verdict_and_says_who_played(mixed):
    pytest.importorskip("matplotlib")
    seats, records = mixed
    played = {card for record in records for player in record["players"] for card in player["played"]}
    yours = Yours(cards=frozenset(sorted(played)[:4]))
    page = " ".join(report.render(records, yours).split())
    for verdict in ("stronger than average", "weaker than average", "not shown to differ", "against the average"):
        assert verdict not in page
    assert 'id="mixed-bots"' in page and "different bots (greedy, random)" in page
    assert "<th scope=\"col\">played by</th>" in page and 'class="bots">greedy ' in page
    same = [{**record, "players": [{**player, "bot": "greedy"} for player in record["players"]]}
            for record in records]
    page = " ".join(report.render(same, yours).split())
    assert "against the average player" in page and 'id="mixed-bots"' not in page
    assert "simulate --effect CARD" in page


def test_the_tracked_cards_say_which_bots_played_them_where_the_seats_differ(mixed):
    seats, records = mixed
    card = records[0]["players"][0]["played"][0]
    text = summary(records, seats, (card,))
    assert "played by" in text
    row = next(line for line in text.splitlines() if line.startswith(card[:31]) and "%" in line)
    assert "greedy " in row
    corporations = text[text.index("corporation (per player)"):text.index("players who played")]
    assert corporations.splitlines()[0].endswith("played by") and "random " in corporations
    assert "played by" not in summary(records, [(name, "greedy") for name, _ in seats], (card,))


# ------------------------------------------------------------------------------------------- the designer's guide

def _guide_runs(repo) -> list[tuple[list[str], str]]:
    """docs/designing-cards.md "Measure them": each `$ tharsis simulate ...` block, its arguments and what it shows."""
    import re
    import shlex

    text = (repo / "docs" / "designing-cards.md").read_text(encoding="utf-8")
    chapter = text[text.index("## 6. Measure them"):text.index("## 7. ")]
    runs = []
    for block in re.findall(r"```\n\$ (tharsis simulate .*?)```", chapter, re.S):
        lines = block.split("\n")
        length = 1
        while lines[length - 1].endswith("\\"):   # the command goes on on the next line
            length += 1
        command = " ".join(line.rstrip("\\").strip() for line in lines[:length])
        runs.append((shlex.split(command)[1:], "\n".join(lines[length:])))
    return runs


@pytest.mark.slow
def test_the_designers_guide_shows_what_its_commands_print(repo, tmp_path, monkeypatch, capsys):
    """The chapter's runs (900 games with --effect, 200 without) print what the chapter shows, word for word."""
    import shutil

    runs = _guide_runs(repo)
    assert len(runs) == 2 and any("--effect" in argv for argv, _ in runs)
    shutil.copytree(repo / "docs" / "examples" / "venus-labs", tmp_path / "docs" / "examples" / "venus-labs")
    monkeypatch.chdir(tmp_path)
    for argv, shown in runs:
        for stale in tmp_path.glob("results*"):
            stale.unlink()
        assert main(argv + ["--quiet"]) == 0
        assert capsys.readouterr().out == shown
