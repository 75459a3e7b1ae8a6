"""Semantic checks: AST -> compiled definitions, collecting every diagnostic on the way.

Pipeline place: after parser.py/syntax.py, before the runtime. Each AST node kind (a grammar rule name) has one
method, here for definitions and fields, in check_effects.py for effect verbs (registered per verb with
`@compiles`), that reads the node's children by name (`node["value"]`, compiler/syntax.py), validates its words
against compiler/vocabulary.py and builds the compiled object from compiler/effects.py. Nothing raises: a bad part
is reported and left out, and checking goes on, so a designer sees every problem of a run at once.
Cross-definition checks (duplicate names and numbers, references from boards to milestones and awards) run in
`check_library` once all files are in.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import effects as fx, vocabulary as v
from .check_effects import UNKNOWN_HOLDS, CheckContext, EffectChecks
from .definitions import (
    ActionOption,
    Award,
    Board,
    Card,
    CardKind,
    Corporation,
    Expansion,
    Faction,
    Government,
    Milestone,
    Parameter,
    Piece,
    Rule,
    Site,
    Source,
    Space,
    StandardAction,
    StandardProject,
    TrackBonus,
    VictoryPoints,
)
from .diagnostics import Diagnostics, Fix, Span, did_you_mean, respelling, single_match
from .lints import DesignLints
from .quantities import QuantityCompiler, respelt
from .syntax import Leaf, Node, collector_paused

# Fields each kind accepts, and which of them are required.
FIELDS = {
    "card": ({"set", "type", "cost", "tags", "holds", "requires", "play", "action", "repeatable action", "effect",
              "vp", "needs"}, {"type", "cost"}),
    "corporation": ({"set", "tags", "start", "holds", "play", "action", "repeatable action", "effect",
                     "first action", "vp", "variant", "needs"}, {"start"}),
    "standard_project": ({"set", "cost", "play", "variant"}, {"cost", "play"}),
    "standard_action": ({"set", "cost", "play", "variant", "once per generation"}, {"play"}),
    "milestone": ({"set", "requires"}, {"requires"}),
    "award": ({"set", "measure"}, {"measure"}),
    "parameter": ({"set", "scale", "track", "ends game"}, {"scale"}),
    "card_kind": ({"set", "deal", "unplayable", "unplayable to", "stages"}, {"deal"}),
    "rule": ({"set", "at", "by", "play", "after"}, {"at", "play"}),
    "expansion": ({"offboard", "milestones", "awards", "solo generations", "sites"}, set()),
    "piece": ({"set", "supply", "limit", "returns", "neutral"}, set()),
    "faction": ({"set", "bonus", "effect", "action", "repeatable action"}, set()),
    "government": ({"set", "factions", "pieces", "ruling", "role", "influence", "vp"}, {"factions", "pieces"}),
    "site": ({"set", "holds", "visited by", "track", "marker", "bonus", "build", "inactive until"}, {"track"}),
}
REPEATABLE = {"effect", "track"}
STAGE_FIELD = "on "   # `on reveal:`, `on STAGE:`: a field of a card whose kind has stages (its key names the stage)
# fields whose value has another form on another kind of definition: the form (grammar rule) each kind takes
FIELD_FORMS = {
    "holds": ({"site": "site_holds_field"}, "holds_field",
              {"site_holds_field": "a site holds a number of pieces of a declared kind: holds: 3 outpost",
               "holds_field": "a card holds one kind of card resource: holds: animal"}),
    "track": ({"site": "site_track_field"}, "parameter_track_field",
              {"site_track_field": "a site's track lists the effects of each step: track: nothing | gain 2 MC",
               "parameter_track_field": "a parameter's track gives effects at a value: track: 8% -> draw 1"}),
}
RULE_MOMENTS = {"end of generation": "end_of_generation", "start of game": "start_of_game"}
PIECE_RETURNS = {"end of generation": "end_of_generation"}
RULE_DECIDERS = {"first player": "first_player", "each player": "each_player"}
ENDS_GAME = ("yes", "no", "solo")
UNPLAYABLE_TO = ("pile", "discard")   # a kind's unplayable card: under its pile (dealt again), or out of the game
DECLARE_PARAMETER = 'declare a new global parameter with: parameter "NAME" { scale: 0% to 30% step 2% }'


class Checker(EffectChecks, DesignLints):
    def __init__(self, diagnostics: Diagnostics, tags: set[str], card_resources: set[str],
                 parameters: Optional[dict] = None, card_kinds: tuple[str, ...] = (),
                 wild_tags: tuple[str, ...] = (), pieces: tuple[str, ...] = (),
                 staged_kinds: tuple[str, ...] = (), factions: tuple[str, ...] = (), roles: tuple[str, ...] = (),
                 marks: tuple[str, ...] = ()):
        """`parameters`: every global parameter's (minimum, maximum, step, unit), the declared ones included
        (compiler/pipeline.py finds the declarations in every file first); `card_kinds`: declared kinds of card;
        `pieces`: declared kinds of piece; `marks`: declared marks put on tiles."""
        self.diagnostics = diagnostics
        self.tags = tags
        self.card_resources = card_resources
        self.parameters = dict(v.GLOBAL_RANGES) if parameters is None else parameters
        self.card_kinds = tuple(card_kinds)
        self.wild_tags = tuple(wild_tags)  # tags declared `as any tag`: they count as every tag
        self.staged_kinds = tuple(staged_kinds)  # declared kinds of card with `stages:`
        self.factions = tuple(factions)  # declared factions, and the roles of the declared governments
        self.roles = tuple(roles)
        self.pieces = tuple(pieces)
        self.marks = tuple(marks)
        self.quantities = QuantityCompiler(diagnostics, tags, card_resources, self.parameters, self.pieces,
                                           self.factions, self.roles, self.card_kinds, self.marks)

    # ------------------------------------------------------------------ definitions

    def definition(self, node: Node):
        method = getattr(self, "_def_" + node.kind, None)
        if method is None:
            return None
        with collector_paused():  # linear in the definition (syntax.collector_paused says why)
            compiled = method(node)
            if compiled is not None:
                self.lint_definition(node, compiled)  # compiler/lints.py
            return compiled

    def _fields(self, node: Node, kind: str) -> dict[str, list[Node]]:
        allowed, required = FIELDS[kind]
        fields: dict[str, list[Node]] = {}
        for field in node.nodes():
            key_leaf = field["key"]
            key = " ".join(key_leaf.text.rstrip(":").split())  # "first   action :" -> "first action"
            if key.startswith(STAGE_FIELD) and kind == "card":  # checked with the card's kind (_stage_effects)
                if key in fields:
                    self.diagnostics.error("E203", f"'{key}' is given twice", key_leaf.span,
                                 f"first given at line {fields[key][0].span.line}")
                    continue
                fields[key] = [field]
                continue
            if key not in allowed:
                self.diagnostics.error("E202", f"a {kind.replace('_', ' ')} has no '{key}' field", key_leaf.span,
                             "fields here: " + ", ".join(sorted(allowed)))
                continue
            if key in FIELD_FORMS:
                forms, usual, hints = FIELD_FORMS[key]
                wanted = forms.get(kind, usual)
                if field.kind != wanted:
                    self.diagnostics.error("E301", f"a {kind.replace('_', ' ')}'s '{key}:' is not written this way",
                                           key_leaf.span, hints[wanted])
                    continue
            if key in fields and key not in REPEATABLE:
                self.diagnostics.error("E203", f"'{key}' is given twice", key_leaf.span,
                             f"first given at line {fields[key][0].span.line}")
                continue
            fields.setdefault(key, []).append(field)
        if kind == "card" and "type" in fields and _words(fields["type"][0]) in self.card_kinds:
            required = required - {"cost"}  # a card of a declared kind is played for free
        for key in sorted(required - set(fields)):
            name = node["name"]
            self.diagnostics.error("E201", f"{kind.replace('_', ' ')} {name.text} needs a '{key}' field", name.span)
        return fields

    def _name(self, node: Node) -> tuple[str, Span]:
        leaf = node["name"]
        name = leaf.value.strip()
        if not name:
            self.diagnostics.error("E301", "a definition needs a non-empty name", leaf.span)
        return name, leaf.span

    def _source(self, node: Node) -> Source:
        return node["name"].span

    def _def_card(self, node: Node) -> Optional[Card]:
        name, _ = self._name(node)
        number = node["number"]
        fields = self._fields(node, "card")
        holds = self._holds(fields)
        written_type = self._card_type(fields)
        card_type = written_type or "automated"  # a missing or misspelt type is reported once, not judged again
        ctx = CheckContext("card", holds=holds, printed_tags=self._printed_tags(written_type),
                           event=written_type == "event")
        cost = self._cost(fields)
        if card_type in self.card_kinds and "cost" in fields:
            self.diagnostics.error("E202", f"a {card_type} card has no cost: it is played for free",
                         fields["cost"][0]["key"].span, "remove the 'cost:' field")
        tags = self._tags(fields)
        requirements = self._requirements(fields, ctx)
        play = self._effects_field(fields, "play", ctx)
        actions = self._actions(fields, ctx)
        passives = self._passives(fields, ctx)
        vp = self._vp(fields, ctx)
        if written_type == "event":
            for key in ("action", "repeatable action", "effect"):
                for field in fields.get(key, ()):
                    self.diagnostics.error("E204", f"an event has no lasting '{key}': it leaves play when played",
                                 field["key"].span, "make the card 'type: active'")
        elif written_type == "automated":   # a card of a declared kind stays in play: its lasting effects hold
            for key in ("action", "repeatable action", "effect"):
                for field in fields.get(key, ()):
                    if key == "effect" and field["value"].kind == "tile_ban":
                        continue   # a rule of the card's tile, printed on a green card (Red City)
                    self.diagnostics.error("E204", f"an {card_type} card has no '{key}'; blue cards are 'type: active'",
                                 field["key"].span, "make the card 'type: active'")
        elif written_type in self.staged_kinds:   # it moves through stages, in nobody's play area
            for key in ("action", "repeatable action", "effect"):
                for field in fields.get(key, ()):
                    self.diagnostics.error("E204", f"a {card_type} card is in nobody's play area: it has no lasting "
                                                   f"'{key}'", field["key"].span,
                                           "give it 'on STAGE:' effects, or declare a kind without stages")
        on_stage = self._stage_effects(fields, card_type, ctx)
        return Card(name=name, number=number.text[1:] if number else None, set=self._set(fields), type=card_type,
                    cost=cost if cost is not None else 0, tags=tags, requirements=requirements, holds=holds,
                    play=play, actions=actions, passives=passives, vp=vp, source=self._source(node),
                    on_stage=tuple((stage, effects) for stage, effects, _ in on_stage),
                    on_stage_spans=tuple(span for _, _, span in on_stage), needs=self._set_list(fields, "needs"),
                    needs_spans=self._set_list_spans(fields, "needs"))

    def _def_corporation(self, node: Node) -> Optional[Corporation]:
        name, _ = self._name(node)
        number = node["number"]
        fields = self._fields(node, "corporation")
        holds = self._holds(fields)
        ctx = CheckContext("corporation", holds=holds)
        start = 0
        if "start" in fields:
            field = fields["start"][0]
            amount, resource = field["amount"], field["resource"]
            start = int(amount.text)
            if self._standard_resource(resource) not in (None, "megacredits"):
                self.diagnostics.error("E301", "a corporation starts with megacredits; other resources go in 'play:'",
                             resource.span, f"write: play: gain N {resource.text}")
        return Corporation(name=name, number=number.text[1:] if number else None, set=self._set(fields),
                           tags=self._tags(fields), starting_megacredits=start, holds=holds,
                           # a corporation's start and first action are carried out unchecked
                           play=self._effects_field(fields, "play", attrs.evolve(ctx, refusable=False)),
                           first_action=self._effects_field(fields, "first action",
                                                            attrs.evolve(ctx, refusable=False)),
                           actions=self._actions(fields, ctx), passives=self._passives(fields, ctx),
                           vp=self._vp(fields, ctx), variant=self._variant(fields), source=self._source(node),
                           needs=self._set_list(fields, "needs"), needs_spans=self._set_list_spans(fields, "needs"))

    def _def_standard_project(self, node: Node) -> Optional[StandardProject]:
        name, _ = self._name(node)
        fields = self._fields(node, "standard_project")
        ctx = CheckContext("standard_project")
        cost = self._cost(fields, alternatives_allowed=True)
        return StandardProject(name=name, cost=cost or 0, play=self._effects_field(fields, "play", ctx),
                               variant=self._variant(fields), source=self._source(node), set=self._set(fields),
                               alternatives=self._alternatives(fields, (("megacredits", cost),)))

    def _def_standard_action(self, node: Node) -> Optional[StandardAction]:
        name, _ = self._name(node)
        fields = self._fields(node, "standard_action")
        ctx = CheckContext("standard_action")
        cost, resource = 0, "megacredits"
        if "cost" in fields:
            field = fields["cost"][0]
            cost = int(field["amount"].text)
            if field["resource"] is not None:
                resource = self._standard_resource(field["resource"]) or "megacredits"
        play = self._effects_field(fields, "play", ctx)
        alternatives = self._alternatives(fields, ((resource, cost),))
        once = "once per generation" in fields
        if not once and 0 in (cost,) + tuple(amount for amount, _ in alternatives) and \
                not any(isinstance(e, (fx.Pay, fx.Spend, fx.RemoveResources)) for e in play):
            # as a repeatable action of a card: free, a bot could take it for ever and the generation never end
            self.diagnostics.error("E307", f"standard action {node['name'].text} costs nothing and may be taken again "
                                   "and again: a game could never end", (fields["cost"][0] if "cost" in fields
                                                                         else node["name"]).span,
                                   "give it a cost (cost: 5), or allow it once a generation: once per generation")
            return None
        return StandardAction(name=name, cost=cost, cost_resource=resource, play=play, variant=self._variant(fields),
                              source=self._source(node), set=self._set(fields), alternatives=alternatives,
                              once_per_generation=once)

    def _alternatives(self, fields, first: tuple) -> tuple[tuple[int, str], ...]:
        """The ways to pay after the first (`cost: 9 megacredits | 3 energy`): (amount, resource) each, one per
        resource (E312: a resource given twice)."""
        if "cost" not in fields:
            return ()
        seen = {resource for resource, _ in first}
        result = []
        for alternative in fields["cost"][0]["alternatives"]:
            amount, word = alternative["amount"], alternative["resource"]
            resource = self._standard_resource(word) if word is not None else "megacredits"
            if resource is None:
                continue
            if resource in seen:
                self.diagnostics.error("E312", f"the cost names {v.plural(resource)} twice", (word or amount).span,
                             "each alternative is paid in another resource: cost: 9 megacredits | 3 energy")
                continue
            seen.add(resource)
            result.append((int(amount.text), resource))
        return tuple(result)

    def _def_milestone(self, node: Node) -> Optional[Milestone]:
        name, _ = self._name(node)
        fields = self._fields(node, "milestone")
        requirement = self._requirements(fields, CheckContext("milestone"))
        if requirement is None:
            return None
        return Milestone(name=name, requirement=requirement, source=self._source(node), set=self._set(fields))

    def _def_award(self, node: Node) -> Optional[Award]:
        name, _ = self._name(node)
        fields = self._fields(node, "award")
        if "measure" not in fields:
            return None
        measure = self.quantity(fields["measure"][0]["quantity"], CheckContext("award"))
        if measure is None:
            return None
        # an award counts printed tags only: a wild tag is no tag of any kind there
        measure = fx.Quantity(tuple(attrs.evolve(m, wild_tags=()) for m in measure.terms))
        return Award(name=name, measure=measure, source=self._source(node), set=self._set(fields))

    def _def_parameter_definition(self, node: Node) -> Optional[Parameter]:
        name, span = self._name(node)
        fields = self._fields(node, "parameter")
        word = name.lower()
        if name and (not word.isidentifier() or word in v.GLOBAL_RANGES or word == "tr"):
            self.diagnostics.error("E301", f"a parameter's name is one word that is not already a parameter: '{name}'",
                                   span,
                         'e.g. parameter "radiation"')
            return None
        if "scale" not in fields:
            return None  # a required field: reported as missing
        scale = fields["scale"][0]
        if word not in self.parameters:
            return None   # the scan that declares parameters (compiler/pipeline.py) found no scale it could read
        low, high, step, unit = self.parameters[word]
        if high <= low or step <= 0 or (high - low) % step:
            # a step that is not positive (`step -1`) is pointed at; otherwise the range
            self.diagnostics.error("E302", f"a scale runs from its minimum up to a higher maximum in whole steps; "
                                 f"{low} to {high} in steps of {step} does not",
                                   scale["step"].span if step <= 0 else scale["low"].span,
                                   "the step is a whole number above 0: scale: 0 to 10 step 1" if step <= 0 else
                                   "e.g. scale: 0% to 30% step 2%")
            return None
        tracks = []
        for field in fields.get("track", ()):
            value = self._global_value(word, field["value"])
            effects = self.effects(field["effects"], CheckContext("board", refusable=False))
            if value is not None:
                tracks.append(TrackBonus(parameter=word, value=value, effects=effects))
        ends = "yes"
        if "ends game" in fields:
            ends = self._one_of(fields, "ends game", ENDS_GAME, "E110", "'ends game' value") or "yes"
        return Parameter(name=word, set=self._set(fields), low=low, high=high, step=step, unit=unit,
                         tracks=tuple(tracks), ends_game=ends, source=self._source(node))

    def _def_card_kind_definition(self, node: Node) -> Optional[CardKind]:
        name, span = self._name(node)
        fields = self._fields(node, "card_kind")
        word = " ".join(name.lower().split())
        if name and (not all(w.isidentifier() for w in word.split()) or word in v.CARD_TYPES or
                     word == "corporation"):
            self.diagnostics.error("E301", f"a card kind's name is words that are not already a card type: '{name}'",
                                   span, 'e.g. card kind "mission" or card kind "sky omen"')
            return None
        deal, keep = 0, 0
        if "deal" in fields:
            field = fields["deal"][0]
            deal, keep = int(field["deal"].text), int(field["keep"].text)
            if keep > deal or (deal and not keep):
                self.diagnostics.error("E302", f"can't keep {keep} of {deal} cards", field["keep"].span,
                             "deal: N keep K, with K from 1 to N (deal: 0 keep 0: none dealt at set-up)")
                return None
        stages: tuple[str, ...] = ()
        if "stages" in fields:
            if deal:
                # its cards move through the stages and never reach a hand: a card dealt to one could go nowhere
                self.diagnostics.error("E302", f"the cards of a kind with stages are never dealt, but this one deals "
                                       f"{deal}", fields["deal"][0]["deal"].span,
                                       "deal: 0 keep 0 (its cards come into the stages by `advance " + word + "`)")
                return None
            leaves = fields["stages"][0]["names"].leaves()
            stages = tuple(leaf.text.lower() for leaf in leaves)
            for index, leaf in enumerate(leaves):
                if leaf.text.lower() == "reveal":
                    self.diagnostics.error("E301", "'reveal' is not a stage: `on reveal:` means drawn into the first "
                                           "stage", leaf.span,
                                           "name the stages otherwise, e.g. stages: distant, coming, current")
                    return None
                if leaf.text.lower() in stages[:index]:
                    self.diagnostics.error("E203", f"the stage '{leaf.text}' is given twice", leaf.span)
                    return None
        unplayable_to = self._one_of(fields, "unplayable to", UNPLAYABLE_TO, "E110", "place for an unplayable card")
        return CardKind(name=word, set=self._set(fields), deal=deal, keep=keep,
                        unplayable=self._effects_field(fields, "unplayable",
                                                       CheckContext("card_kind", refusable=False)),
                        source=self._source(node), stages=stages, unplayable_to=unplayable_to or "pile")

    def _def_rule_definition(self, node: Node) -> Optional[Rule]:
        name, _ = self._name(node)
        fields = self._fields(node, "rule")
        at = self._phrase(fields, "at", RULE_MOMENTS, "moment of the game")
        by = self._phrase(fields, "by", RULE_DECIDERS, "decider") if "by" in fields else "first_player"
        play = self._effects_field(fields, "play", CheckContext("rule", refusable=False))
        if at is None or by is None:
            return None
        return Rule(name=name, set=self._set(fields), at=at, by=by, play=play, source=self._source(node),
                    after=self._set_list(fields, "after"), after_spans=self._set_list_spans(fields, "after"))

    def _def_expansion_definition(self, node: Node) -> Optional[Expansion]:
        name, span = self._name(node)
        fields = self._fields(node, "expansion")
        if name and not name.replace("-", "").replace("_", "").isalnum():
            self.diagnostics.error("E301", f"an expansion's name is one word (letters, digits, - or _): '{name}'", span,
                         'e.g. expansion "solar-storms"; cards join it with set: "solar-storms"')
            return None
        lists: dict[str, tuple[str, ...]] = {}
        reference_spans: dict[str, Span] = {}
        for key in ("offboard", "milestones", "awards"):
            leaves = fields[key][0]["names"].leaves() if key in fields else []
            lists[key] = tuple(leaf.value for leaf in leaves)
            if key != "offboard":
                reference_spans.update((leaf.value, leaf.span) for leaf in leaves)
        solo = None
        if "solo generations" in fields:
            leaf = fields["solo generations"][0]["value"]
            solo = int(leaf.text)
            if solo < 1:
                self.diagnostics.error("E302", "a solo game lasts at least 1 generation", leaf.span)
                solo = None
        return Expansion(name=name, offboard=lists["offboard"], milestones=lists["milestones"],
                         awards=lists["awards"], solo_generations=solo, source=self._source(node),
                         reference_spans=tuple(reference_spans.items()), sites=self._sites_table(fields))

    def _sites_table(self, fields) -> tuple[tuple[int, int], ...]:
        """`sites: 1 player -> 4, 2 players -> 5, ...`: how many of the expansion's sites a game of each number of
        players deals. Every number of players a game may have must be given, once (E313)."""
        if "sites" not in fields:
            return ()
        field = fields["sites"][0]
        table: dict[int, int] = {}
        for entry in field["counts"]:
            players, word, count = entry["players"], entry["word"], entry["sites"]
            number = int(players.text)
            if word.text.lower() not in ("player", "players"):
                self.diagnostics.error("E313",
                                       f"a number of players is written '{number} players', not '{number} {word.text}'",
                             word.span, "sites: 1 player -> 4, 2 players -> 5, ...")
                return ()
            if not v.MIN_PLAYERS <= number <= v.MAX_PLAYERS:
                self.diagnostics.error("E313", f"a game has {v.MIN_PLAYERS} to {v.MAX_PLAYERS} players, not {number}",
                             players.span)
                return ()
            if number in table:
                self.diagnostics.error("E313", f"{number} {word.text} is given twice", players.span, "keep one")
                return ()
            table[number] = int(count.text)
        missing = [n for n in range(v.MIN_PLAYERS, v.MAX_PLAYERS + 1) if n not in table]
        if missing:
            said = ", ".join(f"{n} player{'s' if n > 1 else ''}" for n in missing)
            self.diagnostics.error("E313", f"the table of sites does not say how many a game of {said} has", field.span,
                         f"give every number of players from {v.MIN_PLAYERS} to {v.MAX_PLAYERS}: sites: 1 player -> 4, "
                         "2 players -> 5, ...")
            return ()
        return tuple(sorted(table.items()))

    def _def_piece_definition(self, node: Node) -> Optional[Piece]:
        name, span = self._name(node)
        fields = self._fields(node, "piece")
        word = v.piece_name(name)
        if not name:
            return None
        clash = next((kind for kind, names in (("tile", v.TILES + ("tile",)), ("resource", v.STANDARD_RESOURCES),
                                              ("card resource", tuple(self.card_resources)))
                      if v.normalize(word) in names or word in names), None)
        if not v.is_piece_name(word) or clash:
            why = f"'{name}' is already a {clash}" if clash else \
                f"a piece's name is words of letters (written bare in effects: send {word or 'shuttle'}): '{name}'"
            self.diagnostics.error("E301", why, span, 'e.g. piece "shuttle" or piece "cargo ship"')
            return None
        supply = self._count_field(fields, "supply", 0)
        limit = self._count_field(fields, "limit", 1)
        if supply is not None and limit is not None and supply > limit:
            self.diagnostics.error("E302", f"each player starts with {supply} but may have at most {limit}",
                         fields["supply"][0]["value"].span, "raise the limit or lower the supply")
        returns = self._phrase(fields, "returns", PIECE_RETURNS, "moment") if "returns" in fields else None
        neutral = self._count_field(fields, "neutral", 0)
        return Piece(name=word, set=self._set(fields), supply=supply, limit=limit, returns=returns,
                     source=self._source(node), neutral=neutral or 0)

    def _def_faction_definition(self, node: Node) -> Optional[Faction]:
        name, _ = self._name(node)
        fields = self._fields(node, "faction")
        if not name:
            return None
        # its bonus is the game's doing, like an award's count: a wild tag counts as none there
        bonus = self._effects_field(fields, "bonus", CheckContext("faction", printed_tags=True, refusable=False))
        ctx = CheckContext("faction")
        return Faction(name=name, set=self._set(fields), bonus=bonus, actions=self._actions(fields, ctx),
                       passives=self._passives(fields, ctx), source=self._source(node))

    def _def_government_definition(self, node: Node) -> Optional[Government]:
        name, _ = self._name(node)
        fields = self._fields(node, "government")
        if not name or "factions" not in fields or "pieces" not in fields:
            return None
        leaves = fields["factions"][0]["names"].leaves()
        spans: dict[str, Span] = {}
        for leaf in leaves:
            if leaf.value in spans:
                self.diagnostics.error("E203", f"the faction '{leaf.value}' is listed twice", leaf.span)
            spans.setdefault(leaf.value, leaf.span)
        factions = tuple(spans)  # each once, in the board's order
        piece = self.piece(fields["pieces"][0]["words"])
        ruling = factions[0]
        if "ruling" in fields:
            leaf = fields["ruling"][0]["name"]
            if leaf.value not in factions:
                self.diagnostics.error("E109", f"the ruling faction '{leaf.value}' is not one of the government's "
                                       "factions", leaf.span,
                                       did_you_mean(leaf.value, factions) or "factions: " + ", ".join(factions))
            else:
                ruling = leaf.value
        role, reward = None, ()
        if "role" in fields:
            field = fields["role"][0]
            role = " ".join(field["name"].value.lower().split())
            if not role or not all(w.isidentifier() for w in role.split()):
                self.diagnostics.error("E301", "a role's name is words of letters (a quantity counts it: requires: "
                                       f"chair >= 1): '{field['name'].value}'", field["name"].span)
                return None
            reward = self.effects(field["reward"], CheckContext("government", refusable=False)) \
                if field["reward"] is not None else ()
        influence = None
        if "influence" in fields:
            quantity_node = fields["influence"][0]["quantity"]
            influence = self.quantity(quantity_node, CheckContext("government"))
            if influence is not None and any(m.kind == "influence" for m in influence.terms):
                self.diagnostics.error("E307", "influence can't count itself", quantity_node.span,
                             "count the role, leaders and pieces: chair + leader of dominant faction")
                return None
        if piece is None:
            return None
        return Government(name=name, set=self._set(fields), factions=factions, piece=piece, ruling=ruling, role=role,
                          role_reward=reward, influence=influence, vp=self._vp(fields, CheckContext("government")),
                          source=self._source(node), reference_spans=tuple(spans.items()))

    def _count_field(self, fields, key: str, least: int) -> Optional[int]:
        if key not in fields:
            return None
        leaf = fields[key][0]["value"]
        value = int(leaf.text)
        if value < least:
            self.diagnostics.error("E302", f"'{key}:' is at least {least}", leaf.span)
            return None
        return value

    def _def_site_definition(self, node: Node) -> Optional[Site]:
        name, span = self._name(node)
        fields = self._fields(node, "site")
        ctx = CheckContext("site", refusable=False)   # a visit's, a bonus's and a build's effects: unchecked
        if "holds" not in fields:
            self.diagnostics.error("E311", f"site {node['name'].text} holds no piece", span,
                         "say which pieces it holds and how many: holds: 3 outpost (and `, 1 per player` for one of "
                         "each player's at most)")
            return None
        holds = fields["holds"][0]
        capacity = int(holds["capacity"].text)
        per_player = int(holds["per_player"].text) if holds["per_player"] is not None else None
        piece = self.piece(holds["words"])
        if capacity < 1 or per_player == 0:
            self.diagnostics.error("E311", f"site {node['name'].text} holds no piece: its capacity is 0",
                         (holds["capacity"] if capacity < 1 else holds["per_player"]).span,
                         "holds: 3 outpost, 1 per player")
            return None
        visitor = self.piece(fields["visited by"][0]["words"]) if "visited by" in fields else None
        track = tuple(self.effects(step, ctx) for step in fields["track"][0]["steps"]) if "track" in fields else ()
        marker = 0
        if "marker" in fields:
            leaf = fields["marker"][0]["value"]
            marker = int(leaf.text)
            if track and marker >= len(track):
                self.diagnostics.error("E310", f"the marker starts on step {marker}, but the track has only steps 0 to "
                                     f"{len(track) - 1}", leaf.span,
                             "steps are counted from 0: marker: 1 is the second step")
                return None
        inactive = None
        if "inactive until" in fields:
            field = fields["inactive until"][0]
            subject = {"you": "you", "any_player": "any", "another_player": "another"}[field["subject"].kind]
            if subject != "any":
                self.diagnostics.error("E307", "a site has no owner: it becomes active when any player does something",
                             field["subject"].span, "write: inactive until: any player plays card holding microbe")
                return None
            event = self._event(field["event"])
            if event is None:
                return None
            inactive = fx.Trigger("any", event, ())
        bonus = self._effects_field(fields, "bonus", ctx)
        build = self._effects_field(fields, "build", ctx)
        if piece is None or (visitor is None and "visited by" in fields) or not track:
            return None
        return Site(name=name, set=self._set(fields), piece=piece, capacity=capacity, per_player=per_player,
                    visitor=visitor, track=track, marker=marker, bonus=bonus, build=build, inactive_until=inactive,
                    source=self._source(node))

    def _phrase(self, fields, key: str, phrases: dict[str, str], what: str) -> Optional[str]:
        """A field whose value is one of a few phrases of several words (`at: end of generation`)."""
        if key not in fields:
            return None
        leaves = fields[key][0]["words"]
        phrase = " ".join(leaf.text.lower() for leaf in leaves)
        if phrase not in phrases:
            span = Span(leaves[0].span.path, leaves[0].span.line, leaves[0].span.column, leaves[-1].span.end_line,
                        leaves[-1].span.end_column)
            self.diagnostics.error("E110", f"unknown {what} '{phrase}'", span,
                         did_you_mean(phrase, phrases) or f"{key}: " + " | ".join(phrases),
                         respelling(span, phrase, phrases))
            return None
        return phrases[phrase]

    def _def_board(self, node: Node) -> Optional[Board]:
        name, _ = self._name(node)
        spaces: list[Space] = []
        milestones: tuple[str, ...] = ()
        awards: tuple[str, ...] = ()
        reference_spans: dict[str, Span] = {}
        offboard: list[str] = []
        tracks: list[TrackBonus] = []
        rows: list[Node] = []
        seen: dict[str, Span] = {}
        for item in node.nodes():
            key = item.kind
            if key in seen and key != "board_row" and key != "board_track":
                self.diagnostics.error("E203", f"'{item['key'].text.rstrip(':')}' is given twice", item["key"].span,
                             f"first given at line {seen[key].line}")
                continue
            seen.setdefault(key, item.span)
            if key in ("board_milestones", "board_awards"):
                leaves = item["names"].leaves()
                reference_spans.update((leaf.value, leaf.span) for leaf in leaves)
                names = tuple(leaf.value for leaf in leaves)
                if key == "board_milestones":
                    milestones = names
                else:
                    awards = names
            elif key == "board_offboard":
                offboard = [leaf.value for leaf in item["names"].leaves()]
            elif key == "board_row":
                rows.append(item)
            elif key == "board_track":
                track = self._track(item)
                if track:
                    tracks.append(track)
        for index, reserved in enumerate(offboard, start=1):
            spaces.append(Space(id=f"{index:02d}", row=-1, x=-1, kind="offboard", reserved=reserved))
        if len(rows) != 9 or [len(r.nodes("space")) for r in rows] != [5, 6, 7, 8, 9, 8, 7, 6, 5]:
            lengths = [len(r.nodes("space")) for r in rows]
            self.diagnostics.error("E305", f"a board has 9 rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 spaces; this one has "
                                 f"{len(rows)} rows of {', '.join(map(str, lengths)) or 'nothing'}",
                         node["name"].span, "Mars is a hexagon of 61 spaces; see docs/language.md 'Boards'")
        next_id = len(offboard) + 1
        next_id = max(next_id, 3)
        for y, row in enumerate(rows):
            row_spaces = row.nodes("space")
            for index, space_node in enumerate(row_spaces):
                x = (9 - len(row_spaces)) + index if len(row_spaces) <= 9 else index
                space = self._space(space_node, f"{next_id:02d}", y, x)
                next_id += 1
                if space:
                    spaces.append(space)
        return Board(name=name, spaces=tuple(spaces), milestones=milestones, awards=awards, tracks=tuple(tracks),
                     source=self._source(node), reference_spans=tuple(reference_spans.items()))

    def _space(self, node: Node, space_id: str, y: int, x: int) -> Optional[Space]:
        kind_leaf = node["kind"]
        kind = kind_leaf.text.lower()
        if kind not in v.SPACE_KINDS:
            self.diagnostics.error("E107", f"unknown space kind '{kind_leaf.text}'", kind_leaf.span,
                         did_you_mean(kind, v.SPACE_KINDS) or "space kinds: land, ocean, volcanic",
                         respelling(kind_leaf.span, kind, v.SPACE_KINDS))
            return None
        bonuses = []
        reserved, extra_cost, cost_condition = None, 0, None
        for child in node["bonuses"] + node["attributes"]:
            if child.kind == "bonus":
                count = int(child["count"].text) if child["count"] else 1
                word = child["name"]
                bonus = v.normalize(word.text)
                if bonus not in v.BOARD_BONUSES:
                    self.diagnostics.error("E107", f"unknown space bonus '{word.text}'", word.span,
                                 did_you_mean(bonus, v.BOARD_BONUSES) or "bonuses: " + ", ".join(v.BOARD_BONUSES),
                                 respelling(word.span, bonus, v.BOARD_BONUSES))
                    continue
                bonuses.append((bonus, count))
            elif child.kind == "reserved":
                reserved = child["name"].value
            elif child.kind == "costs":
                extra_cost = int(child["amount"].text)
                if child["condition"] is not None:
                    cost_condition = self.condition(child["condition"], CheckContext(definition=f"space {space_id}"))
        return Space(id=space_id, row=y, x=x, kind=v.OCEAN_SPACE if kind == v.OCEAN_SPACE else v.LAND,
                     volcanic=kind == v.VOLCANIC, bonuses=tuple(bonuses), reserved=reserved, extra_cost=extra_cost,
                     cost_condition=cost_condition)

    def _track(self, item: Node) -> Optional[TrackBonus]:
        param_leaf, value_leaf, effects_node = item["parameter"], item["value"], item["effects"]
        parameter = param_leaf.text.lower()
        if parameter not in self.parameters:
            self.diagnostics.error("E108", f"unknown global parameter '{param_leaf.text}'", param_leaf.span,
                         did_you_mean(parameter, self.parameters) or DECLARE_PARAMETER,
                         respelling(param_leaf.span, parameter, self.parameters))
            return None
        value = self._global_value(parameter, value_leaf)
        effects = self.effects(effects_node, CheckContext("board", refusable=False))
        if value is None:
            return None
        return TrackBonus(parameter=parameter, value=value, effects=effects)

    # ------------------------------------------------------------------ simple fields

    def _set(self, fields) -> str:
        if "set" not in fields:
            return "base"
        leaf = fields["set"][0]["value"]
        name = leaf.value.strip()
        if not name:
            self.diagnostics.error("E301", "a set needs a name", leaf.span)
            return "base"
        return name

    def _set_list(self, fields, key: str) -> tuple[str, ...]:
        """A field listing sets (`needs: lab, storms`, `after: lab`), as written (quoted or not)."""
        if key not in fields:
            return ()
        leaves = fields[key][0]["sets"].leaves()
        return tuple(leaf.value.strip() for leaf in leaves)

    def _set_list_spans(self, fields, key: str) -> tuple:
        """Where each set of a set list is written (for the cross-file check that they are sets)."""
        if key not in fields:
            return ()
        return tuple(leaf.span for leaf in fields[key][0]["sets"].leaves())

    def _card_type(self, fields) -> Optional[str]:
        """`type: automated`, or a declared kind of card, whose name may have several words (`type: sky
        omen`)."""
        if "type" not in fields:
            return None
        field = fields["type"][0]
        leaves = field.leaves("NAME")
        word = _words(field)
        vocabulary = v.CARD_TYPES + self.card_kinds
        if word in vocabulary:
            return word
        span = Span(leaves[0].span.path, leaves[0].span.line, leaves[0].span.column, leaves[-1].span.end_line,
                    leaves[-1].span.end_column)
        self.diagnostics.error("E105", f"unknown card type '{' '.join(leaf.text for leaf in leaves)}'", span,
                     did_you_mean(word, vocabulary) or "card types: " + ", ".join(vocabulary),
                     respelling(span, word, vocabulary))
        return None

    def _stage_effects(self, fields, card_type: str, ctx: CheckContext) -> tuple:
        """The `on STAGE:` fields of a card (`on reveal:`, `on current:`), as (stage, effects) in the order written;
        whether its kind has those stages is checked once every file is in (compiler/pipeline.py)."""
        found = []
        for key, nodes in fields.items():
            if not key.startswith(STAGE_FIELD):
                continue
            field = nodes[0]
            if card_type not in self.card_kinds:
                self.diagnostics.error("E202", f"a {card_type} card has no '{key}' field: only cards of a kind with "
                                       "stages move through them", field["key"].span,
                                       'declare one: card kind "NAME" { deal: 0 keep 0  stages: far, near }')
                continue
            stage = key[len(STAGE_FIELD):].strip().lower()
            # the game carries a stage's effects out, unchecked
            found.append((stage, self.effects(field["effects"], attrs.evolve(ctx, refusable=False)), field["key"].span))
        return tuple(found)

    def _printed_tags(self, card_type: Optional[str]) -> bool:
        """Whether the tags a card counts are the printed ones only (a wild tag counts as none): on the cards of a
        kind with stages, which the game carries out rather than a player (as an award counts)."""
        return card_type in self.staged_kinds

    def _variant(self, fields) -> Optional[str]:
        if "variant" not in fields:
            return None
        leaf = fields["variant"][0]["value"]
        if leaf.text not in v.VARIANTS:
            self.diagnostics.error("E110", f"unknown variant '{leaf.text}'", leaf.span,
                         did_you_mean(leaf.text, v.VARIANTS) or "variants: " + ", ".join(v.VARIANTS),
                         respelling(leaf.span, leaf.text, v.VARIANTS))
            return None
        return leaf.text

    def _one_of(self, fields, key, vocabulary, code, what) -> Optional[str]:
        if key not in fields:
            return None
        leaf = fields[key][0]["value"]
        word = leaf.text.lower()
        if word not in vocabulary:
            self.diagnostics.error(code, f"unknown {what} '{leaf.text}'", leaf.span,
                         did_you_mean(word, vocabulary) or f"{what}s: " + ", ".join(vocabulary),
                         respelling(leaf.span, word, vocabulary))
            return None
        return word

    def _cost(self, fields, alternatives_allowed: bool = False) -> Optional[int]:
        if "cost" not in fields:
            return None
        field = fields["cost"][0]
        if not alternatives_allowed:
            for alternative in field["alternatives"]:
                self.diagnostics.error("E312", "a card costs one amount of megacredits", alternative.span,
                             "alternative costs (`cost: 9 megacredits | 3 energy`) are for standard projects and "
                             "actions")
                break
        if field["resource"] is not None:
            resource = self._standard_resource(field["resource"])
            if resource not in (None, "megacredits"):
                self.diagnostics.error("E301", "a card or standard project costs megacredits", field["resource"].span,
                             "only standard actions cost other resources (cost: 8 plants)")
        return int(field["amount"].text)

    def _tags(self, fields) -> tuple[str, ...]:
        if "tags" not in fields:
            return ()
        result = []
        for leaf in fields["tags"][0]["names"].leaves():
            tag = self.tag(leaf)
            if tag == "event":
                self.diagnostics.error("E102", "'event' is a card type, not a tag", leaf.span, "write 'type: event'")
            elif tag:
                result.append(tag)
        return tuple(result)

    def _holds(self, fields) -> Optional[str]:
        if "holds" not in fields:
            return None
        # a misspelt holds: is reported once; later uses of "here" are then not reported again
        return self.card_resource(fields["holds"][0]["value"]) or UNKNOWN_HOLDS

    def _requirements(self, fields, ctx: CheckContext) -> Optional[fx.Condition]:
        if "requires" not in fields:
            return None
        return self.condition(fields["requires"][0]["condition"], ctx)

    def _effects_field(self, fields, key, ctx: CheckContext) -> tuple:
        if key not in fields:
            return ()
        return self.effects(fields[key][0]["effects"], ctx)

    def _actions(self, fields, ctx: CheckContext) -> tuple[ActionOption, ...]:
        """`action:` options (once per generation), then `repeatable action:` ones (as often as they can be
        paid: each needs a cost, or a game could never end)."""
        options = []
        for key in ("action", "repeatable action"):
            if key not in fields:
                continue
            repeatable = key == "repeatable action"
            for option in fields[key][0]["options"]:
                parts = option.nodes("effects")
                if len(parts) == 2:
                    cost, effects = self.effects(parts[0], ctx), self.effects(parts[1], ctx)
                else:
                    cost, effects = (), self.effects(parts[0], ctx)
                if repeatable and not any(isinstance(e, (fx.Pay, fx.Spend, fx.RemoveResources, fx.Production))
                                          for e in cost):
                    self.diagnostics.error("E307", "a repeatable action needs a cost before '->' (pay, spend, remove "
                                           "... here, production): free, it could be taken for ever", option.span,
                                           "e.g. repeatable action: pay 10 megacredits -> production(heat +1)")
                    continue
                options.append(ActionOption(cost=cost, effects=effects, repeatable=repeatable))
        return tuple(options)

    def _passives(self, fields, ctx: CheckContext) -> tuple:
        result = []
        for field in fields.get("effect", ()):
            passive = self.passive(field["value"], ctx)
            if passive is not None:
                result.append(passive)
        return tuple(result)

    def _vp(self, fields, ctx: CheckContext) -> Optional[VictoryPoints]:
        if "vp" not in fields:
            return None
        # points are counted at the end, which is no action of the owner's: a wild tag counts as no tag there
        ctx = attrs.evolve(ctx, printed_tags=True)
        node = fields["vp"][0]["value"]
        points = int(node["points"].text)
        if node.kind == "vp_each":
            return self._vp_each(node, points, ctx)
        if node.kind == "vp_if":
            condition = self.condition(node["condition"], ctx)
            return VictoryPoints(points=points, condition=condition) if condition else None
        if node["per"] is None:
            return VictoryPoints(points=points)
        divisor, quantity = self.per_quantity(node["per"], ctx)
        if quantity is None:
            return None
        return VictoryPoints(points=points, per=quantity, divisor=divisor)

    def _vp_each(self, node, points: int, ctx: CheckContext) -> Optional[VictoryPoints]:
        """`vp: each player -1 per your city if animals here >= 10`: every player (each opponent) scores by a count
        of their own, while the card's condition holds."""
        scorers = " ".join(node["scorers"].text.split())
        condition = None
        if node["condition"] is not None:
            condition = self.condition(node["condition"], ctx)
            if condition is None:
                return None
        divisor, quantity = 1, None
        if node["per"] is not None:
            divisor, quantity = self.per_quantity(node["per"], ctx)
            if quantity is None:
                return None
        return VictoryPoints(points=points, per=quantity, divisor=divisor, condition=condition, scorers=scorers)

    # ------------------------------------------------------------------ vocabulary lookups

    def piece(self, leaves: list[Leaf]) -> Optional[str]:
        """The declared piece a run of words names (`cargo ship`, `outposts`), or None after E111 with a
        did-you-mean."""
        found = v.lookup_piece([leaf.text for leaf in leaves], self.pieces)
        if found is not None:
            return found
        written = " ".join(leaf.text for leaf in leaves)
        span = Span(leaves[0].span.path, leaves[0].span.line, leaves[0].span.column, leaves[-1].span.end_line,
                    leaves[-1].span.end_column)
        phrase = v.piece_name(written)
        self.diagnostics.error("E111", f"unknown piece '{written}'", span,
                     did_you_mean(phrase, self.pieces) or
                     (f"declared pieces: {', '.join(self.pieces)}" if self.pieces else
                      f'declare it with: piece "{phrase}" {{ }}'),
                     respelling(span, phrase, self.pieces, written))
        return None

    def tag(self, leaf: Leaf) -> Optional[str]:
        word = v.singular(leaf.text)
        if word == "event":
            return word
        found = v.lookup(leaf.text, self.tags)
        if found:
            return found
        self.diagnostics.error("E102", f"unknown tag '{leaf.text}'", leaf.span,
                     did_you_mean(word, self.tags) or "tags: " + ", ".join(sorted(self.tags)),
                     respelling(leaf.span, word, self.tags, leaf.text))
        return None

    def card_resource(self, leaf: Leaf, allow_any: bool = False) -> Optional[str]:
        word = v.singular(leaf.text)
        if allow_any and word == "resource":
            return word
        found = v.lookup(leaf.text, self.card_resources)
        if found:
            return found
        if v.normalize(leaf.text) in v.STANDARD_RESOURCES:
            self.diagnostics.error("E301", f"'{leaf.text}' is a standard resource, not one that lives on cards",
                         leaf.span, "card resources: " + ", ".join(sorted(self.card_resources)))
        else:
            hint, fixes = respelt(leaf, word, self.card_resources)
            self.diagnostics.error("E101", f"unknown card resource '{leaf.text}'", leaf.span,
                         hint or "declare a new one with: resource " + word, fixes)
        return None

    def _standard_resource(self, leaf: Leaf, report: bool = True) -> Optional[str]:
        word = v.normalize(leaf.text)
        if word in v.STANDARD_RESOURCES:
            return word
        if not report:
            return None
        if v.lookup(leaf.text, self.card_resources):
            self.diagnostics.error("E301", f"'{leaf.text}' lives on cards; here a standard resource is needed",
                                   leaf.span,
                         "standard resources: " + ", ".join(v.STANDARD_RESOURCES))
        else:
            hint, fixes = respelt(leaf, word, v.STANDARD_RESOURCES + ("mc",))
            self.diagnostics.error("E101", f"unknown resource '{leaf.text}'", leaf.span,
                         hint or "standard resources: " + ", ".join(v.STANDARD_RESOURCES), fixes)
        return None

    def any_resource(self, leaf: Leaf) -> Optional[str]:
        """A standard or card resource (for remove/steal, where both make sense)."""
        word = v.normalize(leaf.text)
        if word in v.STANDARD_RESOURCES:
            return word
        if v.singular(leaf.text) == "resource":
            return "resource"
        found = v.lookup(leaf.text, self.card_resources)
        if found:
            return found
        self.diagnostics.error("E101", f"unknown resource '{leaf.text}'", leaf.span,
                     *respelt(leaf, word, tuple(v.STANDARD_RESOURCES) + tuple(self.card_resources)))
        return None

    # ------------------------------------------------------------------ numbers

    def count(self, leaf: Leaf, ctx: CheckContext) -> tuple[int, bool]:
        """INT, X or a multiple of X (`3X`) -> (value, variable)."""
        if leaf.type in ("X", "MULTIPLE_X"):
            if not ctx.x_bound:
                self.diagnostics.error("E306", "X is only defined inside 'choose X ... { }'", leaf.span,
                             "wrap the effects: choose X up to QUANTITY { ... }")
            multiple = int(leaf.text[:-1]) if leaf.type == "MULTIPLE_X" else 1
            if multiple == 0:
                self.diagnostics.error("E302", "0X is always nothing", leaf.span, "write X, or a multiple such as 2X")
                multiple = 1
            return multiple, True
        return int(leaf.text), False

    def signed(self, leaf: Leaf, ctx: CheckContext) -> tuple[int, bool]:
        sign = -1 if leaf.text[0] == "-" else 1
        body = leaf.text[1:]
        if body == "X":
            if not ctx.x_bound:
                self.diagnostics.error("E306", "X is only defined inside 'choose X ... { }'", leaf.span)
            return sign, True
        return sign * int(body), False

    def amount(self, value: int, variable: bool, per: Optional[Node], ctx: CheckContext) -> fx.Amount:
        if per is None:
            return fx.Amount(value, variable=variable)
        divisor, quantity = self.per_quantity(per["quantity"], ctx)
        return fx.Amount(value, variable=variable, per=quantity, divisor=divisor)

    # ------------------------------------------------------------------ quantities and conditions

    def per_quantity(self, node: Node, ctx: CheckContext) -> tuple[int, Optional[fx.Quantity]]:
        """`per 2 animals here`: a leading number followed by words is a divisor (of the whole quantity)."""
        terms = _term_nodes(node)
        divisor = 1
        first = _words_of(terms[0][0])
        if first and first[0].type == "INT" and len(first) > 1:
            divisor = int(first[0].text)
            if divisor == 0:
                self.diagnostics.error("E302", "cannot count 'per 0'", first[0].span)
                divisor = 1
            rest = first[1:]
            span = Span(rest[0].span.path, rest[0].span.line, rest[0].span.column, rest[-1].span.end_line,
                        rest[-1].span.end_column)
            caps = tuple(terms[0][0].nodes("cap")) + tuple(terms[0][0].nodes("quantity_cap"))
            terms = [(Node("term", tuple(rest) + caps, span), terms[0][1])] + terms[1:]
        quantity = self._terms(terms, ctx)
        return divisor, quantity

    def quantity(self, node: Node, ctx: CheckContext, number: bool = False) -> Optional[fx.Quantity]:
        """`number`: a number alone is a quantity too, where the words say what it counts (`reveal 6 cards`)."""
        return self._terms(_term_nodes(node), ctx, number)

    def _capped_number(self, value: int, cap: int, span) -> None:
        """`animals here + 1 max 5`: a cap bounds the one term it follows, here a number, never the sum; said so,
        since the sum's cap is what such a line means (W103)."""
        if value <= cap:
            message = f"'max {cap}' caps only the number {value} before it, which is never above {cap}, so it " \
                      "changes nothing: a cap bounds the term it follows, not the sum"
        else:
            message = f"'max {cap}' caps only the number {value} before it, which is always {cap} then: a cap " \
                      "bounds the term it follows, not the sum"
        self.diagnostics.warning("W103", message, span, f"to bound the whole sum, cap its other terms: 'animals here "
                                 f"max {max(cap - value, 0)} + {value}' is at most {cap}")

    def _added_here(self, measure: fx.Measure, ctx: CheckContext, span) -> bool:
        """`microbes added` counts what the effect that set off a `when ... add RESOURCE` trigger added: only there,
        and of that resource (any, after `add resource`)."""
        what = v.plural(measure.name) if measure.name else "resources"
        if ctx.adding is None:
            self.diagnostics.error("E307", f"'{what} added' counts what set off a 'when ... add' trigger; it works "
                                   "only in one", span, f"write: when you add {measure.name or 'resource'} -> gain 1 "
                                   f"MC per {measure.name or 'resource'} added")
            return False
        if measure.name is not None and ctx.adding != measure.name:
            adds = "resources of any type" if ctx.adding == "resource" else v.plural(ctx.adding)
            self.diagnostics.error("E503", f"this trigger adds {adds}, not {what}", span,
                                   f"count '{'resources' if ctx.adding == 'resource' else v.plural(ctx.adding)} "
                                   "added'")
            return False
        return True

    def _terms(self, terms: list[tuple[Node, bool]], ctx: CheckContext, number: bool = False) -> Optional[fx.Quantity]:
        """Each (term, subtracted) -> a Measure; a number alone is a constant (`4 - influence`), a number before
        words starts a quantity only after 'per' (a divisor), and `max N` caps the term."""
        measures = []
        for term, subtract in terms:
            words = _words_of(term)
            cap, cap_by = None, None
            if term["cap"] is not None and term["cap"].kind == "quantity_cap":   # `max jovian tags`
                capping = term["cap"]
                found = self._terms([(Node("term", tuple(capping["words"]), capping.span), False)], ctx)
                if found is None:
                    return None
                cap_by = found.terms[0]
            elif term["cap"] is not None:
                cap = int(term["cap"]["most"].text)
            if words and words[0].type == "INT":
                if len(words) == 1 and (subtract or len(terms) > 1 or number):
                    if cap is not None:
                        self._capped_number(int(words[0].text), cap, term["cap"].span)
                    if cap_by is not None:   # `2 max jovian tags`: the smaller of a number and a count
                        measures.append(fx.Measure("constant", value=int(words[0].text), cap_by=cap_by,
                                                   subtract=subtract))
                        continue
                    measures.append(fx.Measure("constant", value=int(words[0].text), cap=cap, subtract=subtract))
                    continue
                if len(words) == 1:
                    self.diagnostics.error("E104", f"'{words[0].text}' needs something to count after it",
                                 words[0].span, "e.g. per 2 animals here")
                else:
                    self.diagnostics.error("E104", "a number can't start a quantity here", words[0].span,
                                 "a leading number (a divisor) is allowed only after 'per'")
                return None
            measure = self.quantities.measure(words, term.span)
            if measure is None:
                return None
            if measure.kind == "added" and not self._added_here(measure, ctx, term.span):
                return None
            if measure.kind == "resource_here":
                if ctx.definition not in ("card", "corporation"):
                    self.diagnostics.error("E501", f"'here' means a card, but a {ctx.definition} is not one", term.span,
                                 "count 'resources on cards' instead")
                    return None
                if ctx.holds == UNKNOWN_HOLDS:
                    return None
                if ctx.holds is None:
                    self.diagnostics.error("E501", "this card holds no resources, so it can't count them", term.span,
                                 "add a 'holds:' field, e.g. holds: animal")
                    return None
                if measure.name and ctx.holds and measure.name != ctx.holds:
                    self.diagnostics.error("E503",
                                           f"this card holds {v.plural(ctx.holds)}, not {v.plural(measure.name)}",
                                 term.span)
                    return None
            if measure.kind == "placed_tiles" and not ctx.placing:
                phrase = " ".join(leaf.text for leaf in _words_of(term))
                self.diagnostics.error("E307", f"'{phrase}' counts the tiles around the tile "
                                       "that set off a 'when ... places tile' trigger; it works only in one",
                                       term.span, "write: when another player places tile -> repeat your tiles next "
                                       "to it times { gain 1 MC }")
                return None
            if measure.kind in ("adjacent_tiles", "adjacent_empty") and ctx.definition not in ("card", "corporation"):
                self.diagnostics.error("E502",
                                       f"'adjacent' counts tiles next to a card's tile; a {ctx.definition} has none",
                             term.span, "count tiles 'next to' something instead, e.g. 'your tiles next to oceans'")
                return None
            if measure.kind in ("adjacent_tiles", "adjacent_empty") and not ctx.places_tile:
                self.diagnostics.error("E502",
                                       "'adjacent' counts tiles next to this card's tile, but the card places none",
                             term.span, "place a tile in 'play:' first")
                return None
            if measure.kind == "tags" and measure.name and self.wild_tags and measure.name not in self.wild_tags \
                    and not ctx.printed_tags:
                measure = attrs.evolve(measure, wild_tags=self.wild_tags)
            if measure.kind == "distinct_tags" and ctx.printed_tags and self.wild_tags:
                measure = attrs.evolve(measure, wild_tags=self.wild_tags)  # printed tags only: these are no kind
            if cap is not None or subtract:
                measure = attrs.evolve(measure, cap=cap, subtract=subtract)
            if cap_by is not None:
                measure = attrs.evolve(measure, cap_by=cap_by)
            measures.append(measure)
        return fx.Quantity(tuple(measures))

    def condition(self, node: Node, ctx: CheckContext) -> Optional[fx.Condition]:
        """Comparisons joined by `and`, groups of them by `or` (`and` binds first)."""
        groups, ok = [], True
        for group in [node] + node["alternatives"]:
            comparisons = []
            for comparison in group["comparisons"]:
                if comparison.kind not in ("comparison", "ruling"):
                    continue
                compiled = self._ruling(comparison) if comparison.kind == "ruling" else \
                    self._comparison(comparison, ctx)
                if compiled is None:
                    ok = False
                else:
                    comparisons.append(compiled)
            groups.append(tuple(comparisons))
        if not ok or not groups[0]:
            return None
        return fx.Condition(groups[0], tuple(groups[1:]))

    def _ruling(self, node: Node) -> Optional[fx.Comparison]:
        """`"Blue Party" rules`: that faction rules (the comparison `ruling "Blue Party" >= 1`)."""
        faction = self.faction(node["faction"])
        if faction is None:
            return None
        return fx.Comparison(fx.Quantity((fx.Measure("ruling", scope="all", faction=faction),)), ">=", 1)

    def faction(self, leaf: Leaf) -> Optional[str]:
        """A declared faction named in quotes, or None after E109 with a did-you-mean."""
        if leaf.value in self.factions:
            return leaf.value
        self.diagnostics.error("E109", f"unknown faction '{leaf.value}'", leaf.span,
                     did_you_mean(leaf.value, self.factions) or
                     ("declared factions: " + ", ".join(self.factions) if self.factions else
                      f'declare it with: faction "{leaf.value}" {{ }}'),
                     _renaming(leaf.span, leaf.value, self.factions))
        return None

    def _comparison(self, comparison: Node, ctx: CheckContext) -> Optional[fx.Comparison]:
        quantity = self.quantity(comparison["quantity"], ctx)
        operator = comparison["operator"].text
        value_leaf = comparison["value"]
        if quantity is None:
            return None
        parameter = None
        if len(quantity.terms) == 1 and quantity.terms[0].kind == "parameter" and quantity.terms[0].cap is None:
            parameter = quantity.terms[0].name
        if parameter:
            value = self._global_value(parameter, value_leaf)
        else:
            if not value_leaf.text.lstrip("+-").isdigit():
                self.diagnostics.error("E303", f"'{value_leaf.text}' has a unit, but only temperature (C) and oxygen "
                                       "(%) do", value_leaf.span)
                return None
            value = int(value_leaf.text)
        if value is None:
            return None
        return fx.Comparison(quantity, operator, value, self.parameters[parameter][3] if parameter else "")

    def _global_value(self, parameter: str, leaf: Leaf) -> Optional[int]:
        text = leaf.text
        unit = ""
        for suffix in ("°C", "C", "%"):
            if text.endswith(suffix):
                unit, text = ("C" if suffix != "%" else "%"), text[: -len(suffix)]
                break
        low, high, step, expected_unit = self.parameters[parameter]
        if unit and unit != expected_unit:
            self.diagnostics.error("E303", f"{parameter} is measured in {expected_unit or 'tiles'}, not {unit}",
                                   leaf.span,
                         f"write {text}{expected_unit}")
            return None
        if expected_unit and not unit:  # the unit says which track is meant, as on the printed card
            self.diagnostics.error("E303", f"{parameter} needs its unit: {text}{expected_unit}", leaf.span,
                         f"write {text}{expected_unit}")
            return None
        value = int(text)
        if not low <= value <= high:
            self.diagnostics.error("E302", f"{parameter} runs from {low} to {high}; {value} is out of range", leaf.span)
            return None
        if (value - low) % step:
            self.diagnostics.error("E302", f"{parameter} moves in steps of {step} from {low}; {value} is never reached",
                         leaf.span, f"use {value - 1} or {value + 1}")
            return None
        return value


def _term_nodes(quantity: Node) -> list[tuple[Node, bool]]:
    """The terms of a quantity node in order, each with whether it is subtracted (`- influence`)."""
    return [(term, False) if term.kind == "term" else (term["term"], True) for term in quantity["terms"]]


def _words_of(term: Node) -> list[Leaf]:
    """The words and numbers of a term (not its `max N`)."""
    return term["words"]


def _words(field: Node) -> str:
    """The words of a field's value, lower case, joined by one space (`type: Sky  Omen` -> "sky omen")."""
    return " ".join(leaf.text.lower() for leaf in field.leaves("NAME"))


def _renaming(span: Span, name: str, known) -> tuple:
    """The fix that writes the single close match of a quoted name over its span (quotes included), or none."""
    match = single_match(name, known)
    return (Fix(span, f'"{match}"'),) if span is not None and match is not None and match != name else ()
