"""The card filters (compiler/effects.py `CardFilter`: `with no earth tag`, `with requirements`, `with no special
tile`, `costing 10 or less`, ...) read of one card: the one matcher behind every place where cards are counted or
chosen (the `cards` quantity, a `play card` trigger, the card verbs, a discount on cards), so that a filter means the
same wherever it is written. Why a module of its own, at the bottom of the rules: both the measures and the prices
read it, and neither may import the other.
"""

from __future__ import annotations

from tharsis.compiler.effects import CardFilter, PlaceTile, ReplaceTile, walk
from tharsis.compiler.vocabulary import SPECIAL

__all__ = ["bears_tag", "card_matches", "filter_tags"]


def filter_tags(definition) -> tuple:
    """The tags a card filter reads: the printed ones, and the event tag on an event (the reference engine counts an
    event's type as a tag: `with event tag` takes it, `with no event tag` leaves it out, and an event with no printed
    tag is not tagless for `with no tags`)."""
    return definition.tags + ("event",) if getattr(definition, "type", None) == "event" else definition.tags


def bears_tag(definition, tag: str) -> bool:
    """Whether a card bears a tag, the event tag included (`reveal ... with event tag`, `reveal top card if event
    tag`); `event tags` counts the events played (compiler/quantities.py)."""
    return tag in filter_tags(definition)


def card_matches(definition, f: CardFilter) -> bool:
    """Whether a card (a project card, a card of a declared kind or a corporation) passes every filter of `f`."""
    tags = filter_tags(definition)
    if f.types and getattr(definition, "type", "corporation") not in f.types:
        return False
    if (f.tag is not None and f.tag not in tags) or (f.lacks is not None and f.lacks in tags) or (f.no_tags and tags):
        return False
    if any(tag not in tags for tag in f.more_tags) or any(tag in tags for tag in f.more_lacks):
        return False
    if f.any_tag and not any(tag in tags for tag in f.any_tag):
        return False
    if (f.min_tags is not None and len(tags) < f.min_tags) or (f.max_tags is not None and len(tags) > f.max_tags):
        return False
    requirements = getattr(definition, "requirements", None)
    if f.requirements is not None and (requirements is None or (f.requirements == "global" and not any(
            c.global_parameter for group in requirements.groups for c in group)) or (
            f.requirements == "faction" and not _names_a_faction(requirements))):
        return False
    cost = getattr(definition, "cost", 0)
    if (f.min_cost is not None and cost < f.min_cost) or (f.max_cost is not None and cost > f.max_cost):
        return False
    if f.with_vp and (definition.vp is None or definition.vp.points <= 0):
        return False
    if f.holds is not None and definition.holds != f.holds:
        return False
    if f.lacking and not _lacks(definition, f.lacking, requirements):
        return False
    return not f.special_tile or _places_special_tile(definition)


def _names_a_faction(requirements) -> bool:
    """Whether a requirement names a faction (`"Blue Party" rules`, `envoys in "Blue Party" >= 2`, its leader); a role
    (`chair >= 1`) or the ruling faction unnamed is not one."""
    return any(term.faction is not None for group in requirements.groups for c in group for term in c.quantity.terms)


def _places_special_tile(definition) -> bool:
    return any((isinstance(e, PlaceTile) and e.tile == SPECIAL) or (isinstance(e, ReplaceTile) and e.new == SPECIAL)
               for e in walk(definition.play))


def _lacks(definition, lacking: tuple, requirements) -> bool:
    """`with no requirements`, `with no global requirements`, `with no vp`, `with no special tile`: the card has
    none of what each word names (the opposite of the filter without `no`)."""
    for word in lacking:
        if word == "requirements" and requirements is not None:
            return False
        if word == "global requirements" and requirements is not None and any(
                c.global_parameter for group in requirements.groups for c in group):
            return False
        if word == "faction requirements" and requirements is not None and _names_a_faction(requirements):
            return False
        if word == "vp" and definition.vp is not None and definition.vp.points > 0:
            return False
        if word == "special tile" and _places_special_tile(definition):
            return False
    return True
