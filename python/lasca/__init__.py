"""Lasca from Python: the rules core, PDN, diagrams and the engine.

The rules are the C++ core's (the extension ``lasca._lasca``); this package only re-exports
them and adds ``Engine``, the ``lasca`` program driven over its UCI protocol (protocol.md).
Guide and examples: docs/python.md.
"""
from ._lasca import (MAX_PERFT_DEPTH, START_LFEN, Game, PdnGame, Position, Status, read_pdn,
                     write_pdn)
from .engine import Engine, EngineError

__all__ = ["Position", "Game", "Status", "PdnGame", "read_pdn", "write_pdn", "Engine",
           "EngineError", "START_LFEN", "MAX_PERFT_DEPTH"]
