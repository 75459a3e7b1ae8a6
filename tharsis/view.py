"""Text views of a game for the terminal: the board as a hex grid, a player's panel, scores.

Pure functions from a `Game` to strings, shared by `tharsis play`, `tharsis replay` and the docs.
"""

from __future__ import annotations

from typing import Optional

from tharsis.compiler import text
from tharsis.runtime.legality import AWARD_COSTS, MAX_MILESTONES, MILESTONE_COST, award_cost, playable, why_not
from tharsis.runtime.measures import Where, quantity
from tharsis.runtime.prices import card_cost, standard_cost
from tharsis.runtime.scoring import final_scores
from tharsis.runtime.spaces import cost_once_placed, space_cost
from tharsis.runtime.tiles import placing

_BONUS = {"steel": "s", "titanium": "t", "plant": "p", "card": "c", "heat": "h", "energy": "e",
          "megacredits": "m", "ocean": "o"}


def initials(game) -> dict[int, str]:
    """One letter per player (the first free letter of the name), for tiles on the grid."""
    used: dict[int, str] = {}
    for player in game.state.players:
        for ch in player.name.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if ch.isalpha() and ch not in used.values():
                used[player.index] = ch
                break
    return used


def board(game, highlight: tuple[str, ...] = ()) -> str:
    """The 61 spaces of Mars as a hex grid. Empty spaces show their bonus (p plant, s steel, t titanium, c card,
    h heat; ~ an ocean space); tiles show O ocean, g/C/S + owner letter; `highlight` spaces show their ids."""
    letters = initials(game)
    rows: dict[int, list] = {}
    for space in game.board.mars:
        rows.setdefault(space.row, []).append(space)
    lines = []
    for y in sorted(rows):
        cells = []
        for space in rows[y]:
            tile = game.state.tiles.get(space.id)
            if space.id in highlight:
                cell = f"[{space.id}]"
            elif tile is not None:
                owner = letters.get(tile.owner, "n") if tile.owner is not None else ""
                mark = {"ocean": "≈≈", "greenery": "g" + owner, "city": "C" + owner}.get(tile.kind, "S" + owner)
                cell = f" {mark:<2} "
            else:
                bonus = "".join(_BONUS.get(b, "?") * min(n, 2) for b, n in space.bonuses)[:2]
                base = "~" if space.kind == "ocean" else ("^" if space.volcanic else "·")
                cell = f" {(bonus or base):<2} " if space.kind != "ocean" else f" ~{bonus[:1]:<1} "
            cells.append(cell)
        lines.append("  " * (9 - len(rows[y])) + "".join(cells))
    offboard = [f"{s.reserved}: " + ("city " + letters.get(game.state.tiles[s.id].owner, "?")
                                     if s.id in game.state.tiles else "free")
                for s in game.board.offboard()]
    legend = "   ".join(f"{letters[p.index]}={p.name}" for p in game.state.players)
    return "\n".join(lines + [f"off Mars: {'; '.join(offboard)}", f"players: {legend}   ≈≈ ocean  g greenery  "
                                                                     "C city  S special  ~ ocean space  ^ volcanic"])


def globals_line(game) -> str:
    s = game.state
    declared = "".join(f"   {name} {value}{game.elements.scales[name][3]}" for name, value in s.parameters.items())
    return (f"Generation {s.generation} ({s.phase})   temperature {s.temperature:+d}°C   oxygen {s.oxygen}%   "
            f"oceans {s.oceans}/9" + declared)


def resources_table(player) -> str:
    names = ("megacredits", "steel", "titanium", "plant", "energy", "heat")
    short = ("MC", "steel", "titan", "plant", "energy", "heat")
    top = "          " + "".join(f"{n:>8}" for n in short)
    stock = "stock     " + "".join(f"{player.resources[n]:>8}" for n in names)
    prod = "production" + "".join(f"{player.production[n]:>8}" for n in names)
    return "\n".join((top, stock, prod))


def hand(game, index: int) -> str:
    player = game.state.players[index]
    if not player.hand:
        return "hand: (empty)"
    lines = ["hand (* playable now):"]
    for name in player.hand:
        card = game.library[name]
        ok, reason = playable(game, index, name)
        mark = "*" if ok else " "
        tags = ",".join(card.tags) or "-"
        requirement = f"  requires {text.condition(card.requirements)}" if card.requirements else ""
        why = "" if ok or reason.startswith("requires") else f"  ({reason})"
        if not ok and reason.startswith("requires"):
            requirement = f"  {reason} (not met)"
        lines.append(f" {mark} {name} [{card.type}, {card_cost(game, index, name)} MC, {tags}]{requirement}{why}")
    return "\n".join(lines)


def compact_cards(game, names) -> str:
    """One line per card: name, type, printed cost, tags and requirements."""
    lines = []
    for name in names:
        card = game.library[name]
        requirement = f"  requires {text.condition(card.requirements)}" if card.requirements else ""
        lines.append(f"   {name} [{card.type}, {card.cost} MC, {','.join(card.tags) or '-'}]{requirement}")
    return "\n".join(lines)


def in_play(game, index: int) -> str:
    player = game.state.players[index]
    parts = []
    for card in player.played:
        extra = f" ({card.resources})" if card.resources else ""
        used = " used" if card.used else ""
        parts.append(card.name + extra + used)
    return "in play: " + (", ".join(parts) or "-") + (f"\nevents: {', '.join(player.events)}" if player.events else "")


def milestones_awards(game) -> str:
    names = {p.index: p.name for p in game.state.players}
    claimed = {m: names[p] for m, p in game.state.milestones}
    funded = {a: names[p] for a, p in game.state.awards}
    if not game.milestones and not game.awards:
        return ""
    ms = ", ".join(f"{m}{' (' + claimed[m] + ')' if m in claimed else ''}" for m in game.milestones)
    aw = ", ".join(f"{a}{' (' + funded[a] + ')' if a in funded else ''}" for a in game.awards)
    return f"milestones: {ms}\nawards: {aw}"


def others(game, index: int) -> str:
    lines = []
    for p in game.state.players:
        if p.index == index:
            continue
        lines.append(f"{p.name}: TR {p.tr}, {p.resources['megacredits']} MC (+{p.production['megacredits']}), "
                     f"{len(p.hand)} cards in hand, {len(p.played)} in play{', passed' if p.passed else ''}")
    return "\n".join(lines)


def score_estimate(game) -> str:
    result = final_scores(game)
    return "score now: " + ", ".join(f"{row['name']} {row['total']}" for row in result["players"])


def panel(game, index: int) -> str:
    player = game.state.players[index]
    parts = [globals_line(game), board(game), milestones_awards(game),
             f"--- {player.name} ({player.corporation or 'no corporation yet'}), TR {player.tr}",
             resources_table(player), in_play(game, index), hand(game, index), others(game, index),
             score_estimate(game)]
    return "\n".join(p for p in parts if p)


def final_table(result: dict) -> str:
    columns = ("tr", "milestones", "awards", "greeneries", "cities", "cards", "total", "megacredits")
    titles = ("TR", "milestones", "awards", "greeneries", "cities", "cards", "TOTAL", "MC (tie-break)")
    header = f"{'player':<14}" + "".join(f"{t:>{max(len(t), 6) + 2}}" for t in titles)
    lines = [header, "-" * len(header)]
    for row in sorted(result["players"], key=lambda r: (r["total"], r["megacredits"]), reverse=True):
        lines.append(f"{row['name']:<14}" + "".join(f"{row[c]:>{max(len(t), 6) + 2}}" for c, t in zip(columns, titles)))
    if "solo_won" in result:
        lines.append("solo: " + ("WON — Mars is terraformed in time" if result["solo_won"] else "LOST"))
    if result.get("winner"):
        lines.append(f"winner: {result['winner']}" + (" (tie on points, broken by megacredits)"
                                                       if result.get("tie_break") else ""))
    lines.append(f"generations: {result['generations']}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- looking things up during a game

_TILE_PLURAL = {"city": "cities", "greenery": "greeneries"}
_PLURAL = {"megacredits": "MC", "card": "cards", "plant": "plants", "ocean": "oceans"}


def _amount(resource: str, count: int) -> str:
    if resource == "megacredits":
        return f"{count} MC"
    if resource == "ocean":
        return f"{count} ocean" + ("s" if count != 1 else "") + " to place"
    return f"{count} {resource if count == 1 else _PLURAL.get(resource, resource)}"


def space_bonus(game, space_id: str, player: int, tile: Optional[str] = None) -> str:
    """What placing a tile on this space gives `player` now: its printed bonus, 2 MC per ocean next to it, and any
    price it has (Hellas' south pole costs 6 MC only while oceans remain): with `tile`, the price once that tile is
    down, as it will be charged (the 9th ocean placed there is free)."""
    space = game.board.spaces[space_id]
    parts = [_amount(bonus, count) for bonus, count in space.bonuses]
    oceans = sum(1 for n in game.board.neighbours[space_id]
                 if n in game.state.tiles and game.state.tiles[n].kind == "ocean")
    if oceans:
        parts.append(f"+{2 * oceans} MC ({oceans} ocean{'s' if oceans > 1 else ''} next to it)")
    price = space_cost(game, player, space_id) if tile is None else cost_once_placed(game, player, space_id, tile)
    if price:
        parts.append(f"costs {price} MC")
    if space.reserved:
        parts.append(space.reserved)
    return ", ".join(parts) or "no bonus"


def space_choices(game, spaces: list[str], player: int) -> str:
    """The legal spaces grouped by what they give, so a player picks by board id and sees what each is worth."""
    groups: dict[str, list[str]] = {}
    tile = placing(game)
    for space_id in spaces:
        groups.setdefault(space_bonus(game, space_id, player, tile), []).append(space_id)
    width = max(len(bonus) for bonus in groups)
    return "\n".join(f"  {bonus:<{width}}  {' '.join(ids)}" for bonus, ids in groups.items())


def card_block(game, name: str, number: int | None = None, language: str = "en") -> str:
    """A card as a numbered block: its heading (type, cost, tags), requirements and the rules text (in `language`)."""
    from tharsis.compiler import rules_text

    lines = rules_text.card(game.library[name], language).splitlines()
    head = f"{number:>3}. " if number is not None else ""
    return "\n".join([head + lines[0]] + [" " * len(head) + line for line in lines[1:]])


def tag_counts(game, index: int) -> str:
    counts: dict[str, int] = {}
    for card in game.state.players[index].played:
        for tag in game.library[card.name].tags:
            counts[tag] = counts.get(tag, 0) + 1
    return ", ".join(f"{tag} {n}" for tag, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))) or "-"


def player_sheet(game, index: int) -> str:
    """Everything public about one player: corporation, TR, stock and production, tags, cards in play, tiles."""
    player = game.state.players[index]
    tiles: dict[str, int] = {}
    for tile in game.state.tiles.values():
        if tile.owner == index:
            kind = "city" if tile.is_city else tile.kind
            tiles[kind] = tiles.get(kind, 0) + 1
    played = []
    for card in player.played:
        holds = game.library[card.name].holds
        extra = f" ({card.resources} {holds or 'resources'})" if card.resources else ""
        played.append(card.name + extra + (" [action used]" if card.used else ""))
    claimed = [m for m, p in game.state.milestones if p == index]
    funded = [a for a, p in game.state.awards if p == index]
    lines = [f"--- {player.name} ({player.corporation or 'no corporation yet'}), TR {player.tr}, "
             f"{len(player.hand)} cards in hand{', passed' if player.passed else ''}",
             resources_table(player),
             f"tags: {tag_counts(game, index)}",
             f"in play: {', '.join(played) or '-'}"]
    if player.events:
        lines.append(f"events played: {', '.join(player.events)}")
    lines.append("tiles: " + (", ".join(f"{n} {_TILE_PLURAL.get(k, k + 's') if n > 1 else k}"
                                        for k, n in sorted(tiles.items())) or "-"))
    if claimed or funded:
        lines.append(f"claimed: {', '.join(claimed) or '-'}; funded: {', '.join(funded) or '-'}")
    return "\n".join(lines)


def standard_projects(game, index: int, language: str = "en") -> str:
    """Every standard project and conversion with the player's price, what it does and whether it is possible now."""
    from tharsis.compiler.rules_text import sentences

    lines = ["standard projects (your price; * you can do it now):"]
    for name, project in game.standard_projects.items():
        lines.append(_lookup_line(game, index, ("project", name), name,
                                  f"{standard_cost(game, index, project)} MC", sentences(project.play, language)))
    lines.append("conversions (any number of times):")
    for name, action in game.standard_actions.items():
        cost = f"{standard_cost(game, index, action)} {_PLURAL.get(action.cost_resource, action.cost_resource)}"
        lines.append(_lookup_line(game, index, ("convert", name), name, cost, sentences(action.play, language)))
    return "\n".join(lines)


def _lookup_line(game, index: int, action: tuple, name: str, cost: str, does: str) -> str:
    reason = why_not(game, index, action)
    mark = "*" if reason is None else " "
    why = "" if reason is None else f"  ({reason.removeprefix(name + ' ')})"
    return f" {mark} {name:<20} {cost:>9}  {does}{why}"


def milestones(game, index: int, language: str = "en") -> str:
    """Each milestone: its requirement, who claimed it, and every player's standing against it."""
    from tharsis.compiler.rules_text import condition

    if not game.milestones:
        return "no milestones in this game"
    names = {p.index: p.name for p in game.state.players}
    claimed = dict(game.state.milestones)
    lines = [f"milestones: {MILESTONE_COST} MC to claim, 5 VP; {len(claimed)} of {MAX_MILESTONES} claimed"]
    for name, milestone in game.milestones.items():
        comparisons = milestone.requirement.comparisons
        standing = []
        for p in game.state.players:
            values = "/".join(str(quantity(game, c.quantity, Where(p.index))) for c in comparisons)
            meets = all(_compare(game, c, p.index) for c in comparisons)
            standing.append(f"{p.name} {values}{' (meets it)' if meets else ''}")
        owner = f"claimed by {names[claimed[name]]}" if name in claimed else ", ".join(standing)
        lines.append(f"  {name:<14} {condition(milestone.requirement, language):<30} {owner}")
    return "\n".join(lines)


def _compare(game, comparison, index: int) -> bool:
    from tharsis.runtime.measures import OPERATORS

    return OPERATORS[comparison.operator](quantity(game, comparison.quantity, Where(index)), comparison.value)


def awards(game) -> str:
    """Each award: what it counts, who funded it, every player's count and who leads; the next funding price."""

    if not game.awards:
        return "no awards in this game"
    names = {p.index: p.name for p in game.state.players}
    funded = dict(game.state.awards)
    price = (f"the next costs {award_cost(game)} MC" if len(funded) < len(AWARD_COSTS)
             else "all are funded")
    lines = [f"awards: 5 VP for first, 2 for second; {len(funded)} of {len(AWARD_COSTS)} funded, {price}"]
    for name, award in game.awards.items():
        values = {p.index: quantity(game, award.measure, Where(p.index)) for p in game.state.players}
        best = max(values.values())
        leaders = [names[i] for i, v in values.items() if v == best] if best > 0 else ["nobody yet"]
        counts = ", ".join(f"{names[i]} {v}" for i, v in values.items())
        status = f"funded by {names[funded[name]]}" if name in funded else "not funded"
        lines.append(f"  {name:<12} {text.quantity(award.measure):<26} {counts}; leads: "
                     f"{', '.join(leaders)}; {status}")
    return "\n".join(lines)
