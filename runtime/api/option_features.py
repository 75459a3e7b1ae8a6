"""Every legal option of a decision described by numbers: the option features a learner scores the moves by.

The fixed action space (action_space.py) names a move by an id, which says *which* card or space but not *what*
it is: a policy that sees only ids must learn each card apart, from thousands of games. Here each legal move of the
pending decision gets a row of features of one width for the whole content: what kind of move it is; for a move
naming a card (played, kept, drafted, bought, discarded, used, targeted) the card's type, cost, price now, tags,
requirements, victory points, what it holds and what lasts; what the move does (production, stock, parameters,
tiles, cards, card resources, pieces, harm to opponents: from the compiled effects, card_facts.py); for a space its
kind, position, bonuses and neighbours; for a payment its parts; for a number, a seat, a resource, a site or a faction
what it is. `layout` names the fields in order (docs/api.md describes each); `columns` names every column.

A row is a static part, fixed for the move in a content and board (cached per id), and a few dynamic columns that
depend on the position (the price now, the resources on a card, a space's neighbours, the seat relative to the
player, the decision's kind): `dynamic` lists them apart so that an adapter with numpy can copy the static rows in
one operation and set the rest (tharsis/envs/features.py). `rows` gives the whole rows as lists.

Rows come in the order of the legal ids (ascending); a learning adapter pads them to `OPTION_SLOTS` slots. A
decision with more legal moves than slots (none in the games tests/test_option_features.py plays with every
expansion) keeps its first `OPTION_SLOTS` ids in the slots; the rest stay reachable by their ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from tharsis.compiler import effects as fx
from tharsis.compiler.vocabulary import (
    BOARD_BONUSES,
    GREENERY_TILES,
    LAND,
    OCEAN_SPACE,
    OCEAN_TILES,
    STANDARD_RESOURCES,
    TILES,
    VOLCANIC,
)

from ..core.decisions import DECISION_KINDS, Decision, Option
from ..core.state import MAX_PLAYERS, NEUTRAL
from . import queries
from .action_space import MAX_CHOICE, MAX_X, SPECIALS, ActionSpace, action_space
from .card_facts import Facts, action_facts, definition_facts, effects_facts, requirement_bounds, vocabulary_of

if TYPE_CHECKING:
    from .game import Game

__all__ = ["OPTION_SLOTS", "OptionFeatures", "option_features_for"]

OPTION_SLOTS = 64   # rows an adapter pads to: more than any decision of the bundled content lists (space: about 50)
CARD_SEGMENTS = ("play", "take", "discard", "card action", "target")
CARD_TYPES = ("automated", "active", "event", "corporation", "other kind")
NEIGHBOURS = ("oceans", "own tiles", "others' tiles", "own cities", "others' cities", "own greeneries", "empty")
# what each count is divided by: about its largest value, so that features stay near 0 to 1
SCALE = {"cost": 50.0, "tags": 2.0, "vp": 5.0, "vp per": 2.0, "lasting": 3.0, "actions": 2.0, "production": 5.0,
         "stock": 10.0, "parameters": 3.0, "tiles": 2.0, "cards": 4.0, "pieces": 2.0, "attack": 4.0, "other": 5.0,
         "resources": 20.0, "requires tags": 5.0, "requires other": 3.0, "bonuses": 2.0, "extra cost": 10.0,
         "neighbours": 6.0, "units": 10.0, "standing": 10.0, "site pieces": 3.0}


class OptionFeatures:
    """The option features of one content: `width` numbers a row; `layout` ((field, columns) in order), `columns`
    (every column's name); `static_row(action, board)`, `dynamic(game, decision, ids, options)` and
    `rows(game, decision, legal)`."""

    def __init__(self, content, space: ActionSpace):
        self.space = space
        self.vocabulary = vocabulary = vocabulary_of(content)
        staged = {k.name for k in content.of_kind("card_kind") if k.stages}
        self.kinds = {k.name for k in content.of_kind("card_kind")}
        # the definition a card-naming id stands for: a project card (or one of a declared kind) before a
        # corporation, before a card of a kind with stages (which may share a project card's name), before a faction
        rank = {"card": 0, "corporation": 1, "faction": 3}
        self.named: dict[str, object] = {}
        for definition in sorted((d for d in content.definitions if d.kind in rank),
                                 key=lambda d: rank[d.kind] + (2 if getattr(d, "type", None) in staged else 0)):
            self.named.setdefault(definition.name, definition)
        self.standard = {d.name: d for d in content.definitions if d.kind in ("standard_project", "standard_action")}
        self.projects = {d.name: d for d in content.of_kind("standard_project")}
        self.conversions = {d.name: d for d in content.of_kind("standard_action")}
        self.milestones = {d.name: d for d in content.of_kind("milestone")}
        parameters = ("tr",) + vocabulary.parameters
        layout = [
            ("move", tuple(space.segments)),
            ("special", SPECIALS),
            ("decision", DECISION_KINDS),
            ("card type", CARD_TYPES),
            ("cost", ("printed",)),
            ("price", ("now",)),
            ("starting megacredits", ("",)),
            ("tags", vocabulary.tags),
            ("requires at least", vocabulary.parameters),
            ("requires at most", vocabulary.parameters),
            ("requires", ("tags", "other")),
            ("vp", ("fixed", "per unit", "conditional")),
            ("holds", vocabulary.card_resources),
            ("lasting", ("effects", "actions", "first action")),
            ("on the card", ("resources",)),
            ("does production", STANDARD_RESOURCES),
            ("does stock", STANDARD_RESOURCES),
            ("does parameters", parameters),
            ("does tiles", TILES),
            ("does", ("cards drawn", "card resources", "pieces", "attack", "scaled", "choice", "other effects")),
            ("space", (LAND, OCEAN_SPACE, "off-board", VOLCANIC, "reserved", "row", "column", "extra cost")),
            ("space bonuses", BOARD_BONUSES),
            ("neighbours", NEIGHBOURS),
            ("placing", TILES),
            ("pay", ("steel", "titanium", "other units", "megacredits")),
            ("number", ("x", "x is the most", "choice")),
            ("resource", STANDARD_RESOURCES),
            ("seat", tuple(str(i) for i in range(MAX_PLAYERS)) + ("neutral",)),
            ("standing", ("award",)),
            ("pieces", ("own", "others'", "active or ruling", "marker or dominant")),
        ]
        self.layout = tuple((field, tuple(columns)) for field, columns in layout)
        self.columns = tuple(f"{field}: {column}" if column else field for field, columns in self.layout
                             for column in columns)
        self.width = len(self.columns)
        self._at = {name: i for i, name in enumerate(self.columns)}
        self._static: dict[tuple[str, int], tuple] = {}
        self._boards: dict[str, tuple[float, float]] = {}
        self._visits: dict[tuple[str, int], list] = {}
        # (space, player) -> (the board, the tiles around the space, its neighbours' columns): `_neighbours`
        self._around: dict[tuple[str, int], tuple] = {}
        self._choices: dict[tuple[int, int], tuple] = {}   # (id of the effect, option) -> (the effect, its columns)
        self._dispatch: dict[int, tuple] = {}   # action id -> (what fills its dynamic columns, its key)

    def column(self, field: str, column: str = "") -> int:
        """The index of a column (`column("tags", "science")`)."""
        return self._at[f"{field}: {column}" if column else field]

    # ------------------------------------------------------------------ the static part

    def static_row(self, action: int, board) -> tuple[float, ...]:
        """The part of a move's row fixed by the content and the board (`Game.board`): the same at every decision."""
        key = (board.board.name, action)
        row = self._static.get(key)
        if row is None:
            row = self._static[key] = tuple(self._make_static(action, board))
        return row

    def _make_static(self, action: int, board) -> list[float]:
        row = [0.0] * self.width
        at = self._at
        segment, key = self.space.move(action)
        row[at[f"move: {segment}"]] = 1.0
        if segment == "special":
            row[at[f"special: {key}"]] = 1.0
        elif segment in CARD_SEGMENTS:
            definition = self.named.get(key)
            if definition is not None:
                self._card(row, definition)
                facts = action_facts(definition.actions) if segment == "card action" else \
                    definition_facts(definition)
                self._does(row, facts)
        elif segment in ("project", "convert"):
            definition = (self.projects if segment == "project" else self.conversions).get(key)
            if definition is not None:
                self._does(row, definition_facts(definition))
        elif segment == "milestone" and key in self.milestones:
            self._requirements(row, self.milestones[key].requirement)
        elif segment == "space":
            self._space(row, key, board)
        elif segment == "resource":
            row[at[f"resource: {key}"]] = 1.0
        elif segment == "choice":
            row[at["number: choice"]] = int(key) / MAX_CHOICE
        elif segment == "x" and key != "max":
            row[at["number: x"]] = int(key) / MAX_X
        elif segment == "x":
            row[at["number: x is the most"]] = 1.0
        elif segment == "pay":
            steel, titanium, other = key
            for name, units in (("steel", steel), ("titanium", titanium), ("other units", other)):
                row[at[f"pay: {name}"]] = units / SCALE["units"]
        return row

    def _card(self, row: list[float], definition) -> None:
        at = self._at
        kind = definition.kind
        card_type = "corporation" if kind == "corporation" else definition.type if kind == "card" and \
            definition.type in CARD_TYPES else "other kind" if kind == "card" else None
        if card_type is not None:
            row[at[f"card type: {card_type}"]] = 1.0
        row[at["cost: printed"]] = (getattr(definition, "cost", 0) or 0) / SCALE["cost"]
        row[at["starting megacredits"]] = (getattr(definition, "starting_megacredits", 0) or 0) / SCALE["cost"]
        for tag in definition.tags or ():
            row[at[f"tags: {tag}"]] += 1.0 / SCALE["tags"]
        self._requirements(row, definition.requirements)
        vp = definition.vp
        if vp is not None:
            if vp.condition is not None:
                row[at["vp: conditional"]] = vp.points / SCALE["vp"]
            elif vp.per is not None:
                row[at["vp: per unit"]] = vp.points / max(1, vp.divisor) / SCALE["vp per"]
            else:
                row[at["vp: fixed"]] = vp.points / SCALE["vp"]
        if definition.holds:
            row[at[f"holds: {definition.holds}"]] = 1.0
        row[at["lasting: effects"]] = len(definition.passives) / SCALE["lasting"]
        row[at["lasting: actions"]] = len(definition.actions) / SCALE["actions"]
        row[at["lasting: first action"]] = 1.0 if getattr(definition, "first_action", ()) else 0.0

    def _requirements(self, row: list[float], condition) -> None:
        at = self._at
        at_least, at_most, tags, other = requirement_bounds(condition, self.vocabulary)
        for parameter, fraction in at_least.items():
            row[at[f"requires at least: {parameter}"]] = fraction
        for parameter, fraction in at_most.items():
            row[at[f"requires at most: {parameter}"]] = fraction
        row[at["requires: tags"]] = tags / SCALE["requires tags"]
        row[at["requires: other"]] = other / SCALE["requires other"]

    def _does(self, row: list[float], facts: Facts) -> None:
        for column, value in self._does_columns(facts):
            row[column] = value

    def _does_columns(self, facts: Facts) -> list[tuple[int, float]]:
        at, found = self._at, []
        for table, field, scale in ((facts.production, "does production", "production"),
                                    (facts.stock, "does stock", "stock"),
                                    (facts.parameters, "does parameters", "parameters"),
                                    (facts.tiles, "does tiles", "tiles")):
            for key, value in table.items():
                column = at.get(f"{field}: {key}")
                if column is not None and value:
                    found.append((column, value / SCALE[scale]))
        for name, value, scale in (("cards drawn", facts.cards, "cards"),
                                   ("card resources", facts.card_resources, "cards"),
                                   ("pieces", facts.pieces, "pieces"), ("attack", facts.attack, "attack"),
                                   ("scaled", facts.scaled, None), ("choice", facts.choice, None),
                                   ("other effects", facts.other, "other")):
            if value:
                found.append((at[f"does: {name}"], value / SCALE[scale] if scale else value))
        return found

    def _space(self, row: list[float], sid: str, board) -> None:
        at = self._at
        space = board.spaces.get(sid)
        if space is None:   # a space of another board of the content: nothing but the kind of move
            return
        rows, columns = self._extent(board)
        kind = "off-board" if not space.on_mars else space.kind
        if f"space: {kind}" in at:
            row[at[f"space: {kind}"]] = 1.0
        row[at[f"space: {VOLCANIC}"]] = 1.0 if space.volcanic else 0.0
        row[at["space: reserved"]] = 1.0 if space.reserved else 0.0
        if space.on_mars:
            row[at["space: row"]] = space.row / rows
            row[at["space: column"]] = space.x / columns
        row[at["space: extra cost"]] = space.extra_cost / SCALE["extra cost"]
        for bonus, count in space.bonuses:
            column = at.get(f"space bonuses: {bonus}")
            if column is not None:
                row[column] += count / SCALE["bonuses"]

    def _extent(self, board) -> tuple[float, float]:
        found = self._boards.get(board.board.name)
        if found is None:
            mars = board.mars
            found = self._boards[board.board.name] = (float(max([s.row for s in mars] + [1])),
                                                      float(max([s.x for s in mars] + [1])))
        return found

    # ------------------------------------------------------------------ the dynamic part

    def dynamic(self, game: "Game", decision: Decision, ids: list[int], options: list[Option]
                ) -> tuple[list[tuple[int, float]], list[tuple[int, int, float]]]:
        """The columns that depend on the position: (column, value) the same in every row (the decision's kind, the
        tile being placed), and (row, column, value) of single rows (a card's price now, the resources on a card,
        a seat relative to the player, a space's neighbours, the megacredits of a payment, a site or a faction)."""
        at = self._at
        player = decision.player
        common = [(at[f"decision: {decision.kind}"], 1.0)] if decision.kind in DECISION_KINDS else []
        entries: list[tuple[int, int, float]] = []
        tile = queries.placing(game) if decision.kind == "space" else None
        if tile is not None and f"placing: {tile}" in at:
            common.append((at[f"placing: {tile}"], 1.0))
        dispatch = self._dispatch
        for slot, action in enumerate(ids):
            found = dispatch.get(action)
            if found is None:   # what fills the row's dynamic columns, found once per move
                segment, key = self.space.move(action)
                found = dispatch[action] = (_ROW.get(segment), key)
            add, key = found
            if add is not None:
                add(self, entries, slot, game, player, key, options[slot], decision)
        if decision.kind == "option":
            self._chosen_effects(entries, game, ids, options)
        return common, entries

    def _chosen_effects(self, entries: list, game: "Game", ids: list[int], options: list[Option]) -> None:
        """What each option of a choice between effects does: an option of a `choose { }`, the `yes` of a `may { }`,
        one of a card's several actions. The question's frame holds the compiled effect it asks about (or the card
        whose action it is), so its options are read from there; an option it does not explain keeps only its kind."""
        asking = game.flow.asking
        args = asking.args if asking is not None else ()
        first = args[0] if args else None
        for slot, option in enumerate(options):
            runs = None
            if type(first) is fx.Choice and type(option.value) is int and 0 <= option.value < len(first.options):
                runs = (first, option.value)
            elif type(first) is fx.May and option.value is True:
                runs = (first, -1)
            elif len(args) == 2 and type(args[1]) is str and type(option.value) is int:
                definition = self.named.get(args[1])
                if definition is not None and 0 <= option.value < len(getattr(definition, "actions", ())):
                    runs = (definition, option.value)
            if runs is not None:
                entries += [(slot, column, value) for column, value in self._effect_columns(*runs)]

    def _effect_columns(self, owner, index: int) -> list[tuple[int, float]]:
        """The "does" columns of option `index` of a choice, of a `may`'s body (-1), or of a card's action `index`,
        made once (the compiled effects live as long as the content)."""
        key = (id(owner), index)
        found = self._choices.get(key)
        if found is None:
            if type(owner) is fx.Choice:
                facts = effects_facts(owner.options[index])
            elif type(owner) is fx.May:
                facts = effects_facts(owner.body)
            else:
                facts = action_facts((owner.actions[index],))
            found = self._choices[key] = (owner, self._does_columns(facts))
        return found[1]

    def rows(self, game: "Game", decision: Optional[Decision], legal: dict[int, Option]
             ) -> tuple[list[int], list[list[float]]]:
        """The legal ids of `decision`, ascending, and a whole row for each (`legal`: the action space's
        `legal(decision)`)."""
        if decision is None:
            return [], []
        ids = sorted(legal)
        rows = [list(self.static_row(action, game.board)) for action in ids]
        common, entries = self.dynamic(game, decision, ids, [legal[i] for i in ids])
        for row in rows:
            for column, value in common:
                row[column] = value
        for slot, column, value in entries:
            rows[slot][column] = value
        return ids, rows

    def _seat(self, game: "Game", player: int, owner) -> int:
        """The column of `owner` relative to `player` (0 = the player), or of the neutral player."""
        if owner == NEUTRAL or not isinstance(owner, int):
            return self._at["seat: neutral"]
        return self._at[f"seat: {(owner - player) % len(game.state.players)}"]

    def _price(self, entries, slot, game, player, key, option, decision) -> None:
        definition = game.library.get(key)
        if definition is not None and definition.kind == "card":
            entries.append((slot, self._at["price: now"], queries.card_cost(game, player, key) / SCALE["cost"]))

    def _standard_price(self, entries, slot, game, player, key, option, decision) -> None:
        definition = game.standard_projects.get(key) or game.standard_actions.get(key)
        if definition is not None:
            entries.append((slot, self._at["price: now"],
                            queries.standard_cost(game, player, definition) / SCALE["cost"]))

    def _on_card(self, entries, slot, game, player, key, option, decision) -> None:
        owner = option.value[0] if type(option.value) is tuple else player
        if type(owner) is int and 0 <= owner < len(game.state.players):
            card = game.state.players[owner].card(key)
            if card is not None:
                entries.append((slot, self._at["on the card: resources"], card.resources / SCALE["resources"]))
        if type(option.value) is tuple:
            entries.append((slot, self._seat(game, player, owner), 1.0))

    def _own_card(self, entries, slot, game, player, key, option, decision) -> None:
        card = game.state.players[player].card(key)
        if card is not None:
            entries.append((slot, self._at["on the card: resources"], card.resources / SCALE["resources"]))

    def _target_seat(self, entries, slot, game, player, key, option, decision) -> None:
        entries.append((slot, self._seat(game, player, int(key)), 1.0))

    def _faction_piece(self, entries, slot, game, player, key, option, decision) -> None:
        faction, owner = option.value
        entries.append((slot, self._seat(game, player, owner), 1.0))
        self._faction(entries, slot, game, player, faction, option, decision)

    def _faction(self, entries, slot, game, player, key, option, decision) -> None:
        government = game.state.government
        faction = government.faction(key) if government is not None else None
        if faction is None:
            return
        at, scale = self._at, SCALE["site pieces"]
        own = faction.pieces.count(player)
        entries += [(slot, at["pieces: own"], own / scale),
                    (slot, at["pieces: others'"], (len(faction.pieces) - own) / scale),
                    (slot, at["pieces: active or ruling"], 1.0 if government.ruling == key else 0.0),
                    (slot, at["pieces: marker or dominant"], 1.0 if government.dominant == key else 0.0)]

    def _site(self, entries, slot, game, player, key, option, decision) -> None:
        site = game.state.site(key)
        declared = game.elements.sites.get(key)
        if site is None or declared is None:
            return
        at, scale = self._at, SCALE["site pieces"]
        own = site.pieces.count(player)
        entries += [(slot, at["pieces: own"], own / scale),
                    (slot, at["pieces: others'"], (len(site.pieces) - own) / scale),
                    (slot, at["pieces: active or ruling"], 1.0 if site.active else 0.0),
                    (slot, at["pieces: marker or dominant"], site.marker / max(1, len(declared.track) - 1))]
        visit = self._visits.get((key, site.marker))
        if visit is None:   # what a visit gives now: the effects of the marker's step
            track = declared.track[site.marker] if 0 <= site.marker < len(declared.track) else ()
            visit = self._visits[(key, site.marker)] = self._does_columns(effects_facts(track))
        entries += [(slot, column, value) for column, value in visit]

    def _award(self, entries, slot, game, player, key, option, decision) -> None:
        award = game.awards.get(key)
        if award is None:
            return
        scores = [queries.quantity(game, award.measure, queries.Where(i)) for i in range(len(game.state.players))]
        others = [score for i, score in enumerate(scores) if i != player] or [0]
        entries.append((slot, self._at["standing: award"], (scores[player] - max(others)) / SCALE["standing"]))

    def _neighbours(self, entries, slot, game, player, key, option, decision) -> None:
        """What a space's neighbours hold, for `player`: found again only when a tile around it is another (tiles
        are immutable, so the same tile objects around the space give the same counts)."""
        board, tiles = game.board, game.state.tiles
        around = board.neighbours.get(key, ())
        stamp = [tiles.get(neighbour) for neighbour in around]
        known = self._around.get((key, player))
        if known is None or known[0] is not board or known[1] != stamp:
            if len(self._around) >= 100_000:
                self._around.clear()
            known = self._around[(key, player)] = (board, stamp, self._neighbour_columns(stamp, player))
        entries += [(slot, column, value) for column, value in known[2]]

    def _neighbour_columns(self, stamp: list, player: int) -> list[tuple[int, float]]:
        counts = dict.fromkeys(NEIGHBOURS, 0)
        for tile in stamp:
            if tile is None:
                counts["empty"] += 1
            elif tile.kind in OCEAN_TILES:
                counts["oceans"] += 1
            else:
                own = tile.owner == player
                counts["own tiles" if own else "others' tiles"] += 1
                if tile.is_city:
                    counts["own cities" if own else "others' cities"] += 1
                elif own and tile.kind in GREENERY_TILES:
                    counts["own greeneries"] += 1
        at, scale = self._at, SCALE["neighbours"]
        return [(at[f"neighbours: {name}"], count / scale) for name, count in counts.items() if count]

    def _payment(self, entries, slot, game, player, key, option, decision) -> None:
        paid = option.value.get("megacredits", 0) if isinstance(option.value, dict) else 0
        if paid:
            entries.append((slot, self._at["pay: megacredits"], paid / SCALE["cost"]))

    def _most(self, entries, slot, game, player, key, option, decision) -> None:
        if key == "max":
            entries.append((slot, self._at["number: x"], min(option.value, 4 * MAX_X) / MAX_X))


_ROW = {"play": OptionFeatures._price, "take": OptionFeatures._price, "project": OptionFeatures._standard_price,
        "convert": OptionFeatures._standard_price, "target": OptionFeatures._on_card,
        "card action": OptionFeatures._own_card, "seat": OptionFeatures._target_seat,
        "faction piece": OptionFeatures._faction_piece, "faction": OptionFeatures._faction,
        "site": OptionFeatures._site, "award": OptionFeatures._award, "space": OptionFeatures._neighbours,
        "pay": OptionFeatures._payment, "x": OptionFeatures._most}


def option_features_for(game: "Game") -> OptionFeatures:
    """The option features of the content `game` plays with (made once per content and shared)."""
    space = action_space(game)
    found = _FEATURES.get(id(space))
    if found is None or found[0] is not space:
        found = _FEATURES[id(space)] = (space, OptionFeatures(game.content, space))
    return found[1]


_FEATURES: dict[int, tuple] = {}
