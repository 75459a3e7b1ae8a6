"""A named marker on the board (issue 30, Mars Nomads): `place marker "NAME" [blocking tiles] [FILTER ...]`, `move
marker "NAME" [next to it] [FILTER ...] [collecting bonus]` and the filter `next to marker "NAME"` compile, write back
as written and refuse what cannot be meant; the marker is part of the state (clones, saves, the research view's
observation and tensor, the observation writer). tests/scenarios/rules/markers.yaml plays the rules."""

import random

import numpy as np
import pytest

from tharsis.compiler import compile_text, effects as fx, text
from tharsis.runtime.api.encoding import encoding_for
from tharsis.runtime.api.game import Game
from tharsis.runtime.api.observation_writer import ObservationWriter
from tharsis.runtime.api.research import GameState
from tharsis.runtime.core.state import BoardMarker

NOMADS = '''card "Mars Nomads" {
  set: promo  type: active  cost: 13
  play: place marker "Nomad" blocking tiles
  action: move marker "Nomad" next to it collecting bonus
}
'''


def _compiled(line: str):
    return compile_text(f'card "Probe" {{\n  type: active  cost: 1\n  {line}\n}}\n', "<probe>")


@pytest.mark.parametrize("line, effect", [
    ('play: place marker "Nomad" blocking tiles on land', fx.PlaceMarker("Nomad", True, (fx.SpaceFilter("land"),))),
    ('play: place marker "Flag" on bonus plant', fx.PlaceMarker("Flag", False, (fx.SpaceFilter("bonus",
                                                                                               bonuses=("plant",)),))),
    ('action: move marker "Nomad" next to it on bonus plant collecting bonus',
     fx.MoveMarker("Nomad", (fx.SpaceFilter("next_to_marker", marker="Nomad"), fx.SpaceFilter("bonus",
                                                                                               bonuses=("plant",))),
                   True)),
    ('action: move marker "Nomad" isolated', fx.MoveMarker("Nomad", (fx.SpaceFilter("isolated"),), False)),
    ('play: place city next to marker "Nomad"',
     fx.PlaceTile("city", filters=(fx.SpaceFilter("next_to_marker", marker="Nomad"),))),
])
def test_a_marker_compiles_and_writes_back_as_written(line, effect):
    result = _compiled(line)
    assert not [d for d in result.diagnostics if d.severity == "error"]   # (W104 for a marker placed nowhere)
    card = result.library.definitions[0]
    compiled = card.play[0] if line.startswith("play") else card.actions[0].effects[0]
    assert compiled == effect
    assert text.effect(compiled, card_text=True) == line.partition(": ")[2]


@pytest.mark.parametrize("line, code, wanted", [
    ('play: place marker "Nomad" ignoring adjacency', "E301", "a marker is no tile"),
    ('action: move marker "Nomad" next to it ignoring adjacency', "E301", "a marker is no tile"),
    ('play: place marker "" on land', "E201", "a marker has a name"),
    ('play: place city next to marker ""', "E201", "a marker has a name"),
    ('play: place marker "Nomad" also where you have one', "E301", "goes with a piece"),
])
def test_a_marker_that_cannot_be_meant_is_refused_where_it_is_written(line, code, wanted):
    errors = [d for d in _compiled(line).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code] and wanted in errors[0].message


def test_a_marker_that_can_never_be_on_the_board_or_anywhere_is_warned_of():
    result = compile_text('card "Lost" {\n  type: active  cost: 1\n  action: move marker "Nomd" next to it\n}\n'
                          'card "Camp" {\n  type: active  cost: 1\n  play: place marker "Nomad" on ocean on land\n}\n'
                          'card "Post" {\n  type: automated  cost: 1\n  play: place city next to marker "Nomad"\n}\n',
                          "<markers>")
    found = sorted((d.code, d.span.line, d.message.split(":")[0]) for d in result.diagnostics)
    assert found == [("W104", 1, "no definition places a marker named 'Nomd', so it is never on the board and what "
                                 "asks for it never happens"),
                     ("W104", 7, "no space can take this marker")]
    assert "did you mean 'Nomad'" in next(d.hint for d in result.diagnostics if d.span.line == 1)


def _nomads_game(tmp_path, seed: int = 3) -> GameState:
    (tmp_path / "nomads.mars").write_text(NOMADS, encoding="utf-8")
    return GameState.new_game(players=2, seed=seed, card_paths=(str(tmp_path),))


def test_the_marker_is_in_clones_and_saves_and_out_of_the_saves_of_games_without_one(tmp_path):
    state = _nomads_game(tmp_path)
    assert '"markers"' not in state.game.to_json()
    state.game.state.markers["Nomad"] = BoardMarker("22", 0, True)
    clone = state.game.clone()
    clone.state.markers["Nomad"] = BoardMarker("21", 0, True)
    assert state.game.state.markers["Nomad"].space == "22"
    loaded = Game.from_json(state.game.to_json())
    assert loaded.state.markers == {"Nomad": BoardMarker("22", 0, True)}


def test_the_observation_shows_the_marker_and_the_writer_follows_it(tmp_path):
    plain = GameState.new_game(players=2, seed=3)
    state = _nomads_game(tmp_path)
    encoding = encoding_for(state.game)
    spaces = encoding.spaces
    # a part of its own, last, for this content only: the others keep their layout
    assert encoding.layout[-1][1] == 2 * len(spaces) and encoding_for(plain.game).layout[-1][1] == 0
    assert "markers" not in state.observation(0)
    writer, buffer = ObservationWriter(state.game, 1), np.zeros(encoding.size, np.float32)
    rng = random.Random(3)
    for turn in range(200):
        if turn == 40:
            state.game.state.markers["Nomad"] = BoardMarker("22", 0, True)
        if turn == 80:
            state.game.state.markers["Nomad"] = BoardMarker("30", 0, False)
        writer.write(state.game, buffer)
        assert np.array_equal(buffer, np.asarray(state.observation_tensor(1), np.float32))
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.observation(0)["markers"] == {"Nomad": ["30", 0, False]}
    tensor = state.observation_tensor(0)
    at = encoding.size - 2 * len(spaces)
    assert tensor[at + 2 * spaces["30"]] == 1.0 and tensor[at + 2 * spaces["30"] + 1] == 0.0
    assert sum(tensor[at:]) == 1.0


def test_random_games_with_the_nomads_play_to_their_end(tmp_path):
    """Mars Nomads in a hand from the start of random games: placed, moved and blocking, to the end of the game."""
    placed = moved = 0
    for seed in (1, 2, 3):
        state = _nomads_game(tmp_path, seed)
        game = state.game
        if "Mars Nomads" in game.state.deck:
            game.state.deck.remove("Mars Nomads")
        game.state.players[0].hand.append("Mars Nomads")
        rng = random.Random(seed)
        last = None
        while not state.is_terminal():
            marker = game.state.markers.get("Nomad")
            if marker is not None and marker != last:
                placed, moved = placed + (last is None), moved + (last is not None)
                assert marker.space not in game.state.tiles   # it blocks: no tile went on its space
                last = marker
            state.apply_action(rng.choice(state.legal_actions()))
        assert game.result is not None
    assert placed >= 1 and moved >= 1
