"""The rules' checks: questions about a game that change nothing.

passives.py (the standing effects in play, cached per player), sites.py (declared sites and pieces: where a piece
may go, which site may be visited, how far a marker may move), measures.py (counting tags, tiles, resources and
production for requirements and VP), prices.py (what a card or project costs, discounts and means of payment),
card_filters.py (whether a card passes a card filter, for the measures and the prices alike), kept.py (the cards
kept on a card in play that its player may play as if from hand, and their discount), spaces.py (where a
tile may go, what placing it earns, the global parameters' state), checks.py (whether effects
can be done, tried on the state and rolled back), ordering.py (whether the order of a played card's steps can
matter, so that the order question is asked), legality.py (which cards, actions, milestones and awards a player
may take now, and why not) and scoring.py (final scores).

May import: the core (runtime/core/) and the compiler's definitions. Not the handlers: a check that changed the
state, or ran a handler to find out, would make legality depend on the order questions are asked in. One import
goes up within the layer on purpose, checks -> legality (named in pyproject.toml): whether an effect that plays a
card from hand can be done asks whether some card in hand is playable, which asks these checks in turn.
"""
