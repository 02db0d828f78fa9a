// The Python module `lasca._lasca`: a thin pybind11 layer over the Lasca rules core
// (positions, move generation, notation, game verdicts, perft, PDN), the SVG diagrams
// (lasca::analysis), the endgame tables (lasca::egtb) and the reader of the engine's reply
// lines (lasca::engine). Every question of legality goes to the core, and its errors
// (common::Result) become Python exceptions at this boundary (ValueError for bad input,
// RuntimeError for a request the state cannot answer). One file a concern (lasca_bind.h lists
// them); this one makes the module. The package lasca/__init__.py re-exports these names and
// adds the engine clients (lasca/engine.py) and the PDN tree (lasca/pdn.py). Guide:
// docs/python.md.
#include <pybind11/pybind11.h>

#include <string>

#include "common/version.h"
#include "lasca_bind.h"

PYBIND11_MODULE(_lasca, m) {
    using namespace lasca_python;
    m.doc() = "Lasca rules core, PDN and diagrams (the C++ part of the lasca package).";
    m.attr("START_LFEN") = std::string(lasca::kStartLfen);
    m.attr("MAX_PERFT_DEPTH") = kMaxPythonPerftDepth;
    m.attr("__version__") = std::string(LASCA_VERSION);
    bindMoves(m);
    bindPosition(m);
    bindGame(m);
    bindPdn(m);
    bindTablebase(m);
    bindReplies(m);
}
