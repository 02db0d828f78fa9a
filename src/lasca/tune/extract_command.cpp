#include "command_line.h"

#include <fstream>
#include <iostream>

#include "lasca/core/pdn.h"
#include "lasca/tune/tuner.h"

namespace lasca::tune {

// lasca-tune extract: the quiet positions of finished games, labelled with the result.
int extractCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune extract options");
    std::vector<std::string> pdnFiles;
    std::string out;
    int skipPlies = 0;
    desc.add_options()("help,h", "this help")("pdn", po::value(&pdnFiles)->multitoken()->required(),
                                              "PDN files of finished games")(
        "out", po::value(&out)->required(), "positions file to write")(
        "skip-plies", po::value(&skipPlies)->default_value(0),
        "positions before this ply of each game are not kept");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune extract --pdn FILE... --out FILE [--skip-plies N]\n"))
        return 0;
    if (skipPlies < 0 || skipPlies > 1000) return fail("--skip-plies must be 0..1000", kExitUsage);

    std::vector<PdnGame> games;
    for (const std::string& file : pdnFiles) {
        std::ifstream in(file);
        if (!in) return fail("cannot read " + file);
        auto read = readPdn(in);
        if (!read) return fail(file + ": " + read.error());
        games.insert(games.end(), read.value().begin(), read.value().end());
    }
    auto positions = tune::extractPositions(games, tune::ExtractOptions{skipPlies});
    if (!positions) return fail(positions.error());
    std::ofstream o(out);
    if (!o) return fail("cannot write " + out);
    for (const auto& p : positions.value()) o << tune::formatPosition(p) << "\n";
    std::cerr << "lasca-tune: " << positions.value().size() << " quiet positions from "
              << games.size() << " games written to " << out << "\n";
    return o ? 0 : fail("write error on " + out);
}

}  // namespace lasca::tune
