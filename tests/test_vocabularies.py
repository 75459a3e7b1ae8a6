"""One home per closed vocabulary: the kinds of tile and space and the player limits (compiler/vocabulary.py, which the
engine's runtime/core/state.py hands on), the phases (runtime/core/state.py). Everyone else reads the names there and
asks a tile's roles (`kind in CITY_TILES`), so a new kind of tile costs its name, its roles and its own rules, and
these tests find a module that spells one."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tharsis.compiler import compile_text, vocabulary as v
from tharsis.runtime.api import MAX_PLAYERS, MIN_PLAYERS, PHASES, Game, GameOptions
from tharsis.runtime.api.research import GameState

FOLDERS = ("compiler", "runtime", "tharsis")
HOME = Path("compiler") / "vocabulary.py"
# the same word in another vocabulary, where it is not a tile: module -> words allowed there, and why
ELSEWHERE = {
    Path("runtime") / "api" / "action_space.py": {"special"},   # the segment of special moves: pass, done, yes, ...
    Path("runtime") / "api" / "option_features.py": {"special"},   # that segment, read back from an id
}


def _sources(repo: Path):
    for folder in FOLDERS:
        for path in sorted((repo / folder).rglob("*.py")):
            yield path.relative_to(repo), ast.parse(path.read_text(encoding="utf-8"))


def test_no_module_but_the_vocabulary_spells_the_name_of_a_kind_of_tile(repo):
    found = []
    for path, tree in _sources(repo):
        if path == HOME:
            continue
        allowed = ELSEWHERE.get(path, set())
        found += [f"{path}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in v.TILES and node.value not in allowed]
    assert found == [], "ask the roles in compiler/vocabulary.py (CITY_TILES, OCEAN_TILES, ...) instead"


def test_no_module_compares_or_sets_a_phase_by_its_spelled_name(repo):
    """`state.phase = "action"` or `phase in ("final greenery", "end")` outside runtime/core/state.py: the names
    of the phases are PHASES (SETUP ... END), re-exported by tharsis.runtime.api."""
    def spelled(node) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in PHASES
        return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(map(spelled, node.elts))

    def is_phase(node) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "phase"

    found = []
    for path, tree in _sources(repo):
        if path == Path("runtime") / "core" / "state.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and (is_phase(node.left) or any(map(is_phase, node.comparators))):
                parts = [node.left, *node.comparators]
            elif isinstance(node, ast.Assign) and any(map(is_phase, node.targets)):
                parts = [node.value]
            else:
                continue
            found += [f"{path}:{node.lineno}" for part in parts if spelled(part)]
    assert found == []


def test_the_tile_roles_are_kinds_of_tile_and_each_kind_is_told_in_both_languages():
    roles = (v.CITY_TILES, v.GREENERY_TILES, v.OCEAN_TILES, v.NAMED_TILES, set(v.TILE_RAISES))
    assert all(role <= set(v.TILES) for role in roles)
    assert v.ANY_TILE not in v.TILES and set(v.TILE_WORDS) == set(v.TILES) | {v.ANY_TILE}
    assert set(v.TILE_RAISES.values()) <= set(v.GLOBAL_RANGES)
    from tharsis.compiler.rules_text import phrases

    for language in ("en", "zh"):
        t = phrases(language)
        assert all(f"{kind}_tile" in t.nouns for kind in v.TILES), language


def test_the_phases_a_game_goes_through_are_the_named_ones():
    from tharsis.runtime.api import ACTION, END, RESEARCH, SETUP
    from tharsis.terminal.engine_zh import ZH_PHASES

    assert set(ZH_PHASES) == set(PHASES)
    state = GameState.new_game(players=2, seed=3, corporate_era=True, max_generations=2)
    rng = random.Random(3)
    seen = [state.game.state.phase]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        if state.game.state.phase != seen[-1]:
            seen.append(state.game.state.phase)
    assert set(seen) <= set(PHASES)
    assert seen[0] == SETUP and seen[-1] == END and {RESEARCH, ACTION} <= set(seen)


def test_every_bound_on_the_number_of_players_is_the_engines():
    from tharsis.games.options import PLAYERS
    from tharsis.runtime.api.action_space import action_space
    from tharsis.terminal import style

    assert PLAYERS == (MIN_PLAYERS, MAX_PLAYERS)
    assert len(style.PLAYERS) == MAX_PLAYERS   # a colour per seat
    names = tuple(f"p{i}" for i in range(MAX_PLAYERS))
    assert len(Game(GameOptions(players=names, seed=1)).state.players) == MAX_PLAYERS
    with pytest.raises(ValueError, match=f"{MIN_PLAYERS} to {MAX_PLAYERS} players"):
        Game(GameOptions(players=names + ("one too many",), seed=1))
    game = Game(GameOptions(players=("a", "b"), seed=1))
    assert action_space(game).segments["seat"][1] == MAX_PLAYERS
    assert GameState(game).observation_tensor_layout()[0][1] == MAX_PLAYERS


def test_a_new_kind_of_tile_needs_only_its_name_in_the_vocabulary(monkeypatch, tmp_path):
    """A kind in no role (a hazard, say) is checked, placed on land by its player, owned, counted and drawn on the
    map like a special tile, and told as one in rules text, with no edit but its name in compiler/vocabulary.py."""
    from tharsis.compiler import rules_text
    from tharsis.runtime.handlers.actions import play_card
    from tharsis.runtime.rules.scoring import final_scores
    from tharsis.terminal.view import board

    monkeypatch.setenv("THARSIS_CACHE_DIR", str(tmp_path))   # what this compiles is no card of the real vocabulary
    card = ('card "Hazard Zone" #H1 {\n  type: automated  cost: 0\n  play: place hazard\n'
            '  vp: 1 per adjacent hazard\n}\n')
    assert "E103" in {d.code for d in compile_text(card).errors}       # unknown tile, until it is named
    monkeypatch.setattr(v, "TILES", v.TILES + ("hazard",))
    monkeypatch.setattr(v, "TILE_WORDS", v.TILE_WORDS + ("hazard",))
    result = compile_text(card, with_bundled=True)
    assert result.errors == []
    told = rules_text.card(result.library.get("Hazard Zone"))
    assert "Place a special tile" in told and "hazard_tile" not in told
    game = Game(GameOptions(players=("ann", "bob"), seed=1), result.library, start=False)
    game.state.players[0].hand = ["Hazard Zone"]
    game.start_flow(play_card, 0, "Hazard Zone")
    decision = game.pending()
    assert decision.kind == "space"
    land = set(game.board.open_ids[v.LAND])
    assert {o.value for o in decision.options} <= land and len(decision.options) > 30
    game.apply(decision.options[0])
    space = decision.options[0].value
    placed = game.state.tiles[space]
    assert (placed.kind, placed.owner, placed.is_city) == ("hazard", 0, False)
    assert (game.state.oxygen, game.state.oceans, game.state.temperature) == (0, 0, -30)   # it raises nothing
    assert final_scores(game)["players"][0]["cards"] == 0   # no other hazard next to it
    assert "S" in board(game)
