"""Saves and logs keep loading across compiler changes: no bundled definition changes its recorded hash unless its
card text was edited on purpose (tests/definition_hashes.py says why and how to record a deliberate edit)."""

import json

import attrs
from definition_hashes import RECORDED, changes, current

from tharsis.compiler import effects
from tharsis.games.recorded_cards import definition_hash


def test_no_bundled_definition_changed_its_meaning():
    found = changes(json.loads(RECORDED.read_text(encoding="utf-8")), current())
    assert not found, ("a bundled definition compiles to something else now, so saves and logs of games that used "
                       "it are refused (E741). A verb's new field: declare it with compiler.effects.added(default). "
                       "A deliberate card edit: python tests/definition_hashes.py --write.\n" + "\n".join(found))


def test_an_added_field_counts_only_when_a_card_uses_it():
    without = effects.RevealUntil(count=2, tag="plant")
    with_filter = attrs.evolve(without, cards=effects.CardFilter(types=("event",)))
    assert attrs.fields_dict(effects.RevealUntil)["cards"].metadata.get(effects.ADDED)
    assert definition_hash(without) != definition_hash(with_filter)
    assert definition_hash(without) == definition_hash(attrs.evolve(without, cards=None))
