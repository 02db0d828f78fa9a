"""Lasca from Python: the rules core, PDN, diagrams and the engine.

The rules are the C++ core's (the extension ``lasca._lasca``); this package only re-exports
them and adds ``Engine`` and ``SimpleEngine``, the ``lasca`` program driven over its UCI
protocol (protocol.md), ``iter_pdn`` and ``read_game``, the games of a PDN file one by one, and
``PdnTree``, a game with its variations as a tree. Guide and examples: docs/python.md.
"""
from ._lasca import (MAX_PERFT_DEPTH, START_LFEN, Game, Move, MoveList, Outcome, PdnEntry,
                     PdnGame, PdnLine, PdnReader, PdnVariation, Position, Status, __version__,
                     read_pdn, write_pdn)
from .pdn import SEVEN_TAG_ROSTER, Headers, PdnNode, PdnTree, read_game
from .engine import (BLACK, INFO_ALL, INFO_BASIC, INFO_CURRLINE, INFO_NONE, INFO_PV,
                     INFO_REFUTATION, INFO_SCORE, WHITE, AnalysisComplete, AnalysisResult, Cp,
                     Engine, EngineError, EngineTerminatedError, Info, Limit, Mate, PlayResult,
                     PovScore, Score, SimpleEngine)

__all__ = ["Position", "Game", "Move", "MoveList", "Outcome", "Status", "perft",
           "PdnGame", "PdnEntry", "PdnReader", "PdnLine", "PdnVariation", "PdnNode", "PdnTree",
           "Headers", "read_pdn", "iter_pdn", "read_game", "write_pdn", "SEVEN_TAG_ROSTER",
           "Engine", "EngineError", "EngineTerminatedError", "AnalysisComplete", "SimpleEngine",
           "Limit", "PlayResult", "AnalysisResult", "PovScore", "Score", "Cp", "Mate", "Info",
           "INFO_NONE", "INFO_BASIC", "INFO_SCORE", "INFO_PV", "INFO_REFUTATION", "INFO_CURRLINE",
           "INFO_ALL", "WHITE", "BLACK", "START_LFEN", "MAX_PERFT_DEPTH", "__version__"]


def perft(position, depth):
    """The number of move paths of length depth (0..MAX_PERFT_DEPTH) from a Position, a Game's
    current position or an LFEN, counted in C++ (one call, the GIL released)."""
    if isinstance(position, Game):
        position = position.position()
    elif isinstance(position, str):
        position = Position(position)
    elif not isinstance(position, Position):
        raise TypeError(f"perft needs a lasca.Position, lasca.Game or LFEN string, "
                        f"got {type(position).__name__}")
    return position.perft(depth)


def iter_pdn(source):
    """Each game of a PDN text, or of a file open for reading (any iterable of lines), as a
    PdnEntry as soon as it is read: ``entry.line`` where it starts, ``entry.game`` (a PdnGame)
    or ``entry.error`` (what is wrong with it). A broken game does not stop the games after it;
    a file is read line by line, never whole."""
    reader = PdnReader()
    for line in source.splitlines() if isinstance(source, str) else source:
        entry = reader.feed(line)
        if entry is not None:
            yield entry
    entry = reader.finish()
    while entry is not None:  # the game being read, then any other the last lines ended
        yield entry
        entry = reader.finish()
