"""Turmoil declared in text (cards/turmoil/turmoil.mars) on the engine's factions, government and cards with stages:
the set-up, whole games of every size and with the other expansions, saves at random points, replays and clones that
carry the government and the events, a game without it unchanged, the bots and the research view, and the canonical
text of its declarations. The rules themselves are scenarios (tests/scenarios/rules/turmoil-*.yaml); the events
here are made up (the printed ones, cards/turmoil/global-events.mars, are in the deck beside them and have scenarios
of their own), so that tests can name what each one does."""

import json
import random

import attrs
import pytest

from tharsis.compiler import compile_text, text
from tharsis.runtime.api.game import Game, GameOptions
from tharsis.runtime.api.research import GameState
from tharsis.runtime.bots import BOTS, RandomBot, play_out
from tharsis.runtime.core.state import NEUTRAL

NAMES = ("ann", "bob", "cy", "dee", "eve")
PARTIES = ["Mars First", "Scientists", "Unity", "Greens", "Reds", "Kelvinists"]

# four made-up global events: a neutral delegate when revealed and when current, and an effect for every player
EVENTS = "\n".join(f'''card "Test Event {i}" {{
  set: turmoil
  type: global event
  on reveal: place neutral delegate in "{PARTIES[i]}"
  on current: place neutral delegate in "{PARTIES[i + 2]}"
  play: each player {{ gain 1 MC per influence }}
}}''' for i in range(4))


@pytest.fixture(scope="module")
def events(tmp_path_factory) -> tuple[str, ...]:
    folder = tmp_path_factory.mktemp("events")
    (folder / "events.mars").write_text(EVENTS, encoding="utf-8")
    return (str(folder),)


def options(events, players: int = 2, seed: int = 0, **more) -> GameOptions:
    expansions = more.pop("expansions", ("turmoil",))
    return GameOptions(players=NAMES[:players], seed=seed, expansions=expansions, card_paths=events, **more)


def finished(game_options: GameOptions, seed: int = 0) -> Game:
    game = Game(game_options)
    play_out(game, {i: RandomBot(seed * 10 + i) for i in range(len(game.state.players))})
    return game


def until_the_first_action(game: Game) -> Game:
    while game.state.phase != "action":
        game.apply(0)
    return game


# ------------------------------------------------------------------ set-up

@pytest.mark.parametrize("players", [1, 2, 5])
def test_the_set_up_has_greens_ruling_a_neutral_chairman_and_two_events_revealed(events, players):
    game = until_the_first_action(Game(options(events, players, seed=players)))
    government = game.state.government
    assert [f.name for f in government.factions] == PARTIES
    assert government.ruling == "Greens" and government.role == NEUTRAL
    assert all(p.pieces == {"delegate": 7} for p in game.state.players)
    distant, coming, current = game.state.stages["global event"]
    assert distant is not None and coming is not None and current is None
    revealed = [f.name for f in government.factions if f.pieces]   # each revealed event put a neutral delegate
    assert all(f.pieces == [NEUTRAL] * len(f.pieces) for f in government.factions)
    assert sum(len(f.pieces) for f in government.factions) == 2 and revealed
    assert government.neutral == 14 - 1 - 2    # the chairman and the two revealed events' delegates


def test_without_the_expansion_there_is_no_government_nor_events_and_saves_read_as_before(events):
    game = Game(GameOptions(players=("a", "b"), seed=3))
    assert game.state.government is None and game.state.stages == {}
    assert "Lobby" not in game.standard_actions
    data = json.loads(game.to_json())
    assert not {"government", "stages"} & set(data["state"])


# ------------------------------------------------------------------ whole games, saves, replays, clones

@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_whole_games_with_turmoil_end_and_score_the_government(events, players):
    game = finished(options(events, players, seed=players), seed=players)
    assert game.over and [row["name"] for row in game.result["players"]] == list(NAMES[:players])
    assert all("government" in row for row in game.result["players"])
    kinds = {event[1] for event in game.events}
    assert {"resolve", "government"} <= kinds
    rows = {row["name"]: row for row in game.result["players"]}
    government = game.state.government
    for index, name in enumerate(NAMES[:players]):   # 1 VP as chairman, 1 per party led
        led = sum(1 for f in government.factions if f.leader == index)
        assert rows[name]["government"] == led + (government.role == index)


def test_turmoil_with_prelude_venus_and_colonies_plays_whole_games(events):
    for seed in (1, 2):
        game = finished(options(events, 3, seed=seed, corporate_era=True,
                                expansions=("prelude", "venus", "colonies", "turmoil")), seed=seed)
        assert game.over and game.state.government is not None and game.state.sites


def test_saving_at_random_points_of_a_turmoil_game_and_continuing_reaches_the_same_game(events):
    game_options = options(events, 2, seed=43)
    reference = finished(game_options, seed=43)
    points = sorted(random.Random(6).sample(range(len(reference.log)), 30))
    game = Game(game_options)
    for index, label in enumerate(reference.log):
        if index in points:
            saved = game.to_json()
            assert "government" in json.loads(saved)["state"]
            game = Game.from_json(saved, verify=index in points[:2])
        game.apply(label)
    assert game.snapshot() == reference.snapshot() and game.result == reference.result


def test_replaying_the_log_of_a_turmoil_game_reaches_the_same_government(events):
    game = finished(options(events, 3, seed=12), seed=12)
    replayed = Game.replay(game.options, game.log)
    assert replayed.snapshot() == game.snapshot()
    assert replayed.snapshot()["government"] == game.snapshot()["government"]


def test_a_clone_has_a_government_and_events_of_its_own(events):
    game = until_the_first_action(Game(options(events, 2, seed=5)))
    before = list(game.state.government.factions[0].pieces)
    copy = game.clone()
    copy.state.government.factions[0].pieces.append(1)
    copy.state.government.ruling = "Reds"
    copy.state.stages["global event"][2] = "Nowhere"
    assert game.state.government.factions[0].pieces == before
    assert game.state.government.ruling == "Greens" and game.state.stages["global event"][2] is None


@pytest.mark.parametrize("bot", ["greedy", "mcts"])
def test_the_greedy_and_search_bots_play_whole_games_with_turmoil(events, bot):
    game = Game(options(events, 2, seed=7, max_generations=5 if bot == "mcts" else None))
    bots = {0: BOTS[bot](70), 1: BOTS["random"](71)}
    while not game.over:
        decision = game.pending()
        game.apply(bots[decision.player].choose(game, decision))
    assert game.result["winner"] in NAMES[:2]
    lobbied = [e for e in game.events if e[1] == "faction_in" and e[2] == 0]
    assert lobbied   # the greedy and search bots place delegates


def test_the_research_view_plays_turmoil_by_ids_and_sees_the_government(events):
    state = GameState.new_game(seed=4, players=2, expansions=("turmoil",), card_paths=events)
    until_the_first_action(state.game)
    seen = state.observation(1)
    assert seen["government"]["ruling"] == "Greens" and seen["government"]["role"] == NEUTRAL
    assert [f["name"] for f in seen["government"]["factions"]] == PARTIES
    assert seen["stages"]["global event"][2] is None and seen["stages"]["global event"][0] is not None
    layout = state.observation_tensor_layout()
    at = sum(length for _, length in layout[:next(i for i, (part, _) in enumerate(layout)
                                                   if part.startswith("per faction"))])
    tensor, per_faction = state.observation_tensor(1), 2 + 2 * 6
    assert [tensor[at + i * per_faction] for i in range(6)] == [0, 0, 0, 1, 0, 0]   # Greens rule
    assert "government" not in GameState.new_game(seed=4, players=2).observation(0)
    rng = random.Random(4)
    seen = set()
    while not state.is_terminal():
        seen.add(state.decision().kind)
        state.apply_action(rng.choice(state.legal_actions()))
    assert "faction" in seen
    assert len(state.observation_tensor(0)) == sum(length for _, length in state.observation_tensor_layout())


# ------------------------------------------------------------------ canonical text

def test_every_declaration_of_turmoil_renders_to_text_that_compiles_back_to_the_same_definition(bundled):
    """The delegate, the parties, the government, the kind of the events, Lobby, Send Delegate and the rules, as
    `tharsis cards --format text` writes them, compile to the same definitions (where they are written aside)."""
    wanted = [d for d in bundled.library.definitions
              if (getattr(d, "set", None) == "turmoil" or d.name == "turmoil") and d.kind not in ("card",
                                                                                                 "corporation")]
    source = text.content(wanted, bundled.declared_tags, bundled.declared_resources)
    others = 'expansion "venus" { }\nexpansion "colonies" { }\n'   # the sets its phase comes after
    result = compile_text(source + others, "<turmoil>")
    assert result.diagnostics == [], [d.message for d in result.diagnostics]
    again = {(d.kind, d.name): d for d in result.library.definitions}
    for definition in wanted:
        written = again[(definition.kind, definition.name)]
        spans = {key: getattr(written, key) for key in ("reference_spans", "after_spans", "needs_spans")
                 if hasattr(written, key)}
        assert written == attrs.evolve(definition, source=written.source, **spans), definition.name
    assert {kind for kind, _ in again} >= {"piece", "faction", "government", "card_kind", "standard_action", "rule",
                                           "expansion"}


def test_the_terminal_panel_shows_the_government_and_the_events(events):
    from tharsis.terminal import view

    game = until_the_first_action(Game(options(events, 2, seed=5)))
    shown = view.panel(game, 0)
    assert "government: Greens rules, chairman: neutral, dominant: " in shown
    assert "  policy of Greens: When you place a greenery tile: Gain 4 MC." in shown
    assert "  delegates in reserve: ann 7, bob 7, neutral " in shown
    distant, coming, _ = game.state.stages["global event"]
    assert "  Kelvinists: " in shown and f"global event cards: current -, coming {coming}, distant {distant}" in shown
    chinese = view.panel(game, 0, language="zh")
    assert "政府：绿党执政，主席：中立" in chinese and "  绿党的政策：当你放置绿化板块时：获得4 M€。" in chinese
    assert "全球事件牌：当前无，即将「" in chinese
    assert view.politics(Game(GameOptions(players=("a", "b")))) == ""


# ------------------------------------------------------------------ names of a kind with stages

SHARED = '''card "Asteroid Mining" #GT1 {
  set: turmoil
  type: global event
  on reveal: place neutral delegate in "Reds"
  play: each player { gain 1 titanium per jovian tags max 5 + influence }
}
'''


def test_a_card_of_a_kind_with_stages_may_share_its_name_with_a_project_card_but_not_with_its_kind(tmp_path, bundled):
    from tharsis.compiler import bundled_cards_path, compile_paths

    # the bundled global event Asteroid Mining beside the base game's card #040
    named = [(d.kind, d.type) for d in bundled.library.definitions if d.name == "Asteroid Mining"]
    assert sorted(named) == [("card", "automated"), ("card", "global event")] and bundled.errors == []
    (tmp_path / "shared.mars").write_text(SHARED, encoding="utf-8")
    result = compile_paths([bundled_cards_path(), tmp_path], use_cache=False)
    assert [(d.code, d.message) for d in result.errors] == [("E401", "'Asteroid Mining' is defined twice")]


def _a_game_with_the_event_revealed(name: str) -> tuple[GameOptions, Game]:
    """The first seed whose set-up reveals the bundled global event `name` (about one in eighteen do)."""
    for seed in range(300):
        game_options = GameOptions(players=("ann", "bob"), seed=seed, expansions=("turmoil",))
        game = until_the_first_action(Game(game_options))
        if name in game.state.stages["global event"]:
            return game_options, game
    raise AssertionError(f"no seed below 300 reveals {name}")


def test_an_event_named_like_a_project_card_is_drawn_resolved_saved_and_redealt_apart():
    game_options, game = _a_game_with_the_event_revealed("Asteroid Mining")
    assert game.library["Asteroid Mining"].type == "automated"
    assert game.elements.staged_cards["global event"]["Asteroid Mining"].type == "global event"
    assert "Asteroid Mining" not in game.state.piles["global event"]
    reference = finished(game_options, seed=2)
    assert [e for e in reference.events if e[1] == "resolve" and "Asteroid Mining" in e]
    again = Game(game_options)
    for index, label in enumerate(reference.log):
        if index % 37 == 0:   # saves name the event's effects in its kind, apart from the project card's
            again = Game.from_json(again.to_json(), verify=index == 0)
        again.apply(label)
    assert again.snapshot() == reference.snapshot()
    state = GameState(game)
    hidden = sorted(game.state.deck + game.state.players[1].hand)
    for seed in range(3):   # the stages stay; the project card of that name is redealt among the project cards
        world = state.determinize(0, seed).game
        assert world.state.stages == game.state.stages
        assert sorted(world.state.deck + world.state.players[1].hand) == hidden


def test_the_terminal_reads_a_face_up_event_and_the_project_card_that_shares_its_name():
    import io

    from tharsis.games.options import Seat
    from tharsis.terminal.play import GameLog, Session

    _, game = _a_game_with_the_event_revealed("Asteroid Mining")
    session = Session(game, [Seat("ann", "human"), Seat("bob", "human")], GameLog(None), stdin=io.StringIO(""),
                      stdout=io.StringIO())
    text_shown = session.card_text("Asteroid Mining")
    assert "Asteroid Mining" in text_shown and "global event" in text_shown and "titanium" in text_shown
    assert text_shown.count("Asteroid Mining") == 2   # the base game's card too

