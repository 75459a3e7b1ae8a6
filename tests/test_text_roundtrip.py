"""Rules text generated from compiled cards is itself valid card text that compiles to the same thing.

This is what lets `tharsis play` show a card's text (`card NAME`) and lets tools print rules text: the renderer in
compiler/text.py and the compiler agree on every bundled card.
"""

import pytest

from tharsis.compiler import compile_text, text


def _card_source(card) -> str:
    lines = [f'card "{card.name}" #{card.number or "X"} {{', f"  set: {card.set}  type: {card.type}  cost: {card.cost}"]
    if card.tags:
        lines.append("  tags: " + ", ".join(card.tags))
    if card.holds:
        lines.append(f"  holds: {card.holds}")
    if card.requirements:
        lines.append(f"  requires: {text.condition(card.requirements)}")
    if card.play:
        lines.append(f"  play: {text.effects(card.play)}")
    if card.actions:
        options = []
        for option in card.actions:
            cost = text.effects(option.cost)
            options.append((cost + " -> " if cost else "") + text.effects(option.effects))
        lines.append("  action: " + " | ".join(options))
    for passive in card.passives:
        lines.append(f"  effect: {text.effect(passive)}")
    if card.vp:
        lines.append(f"  vp: {text.victory_points(card.vp)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def cards(bundled):
    return bundled.library.cards


def test_every_bundled_card_renders_to_text_that_compiles_back_to_the_same_card(cards):
    mismatches = []
    for card in cards:
        source = _card_source(card)
        result = compile_text(source, f"<{card.name}>")
        if result.errors:
            mismatches.append(f"{card.name}: {[d.message for d in result.errors]}\n{source}")
            continue
        again = result.library.cards[0]
        for field in ("cost", "tags", "requirements", "holds", "play", "actions", "passives", "vp"):
            if getattr(again, field) != getattr(card, field):
                mismatches.append(f"{card.name}: {field} differs after rendering:\n{source}")
    assert mismatches == []
