"""The core: the game as plain data, and the services every layer above uses.

state.py (players, board spaces, decks: plain attrs classes, copied in microseconds), board.py (a board's spaces
and adjacency as lookup tables), rng.py (the seeded generator whose state is an int inside the game state),
decisions.py (the questions put to players and their options), flow.py (the stack of steps that says where the game
stands) and table.py (`Table`: the tables, state, flow and logs of one game, with the services the rules call:
drawing cards, shuffling decks, logging events).

May import: the compiler's definitions (data) and nothing else of runtime/: everything above builds on this, and
nothing here knows a rule.
"""
