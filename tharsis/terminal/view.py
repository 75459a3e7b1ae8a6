"""Text views of a game for the terminal: the board as a hex grid, a player's panel, scores.

Pure functions from a `Game` to strings, shared by `tharsis play`, `tharsis replay` and the docs. Every word comes from
tharsis/terminal/messages.py in the language asked for (`language`, English by default), every definition's name from
the names files, and columns are padded by the width a terminal gives each character (tharsis/terminal/widths.py), so a
table of Chinese names keeps its columns.
"""

from __future__ import annotations

import re
from typing import Optional

from tharsis.compiler import effects as fx, text, vocabulary as v
from tharsis.runtime.api.queries import placing
from tharsis.runtime.core.state import NEUTRAL
from tharsis.runtime.rules.legality import (
    AWARD_COSTS,
    EFFECTS_REFUSED,
    MAX_MILESTONES,
    award_cost,
    milestone_cost,
    playable,
    refused_effect,
    why_not,
)
from tharsis.runtime.rules.measures import Where, failing, quantity
from tharsis.runtime.rules.prices import card_cost, leeway, standard_cost
from tharsis.runtime.rules.scoring import final_scores
from tharsis.runtime.rules.spaces import cost_once_placed, space_cost

from .engine_zh import ZH_PHASES
from .messages import Words, void_note, words_for
from .style import PLAIN, Paint
from .widths import ljust, rjust, width

_BONUS = {"steel": "s", "titanium": "t", "plant": "p", "card": "c", "heat": "h", "energy": "e",
          "megacredits": "m", v.OCEAN: "o"}


def _mark(kind: str) -> str:
    """A tile's letters on the map, by its role: `S` for a special tile and any kind in no role."""
    if kind in v.OCEAN_TILES:
        return "≈≈"
    if kind in v.GREENERY_TILES:
        return "g"
    return "C" if kind in v.CITY_TILES else "S"


def initials(game) -> dict[int, str]:
    """One letter per player (the first free letter of the name), for tiles on the grid."""
    used: dict[int, str] = {}
    for player in game.state.players:
        for ch in player.name.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if ch.isalpha() and ch.isascii() and ch not in used.values():
                used[player.index] = ch
                break
    return used


def board(game, highlight: tuple[str, ...] = (), paint: Paint = PLAIN, language: str = "en") -> str:
    """The spaces of Mars as a hex grid. Empty spaces show their bonus (p plant, s steel, ...: the legend names
    every letter the grid uses; a letter twice is 2 of it; ~ an ocean space), tiles show ≈≈ ocean, g/C/S + the
    owner's letter; `highlight` spaces show their ids. The grid's marks are letters in every language (a Chinese
    character is two columns wide, and a cell holds two marks); the legend under it says them in `language`."""
    words = words_for(game, language)
    letters = initials(game)
    bonus_letters = _bonus_letters(game)
    rows: dict[int, list] = {}
    for space in game.board.mars:
        rows.setdefault(space.row, []).append(space)
    lines, used, neutral = [], set(), False
    marked = {m.space: m for m in game.state.markers.values()}
    for y in sorted(rows):
        cells = []
        for space in rows[y]:
            tile = game.state.tiles.get(space.id)
            if space.id in highlight:
                cell = paint.bold(f"[{space.id}]")
            elif tile is None and space.id in marked:   # a named marker on an empty space: `*` and its owner
                owner = marked[space.id].owner
                cell = f" {paint.bold('*')}{paint.player(letters.get(owner, 'n'), owner)} "
            elif tile is not None:
                owner = letters.get(tile.owner, "n") if tile.owner is not None else ""
                neutral = neutral or owner == "n"
                kind = tile.kind
                mark = _mark(kind)
                if kind in v.OCEAN_TILES:
                    cell = f" {paint.tile(mark, kind)} "
                else:
                    tail = paint.player(owner, tile.owner) if owner else ""
                    cell = f" {paint.tile(mark, kind)}{tail}{' ' * (2 - len(mark + owner))} "
            else:
                bonus = "".join(bonus_letters[b] * min(n, 2) for b, n in space.bonuses)[:2]
                ocean = space.kind == v.OCEAN_SPACE
                used.update(bonus[:1] if ocean else bonus)
                base = "~" if ocean else ("^" if space.volcanic else "·")
                shown = f"~{bonus[:1]:<1}" if ocean else f"{(bonus or base):<2}"
                if ocean:
                    cell = f" {paint.tile(shown, v.OCEAN)} "   # an ocean space in the ocean tile's colour
                elif bonus:
                    cell = f" {paint.bonus(shown, space.bonuses[0][0])} "
                else:
                    cell = f" {paint.dim(shown)} "
            cells.append(cell)
        lines.append("  " * (9 - len(rows[y])) + "".join(cells))
    offboard = []
    for s in game.board.offboard():
        area = words.names.area(s.reserved, language)
        offboard.append(words("offboard_city", area=area, owner=letters.get(game.state.tiles[s.id].owner, "?"))
                        if s.id in game.state.tiles else words("offboard_free", area=area))
    legend = "   ".join(words("legend_player", letter=paint.player(letters[p.index], p.index), name=p.name)
                       for p in game.state.players)
    if neutral:
        legend += words("legend_neutral")
    names = {letter: name for name, letter in bonus_letters.items()}
    bonuses = "  ".join(words("bonus_key", letter=letter, name=_bonus_name(words, names[letter]))
                        for letter in sorted(used, key=list(names).index))
    markers = words("off_mars_sep").join(
        words("marker_at", name=name, space=m.space, owner=game.state.players[m.owner].name,
              blocks=words("marker_blocks") if m.blocks else "") for name, m in game.state.markers.items())
    return "\n".join(lines + [words("off_mars", areas=words("off_mars_sep").join(offboard)),
                              words("legend", players=legend)]
                     + ([words("bonuses", bonuses=bonuses)] if bonuses else [])
                     + ([words("markers", markers=markers)] if markers else []) + _tiles_told(game, words))


def _tiles_told(game, words: Words) -> list[str]:
    """What a cell cannot show, told under the map (only in games that have it): the tiles placed on top of others
    (New Holland's city on an ocean) and the declared marks on tiles (cathedrals), each with its space."""
    state, sep, told = game.state, words("off_mars_sep"), []
    if state.covered:
        told.append(words("on_top", tiles=sep.join(
            words("on_top_at", space=sid, top=_tile_word(words, state.tiles[sid].kind), below=_tile_word(words, t.kind))
            for sid, t in sorted(state.covered.items()) if sid in state.tiles)))
    marked = [(sid, tile) for sid, tile in sorted(state.tiles.items()) if tile.marks]
    if marked:
        told.append(words("tile_marks", marks=sep.join(
            words("tile_mark_at", space=sid, count=count, mark=name) for sid, tile in marked
            for name, count in tile.marks)))
    return told


def _tile_word(words: Words, kind: str) -> str:
    """A kind of tile in the legend: its name in English, the rules text's noun in another language."""
    return kind if words.english else words.phrases.tile(kind, 1)


def _bonus_name(words: Words, name: str) -> str:
    """A placement bonus in the legend: its name in English (`steel`), the rules text's noun in another language."""
    return name if words.english else words.phrases.noun(name, 1)


def _bonus_letters(game) -> dict[str, str]:
    """A letter for each placement bonus on the map: the usual ones (s steel, p plant, ...), then a free letter of
    a designer's bonus name, so every letter on the grid is one the legend can explain."""
    letters = {name: letter for name, letter in _BONUS.items()}
    taken = set(letters.values()) | {"g", "n"}  # g and n mark tiles (greenery, the neutral owner)
    for space in game.board.mars:
        for name, _ in space.bonuses:
            if name not in letters:
                letter = next((ch for ch in name.lower() + "abdfijklqruvwxyz" if ch.isalpha() and ch not in taken), "?")
                letters[name] = letter
                taken.add(letter)
    return letters


def globals_line(game, language: str = "en") -> str:
    state = game.state
    words = words_for(game, language)
    declared = "".join(words("declared_parameter", name=_parameter(words, name), value=value,
                             unit=game.elements.scales[name][3]) for name, value in state.parameters.items())
    phase = state.phase if words.english else ZH_PHASES.get(state.phase, state.phase)
    return words("generation_line", generation=state.generation, phase=phase, temperature=f"{state.temperature:+d}",
                 oxygen=state.oxygen, oceans=state.oceans, declared=declared)


def _parameter(words: Words, name: str) -> str:
    return name if words.english else words.phrases.parameter(name)


_RESOURCES = ("megacredits", "steel", "titanium", "plant", "energy", "heat")


def resources_table(player, paint: Paint = PLAIN, language: str = "en") -> str:
    words = words_for(None, language)
    top = " " * 10 + "".join(rjust(n, 8) for n in words.columns("resource_heads"))
    stock = ljust(words("stock"), 10) + "".join(f"{player.resources[n]:>8}" for n in _RESOURCES)
    prod = ljust(words("production"), 10) + "".join(f"{player.production[n]:>8}" for n in _RESOURCES)
    return "\n".join((paint.dim(top), stock, prod))


def hand(game, index: int, paint: Paint = PLAIN, language: str = "en") -> str:
    words = words_for(game, language)
    player = game.state.players[index]
    if not player.hand:
        return words("hand_empty")
    lines = [words("hand")]
    for name in player.hand:
        card = game.library[name]
        ok, reason = playable(game, index, name)
        mark = paint.good("*") if ok else " "
        requirement = words("requires", condition=_condition(game, card.requirements, words)) \
            if card.requirements else ""
        why = "" if ok or reason.startswith("requires") else words("why", reason=play_refusal(game, index, name, words))
        if not ok and reason.startswith("requires"):
            problem = reason.removeprefix("requires ") if words.english else _condition(game, fx.Condition(
                (failing(game, card.requirements, Where(index, name), leeway(game, index)),)), words)
            requirement = words("not_met", condition=problem)
        lines.append(f" {mark} {paint.card(words.name(card), card.type)}"
                     + words("card_facts", type=words.card_type(card.type), cost=card_cost(game, index, name),
                             tags=words.tags(card.tags))
                     + paint.dim(requirement + why))
    return "\n".join(lines)


def _condition(game, condition, words: Words) -> str:
    """A requirement as a list says it: `oxygen >= 6%` (the card text's) in English, the rules text's otherwise."""
    if words.english:
        return text.condition(condition)
    from tharsis.compiler import rules_text

    return rules_text.condition(condition, words.language, words.names)


def compact_cards(game, names, paint: Paint = PLAIN, language: str = "en") -> str:
    """One line per card: name, type, printed cost, tags and requirements."""
    words = words_for(game, language)
    lines = []
    for name in names:
        card = game.library[name]
        requirement = words("requires", condition=_condition(game, card.requirements, words)) \
            if card.requirements else ""
        lines.append(f"   {paint.card(words.name(card), card.type)}"
                     + words("card_facts", type=words.card_type(card.type), cost=card.cost, tags=words.tags(card.tags))
                     + requirement)
    return "\n".join(lines)


def in_play(game, index: int, paint: Paint = PLAIN, language: str = "en") -> str:
    words = words_for(game, language)
    player = game.state.players[index]
    parts = []
    for card in player.played:
        definition = game.library[card.name]
        extra = words("held_count", n=card.resources) if card.resources else ""
        used = words("used") if card.used else ""
        parts.append(paint.card(words.name(definition), definition.type) + extra + used)
    events = words("events", cards=words.join(words.name(game.library[e]) for e in player.events)) \
        if player.events else ""
    return words("in_play", cards=words.join(parts) or words("none")) + events


def milestones_awards(game, language: str = "en") -> str:
    words = words_for(game, language)
    names = {p.index: p.name for p in game.state.players}
    claimed = {m: names[p] for m, p in game.state.milestones}
    funded = {a: names[p] for a, p in game.state.awards}
    if not game.milestones and not game.awards:
        return ""
    ms = words.join(words.name(m, "milestone") + (words("taken_by", name=claimed[m]) if m in claimed else "")
                    for m in game.milestones)
    aw = words.join(words.name(a, "award") + (words("taken_by", name=funded[a]) if a in funded else "")
                    for a in game.awards)
    return words("milestones_line", milestones=ms, awards=aw)


def politics(game, language: str = "en") -> str:
    """A game with a government (Turmoil): the ruling faction and its policy, the holder of the role, the dominant
    faction, every reserve, each faction's pieces (its leader's first, marked `*`), and the cards of kinds with
    stages (the global events) by stage; nothing without them. Every word is a declaration's, said through the
    names files (the factions, the piece, the role, the kind and its stages)."""
    words = words_for(game, language)
    t = words.phrases
    government, lines = game.state.government, []
    if government is not None:
        declared = game.elements.government

        def owner(index) -> str:
            return words("neutral_owner") if index == NEUTRAL else game.state.players[index].name

        factions = []
        for faction in government.factions:
            pieces = sorted(faction.pieces, key=lambda o: o != faction.leader)   # the leader's piece first
            said = [owner(o) + (words("leader_mark") if i == 0 and faction.leader is not None else "")
                    for i, o in enumerate(pieces)]
            marks = [words(key) for key, name in (("ruling_mark", government.ruling),
                                                  ("dominant_mark", government.dominant)) if name == faction.name]
            factions.append(words("faction_pieces", name=words.name(faction.name, "faction"),
                                  pieces=words.join(said) or words("none"), marks="".join(marks)))
        piece = declared.piece
        reserves = [words("reserve", name=p.name, n=p.pieces.get(piece, 0)) for p in game.state.players]
        reserves.append(words("reserve", name=words("neutral_owner"), n=government.neutral))
        role = t.role(declared.role) if declared.role else "-"
        lines.append(words("government_line", ruling=words.name(government.ruling, "faction"), role=role,
                           holder=words("nobody") if government.role is None else owner(government.role),
                           dominant=words.name(government.dominant, "faction")))
        policy = _policy(game, government.ruling, words)
        if policy:
            lines.append(words("policy_line", ruling=words.name(government.ruling, "faction"), policy=policy))
        lines.append(words("reserves_line", pieces=t.piece(piece, 2), reserves=words("sep").join(reserves)))
        lines += factions
    for kind, cards in game.state.stages.items():
        stages = game.elements.card_kinds[kind].stages
        lines.append(words("stages_line", kind=t.card_type(kind), stages=words("sep").join(
            words("stage_card", stage=t.stage(stage), card=words.name(card)) if card
            else words("stage_empty", stage=t.stage(stage))
            for stage, card in zip(reversed(stages), reversed(cards)))))
    return "\n".join(lines)


def _policy(game, name: str, words: Words) -> str:
    """What a faction's policy does while it rules, as its rules text (its effects, then its actions)."""
    from tharsis.compiler import rules_text

    faction = game.elements.factions.get(name)
    if faction is None:
        return ""
    said = rules_text.parts(faction, words.language, words.names)
    return " ".join(said["passives"] + [words("policy_action", action=a) for a in said["actions"]])


def sites(game, language: str = "en") -> str:
    """The declared sites in play (Colonies' tiles), one line each: its track with the marker's step in brackets,
    what a visitor gets there now (the effects of that step), what each piece there gives its owner when anyone
    visits, whose pieces are on it, whether it is active and who is visiting; nothing without sites."""
    words = words_for(game, language)
    lines = []
    for state in game.state.sites:
        declared = game.elements.sites[state.name]
        lines.append(site_line(game, state, declared, words))
    return "\n".join([words("sites_head")] + lines) if lines else ""


def site_line(game, state, declared, words: Words) -> str:
    from tharsis.compiler import rules_text

    t = words.phrases
    names = words.names

    def effects(run) -> str:
        return rules_text.sentences(run, words.language, names).rstrip("。.") or words("nothing_gained")

    def owner(index) -> str:
        return words("neutral_owner") if index == NEUTRAL else game.state.players[index].name

    track = " ".join(f"[{step}]" if step == state.marker else str(step) for step in range(len(declared.track)))
    income = effects(declared.track[state.marker]) if state.active else words("site_inactive_income")
    owners = words.join(owner(o) for o in state.pieces) or words("nobody_there")
    parts, more = [words("site_track", track=track)], []
    if not state.active and declared.inactive_until is not None:
        more.append(words("site_inactive", event=rules_text.trigger_event(declared.inactive_until, words.language,
                                                                         names)))
    if declared.visitor is not None:
        parts.append(words("site_income", visitor=t.a(t.piece(declared.visitor, 1)), income=income))
    if declared.bonus:
        more.append(words("site_bonus", piece=t.piece(declared.piece, 1), bonus=effects(declared.bonus)))
    more.append(words("site_pieces", pieces=t.piece(declared.piece, 2), owners=owners, n=len(state.pieces),
                      capacity=declared.capacity))
    if state.visitor is not None and declared.visitor is not None:
        more.append(words("site_visiting", name=owner(state.visitor), visitor=t.piece(declared.visitor, 1)))
    inactive = "" if state.active else words("site_inactive_mark")
    return words("site_line", name=words.name(state.name, "site"), inactive=inactive,
                 parts=words("site_sep").join(parts), more=words("site_sep").join(more))


def site_facts(game, name: str, player: int, words: Words, placing: bool = False) -> str:
    """A site as an option (where to send a visitor, where to place a piece): what a visitor gets there now, whose
    pieces are on it, and, for a placement, what placing one there gives."""
    from tharsis.compiler import rules_text

    state, declared = game.state.site(name), game.elements.sites.get(name)
    if state is None or declared is None:
        return ""
    t = words.phrases

    def effects(run) -> str:
        return rules_text.sentences(run, words.language, words.names).rstrip("。.") or words("nothing_gained")

    owners = words.join(words("neutral_owner") if o == NEUTRAL else game.state.players[o].name
                        for o in state.pieces) or words("nobody_there")
    facts = []
    if placing and declared.build:
        facts.append(words("site_build", build=effects(declared.build)))
    if state.active:
        facts.append(words("site_step", step=state.marker, income=effects(declared.track[state.marker])))
    facts.append(words("site_pieces", pieces=t.piece(declared.piece, 2), owners=owners, n=len(state.pieces),
                       capacity=declared.capacity))
    return words("site_sep").join(facts)


def faction_facts(game, name: str, player: int, words: Words) -> str:
    """A faction as an option for one of the player's pieces: whose pieces are there now, and what one more of the
    player's would change: whether they would lead it, whether it would become the dominant faction."""
    from tharsis.runtime.rules.politics import dominant_after, leader_of

    government = game.state.government
    faction = government.faction(name) if government is not None else None
    if faction is None:
        return ""

    def owner(index) -> str:
        return words("neutral_owner") if index == NEUTRAL else game.state.players[index].name

    pieces = sorted(faction.pieces, key=lambda o: o != faction.leader)
    said = words.join(owner(o) + (words("leader_mark") if i == 0 and faction.leader is not None else "")
                      for i, o in enumerate(pieces)) or words("nobody_there")
    facts = [words("faction_now", pieces=words.phrases.piece(game.elements.government.piece, 2), owners=said)]
    after = government.copy()
    placed = after.faction(name)
    placed.pieces.append(player)
    placed.leader = leader_of(placed, game.turn_order(), player)
    if placed.leader == player and faction.leader != player:
        facts.append(words("would_lead"))
    if name != government.dominant and dominant_after(after, after.dominant) == name:
        facts.append(words("would_dominate"))
    elif name == government.dominant:
        facts.append(words("is_dominant"))
    if name == government.ruling:
        facts.append(words("is_ruling"))
    return words("sep").join(facts)


def counted(count: int, one: str, many: Optional[str] = None) -> str:
    """`1 card`, `2 cards`: a number with its noun in agreement (`many` when the plural is not one + s)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def others(game, index: int, paint: Paint = PLAIN, language: str = "en") -> str:
    words = words_for(game, language)
    lines = []
    for p in game.state.players:
        if p.index == index:
            continue
        lines.append(words("others", name=paint.player(p.name, p.index), tr=p.tr, mc=p.resources["megacredits"],
                           production=p.production["megacredits"], cards=counted(len(p.hand), "card"),
                           n=len(p.hand), played=len(p.played), passed=words("passed") if p.passed else ""))
    return "\n".join(lines)


def score_estimate(game, language: str = "en") -> str:
    words = words_for(game, language)
    result = final_scores(game)
    return words("score_now", scores=words("sep").join(
        words("score", name=row["name"], total=row["total"]) for row in result["players"]))


def panel(game, index: int, paint: Paint = PLAIN, language: str = "en") -> str:
    """Everything a player looks at before an action: the globals, the board, milestones and awards, their own
    resources, tags, cards in play and hand, the other players and the score if the game ended now."""
    words = words_for(game, language)
    player = game.state.players[index]
    header = words("panel_header", name=paint.player(player.name, index), corporation=_corporation(words, player),
                   tr=player.tr)
    parts = [paint.bold(globals_line(game, language)), board(game, paint=paint, language=language),
             milestones_awards(game, language), sites(game, language), politics(game, language), header,
             resources_table(player, paint, language),
             words("tags", tags=tag_counts(game, index, language)), in_play(game, index, paint, language),
             hand(game, index, paint, language), others(game, index, paint, language),
             score_estimate(game, language)]
    return "\n".join(p for p in parts if p)


def _corporation(words: Words, player) -> str:
    if not player.corporations:
        return words("no_corporation")
    return " + ".join(words.name(name, "corporation") for name in player.corporations)  # merged: both named


def final_table(result: dict, paint: Paint = PLAIN, language: str = "en") -> str:
    words = words_for(None, language)
    columns = ("tr", "milestones", "awards", "greeneries", "cities", "cards", "total", "megacredits")
    titles = words.columns("final_titles")
    widths = [max(width(t), 6) + 2 for t in titles]
    header = ljust(words("player"), 14) + "".join(rjust(t, w) for t, w in zip(titles, widths))
    lines = [paint.bold(header), "-" * width(header)]
    seats = {id(row): seat for seat, row in enumerate(result["players"])}
    ranked = sorted(result["players"], key=lambda r: (r["total"], r["megacredits"]), reverse=True)
    for row in ranked:
        lines.append(paint.player(ljust(row["name"], 14), seats[id(row)])
                     + "".join(f"{row[c]:>{w}}" for c, w in zip(columns, widths)))
    if "solo_won" in result:
        lines.append(words("solo_won" if result["solo_won"] else "solo_lost"))
    if result.get("winner"):
        lines.append(paint.bold(_verdict(result, ranked, words)))
    lines.append(words("generations", n=result["generations"]))
    return "\n".join(lines)


def _verdict(result: dict, ranked: list[dict], words: Optional[Words] = None) -> str:
    """Who won and what decided it (RULES.md 6: the most points; on a tie, the most megacredits; a tie on both is
    shared): `winner: ann`, `winner: ann (tied on 88 points with bob; megacredits broke the tie: ann 44, bob 40)`,
    or `tied: ann and bob (88 points and 44 MC each)`."""
    words = words or words_for(None, "en")
    top = ranked[0]
    on_points = [row for row in ranked if row["total"] == top["total"]]
    if len(on_points) == 1 or not result.get("tie_break"):
        return words("winner", name=result["winner"])
    on_both = [row for row in on_points if row["megacredits"] == top["megacredits"]]
    if len(on_both) > 1:
        names = [row["name"] for row in on_both]
        return words("tied_all", names=words("list_sep").join(names[:-1]), last=names[-1], total=top["total"],
                     mc=top["megacredits"])
    rivals = [row["name"] for row in on_points[1:]]
    money = words("sep").join(
        words("money", name=row["name"], mc=row["megacredits"]) for row in on_points)
    return words("won_tie", name=top["name"], total=top["total"], rivals=words("list_sep").join(rivals), money=money)


# ---------------------------------------------------------------------- looking things up during a game

_PLURAL = {"megacredits": "MC", "card": "cards", "plant": "plants", v.OCEAN: "oceans"}


def _amount(resource: str, count: int, words: Optional[Words] = None) -> str:
    if words is not None and not words.english:
        if resource == "megacredits":
            return words("amount_mc", n=count)
        if resource == v.OCEAN:
            return words("amount_ocean", n=count)
        return words.counted(count, resource)
    if resource == "megacredits":
        return f"{count} MC"
    if resource == v.OCEAN:
        return f"{count} {v.plural(resource, count)} to place"
    return f"{count} {resource if count == 1 else _PLURAL.get(resource, resource)}"


def space_bonus(game, space_id: str, player: int, tile: Optional[str] = None, language: str = "en") -> str:
    """What placing a tile on this space gives `player` now: its printed bonus, 2 MC per ocean next to it, and any
    price it has (Hellas' south pole costs 6 MC only while oceans remain): with `tile`, the price once that tile is
    down, as it will be charged (the 9th ocean placed there is free)."""
    words = words_for(game, language)
    space = game.board.spaces[space_id]
    parts = [_amount(bonus, count, words) for bonus, count in space.bonuses]
    oceans = sum(1 for n in game.board.neighbours[space_id]
                 if n in game.state.tiles and game.state.tiles[n].kind in v.OCEAN_TILES)
    if oceans:
        parts.append(words("next_to_oceans", n=oceans, mc=2 * oceans))
    price = space_cost(game, player, space_id) if tile is None else cost_once_placed(game, player, space_id, tile)
    if price:
        parts.append(words("space_costs", mc=price))
    if space.reserved:
        parts.append(words.names.area(space.reserved, language))
    return words("sep").join(parts) or words("no_bonus")


def space_choices(game, spaces: list[str], player: int, language: str = "en") -> str:
    """The legal spaces grouped by what they give, so a player picks by board id and sees what each is worth."""
    groups: dict[str, list[str]] = {}
    tile = placing(game)
    for space_id in spaces:
        groups.setdefault(space_bonus(game, space_id, player, tile, language), []).append(space_id)
    columns = max(width(bonus) for bonus in groups)
    return "\n".join(f"  {ljust(bonus, columns)}  {' '.join(ids)}" for bonus, ids in groups.items())


def card_block(game, name: str, number: int | None = None, language: str = "en", paint: Paint = PLAIN) -> str:
    """A card as a numbered block: its heading (type, cost, tags), requirements and the rules text (in `language`,
    the card's name as the names files give it); the name in the colour of the card's type."""
    from tharsis.compiler import rules_text

    definition = game.library[name]
    lines = rules_text.card(definition, language, game.content.names).splitlines()
    shown = game.content.names.display_name(definition, language)
    if lines[0].startswith(shown):
        lines[0] = paint.card(shown, definition.type) + lines[0][len(shown):]
    head = f"{number:>3}. " if number is not None else ""
    return "\n".join([head + lines[0]] + [" " * len(head) + line for line in lines[1:]])


def tag_counts(game, index: int, language: str = "en") -> str:
    words = words_for(game, language)
    counts: dict[str, int] = {}
    for card in game.state.players[index].played:
        for tag in game.library[card.name].tags:
            counts[tag] = counts.get(tag, 0) + 1
    return words("sep").join(
        words("tag_count", tag=words.tag(tag), n=n)
        for tag, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))) or words("none")


def player_sheet(game, index: int, paint: Paint = PLAIN, language: str = "en") -> str:
    """Everything public about one player: corporation, TR, stock and production, tags, cards in play, tiles."""
    words = words_for(game, language)
    player = game.state.players[index]
    tiles: dict[str, int] = {}
    for tile in game.state.tiles.values():
        if tile.owner == index:
            kind = v.CITY if tile.is_city else tile.kind
            tiles[kind] = tiles.get(kind, 0) + 1
    played = []
    for card in player.played:
        definition = game.library[card.name]
        holds = definition.holds
        if words.english:
            extra = f" ({card.resources} {holds or 'resources'})" if card.resources else ""
        else:
            extra = words("holds", n=card.resources, holds=words.phrases.noun(holds) if holds
                          else words("resources_held")) if card.resources else ""
        played.append(paint.card(words.name(definition), definition.type) + extra
                      + (words("action_used") if card.used else ""))
    claimed = [words.name(m, "milestone") for m, p in game.state.milestones if p == index]
    funded = [words.name(a, "award") for a, p in game.state.awards if p == index]
    lines = [words("sheet_header", name=paint.player(player.name, index), corporation=_corporation(words, player),
                   tr=player.tr, cards=counted(len(player.hand), "card"), n=len(player.hand),
                   passed=words("passed") if player.passed else ""),
             resources_table(player, paint, language),
             words("tags", tags=tag_counts(game, index, language)),
             words("in_play", cards=words.join(played) or words("none"))]
    if player.events:
        lines.append(words("events_played", cards=words.join(words.name(game.library[e]) for e in player.events)))
    lines.append(words("tiles", tiles=words.join(_tiles(words, kind, n) for kind, n in sorted(tiles.items()))
                       or words("none")))
    if claimed or funded:
        lines.append(words("claimed_funded", milestones=words.join(claimed) or words("none"),
                           awards=words.join(funded) or words("none")))
    return "\n".join(lines)


def _tiles(words: Words, kind: str, count: int) -> str:
    if words.english:
        return f"{count} {v.plural(kind, count)}"
    t = words.phrases
    return t("tiles_count", n=count, unit=t.unit("tile"), tile=t.tile(kind, count))


def standard_projects(game, index: int, language: str = "en") -> str:
    """Every standard project and conversion with the player's price, what it does and whether it is possible now."""
    from tharsis.compiler.rules_text import sentences

    words = words_for(game, language)
    lines = [words("projects")]
    for name, project in game.standard_projects.items():
        lines.append(_lookup_line(game, index, ("project", name), words.name(project),
                                  words("mc", n=standard_cost(game, index, project)),
                                  sentences(project.play, language, game.content.names)
                                  + void_note(game, project.play, words), words, name))
    lines.append(words("conversions"))
    for name, action in game.standard_actions.items():
        amount = standard_cost(game, index, action)
        cost = f"{amount} {_PLURAL.get(action.cost_resource, action.cost_resource)}" if words.english \
            else _amount(action.cost_resource, amount, words)
        lines.append(_lookup_line(game, index, ("convert", name), words.name(action), cost,
                                  sentences(action.play, language, game.content.names), words, name))
    return "\n".join(lines)


def _lookup_line(game, index: int, action: tuple, shown: str, cost: str, does: str, words: Words, name: str) -> str:
    reason = why_not(game, index, action)
    mark = "*" if reason is None else " "
    why = "" if reason is None else words("why", reason=refusal(words, reason.removeprefix(name + " ")))
    return f" {mark} {ljust(shown, 20)} {rjust(cost, 9)}  {does}{why}"


# why_not's and playable's reasons (the engine's words) in another language: (pattern, key) in the order tried
_REFUSALS = (
    (re.compile(r"(?:costs|needs) (\d+ \S+(?: or \d+ \S+)+)"), "refuse_prices"),
    (re.compile(r"costs (\d+) MC and its TR steps are taxed (\d+) MC"), "refuse_costs_taxed"),
    (re.compile(r"(?:.+'s|its) TR steps are taxed (\d+) MC, which you cannot also pay"), "refuse_taxed"),
    (re.compile(r"(?:.+'s action )?was already used this generation|.+'s action was already used this generation"),
     "refuse_used"),
    (re.compile(r".+'s action cannot be carried out now(?:: .*)?"), "refuse_now"),   # the detail is English
    (re.compile(r"costs (\d+) MC"), "refuse_costs"),
    (re.compile(r"its effects cannot all be carried out(?:: .*)?"), "refuse_effects"),   # the detail is English
    (re.compile(r"needs (\d+ \S+(?: or \d+ \S+)*)"), "refuse_needs"),   # one resource, or several to choose from
    (re.compile(r"cannot be carried out now"), "refuse_now"),
    (re.compile(r"cannot be done now"), "refuse_now"),
)


def play_refusal(game, index: int, name: str, words: Words) -> str:
    """Why player `index` cannot play card `name` of their hand now, in the words' language, each effect that cannot
    be carried out named with what it lacks."""
    ok, reason = playable(game, index, name)
    if ok:
        return ""
    if reason == EFFECTS_REFUSED:
        return effects_refusal(game, index, name, words)
    if reason.startswith("requires ") and not words.english:
        card = game.library[name]
        return words("not_met", condition=_condition(game, fx.Condition(
            (failing(game, card.requirements, Where(index, name), leeway(game, index)),)), words)).strip()
    return refusal(words, reason)


def effects_refusal(game, index: int, name: str, words: Words) -> str:
    """Why card `name`'s effects cannot all be carried out, in the words' language: the first that cannot, in rules
    text, and what it lacks (`'Lose 2 plants' needs 2 plants (you have 1)`), or that only all of them together with
    the payment cannot (runtime/rules/legality.py `refused_effect`; `why_not` says the same in card text)."""
    from tharsis.compiler.rules_text import sentences

    stuck = refused_effect(game, index, name)
    if stuck is None:
        return words("refuse_effects_together")
    effect, needed, had = stuck
    said = sentences((effect,), words.language, game.content.names).rstrip("。.")
    if needed is not None:
        return words("refuse_effect_needs", effect=said, things=words.counted(needed, effect.resource),
                     had=words.counted(had, effect.resource))
    why = type(effect).impossible
    return words("refuse_effect_stuck", effect=said, why=f" ({why})" if why and words.english else "")


_RESOURCE_WORDS = {"MC": "megacredits"}   # the engine's short name in a reason, as the rules text names it


def refusal(words: Words, reason: str) -> str:
    """Why an action is refused (runtime/rules/legality.py says it in English), in the words' language; a reason of a
    shape not known here stays as the engine says it."""
    if words.english:
        return reason
    for pattern, key in _REFUSALS:
        found = pattern.fullmatch(reason)
        if found is None:
            continue
        if key == "refuse_costs":
            return words(key, mc=found.group(1))
        if key == "refuse_costs_taxed":
            return words(key, mc=found.group(1), tax=found.group(2))
        if key == "refuse_taxed":
            return words(key, tax=found.group(1))
        if key == "refuse_prices":  # every way to pay, none affordable: `9 MC or 3 energy or 3 titanium`
            prices = [price.split(" ", 1) for price in found.group(1).split(" or ")]
            return words(key, prices=words("or").join(
                words("mc", n=n) if what == "MC" else words.counted(int(n), what) for n, what in prices))
        if key == "refuse_needs":
            things = [thing.split(" ", 1) for thing in found.group(1).split(" or ")]
            return words(key, things=words("or").join(words.counted(int(n), _RESOURCE_WORDS.get(what, what))
                                                      for n, what in things))
        return words(key)
    return reason


def milestones(game, index: int, language: str = "en") -> str:
    """Each milestone: its requirement, who claimed it, and every player's standing against it; the price is the one
    player `index` would pay (after their `discount N on milestones`)."""
    from tharsis.compiler.rules_text import condition

    words = words_for(game, language)
    if not game.milestones:
        return words("no_milestones")
    names = {p.index: p.name for p in game.state.players}
    claimed = dict(game.state.milestones)
    lines = [words("milestones_head", cost=milestone_cost(game, index), claimed=len(claimed), limit=MAX_MILESTONES)]
    for name, milestone in game.milestones.items():
        comparisons = milestone.requirement.comparisons
        standing = []
        for p in game.state.players:
            values = "/".join(str(quantity(game, c.quantity, Where(p.index))) for c in comparisons)
            meets = all(_compare(game, c, p.index) for c in comparisons)
            standing.append(words("standing", name=p.name, values=values) + (words("meets") if meets else ""))
        owner = words("claimed_by", name=names[claimed[name]]) if name in claimed else \
            words("sep").join(standing)
        requirement = condition(milestone.requirement, language, game.content.names)
        lines.append(f"  {ljust(words.name(milestone), 14)} {ljust(requirement, 30)} {owner}")
    return "\n".join(lines)


def _compare(game, comparison, index: int) -> bool:
    from tharsis.runtime.rules.measures import OPERATORS

    return OPERATORS[comparison.operator](quantity(game, comparison.quantity, Where(index)), comparison.value)


def awards(game, index: Optional[int] = None, language: str = "en") -> str:
    """Each award: what it counts, who funded it, every player's count and who leads; the next funding price (for
    player `index`, after their `discount N on awards`, as the milestones' price is for the player who asks)."""
    words = words_for(game, language)
    if not game.awards:
        return words("no_awards")
    names = {p.index: p.name for p in game.state.players}
    funded = dict(game.state.awards)
    price = words("next_costs", mc=award_cost(game, index)) if len(funded) < len(AWARD_COSTS) else words("all_funded")
    lines = [words("awards_head", funded=len(funded), limit=len(AWARD_COSTS), price=price)]
    separator = words("sep")
    for name, award in game.awards.items():
        values = {p.index: quantity(game, award.measure, Where(p.index)) for p in game.state.players}
        best = max(values.values())
        leaders = [names[i] for i, v in values.items() if v == best] if best > 0 else [words("nobody_yet")]
        counts = separator.join(words("count", name=names[i], n=v) for i, v in values.items())
        status = words("funded_by", name=names[funded[name]]) if name in funded else words("not_funded")
        measure = text.quantity(award.measure) if words.english else _award_measure(game, award, words)
        lines.append(f"  {ljust(words.name(award), 12)} {ljust(measure, 26)} "
                     + words("award_line", counts=counts, leaders=words("list_sep").join(leaders), status=status))
    return "\n".join(lines)


def _award_measure(game, award, words: Words) -> str:
    """What an award counts, as every player's (拥有最多板块: whose is not said, as in the rules text of awards)."""
    from tharsis.compiler.rules_text import quantity as said

    return said(award.measure, words.language, words.names, owner=False)
