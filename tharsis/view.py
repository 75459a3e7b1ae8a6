"""Text views of a game for the terminal: the board as a hex grid, a player's panel, scores.

Pure functions from a `Game` to strings, shared by `tharsis play`, `tharsis replay` and the docs.
"""

from __future__ import annotations

from tharsis.compiler import text
from tharsis.runtime.measures import Where, quantity
from tharsis.runtime.scoring import final_scores

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
    return (f"Generation {s.generation} ({s.phase})   temperature {s.temperature:+d}°C   oxygen {s.oxygen}%   "
            f"oceans {s.oceans}/9")


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
        ok, reason = game.playable(index, name)
        mark = "*" if ok else " "
        tags = ",".join(card.tags) or "-"
        requirement = f"  requires {text.condition(card.requirements)}" if card.requirements else ""
        why = "" if ok or reason.startswith("requires") else f"  ({reason})"
        if not ok and reason.startswith("requires"):
            requirement = f"  {reason} (not met)"
        lines.append(f" {mark} {name} [{card.type}, {game.card_cost(index, name)} MC, {tags}]{requirement}{why}")
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


def award_standings(game) -> str:
    lines = []
    for name in game.awards:
        measure = game.awards[name].measure
        values = ", ".join(f"{p.name} {quantity(game, measure, Where(p.index))}" for p in game.state.players)
        lines.append(f"{name}: {values}")
    return "\n".join(lines)
