"""One bot game played to its end, and its record: what the game itself gives at its end (the result, the score
breakdown, the cards each player played and the VP each card scored) plus the generation in which each card was
played, noted between choices as the game goes, and, in a game whose content declares pieces, how many of each kind
every player placed (on sites or in factions) and sent to visit sites, counted from its events. The per-card facts
of the balance report (tharsis/games/balance.py) come from here. `tharsis simulate` plays its games through
`play_one`, locally (tharsis/games/simulate.py) or on Ray (tharsis/games/ray_backend.py): the same function, so the
same records. A task of the card-effect experiment (tharsis/games/paired.py) has a third part, the game's place in
the experiment: its game is a `paired.HandedGame`, and its record also holds `effect` (that place, the holder by
name) and `moves` (a digest of its choices).
"""

from __future__ import annotations

import time

from tharsis.problems import ENDLESS
from tharsis.runtime.api.game import EndlessGame, Game, GameOptions, load_library
from tharsis.runtime.api.queries import terraformed
from tharsis.runtime.bots import BOTS

from .paired import HandedGame, moves_digest


def play_one(task: tuple, library=None) -> dict:
    """Play one game to the end (runs in a worker process; a Ray worker passes the library the driver compiled)."""
    options_json, seats, *experiment = task
    options = GameOptions.from_json(options_json)
    effect = experiment[0] if experiment else None
    started = time.perf_counter()
    try:
        library = library or load_library(tuple(options.card_paths))
        if effect is None:
            game = Game(options, library)
        else:
            holder = [name for name, _ in seats].index(effect["holder"])
            game = HandedGame(options, library, without=effect["without"], holder=holder, card=effect["card"])
        bots = {i: BOTS[kind](options.seed * 10 + i) for i, (_, kind) in enumerate(seats)}
        played_in = play_noting_generations(game, bots)
    except EndlessGame as exc:   # content that loops: this game failed, the run goes on (tharsis/games/simulate.py)
        failed = failed_record(options_json, options, exc, time.perf_counter() - started)
        return {**failed, "effect": effect} if effect is not None else failed
    result = game.result
    pieces = pieces_used(game)
    return {
        "seed": options.seed,
        "board": options.board,
        "options": {k: v for k, v in options_json.items() if k not in ("players", "seed", "board")},
        # a full tie (points and megacredits) is a tie: no winner, the seats that share the win under `tied`
        "winner": None if "tied" in result else result["winner"],
        "tie_break": result["tie_break"],
        **({"tied": list(result["tied"])} if "tied" in result else {}),
        "generations": result["generations"],
        "terraformed": terraformed(game),
        "seconds": round(time.perf_counter() - started, 4),
        "players": [{"seat": row["name"], "bot": seats[i][1],
                     "corporation": game.state.players[i].corporations[0],  # the one dealt (a later one: played)
                     **{k: row[k] for k in ("total", "tr", "milestones", "awards", "greeneries", "cities", "cards",
                                           "megacredits")},
                     "played": _played(game.state.players[i]),
                     "played_generation": {name: played_in[i][name] for name in _played(game.state.players[i])
                                           if name in played_in[i]},
                     "card_vp": dict(row["card_detail"]),
                     **(pieces[i] if pieces else {})}
                    for i, row in enumerate(result["players"])],
        **({"solo_won": result["solo_won"]} if "solo_won" in result else {}),
        **({"effect": effect, "moves": moves_digest(game)} if effect is not None else {}),
    }


def failed_record(options_json: dict, options: GameOptions, exc: EndlessGame, seconds: float) -> dict:
    """The record of a game the engine stopped because it would never end (runtime/core/flow.py `EndlessGame`):
    its seed and options, and under `failed` the code, the message and the definitions involved. It has no players
    nor winner: results files keep it (JSONL) or leave it out (CSV), and summaries and reports count it apart."""
    return {"seed": options.seed, "board": options.board,
            "options": {k: v for k, v in options_json.items() if k not in ("players", "seed", "board")},
            "failed": {"code": ENDLESS, "message": str(exc), "definitions": list(exc.names)},
            "seconds": round(seconds, 4)}


def pieces_used(game: Game) -> list[dict]:
    """Per player, `pieces_placed` (each kind of piece: how many the player placed on sites or in factions) and
    `pieces_sent` (how many were sent to visit sites); nothing for content that declares no piece. Neutral pieces
    and pieces that only came back are not counted."""
    if not game.elements.pieces:
        return []
    government = game.elements.government
    placed = [{} for _ in game.state.players]
    sent = [{} for _ in game.state.players]
    for event in game.events:
        kind, actor = event[1], event[2]
        if actor is None or kind not in ("build", "visit", "faction_in"):
            continue
        piece = government.piece if kind == "faction_in" else event[4]
        counts = (sent if kind == "visit" else placed)[actor]
        counts[piece] = counts.get(piece, 0) + 1
    return [{"pieces_placed": placed[i], "pieces_sent": sent[i]} for i in range(len(placed))]


def _played(player) -> list[str]:
    """The cards in a player's tableau after the corporation dealt to them (a corporation a card played among
    them), then the events they played."""
    return [c.name for c in player.played[1:]] + list(player.events)


def play_noting_generations(game: Game, bots: dict[int, object]) -> list[dict[str, int]]:
    """Let the bots play the game to its end (as `runtime.bots.play_out` does, choice for choice), and return, per
    player, the generation in which each card entered their tableau or events. The final state says which cards
    were played, not when; the choice that made a card appear was made in the generation current before it, which
    is the one noted (a card played by a player's last action is not counted in the next generation)."""
    seen: list[dict[str, int]] = [{} for _ in game.state.players]
    counts = [(0, 0) for _ in game.state.players]

    def note(generation: int) -> None:
        for index, player in enumerate(game.state.players):
            in_play, events = counts[index]
            if (len(player.played), len(player.events)) == (in_play, events):
                continue    # the usual case: a choice changes one player's cards at most
            if len(player.played) < in_play or len(player.events) < events:   # a card left: look at them all
                in_play, events = 0, 0
            for name in [c.name for c in player.played[in_play:]] + player.events[events:]:
                seen[index].setdefault(name, generation)
            counts[index] = (len(player.played), len(player.events))

    note(game.state.generation)   # what the set-up dealt before the first question
    while not game.over:
        decision = game.pending()
        generation = game.state.generation
        game.apply(bots[decision.player].choose(game, decision))
        note(generation)
    return seen
