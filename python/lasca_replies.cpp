// The reader of the engine's reply lines (lasca/engine/replies.h) for the Python engine client
// (lasca/engine.py): `info`, `info string`, `bestmove`, `option` and `id` lines, read by the
// same parser as lasca-match, lasca-tune and the web tables use. Each parse_* function gives
// the line's reply, or None for a line of another kind.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "class_guard.h"
#include "lasca/engine/replies.h"
#include "lasca_bind.h"

namespace lasca_python {

void bindReplies(py::module_& m) {
    using namespace lasca::engine;
    py::class_<InfoReply>(m, "InfoReply",
                          "A search's info line: depth, seldepth, multipv, score (mate: whether "
                          "it is `score mate`), bounded, nodes, nps, time (ms), hashfull, pv; "
                          "fields: the fields the line gave, in order.")
        .def_readonly("depth", &InfoReply::depth)
        .def_readonly("seldepth", &InfoReply::selDepth)
        .def_readonly("multipv", &InfoReply::multiPv)
        .def_readonly("mate", &InfoReply::mate)
        .def_readonly("score", &InfoReply::score)
        .def_property_readonly("bounded", &InfoReply::bounded)
        .def_readonly("nodes", &InfoReply::nodes)
        .def_readonly("nps", &InfoReply::nps)
        .def_readonly("time", &InfoReply::timeMs)
        .def_readonly("hashfull", &InfoReply::hashfull)
        .def_readonly("pv", &InfoReply::pv)
        .def_readonly("fields", &InfoReply::fields);
    py::class_<BestMoveReply>(m, "BestMoveReply",
                              "`bestmove <move> [ponder <move>]`: move (\"\" when bare), ponder.")
        .def_readonly("move", &BestMoveReply::move)
        .def_readonly("ponder", &BestMoveReply::ponder);
    py::class_<OptionReply>(m, "OptionReply",
                            "An `option name <id> type <t> ...` line: name, spin, min, max.")
        .def_readonly("name", &OptionReply::name)
        .def_readonly("spin", &OptionReply::spin)
        .def_readonly("min", &OptionReply::min)
        .def_readonly("max", &OptionReply::max);
    py::class_<IdReply>(m, "IdReply", "An `id name|author <text>` line: field, value.")
        .def_readonly("field", &IdReply::field)
        .def_readonly("value", &IdReply::value);
    m.def(
        "parse_info", [](const std::string& line) { return parseInfo(line); }, py::arg("line"));
    m.def(
        "parse_info_string", [](const std::string& line) { return parseInfoString(line); },
        py::arg("line"));
    m.def(
        "parse_best_move", [](const std::string& line) { return parseBestMove(line); },
        py::arg("line"));
    m.def(
        "parse_option", [](const std::string& line) { return parseOption(line); }, py::arg("line"));
    m.def(
        "parse_id", [](const std::string& line) { return parseId(line); }, py::arg("line"));
    // Replies are read from the engine's lines again, not pickled.
    using python_guard::guardClass;
    using python_guard::Pickling;
    guardClass<InfoReply>(m.attr("InfoReply"), Pickling::Refused);
    guardClass<BestMoveReply>(m.attr("BestMoveReply"), Pickling::Refused);
    guardClass<OptionReply>(m.attr("OptionReply"), Pickling::Refused);
    guardClass<IdReply>(m.attr("IdReply"), Pickling::Refused);
}

}  // namespace lasca_python
