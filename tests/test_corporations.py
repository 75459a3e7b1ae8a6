"""A pile of corporations and a player with several (issue 30, Merger): the corporations not dealt at set-up are a
pile only in a game whose content looks at it, so every other game, save and fingerprint stays as it was; a player's
corporations are a list that a save writes as the one name every save held, and as a list only for several; the
observation and its tensor carry every corporation of a player."""

from tharsis.runtime.api.game import Game, GameOptions, load_library
from tharsis.runtime.api.research import GameState
from tharsis.runtime.core.state import corporation_to_data, corporations_from_data
from tharsis.runtime.handlers.actions import play_corporation
from tharsis.runtime.sequence.phases import start_corporation

LOOKING = 'card "Hostile Bid" #LAB40 {\n  set: lab  type: event  cost: 0\n  play: look 4 corporation cards play 1\n}\n'


def _content(tmp_path):
    (tmp_path / "bid.mars").write_text(LOOKING, encoding="utf-8")
    return load_library((str(tmp_path),))


def _options(tmp_path, seed: int = 3) -> GameOptions:
    return GameOptions(players=("ann", "bob"), seed=seed, corporate_era=True, card_paths=(str(tmp_path),))


def _started(tmp_path) -> Game:
    """A sandbox game (no set-up run) in which each player has started one corporation from the pile."""
    game = Game(_options(tmp_path), _content(tmp_path), start=False)
    for index in (0, 1):
        game.start_flow(start_corporation, index, game.state.piles["corporation"].pop())
    return game


def test_a_game_keeps_the_corporations_not_dealt_as_a_pile_only_when_a_card_looks_at_them(tmp_path):
    plain = Game(GameOptions(players=("ann", "bob"), seed=3, corporate_era=True))
    assert "corporation" not in plain.state.piles
    content = _content(tmp_path)
    game = Game(_options(tmp_path), content)
    pile = game.state.piles["corporation"]
    dealt = [option.value for option in game.pending().options]   # the first seat's two corporations
    corporations = {d.name for d in content.definitions if d.kind == "corporation" and d.variant is None
                    and d.set in game.sets_in_play()}
    assert pile and set(pile) < corporations and not set(dealt) & set(pile)
    assert len(pile) == len(corporations) - 2 * 2   # two dealt to each of the two seats
    assert Game(_options(tmp_path), content).state.piles["corporation"] == pile   # the seed decides its order
    assert Game(_options(tmp_path, seed=4), content).state.piles["corporation"] != pile


def test_a_save_writes_one_corporation_as_its_name_and_several_as_a_list(tmp_path):
    assert corporation_to_data([]) is None and corporation_to_data(["Helion"]) == "Helion"
    assert corporation_to_data(["Helion", "Teractor"]) == ["Helion", "Teractor"]
    for saved in (None, "Helion", ["Helion", "Teractor"]):
        assert corporation_to_data(corporations_from_data(saved)) == saved
    game = _started(tmp_path)
    ann = game.state.players[0]
    game.start_flow(play_corporation, 0, game.state.piles["corporation"][-1])
    assert len(ann.corporations) == 2 and [c.name for c in ann.played[:2]] == ann.corporations
    saved = game.snapshot()
    assert saved["players"][0]["corporation"] == ann.corporations
    assert saved["players"][1]["corporation"] == game.state.players[1].corporations[0]
    restored = Game.from_json(game.to_json(), game.content)
    assert restored.state.players[0].corporations == ann.corporations
    assert restored.snapshot() == saved and restored.to_json() == game.to_json()
    clone = game.clone()
    clone.state.players[0].corporations.pop()
    assert len(game.state.players[0].corporations) == 2


def test_the_observation_and_its_tensor_carry_every_corporation_of_a_player(tmp_path):
    state = GameState(_started(tmp_path))
    game = state.game
    before = state.observation_tensor(1)
    second = game.state.piles["corporation"][-1]
    game.start_flow(play_corporation, 0, second)
    assert state.observation(1)["players"][0]["corporation"] == game.state.players[0].corporations
    after = state.observation_tensor(1)
    assert sum(after) > sum(before) and before != after
