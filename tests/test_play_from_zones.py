"""Playing a card from elsewhere than the hand, and events whose tags stay in use (issue 30, trial 9: Odyssey and
Oumuamua Type Object Survey of Pathfinders): `play event ... from events [then discard]`, `reveal N cards one by one
{ FILTER ... -> EFFECTS | ... }` with `play it [for free] [ignoring requirements]`, and `your events' tags count`
compile, write back, read in English and Chinese, and are coded errors where they mean nothing; a game stopped at
the question of which event to play again saves, loads and goes on alike. tests/scenarios/rules/play-from-zones.yaml
plays the rules."""

import attrs

from tharsis.compiler import compile_text, effects as fx, rules_text, text
from tharsis.designer.scenarios import Outcome, Runner
from tharsis.runtime.api.game import Game
from tharsis.runtime.handlers.actions import take_action
from tharsis.runtime.rules.measures import tag_counts

CARDS = """
corporation "Voyager" #LAB95 {
  set: lab
  start: 33 megacredits
  action: play event with cost <= 16 from events then discard
  effect: your events' tags count
}

card "Survey" #LAB96 {
  set: lab  type: automated  cost: 20  tags: space, science
  play: reveal 2 cards one by one { with science or microbe tag -> play it for free ignoring requirements
                                  | with space tag -> production(energy +3) }
}
"""


def _compiled(source: str):
    result = compile_text(source, "<zones>")
    return result.library, [(d.code, d.message) for d in result.diagnostics]


def test_the_forms_compile_write_back_and_read_in_both_languages():
    library, diagnostics = _compiled(CARDS)
    assert diagnostics == []
    voyager, survey = library.get("Voyager"), library.get("Survey")
    replay, = voyager.actions[0].effects
    assert replay == fx.PlayFromHand((), fx.CardFilter(types=("event",), max_cost=16), "events", True)
    assert voyager.passives == (fx.EventsTags(),)
    reveal, = survey.play
    assert reveal.filters == (fx.CardFilter(any_tag=("science", "microbe")), fx.CardFilter(tag="space"))
    assert reveal.cases[0] == (fx.PlayIt(free=True, ignoring=True),)
    again, _ = _compiled(text.content(library.definitions, (), (), ()))
    assert [attrs.evolve(d, source=None) for d in again.definitions] == \
        [attrs.evolve(d, source=None) for d in library.definitions]
    english = rules_text.card(voyager, "en") + rules_text.card(survey, "en")
    assert "Play again an event costing 16 MC or less from your played events, paying for it. Then discard it." \
        in english
    assert "Your played events stay face up: their tags count as those of your cards in play." in english
    assert "Draw 2 cards face up and look at them in order until one passes: if it is a card with a science or " \
           "microbe tag, play it for free, ignoring its requirements; if it is a space card, increase your energy " \
           "production 3 steps. The cards not played stay in your hand." in english
    chinese = rules_text.card(voyager, "zh") + rules_text.card(survey, "zh")
    assert "从你打出过的事件牌中再次打出一张" in chinese and "然后弃掉该牌" in chinese
    assert "按顺序逐张检视" in chinese and "免费打出它，无视其所有需求" in chinese and "其标志如同" in chinese


def test_playing_from_the_hand_keeps_its_meaning_and_hash():
    """`play card from hand` compiles as before the zones: the new fields hold their defaults (`added`), so the
    recorded definitions hash as they did."""
    library, diagnostics = _compiled('card "A" #LAB97 { set: lab  type: event  cost: 1  play: play card from hand '
                                     'with discount 3 }')
    assert diagnostics == []
    effect, = library.get("A").play
    assert (effect.source, effect.discard) == ("hand", False)
    assert text.effect(effect) == "play card from hand with discount 3"


def test_misuses_are_coded_errors():
    cases = {
        'card "A" { type: event  cost: 1  play: play card from play }': "E301",
        'card "A" { type: event  cost: 1  play: play card from hand then discard }': "E301",
        'card "A" { type: event  cost: 1  play: play it }': "E307",
        'card "A" { type: event  cost: 1  play: may { play it for free } }': "E307",
        'card "A" { type: event  cost: 1  play: reveal 0 cards one by one { with space tag -> play it } }': "W103",
        'card "A" { type: event  cost: 1  play: reveal 1 cards one by one { with cost >= 20 with cost <= 10 -> '
        'play it } }': "W104",
    }
    for source, code in cases.items():
        _, diagnostics = _compiled(source)
        assert [c for c, _ in diagnostics] == [code], (source, diagnostics)


def _game(events: list, megacredits: int) -> Game:
    spec = {"cards": CARDS, "setup": {"players": {"alice": {"corporation": "Voyager", "events": events,
                                                            "resources": {"megacredits": megacredits}},
                                                  "bob": {}}}}
    runner = Runner(spec, Outcome("probe", "<probe>"), None)
    runner.arrange(spec["setup"])
    return runner.game


def test_a_game_stopped_at_the_event_to_play_again_saves_loads_and_goes_on_alike():
    game = _game(["Mineral Deposit", "Invention Contest", "Technology Demonstration"], 20)
    game.start_flow(take_action, 0, ("card_action", "Voyager"))
    assert game.pending().labels() == ["play Mineral Deposit", "play Invention Contest",
                                       "play Technology Demonstration"]
    loaded = Game.from_json(game.to_json(), game.content)
    for g in (game, loaded):
        g.apply("play Mineral Deposit")
    assert loaded.to_json() == game.to_json()
    alice = game.state.players[0]
    assert alice.events == ["Invention Contest", "Technology Demonstration"] and alice.resources["steel"] == 5
    assert game.state.discard[-1] == "Mineral Deposit"


def test_the_tag_counts_follow_the_events_played_with_the_effect():
    game = _game(["Invention Contest"], 0)
    assert tag_counts(game, 0).get("science") == 1
    game.state.players[0].events.append("Technology Demonstration")
    assert tag_counts(game, 0).get("science") == 2 and tag_counts(game, 0).get("space") == 1
    assert tag_counts(game, 1).get("science") is None
