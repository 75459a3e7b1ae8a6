"""The table: one game's lookup tables, state, flow and logs, and the services every layer above it uses.

Every function of the rules takes the game first (`game`), and what it may use of it is this class: the tables the
content gives for the options (library, standard projects and actions, board, milestones, awards, the declared
elements), shared by every clone; the mutable `state` (core/state.py) and `flow` (core/flow.py); the log of choices
and the event log. Its methods are the services handlers and phases need: drawing and shuffling decks of the sets
in play, logging what happened (`log_event`, and `begin` for a cause whose effects follow). The public `Game`
(runtime/api/game.py) is a `Table` with the decision API on top (build and start a game, `pending`, `apply`,
`clone`, saves); nothing below the API imports it, so the services live here, under the rules that call them.

Determinism: every shuffle and draw goes through the state's RNG (core/rng.py), so the options and the log of
choices fix the game. The event log records each cause as it begins and ends (`begin`, the `cause_ends` step) and
notes (`log_event`); every change between a cause's beginning and end is its effect (runtime/api/narration.py).
"""

from __future__ import annotations

from typing import Optional

from . import rng
from .flow import Step, step


class Table:
    """One game on the table. Its attributes are set by `Game` (runtime/api/game.py), which builds and restores it:
    options, content, library, standard_projects, standard_actions, board, milestones, awards, elements (shared,
    never changed), state, flow, log, deciders, events, result (this game's own)."""

    answer_single_options = True   # a sandbox driven step by step (scenarios) asks every question
    observer = None   # a narrator's `observer(game, event)`, called as each event is logged; clones have none

    def reseed(self, seed: int) -> None:
        """Replace the source of future shuffles (search determinises what a player cannot foresee)."""
        self.state.rng = rng.seeded(seed)

    def log_event(self, kind: str, actor: Optional[int] = None, *details) -> None:
        """Record what happened as data: `(generation, kind, actor, *details)`, e.g. `(3, "play", 0, CARD)` or
        `(3, "pass", 1)`. `actor` is a player's index, or None when nobody acts (the production phase, a rule).
        The kinds and their sentences are runtime/api/narration.py's; nothing in the rules reads the events."""
        event = (self.state.generation, kind, actor, *details)
        self.events.append(event)
        if self.observer is not None:
            self.observer(self, event)

    def begin(self, kind: str, actor: Optional[int] = None, *details) -> None:
        """Log an event that is the cause of what follows (a card played, a trigger, a placement bonus, the
        production phase...): every change until its `end` event is its effect. The end is a step pushed now, so
        it runs after every step the cause pushes from here on; causes nest (a trigger within a placement within
        a card), and a narrator attributes each change to the innermost cause open when it happened."""
        event = (self.state.generation, kind, actor, *details)   # `log_event`'s, inline: a cause at most actions
        self.events.append(event)
        if self.observer is not None:
            self.observer(self, event)
        self.flow.stack.append(_CAUSE_ENDS)

    def take_from_deck(self, count: int) -> list[str]:
        """Up to `count` cards off the project deck; the discard pile is shuffled into a new deck when it runs out."""
        state = self.state
        taken = []
        for _ in range(count):
            if not state.deck:
                if not state.discard:
                    break
                state.deck, state.discard = state.discard, []
                state.face_down = {}  # reshuffled: no card of the new deck is anyone's to know
                state.rng = rng.shuffle(state.rng, state.deck)
            taken.append(state.deck.pop())
        return taken

    def draw(self, player: int, count: int) -> None:
        self.state.players[player].hand.extend(self.take_from_deck(count))

    def turn_order(self) -> list[int]:
        count = len(self.state.players)
        first = self.state.first_player
        return [(first + i) % count for i in range(count)]

    def sets_in_play(self) -> frozenset[str]:
        """Base always, Corporate Era when on (and in solo), the chosen expansions, and every designer's own set
        that is not a declared expansion."""
        return self.elements.sets

    def project_deck(self) -> list[str]:
        """The shuffled project deck: the cards of the sets in play that are not of a declared kind."""
        sets = self.elements.sets
        cards = sorted(d.name for d in self.library.values() if d.kind == "card" and d.set in sets
                       and d.type not in self.elements.card_kinds and sets.issuperset(d.needs))
        self.state.rng = rng.shuffle(self.state.rng, cards)
        return cards

    def kind_deck(self, kind: str) -> list[str]:
        """The shuffled pile of a declared kind of card, from the sets in play."""
        sets = self.elements.sets
        named = self.elements.staged_cards.get(kind, self.library)   # a kind with stages: its cards' own names
        cards = sorted(d.name for d in named.values() if d.kind in ("card", "corporation") and d.set in sets
                       and d.type == kind and sets.issuperset(getattr(d, "needs", ())) and
                       getattr(d, "variant", None) is None)
        self.state.rng = rng.shuffle(self.state.rng, cards)
        return cards

    def greenery_conversions(self) -> dict:
        """The standard actions that place a greenery (offered in the final greenery phase)."""
        return self._conversions


@step(name="game.cause_ends")   # the name saves have used since `Game` defined it (runtime/api/game.py)
def cause_ends(game: Table) -> None:
    """The end of the cause `Table.begin` logged: what changes next is the enclosing cause's effect."""
    event = (game.state.generation, "end", None)   # log_event's, inline: half the events are ends
    game.events.append(event)
    if game.observer is not None:
        game.observer(game, event)


_CAUSE_ENDS = Step(cause_ends)   # frames are immutable: one shared by every game
