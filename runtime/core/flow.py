"""Where the game stands, as data: a stack of small immutable frames driven by one loop.

A `Step` is a function of the rules (registered by name with `@step`) and its arguments; running it may change
the state, push more steps (pushed last = run first) or ask a question. An `Ask` holds the pending `Decision` and
the function to resume with the chosen option's value. Nothing else holds the flow: no generator frames, no
closures, so copying a game is copying this stack (a list of shared immutable frames), and saving it is naming
each frame's function and writing its arguments (runtime/api/saves.py). Interface: `step` (register), `push`, `then`
and `ask` (what a step may do), `run` (the loop), `Flow`, `Step`, `Ask` and `STEPS` (the registry saves read).

Termination: content can loop (a trigger that raises what sets it off while a track bonus lowers it again, a kind
of card whose `unplayable` plays more cards of its kind). The loop therefore counts the steps one decision takes:
past `MAX_STEPS_PER_DECISION` (a bundled game's busiest decision takes 45; docs/language.md "Termination") it stops the
game with `EndlessGame`, naming the causes its last events repeat most.

    game.flow.stack   [Step(generation), Step(run_effects, ...), Step(fire_next, ...)]   <- top runs next
    game.flow.asking  Ask(Decision(...), resume=place_chosen, args=(...))              <- waits for `apply`
"""

from __future__ import annotations

from typing import Any, Callable, Optional

__all__ = ["MAX_STEPS_PER_DECISION", "STEPS", "Ask", "EndlessGame", "Flow", "Step", "ask", "push", "run", "step",
           "then"]

STEPS: dict[str, Callable] = {}
MAX_STEPS_PER_DECISION = 100_000   # a bundled game's busiest decision takes 45; 100,000 take a second or two


class EndlessGame(Exception):
    """A game that would never end, stopped: `bound` says which bound it passed (`steps`: one decision took
    MAX_STEPS_PER_DECISION steps; `generations`: runtime/sequence/phases.py MAX_GENERATIONS), `names` the
    definitions involved, most involved first, and the message says both in the designer's words."""

    def __init__(self, bound: str, message: str, names: tuple[str, ...] = ()):
        super().__init__(message)
        self.bound = bound
        self.names = names


def repeated_causes(events: list, most: int = 5) -> list[tuple[str, str, int]]:
    """The causes `events` repeat most: (the definition's name, the cause in words, how many times), the most
    repeated first, those repeated at least a tenth as often as the first. The events are tuples `(generation,
    kind, actor, *details)` (core/table.py); a cause names its definition first."""
    counts: dict[tuple, int] = {}
    for event in events:
        kind = event[1]
        if kind in _CAUSES and len(event) > 3:
            key = (kind,) + tuple(event[3:5] if kind == "track" else event[3:4])
            counts[key] = counts.get(key, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    if not ranked:
        return []
    top = ranked[0][1]
    return [(key[1], _CAUSES[key[0]].format(*key[1:]), count) for key, count in ranked[:most] if count * 10 >= top]


_CAUSES = {"trigger": "the trigger of {}", "track": "the track bonus of {} at {}", "play": "{} played",
           "unplayable": "{} unplayable", "rule": "the rule {}", "action": "the action of {}",
           "project": "the standard project {}", "visit": "a visit to {}", "build": "a build on {}",
           "site_bonus": "the bonus of {}", "resolve": "{} resolved", "stage": "{} moved on"}


def _endless_decision(game) -> EndlessGame:
    """The error of a decision past the bound, from the last events it logged (as many as it took steps: what
    it repeated fills them)."""
    causes = repeated_causes(game.events.to_list()[-MAX_STEPS_PER_DECISION:])
    told = "; ".join(f"{words} ({count:,} times)" for _, words, count in causes) or \
        "no card or rule: the steps " + ", ".join(sorted({s.function.step_name for s in game.flow.stack[-20:]}))
    return EndlessGame("steps", f"the game would never end: one decision took more than "
                                f"{MAX_STEPS_PER_DECISION:,} steps (a game's busiest takes under 100), repeating "
                                f"{told}", tuple(dict.fromkeys(name for name, _, _ in causes)))


def step(function: Optional[Callable] = None, *, name: Optional[str] = None):
    """Register a function as a step of the flow: `@step`, or `@step(name=...)`. Saves refer to it by its name,
    "module.function" (the module's last name: runtime/handlers/effects.py's `run_effects` is "effects.run_effects"),
    or `name` for a step that moved to another module and keeps the name saves already hold."""

    def register(function: Callable) -> Callable:
        saved = name or f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"
        if STEPS.get(saved, function) is not function:
            raise ValueError(f"two flow steps are named {saved}")
        STEPS[saved] = function
        function.step_name = saved
        return function

    return register if function is None else register(function)


class Step:
    """Run `function(game, *args)` when this frame reaches the top of the stack. Immutable by convention."""

    __slots__ = ("function", "args")

    def __init__(self, function: Callable, args: tuple = ()):
        self.function = function
        self.args = args

    def __repr__(self) -> str:
        return f"Step({self.function.step_name}, {self.args!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Step) and self.function is other.function and self.args == other.args


class Ask:
    """A question put to a player: `resume(game, chosen value, *args)` carries on once it is answered."""

    __slots__ = ("decision", "resume", "args")

    def __init__(self, decision, resume: Callable, args: tuple = ()):
        self.decision = decision
        self.resume = resume
        self.args = args

    def __repr__(self) -> str:
        return f"Ask({self.decision.prompt!r}, {self.resume.step_name}, {self.args!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Ask) and self.resume is other.resume and self.args == other.args \
            and self.decision == other.decision


class Flow:
    """The flow's own data besides the stack: the question being asked, the card being played (whose own
    triggers stay silent), whether greeneries raise oxygen (not in the solo final greenery), the player the effects
    being carried out last targeted (`steal ... from any player`, ...: "that player" of `move this card to that
    player's events`) and the event being played that goes into that player's event pile, `(name, player)`.
    Written out, not an attrs class, so that a compiled engine makes it an extension type (flow.pxd;
    core/state.py says why)."""

    __slots__ = ("stack", "asking", "playing", "no_oxygen", "target", "event_pile")

    def __init__(self, stack: Optional[list] = None, asking: Optional[Ask] = None,
                 playing: Optional[tuple[int, str]] = None, no_oxygen: bool = False, target: Optional[int] = None,
                 event_pile: Optional[tuple[str, int]] = None):
        self.stack = [] if stack is None else stack
        self.asking, self.playing, self.no_oxygen = asking, playing, no_oxygen
        self.target, self.event_pile = target, event_pile

    def copy(self) -> "Flow":
        new = Flow.__new__(Flow)
        new.stack, new.asking, new.playing, new.no_oxygen = self.stack.copy(), self.asking, self.playing, \
            self.no_oxygen
        new.target, new.event_pile = self.target, self.event_pile
        return new

    def __eq__(self, other):
        if other.__class__ is not Flow:
            return NotImplemented
        return (self.stack, self.asking, self.playing, self.no_oxygen, self.target, self.event_pile) == \
            (other.stack, other.asking, other.playing, other.no_oxygen, other.target, other.event_pile)

    def __repr__(self) -> str:
        return f"Flow(stack={self.stack!r}, asking={self.asking!r}, playing={self.playing!r}, " \
               f"no_oxygen={self.no_oxygen!r}, target={self.target!r}, event_pile={self.event_pile!r})"


# A frame made without calling its class: `Step.__new__` and two stores cost about two thirds of `Step(...)`, whose
# Python `__init__` is a call of its own (a game pushes over a thousand steps; docs/benchmarks.md, issue 36). Not
# `object.__new__`, which refuses the extension type a compiled engine makes of `Step` (flow.pxd).


def push(game, function: Callable, *args: Any) -> None:
    frame = Step.__new__(Step)
    frame.function, frame.args = function, args
    game.flow.stack.append(frame)


def then(game, *steps: Step) -> None:
    """Push several steps so that they run in the order given."""
    game.flow.stack.extend(reversed(steps))


def ask(game, decision, resume: Callable, *args: Any) -> None:
    """Stop the flow with a question; `resume(game, value, *args)` runs when it is answered."""
    asking = Ask.__new__(Ask)   # as `push` makes its frames
    asking.decision, asking.resume, asking.args = decision, resume, args
    game.flow.asking = asking


def run(game) -> None:
    """Run steps until a question is asked or the stack is empty (the game, or the sandbox's action, is over).
    A question with one option is answered at once (and not logged) unless the game asks every question. More
    than MAX_STEPS_PER_DECISION steps (answers given at once included) raise `EndlessGame`."""
    flow = game.flow
    stack = flow.stack
    # the bound: a count from 0, which stays among the small ints Python keeps made (nothing is allocated until a
    # decision passes 256 steps, which none of a real game does); nothing is set up per call (docs/benchmarks.md)
    steps = 0
    while True:
        asking = flow.asking
        if asking is not None:
            options = asking.decision.eager_options
            if options is None or len(options) != 1 or not game.answer_single_options:
                return
            flow.asking = None
            asking.resume(game, options[0].value, *asking.args)
        elif not stack:
            return
        else:
            frame = stack.pop()
            frame.function(game, *frame.args)
        steps += 1
        if steps > MAX_STEPS_PER_DECISION:
            raise _endless_decision(game)
