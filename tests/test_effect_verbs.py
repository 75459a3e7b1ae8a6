"""An effect verb is registered once, and nothing about it fails silently: the one completeness test names every
piece of the recipe (docs/language.md "Adding an effect verb") that a verb lacks, and a verb made up here, added
through the recipe in a temporary registry, compiles, reads, checks and plays; left without any one piece, it is
named with that piece."""

from __future__ import annotations

import re

import attrs
import pytest

from tharsis.compiler import compile_text, effects as fx, parser, rules_text, syntax, text
from tharsis.compiler.check_effects import COMPILERS, compiles
from tharsis.compiler.rules_text import sentence_of
from tharsis.compiler.text import text_of
from tharsis.designer import scenarios
from tharsis.runtime.handlers import effects as handlers
from tharsis.runtime.rules import checks

# ------------------------------------------------------------------ the completeness test

# what the examples name: a kind of card (with stages), pieces, a faction of a government and a mark on tiles
DECLARED = ('card kind "mission" { deal: 0 keep 0  stages: far, near }\n'
            'piece "outpost" { }\npiece "shuttle" { supply: 1 }\nmark cathedral\n'
            'piece "envoy" { supply: 7  neutral: 3 }\nfaction "Blue Party" { }\n'
            'government "Blue Council" { factions: "Blue Party"  pieces: envoy }\n')


def example_card(verb) -> str:
    """A card whose effects are the verb's example (with what the example needs: a resource it holds, X bound, a
    declared kind of card)."""
    line = verb.example
    field = "effect" if not verb.immediate or line.startswith("when ") else "play"
    held = next((r for r in ("animal", "microbe", "science") if r + "s here" in line or r + " here" in line), "science")
    body = line if "X" not in line or line.startswith("choose X") else f"choose X up to heat {{ {line} }}"
    kind = "event" if verb.event_only else "active"   # `move this card to that player's events`: an event's
    return (f'card "Example" #1 {{\n  type: {kind}  cost: 1\n  holds: {held}\n  {field}: {body}\n}}\n'
            + DECLARED)


def missing_pieces(verb) -> list[str]:
    """What `verb` lacks of the recipe, each said with the verb and where the piece goes; when every piece is there,
    what goes wrong with its example (it must compile, write back and read in every language)."""
    name = f"verb '{verb.kind_name}' ({verb.__name__})"
    grammar = parser.lark_parser()
    place = "effect" if verb.immediate else "passive"
    missing = []
    if not re.search(rf"^\??{re.escape(verb.rule)}\s*:", grammar.source_grammar, re.M):
        missing.append(f"{name}: no grammar rule '{verb.rule}' in grammar/tharsis.lark")
    elif verb.rule not in {rule.expansion[0].name for rule in grammar.rules if rule.origin.name == place}:
        missing.append(f"{name}: its rule '{verb.rule}' is not one of ?{place} in grammar/tharsis.lark")
    if verb not in COMPILERS:
        missing.append(f"{name}: no checker (@compiles in compiler/check_effects.py)")
    if verb not in text._WRITERS:
        missing.append(f"{name}: no canonical text (@text_of in compiler/text.py)")
    if verb not in rules_text._SENTENCES:
        missing.append(f"{name}: no rules text (@sentence_of in compiler/rules_text.py)")
    if verb.immediate:
        found = [table for table, kinds in (("INLINE", handlers.INLINE), ("HANDLERS", handlers.HANDLERS),
                                            ("run_effects", handlers.IN_THE_LOOP)) if verb in kinds]
        if len(found) != 1:
            missing.append(f"{name}: no handler (@handles in runtime/handlers/effects.py)" if not found else
                           f"{name}: handled twice ({' and '.join(found)})")
        if verb.impossible is not fx.NEVER and verb not in checks._POSSIBLE:
            missing.append(f"{name}: impossible {verb.impossible}, but no condition in runtime/rules/checks.py "
                           "_POSSIBLE")
        elif verb.impossible is fx.NEVER and verb in checks._POSSIBLE:
            missing.append(f"{name}: a condition in runtime/rules/checks.py _POSSIBLE, but declared "
                           "impossible=NEVER")
    return missing or _example_problems(verb, name)


def _example_problems(verb, name: str) -> list[str]:
    result = compile_text(example_card(verb), f"<{verb.kind_name}>")
    if result.errors:
        return [f"{name}: its example '{verb.example}' does not compile: {[d.message for d in result.errors]}"]
    card = result.library.get("Example")
    if not any(type(e) is verb for e in fx.walk(card.play + card.passives)):
        return [f"{name}: its example '{verb.example}' does not compile to {verb.__name__}"]
    problems = []
    again = compile_text(text.card(card) + "\n" + DECLARED, "<again>")
    if again.errors or (again.library.get("Example").play, again.library.get("Example").passives) != \
            (card.play, card.passives):
        problems.append(f"{name}: its canonical text does not compile back to the same effect: {text.card(card)}")
    for language in rules_text.LANGUAGES:
        try:
            rules_text.card(card, language)
        except KeyError as error:
            key = error.args[0]
            where = f"compiler/templates/phrases/{language}.yaml"
            problems.append(f"{name}: no phrase '{key}' in {where}" if key not in rules_text.phrases(language).patterns
                            else f"{name}: a phrase of {where} wants '{key}', which its rules text does not give")
    return problems


def test_every_effect_verb_has_every_piece():
    assert [problem for verb in fx.REGISTRY.values() for problem in missing_pieces(verb)] == []


def test_every_alternative_of_the_grammar_is_a_registered_verb():
    grammar = parser.lark_parser()
    for place, verbs in (("effect", fx.IMMEDIATE), ("passive", fx.PASSIVE)):
        written = {rule.expansion[0].name for rule in grammar.rules if rule.origin.name == place}
        assert written == {verb.rule for verb in verbs}, place


# ------------------------------------------------------------------ a verb made up, added through the recipe

BASK_RULE = 'bask: "bask" count\n'
PHRASES = {"en": "Bask in the sun: gain {what}.", "zh": "晒太阳：获得{what}。"}


@pytest.fixture
def registry():
    """Every table a verb is registered in, restored as it was after the test (a temporary registry)."""
    tables = [fx.REGISTRY, fx.RULES, COMPILERS, syntax.CHILDREN, syntax.PARTS, text._WRITERS, rules_text._SENTENCES,
              handlers.INLINE, handlers.HANDLERS, checks._POSSIBLE] + \
        [rules_text.phrases(language).patterns for language in rules_text.LANGUAGES]
    saved = [dict(table) for table in tables]
    yield
    for table, before in zip(tables, saved):
        table.clear()
        table.update(before)


def add_bask(monkeypatch, without: tuple = (), impossible=fx.NEVER):
    """`bask N`: gain N heat, through the recipe, each piece unless named in `without`."""
    grammar = parser.grammar_path().read_text(encoding="utf-8")
    if "grammar rule" not in without:
        grammar += BASK_RULE
        if "?effect" not in without:
            grammar = grammar.replace("| look_play | reuse_action", "| look_play | reuse_action | bask", 1)
    built = parser.build_parser(grammar, cache=False)
    monkeypatch.setattr(parser, "lark_parser", lambda: built)

    @fx.immediate("bask", category="resources", syntax="bask N", example="bask 2",
                  summary="Gain N heat (a verb the tests make up).", impossible=impossible)
    @attrs.frozen
    class Bask:
        amount: fx.Amount

    if "checker" not in without:
        @compiles(Bask, "count:INT|X|MULTIPLE_X")
        def _check(self, node, ctx):
            value, variable = self.count(node["count"], ctx)
            return Bask(fx.Amount(value, variable))

    if "canonical text" not in without:
        @text_of(Bask)
        def _text(e, card_text):
            return f"bask {text.amount(e.amount)}"

    if "rules text" not in without:
        @sentence_of(Bask)
        def _sentence(t, e):
            return t("bask", what=t.counted(str(e.amount.coefficient), "heat", e.amount.coefficient))

    for language, phrase in PHRASES.items():
        if f"phrase {language}" not in without:
            rules_text.phrases(language).patterns["bask"] = phrase

    if "handler" not in without:
        @handlers.handles(Bask, inline=True)
        def _bask(game, e, ctx):
            game.state.players[ctx.player].resources["heat"] += checks.value_of(game, e.amount, ctx)

    if "condition" not in without and impossible is not fx.NEVER:
        checks._POSSIBLE[Bask] = lambda game, e, ctx: game.state.players[ctx.player].resources["heat"] < 10
    return Bask


def test_a_verb_added_through_the_recipe_has_every_piece_and_plays(registry, monkeypatch):
    bask = add_bask(monkeypatch)
    assert missing_pieces(bask) == []
    assert bask.amounts == ("amount",)                       # derived: the lints know its amount
    card = 'card "Sunbather" #T1 {\n  type: automated  cost: 0\n  play: bask 3\n}\n'
    compiled = compile_text(card, "<sunbather>").library.get("Sunbather")
    assert text.card_effects(compiled.play) == "bask 3"
    assert rules_text.sentences(compiled.play) == "Bask in the sun: gain 3 heat."
    assert rules_text.sentences(compiled.play, "zh").startswith("晒太阳")
    zero = compile_text(card.replace("bask 3", "bask 0"), "<zero>")
    assert [(d.code, d.message) for d in zero.diagnostics] == [("W103", "'bask 0' does nothing")]
    monkeypatch.setenv("THARSIS_NO_CACHE", "1")  # the made-up verb never reaches the compile cache
    outcome = scenarios.run({
        "name": "Sunbather basks", "cards": card,
        "setup": {"players": {"alice": {"hand": ["Sunbather"]}}},
        "steps": [{"play": "Sunbather"}],
        "expect": {"players": {"alice": {"resources": {"heat": 3}}}}})
    assert (outcome.error, outcome.failures) == (None, [])


@pytest.mark.parametrize("piece, named", [
    ("grammar rule", "no grammar rule 'bask' in grammar/tharsis.lark"),
    ("?effect", "its rule 'bask' is not one of ?effect in grammar/tharsis.lark"),
    ("checker", "no checker (@compiles in compiler/check_effects.py)"),
    ("canonical text", "no canonical text (@text_of in compiler/text.py)"),
    ("rules text", "no rules text (@sentence_of in compiler/rules_text.py)"),
    ("phrase en", "no phrase 'bask' in compiler/templates/phrases/en.yaml"),
    ("phrase zh", "no phrase 'bask' in compiler/templates/phrases/zh.yaml"),
    ("handler", "no handler (@handles in runtime/handlers/effects.py)"),
])
def test_a_verb_without_one_piece_is_named_with_that_piece(registry, monkeypatch, piece, named):
    bask = add_bask(monkeypatch, without=(piece,))
    assert missing_pieces(bask) == [f"verb 'bask' (Bask): {named}"]


def test_a_verb_that_can_be_impossible_needs_its_condition_and_one_that_cannot_has_none(registry, monkeypatch):
    bask = add_bask(monkeypatch, without=("condition",), impossible="when you have 10 heat or more")
    assert missing_pieces(bask) == ["verb 'bask' (Bask): impossible when you have 10 heat or more, but no "
                                    "condition in runtime/rules/checks.py _POSSIBLE"]
    checks._POSSIBLE[bask] = lambda game, e, ctx: True
    assert missing_pieces(bask) == []
    bask.impossible = fx.NEVER
    assert missing_pieces(bask) == ["verb 'bask' (Bask): a condition in runtime/rules/checks.py _POSSIBLE, but "
                                    "declared impossible=NEVER"]


def test_a_verb_without_text_is_an_error_not_its_class_name(registry, monkeypatch):
    bask = add_bask(monkeypatch, without=("canonical text", "rules text"))
    with pytest.raises(TypeError, match="no canonical text for Bask"):
        text.effect(bask(fx.Amount(1)))
    with pytest.raises(TypeError, match="no rules text for Bask"):
        rules_text.sentences((bask(fx.Amount(1)),))


def test_a_verb_with_a_body_is_walked_with_no_edit(registry, monkeypatch):
    @fx.immediate("twice", category="control", syntax="twice { EFFECTS }", example="twice { gain 1 heat }",
                  summary="Carry the block out twice (made up by the tests).", impossible=fx.NEVER)
    @attrs.frozen
    class Twice:
        body: tuple

    inner = fx.Gain("heat", fx.Amount(1))
    nested = fx.May((Twice((inner,)),))
    assert list(fx.walk((nested,))) == [nested, Twice((inner,)), inner]
    assert list(fx.child_effects(fx.Choice(((inner,), (nested,))))) == [inner, nested]


def test_the_runtime_refuses_a_verb_without_a_handler_at_import(registry, monkeypatch):
    add_bask(monkeypatch, without=("handler",))
    monkeypatch.setattr(fx, "IMMEDIATE", fx.IMMEDIATE + (fx.REGISTRY["bask"],))
    with pytest.raises(TypeError, match="effect verb 'bask' \\(Bask\\) needs one handler"):
        handlers._check_every_verb_is_handled()


def test_the_runtime_refuses_a_verb_without_its_condition_at_import(registry, monkeypatch):
    add_bask(monkeypatch, without=("condition",), impossible="when it rains")
    monkeypatch.setattr(fx, "IMMEDIATE", fx.IMMEDIATE + (fx.REGISTRY["bask"],))
    with pytest.raises(TypeError, match="effect verb 'bask' \\(Bask\\) says it is impossible when it rains"):
        checks._check_every_verb_says_when_it_is_impossible()
