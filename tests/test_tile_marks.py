"""Tiles on top of tiles and marks on tiles (issue 30: New Holland, St. Joseph of Cupertino Mission): the covered
tile and the marks are part of the state (clones, saves, a replay), out of the saves of games without them, shown
under the terminal's map; the compiler refuses what cannot be meant. tests/scenarios/rules/tiles-on-top.yaml and
marks-on-tiles.yaml play the rules."""

import pytest

from tharsis.compiler import compile_text, effects as fx, text
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.research import GameState
from tharsis.runtime.core.state import Tile
from tharsis.terminal import view

MISSION = '''mark cathedral

card "Mission" {
  type: active  cost: 7
  action: pay 5 megacredits using steel -> put cathedral on city max 1 { that player { may { pay 2 MC; draw 1 } } }
  vp: 1 per city with cathedral
}
'''


def _compiled(lines: str):
    return compile_text("mark cathedral\n" + f'card "Probe" {{\n  type: active  cost: 1\n  {lines}\n}}\n', "<probe>")


@pytest.mark.parametrize("line, effect", [
    ("play: place city on top of ocean", fx.PlaceTile("city", filters=(fx.SpaceFilter("on_tile", tile="ocean"),))),
    ("play: place greenery on top of your city",
     fx.PlaceTile("greenery", filters=(fx.SpaceFilter("on_tile", tile="city", own=True),))),
    ("play: put 2 cathedrals on opponent city next to ocean max 3",
     fx.PutMark("cathedral", "city", 2, False, True, (fx.SpaceFilter("next_to", tile="ocean"),), 3)),
])
def test_the_forms_compile_and_write_back_as_written(line, effect):
    result = _compiled(line)
    assert not result.errors, [d.message for d in result.errors]
    compiled = result.library.get("Probe").play[0]
    assert compiled == effect
    assert text.effect(compiled, card_text=True) == line.split(": ", 1)[1]


@pytest.mark.parametrize("line, code, words", [
    ("play: place ocean on top of city", "E301", "never an ocean"),
    ("play: place city on top of city", "E301", "another kind"),
    ("play: place city on top of your ocean", "E301", "belongs to nobody"),
    ("play: claim space on top of ocean", "E301", "only 'place'"),
    ("play: replace your city tile on top of ocean with greenery", "E301", "only 'place'"),
    ("play: put shrine on city", "E112", "unknown mark 'shrine'"),
    ("play: put cathedral on citty", "E103", "unknown tile"),
    ("play: put 2 cathedral on city max 1", "E302", "no more than 'max'"),
    ("play: put cathedral on city ignoring adjacency", "E301", "a mark goes on a tile"),
    ("vp: 1 per city with shrine", "E112", "unknown mark 'shrine'"),
    ("play: that player { gain 1 MC }", "E307", "put MARK on TILE"),
])
def test_misuses_are_refused_with_a_code(line, code, words):
    result = _compiled(line)
    assert [d.code for d in result.errors] == [code], [d.message for d in result.errors]
    assert words in result.errors[0].message


def _game(tmp_path) -> GameState:
    (tmp_path / "mission.mars").write_text(MISSION, encoding="utf-8")
    return GameState.new_game(players=2, seed=5, card_paths=(str(tmp_path),))


def test_a_covered_tile_and_marks_are_in_clones_and_saves_and_out_of_saves_without_them(tmp_path):
    game = _game(tmp_path).game
    saved = game.to_json()
    assert '"covered"' not in saved and '"marks"' not in saved
    state = game.state
    state.covered["33"] = Tile("ocean", None)
    state.tiles["33"] = Tile("city", 0, is_city=True, marks=(("cathedral", 1),))
    clone = game.clone()
    clone.state.covered.clear()
    clone.state.tiles["33"] = Tile("city", 0, is_city=True)
    assert state.covered == {"33": Tile("ocean", None)} and state.tiles["33"].marked("cathedral") == 1
    loaded = Game.from_json(game.to_json())
    assert loaded.state.covered == state.covered and loaded.state.tiles["33"] == state.tiles["33"]


@pytest.mark.parametrize("language, words", [("en", ["33 city on ocean", "33 1 cathedral"]),
                                             ("zh", ["33 海洋板块上的城市板块", "33 1个cathedral"])])
def test_the_map_tells_what_its_cells_cannot_show(tmp_path, language, words):
    game = _game(tmp_path).game
    assert "cathedral" not in view.board(game, language=language)
    game.state.covered["33"] = Tile("ocean", None)
    game.state.tiles["33"] = Tile("city", 0, is_city=True, marks=(("cathedral", 1),))
    shown = view.board(game, language=language)
    assert all(w in shown for w in words), shown


def test_completion_offers_the_declared_marks_and_the_tiles_where_they_go(tmp_path):
    """`put |` offers the declared marks, `put cathedral on |` the tiles and whose, `place city on top of |` the
    tiles; `on` after a placement offers `top` among the kinds of space."""
    from tharsis.designer.lsp.analysis import analyse

    def labels(line: str) -> set:
        text = f'mark cathedral\n\ncard "Probe" {{\n  type: active  cost: 1\n  action: {line}\n}}\n'
        return {item.label for item in analyse(str(tmp_path / "probe.mars"), text).completions(4, 10 + len(line))}

    assert "cathedral" in labels("put ")
    assert {"city", "ocean", "tile", "your", "opponent"} <= labels("put cathedral on ")
    assert {"ocean", "city", "greenery"} <= labels("place city on top of ")
    assert "top" in labels("place city on ")


BUILDERS = MISSION + '''
corporation "Cathedral Builders" {
  start: 60 megacredits
  first action: place ocean; place city on top of ocean
  action: put cathedral on city max 1 { that player { may { pay 2 megacredits; draw 1 } } }
  vp: 1 per city with cathedral
}
'''


def test_whole_games_with_both_constructs_save_load_clone_and_replay_as_played(tmp_path):
    """Random bots play a corporation that puts a city on top of an ocean and builds cathedrals: the game ends,
    its save reloads and replays from its log to the same state (`verify`), and a clone taken midway ends as the
    game it was taken from."""
    from tharsis.runtime.api.game import GameOptions
    from tharsis.runtime.bots.random_bot import RandomBot

    (tmp_path / "builders.mars").write_text(BUILDERS, encoding="utf-8")
    options = GameOptions(seed=4, card_paths=(str(tmp_path),), corporations=("Cathedral Builders", ""))
    game, clone = Game(options), None
    bots = {0: RandomBot(1), 1: RandomBot(2)}
    while not game.over:
        if clone is None and game.state.covered and any(t.marks for t in game.state.tiles.values()):
            clone = game.clone()
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    assert clone is not None, "the bots never covered an ocean and marked a city"
    marked = sum(1 for t in game.state.tiles.values() if t.marked("cathedral"))
    assert marked >= 1 and list(game.state.covered.values())[0].kind == "ocean"
    saved = game.to_json()
    assert '"covered"' in saved and '"marks"' in saved
    assert Game.from_json(saved, verify=True).to_json() == saved
    while not clone.over:
        decision = clone.pending()
        clone.apply(bots[decision.player].choose(clone, decision))
    assert clone.to_json() == saved


def test_the_research_observation_shows_covered_tiles_and_marks_only_in_games_that_have_them(tmp_path):
    state = _game(tmp_path)
    seen = state.observation(0)
    assert "covered" not in seen and "marks" not in seen
    state.game.state.covered["33"] = Tile("ocean", None)
    state.game.state.tiles["33"] = Tile("city", 1, is_city=True, marks=(("cathedral", 1),))
    seen = state.observation(0)
    assert seen["covered"] == {"33": ["ocean", None]} and seen["marks"] == {"33": {"cathedral": 1}}


@pytest.mark.parametrize("line, words", [
    ("play: put cathedral on city on ocean on land", "no tile can take this cathedral"),
    ("play: put cathedral on ocean on land", "an ocean tile is never on a land space"),
    ("play: place city on top of ocean on land", "an ocean tile is never on a land space"),
])
def test_filters_no_tile_meets_are_a_warning(line, words):
    result = _compiled(line)
    assert not result.errors and [d.code for d in result.warnings] == ["W104"]
    assert words in result.warnings[0].message
