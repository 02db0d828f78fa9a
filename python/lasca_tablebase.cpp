// lasca._lasca's endgame tables (docs/egtb.md), as python-chess's chess.syzygy: probe_* raise
// KeyError for a position no table holds, get_* return None.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "class_guard.h"
#include "lasca/egtb/egtb.h"
#include "lasca_bind.h"

namespace lasca_python {

void bindTablebase(py::module_& m) {
    const auto probe = [](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
        const auto result = tb.probe(p.pos);
        if (!result) throw py::key_error("no table holds " + p.pos.toLfen());
        return *result;
    };
    const auto wdl = [](const lasca::egtb::Probe& r) { return static_cast<int>(r.wdl); };
    py::class_<lasca::egtb::Tablebase>(
        m, "Tablebase",
        "Exact endgame tables of one column a side and of two columns against one "
        "(docs/egtb.md).")
        .def_static(
            "open",
            [](const std::string& folder) {
                return valueOrThrow(lasca::egtb::Tablebase::open(folder));
            },
            py::arg("folder"),
            "The tables (lasca-1v1-<N>.egtb, lasca-2v1-<N>.egtb) of a folder; ValueError when "
            "the folder is missing or a table in it is truncated or corrupted.")
        .def(
            "piece_counts",
            [](const lasca::egtb::Tablebase& tb) {
                return tb.pieceCounts(lasca::egtb::Family::OneAgainstOne);
            },
            "The piece counts (N) of the one-column-a-side tables loaded.")
        .def(
            "two_against_one_piece_counts",
            [](const lasca::egtb::Tablebase& tb) {
                return tb.pieceCounts(lasca::egtb::Family::TwoAgainstOne);
            },
            "The piece counts (N) of the two-columns-against-one tables loaded.")
        .def(
            "probe_wdl",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
                return wdl(probe(tb, p));
            },
            py::arg("position"),
            "1 (the side to move wins), 0 (draw) or -1 (it loses) under R1-R9 with T1/T2 off; "
            "KeyError when no table holds the position.")
        .def(
            "probe_distance",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) {
                return probe(tb, p).plies;
            },
            py::arg("position"),
            "Plies to the end under best play (0 for a draw); KeyError when no table holds it.")
        .def(
            "get_wdl",
            [=](const lasca::egtb::Tablebase& tb, const PyPosition& p) -> std::optional<int> {
                const auto r = tb.probe(p.pos);
                if (!r) return std::nullopt;
                return wdl(*r);
            },
            py::arg("position"), "probe_wdl, or None when no table holds the position.")
        .def(
            "get_distance",
            [](const lasca::egtb::Tablebase& tb, const PyPosition& p) -> std::optional<int> {
                const auto r = tb.probe(p.pos);
                if (!r) return std::nullopt;
                return r->plies;
            },
            py::arg("position"), "probe_distance, or None when no table holds the position.");
    // Tables are opened from their folder again, not pickled.
    python_guard::guardClass<lasca::egtb::Tablebase>(m.attr("Tablebase"),
                                                     python_guard::Pickling::Refused);
}

}  // namespace lasca_python
