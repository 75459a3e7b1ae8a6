"""The effect handlers: the only code that changes a game's state, one small function per compiled effect.

payment.py (paying costs with megacredits and other means), triggers.py (firing the triggers an event sets off, in
the order their owners choose), tiles.py (placing tiles, raising global parameters and TR, placement bonuses),
sites.py (pieces placed on declared sites and sent to visit them, markers, sites coming into play and leaving it),
effects.py (running a list of effects: the interpreter of the compiled language) and actions.py (a player's
actions: playing a card, a card's action, standard projects, milestones, awards).

May import: the rules' checks and the core below. Each handler pushes steps onto the flow (core/flow.py) and asks
questions there, so a handler never waits for an answer. The rules recurse, and five imports go up within this
layer on purpose (named in pyproject.toml): a trigger runs effects (triggers -> effects), a placement bonus is an
effect (tiles -> effects, and sites -> effects for a site's track, bonus and build), an event may wake an inactive
site (triggers -> sites), and an effect may play or use another card (effects -> actions). They stay direct calls
rather than dispatch through the flow's registry: the call is the rule ("a trigger runs its effects"), a reader
and an editor follow it to its definition, and the registry would only hide the same dependency behind a string.
"""

# Whichever handler is imported first, the package loads them top-down from actions: each module then finds the
# names it imports from those below it already defined, and those going up are imported as modules (or, for an
# inactive site woken by a trigger's event, when first needed), whose
# names are looked up when called.
from . import actions  # noqa: E402,F401
