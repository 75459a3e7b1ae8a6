"""Deals no player can foresee (issue 17): a seed that is not given has 63 bits from the operating system, and the
shuffles come from a hash keyed by the seed, so a player who knows their own starting cards can neither scan the
seeds for the game's nor work the deck out from what they were dealt. The same seed still deals the same game."""

import json
import re
import time

import pytest

from tharsis.cli import main
from tharsis.games.options import SEED_MAX, random_seed
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.core import rng

SCANNED = 2**20
CONTROL = SCANNED - 1   # a seed the scan must find: the last one it tries, so the whole range is covered


def _starting_cards(game: Game) -> frozenset:
    """The ten cards the first player is offered, as they see them (choosing the corporation, then card by card)."""
    game.apply(0)
    game.apply(0)
    cards = []
    while (decision := game.pending()).player == 0 and decision.prompt.startswith("Buy "):
        cards.append(decision.labels()[0].removeprefix("buy "))
        game.apply(1)  # discard: the next offer
    assert len(cards) == 10
    return frozenset(cards)


def _scan(deck: list[str], wanted: dict[frozenset, str]) -> dict[str, list[int]]:
    """Every seed below SCANNED whose first ten cards off the shuffled deck are one of `wanted`'s hands. Only the
    top of the deck is dealt for each seed (the Fisher-Yates steps from the end fix the top cards first), and a seed
    whose top card is in no hand is dropped after one draw."""
    found = {name: [] for name in wanted.values()}
    size = len(deck)
    firsts = set().union(*wanted)
    for seed in range(SCANNED):
        state, word = rng.next64(rng.seeded(seed))
        if deck[(word * size) >> 64] not in firsts:
            continue
        cards = deck.copy()
        state = rng.seeded(seed)
        for i in range(size - 1, size - 11, -1):
            state, j = rng.below(state, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        hand = frozenset(cards[-10:])
        if hand in wanted:
            found[wanted[hand]].append(seed)
    return found


def test_a_default_seed_has_63_random_bits():
    seeds = {random_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s <= SEED_MAX for s in seeds)
    assert max(seeds) >= 2**60  # 63 bits: all 64 below 2**60 has odds of 2**-192
    assert all(0 <= random_seed(games=1000) <= SEED_MAX - 999 for _ in range(64))


@pytest.mark.slow
def test_a_scan_of_2_to_the_20_seeds_from_the_first_players_cards_finds_nothing_for_a_default_seed():
    options = GameOptions(players=("ann", "bob"), seed=random_seed())
    game = Game(options)
    library, sets = game.library, game.elements.sets
    deck = sorted(d.name for d in library.values() if d.kind == "card" and d.set in sets
                  and d.type not in game.elements.card_kinds)  # the deck before its shuffle (Game.project_deck)
    wanted = {_starting_cards(game): "default", _starting_cards(Game(GameOptions(("ann", "bob"), seed=CONTROL))):
              "control"}
    started = time.perf_counter()
    found = _scan(deck, wanted)
    assert found == {"default": [], "control": [CONTROL]}, (options.seed, found)
    assert time.perf_counter() - started < 120


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    first, again, other = (Game(GameOptions(("ann", "bob"), seed=s)) for s in (2**62 + 5, 2**62 + 5, 2**62 + 6))
    assert first.snapshot() == again.snapshot() and first.state.deck != other.state.deck
    assert _starting_cards(first) == _starting_cards(again) != _starting_cards(other)


def test_the_deal_state_is_one_int_that_saves_and_clones_copy():
    game = Game(GameOptions(("ann", "bob"), seed=12345))
    assert isinstance(game.state.rng, int)
    assert json.loads(json.dumps(game.snapshot()))["rng"] == game.state.rng == game.clone().state.rng


def test_simulate_without_a_seed_draws_one_and_prints_and_records_it(tmp_path, capsys):
    out = tmp_path / "results.jsonl"
    assert main(["simulate", "--games", "2", "--quiet", "--out", str(out)]) == 0
    first = int(re.search(r"seeds (\d+) to (\d+) \(--seed \1 plays these games again\)",
                          capsys.readouterr().out).group(1))
    assert [json.loads(line)["seed"] for line in out.read_text().splitlines()] == [first, first + 1]
