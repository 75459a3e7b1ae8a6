"""The sequence of play: set-up, the generations (research, drafting, the action phase, production) and the end
(final greeneries, final scoring), as steps of the flow (phases.py).

May import: the handlers, the rules' checks and the core below. Nothing below knows in which phase it runs: a
handler asked to place a tile places it whether it is the set-up's neutral city or a card's effect.
"""
