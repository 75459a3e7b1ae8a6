"""Adapters to the libraries game-AI researchers use, over the research API (`tharsis.runtime.api.research`).

`tharsis.envs.pettingzoo.env(**options)` is a PettingZoo AEC environment; importing `tharsis.envs.openspiel`
registers the OpenSpiel game `tharsis` with pyspiel; `tharsis.envs.seat.SeatEnv` is a Gymnasium environment of one
seat against the shipped bots. They speak the fixed action space of `tharsis.runtime.api.action_space` (one stable
id per move, with masks), the research view's vector observation (`observation_tensor`:
`tharsis.runtime.api.encoding`) and the option features of each decision (`tharsis.runtime.api.option_features`),
all made once per decision by `features.py`; OpenSpiel's perfect recall is the information-state string.
They need the `rl` extra (`pip install 'tharsis[rl]'`: numpy, gymnasium, pettingzoo, open_spiel); this package
imports none of them itself, so the core install never needs them.

May import: the engine's public API (runtime/api/) and nothing else of Tharsis: a researcher's environment is a
player like the bots, and the adapters are independent of the designer tools and the terminal game.
"""
