"""The greedy bot with pieces, sites and factions (the constructs of docs/language.md "Pieces and sites" and
"Factions and a government", bundled as Colonies and Turmoil): in seeded whole games it visits sites and places
pieces on them, places pieces in factions and finishes its games; its valuation charges a TR step the tax in force,
and values a piece in a faction by the lead it gains. docs/benchmarks.md has the same over 200 games each."""

import collections

import pytest

from tharsis.compiler import effects as fx
from tharsis.runtime.api import ACTION, RESEARCH
from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.api.queries import site_choice
from tharsis.runtime.bots import GreedyBot
from tharsis.runtime.bots.greedy import effects_value, faction_worth

NAMES = ("ann", "bob", "cy", "dee")


@pytest.fixture(scope="module")
def library():
    return load_library()


def greedy_game(library, expansions: tuple, players: int, seed: int, seen=None) -> Game:
    """A whole game between greedy bots; `seen` (a Counter) collects what each choice of a site was for."""
    game = Game(GameOptions(players=NAMES[:players], seed=seed, expansions=expansions), library)
    bots = {i: GreedyBot(seed * 10 + i) for i in range(players)}
    while not game.over:
        decision = game.pending()
        if seen is not None and decision.kind == "site":
            seen[site_choice(game)[0]] += 1
        game.apply(bots[decision.player].choose(game, decision))
    return game


def by_player(game: Game, kind: str) -> collections.Counter:
    return collections.Counter(event[2] for event in game.events if event[1] == kind and event[2] is not None)


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_greedy_visits_sites_and_places_pieces_on_them_in_every_game(library, players, seed):
    seen = collections.Counter()
    game = greedy_game(library, ("colonies",), players, seed, seen)
    assert game.result["winner"] in NAMES[:players]
    assert by_player(game, "visit") and by_player(game, "build")
    assert seen["place"] and seen["visit"]   # each choice of a site knew what it was for


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2)])
def test_greedy_places_pieces_in_factions_and_finishes_the_game(library, players, seed):
    game = greedy_game(library, ("turmoil",), players, seed)
    assert game.result["winner"] in NAMES[:players] and game.result["generations"] < 30
    assert set(by_player(game, "faction_in")) == set(range(players))   # every greedy player placed pieces


def _at(library, phase: str, ruling: str) -> Game:
    """A 2-player game with a government, at the first decision of `phase`, with `ruling` in power."""
    game = Game(GameOptions(players=NAMES[:2], seed=3, expansions=("turmoil",)), library)
    bots = {i: GreedyBot(i) for i in range(2)}
    while game.state.phase != phase:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    game.state.government.ruling = ruling
    return game


@pytest.mark.parametrize("phase", [ACTION, RESEARCH])
def test_greedy_values_a_tr_step_less_by_the_tax_of_the_ruling_faction(library, phase):
    """The printed faction that taxes TR steps charges 3 MC a step (cards/turmoil/turmoil.mars); in the research
    phase the step is valued as it will be played, under the policy in force."""
    step = (fx.ChangeParameter("tr", fx.Amount(1)),)
    untaxed = effects_value(_at(library, phase, "Greens"), step, 0)
    taxed = effects_value(_at(library, phase, "Reds"), step, 0)
    assert untaxed - taxed == pytest.approx(3.0)


def test_a_piece_that_gains_the_lead_of_a_faction_is_worth_more_than_one_that_does_not(library):
    game = _at(library, ACTION, "Greens")
    government = game.state.government
    contested, empty = government.factions[0], government.factions[1]
    contested.pieces, contested.leader = [1, 1], 1      # the opponent leads with two
    empty.pieces, empty.leader = [], None
    assert faction_worth(game, empty, 0) > faction_worth(game, contested, 0) == 1.0


def test_simulate_records_the_pieces_each_player_placed_and_sent_and_sums_them_up():
    from tharsis.games.records import play_one
    from tharsis.games.simulate import summary

    seats = [("a", "greedy"), ("b", "greedy")]
    with_pieces = play_one((GameOptions(players=("a", "b"), seed=5, expansions=("colonies",)).to_json(), seats))
    placed = sum(p["pieces_placed"].get("colony", 0) for p in with_pieces["players"])
    sent = sum(p["pieces_sent"].get("trade fleet", 0) for p in with_pieces["players"])
    assert placed and sent
    text = summary([with_pieces], seats)
    assert f"colony placed: in 1 of 1 games (100.0%), {placed:.1f} a game" in text
    assert f"trade fleet sent: in 1 of 1 games (100.0%), {sent:.1f} a game" in text
    without = play_one((GameOptions(players=("a", "b"), seed=5).to_json(), seats))
    assert not any(key.startswith("pieces") for key in without["players"][0])   # a base game's record as before
    assert "placed:" not in summary([without], seats)
