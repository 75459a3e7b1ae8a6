"""Property tests (hypothesis): invariants that must hold whatever the input.

- the compiler never raises on any text, and every diagnostic points inside the file;
- whatever legal choices are made, the game state stays within the rules' bounds after every decision.
"""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from tharsis.compiler import compile_text
from tharsis.runtime.api.game import Game, GameOptions, load_library

KEYWORDS = ["card", "corporation", "{", "}", "type:", "cost:", "tags:", "play:", "action:", "effect:", "vp:",
            "requires:", "holds:", "gain", "production(", ")", "place", "city", "ocean", "choose", "|", ";", "->",
            "when", "you", "play", "tag", "per", ">=", "9%", "-12C", "3", "+2", "-1", "X", '"Name"', "#12",
            "animal", "plants", "here", "if", "else", "oxygen", "temperature", "\n", " "]

card_like_text = st.lists(st.sampled_from(KEYWORDS), max_size=60).map(" ".join) | st.text(max_size=300)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_like_text)
def test_the_compiler_never_raises_and_points_inside_the_file(source):
    result = compile_text(source, "fuzz.mars")
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for diagnostic in result.diagnostics:
        assert diagnostic.code[0] in "EW" and diagnostic.message
        span = diagnostic.span
        if span is not None:
            assert 1 <= span.line <= len(lines) + 1, (diagnostic, source)
            assert span.column >= 1


LIBRARY = load_library()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), chooser=st.integers(0, 10_000), players=st.integers(1, 4),
       corporate_era=st.booleans(), board=st.sampled_from(["Tharsis", "Hellas", "Elysium"]))
def test_any_sequence_of_legal_choices_keeps_the_state_within_the_rules(seed, chooser, players, corporate_era, board):
    names = tuple(f"p{i}" for i in range(players))
    game = Game(GameOptions(players=names, seed=seed, corporate_era=corporate_era, board=board,
                            max_generations=20), LIBRARY)
    rng = random.Random(chooser)
    for _ in range(400):
        if game.over:
            break
        decision = game.pending()
        assert decision.options, "a pending decision always has at least one legal option"
        game.apply(rng.randrange(len(decision.options)))
        state = game.state
        assert -30 <= state.temperature <= 8 and state.temperature % 2 == 0
        assert 0 <= state.oxygen <= 14 and 0 <= state.oceans <= 9
        assert state.oceans == sum(1 for t in state.tiles.values() if t.kind == "ocean")
        for player in state.players:
            assert all(v >= 0 for v in player.resources.values()), player.resources
            assert player.production["megacredits"] >= -5
            assert all(player.production[r] >= 0 for r in player.production if r != "megacredits")
            assert all(card.resources >= 0 for card in player.played)
