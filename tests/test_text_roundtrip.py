"""Rules text generated from compiled cards is itself valid card text that compiles to the same thing.

This is what lets `tharsis play` show a card's text (`card NAME`) and lets tools print rules text: the renderer in
compiler/text.py and the compiler agree on every bundled card.
"""

import pytest

from tharsis.compiler import compile_text, text


@pytest.fixture(scope="module")
def cards(bundled):
    return bundled.library.cards + bundled.library.corporations


@pytest.fixture(scope="module")
def declarations(bundled):
    """What every bundled card may need beside it: the declared tags (the wild one too), card resources,
    parameters, kinds of card, pieces, factions and their government, as card text."""
    declared = [d for d in bundled.library.definitions
                if d.kind in ("parameter", "card_kind", "piece", "faction", "government")]
    return text.content(declared, bundled.declared_tags, bundled.declared_resources,
                        bundled.declared_wild_tags) + "\n"


def test_every_bundled_card_renders_to_text_that_compiles_back_to_the_same_card(cards, declarations):
    mismatches = []
    for card in cards:
        source = declarations + text.card(card) + "\n"
        result = compile_text(source, f"<{card.name}>")
        if result.errors:
            mismatches.append(f"{card.name}: {[d.message for d in result.errors]}\n{source}")
            continue
        again = result.library.get(card.name)
        for field in ("cost", "tags", "requirements", "holds", "play", "actions", "passives", "vp", "set",
                      "number", "first_action", "starting_megacredits", "variant"):
            if not hasattr(card, field):
                continue
            if getattr(again, field) != getattr(card, field):
                mismatches.append(f"{card.name}: {field} differs after rendering:\n{source}")
    assert mismatches == []


def test_every_bundled_definition_has_english_rules_text(cards):
    from tharsis.compiler import rules_text

    for card in cards:
        assert rules_text.card(card).startswith(card.name)


def test_rules_text_reads_like_the_card(bundled):
    from tharsis.compiler import rules_text

    livestock = bundled.library.get("Livestock")
    assert rules_text.card(livestock) == (
        "Livestock (#184) — active card, 13 MC, tags: animal\n"
        "  Requires oxygen at least 9%.\n"
        "  Holds animal resources.\n"
        "  When played: Decrease your plant production 1 step, increase your MC production 2 steps.\n"
        "  Action: Add 1 animal to this card.\n"
        "  1 VP per animal here.")
    rails = rules_text.card(bundled.library.get("Martian Rails"))
    assert "Action: Spend 1 energy. -> Gain 1 MC per city on Mars." in rails
