"""Exact endgame tables of one column a side (docs/egtb.md), shaped like python-chess's
``chess.syzygy``: ``open_tablebase(folder)`` reads the ``lasca-1v1-<N>.egtb`` files that
``lasca-tune egtb`` writes; ``probe_wdl(position)`` (1 win, 0 draw, -1 loss for the side to
move) and ``probe_distance(position)`` (plies to the end under best play) raise KeyError for a
position no table holds, ``get_wdl`` and ``get_distance`` return None then."""
from ._lasca import Tablebase

__all__ = ["Tablebase", "open_tablebase"]


def open_tablebase(folder: str) -> Tablebase:
    """The tables of a folder; ValueError when it is missing or a table in it is bad."""
    return Tablebase.open(str(folder))
