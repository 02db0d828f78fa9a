#include <chrono>
#include <filesystem>
#include <iostream>

#include "command_line.h"
#include "common/progress.h"
#include "lasca/egtb/egtb.h"

namespace lasca::tune {

// lasca-tune egtb: solves the set "one column a side, N pieces" and writes its table file
// (docs/egtb.md), with one summary line on stdout.
int egtbCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune egtb options");
    int pieces = 0;
    int jobs = 1;
    std::string out;
    desc.add_options()("help,h", "this help")("pieces", po::value(&pieces)->required(),
                                              "pieces in all, both columns together")(
        "out", po::value(&out)->required(), "folder to write lasca-1v1-<N>.egtb into")(
        "jobs", po::value(&jobs), "threads (the table does not depend on it)");
    if (!parseOptions(args, desc, "usage: lasca-tune egtb --pieces N --out DIR [--jobs J]\n"))
        return 0;
    if (!inRange("pieces", pieces, egtb::kMinPieces, egtb::kMaxPieces)) return kExitUsage;
    if (!inRange("jobs", jobs, 1, 64)) return kExitUsage;
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) return fail("cannot make " + out + ": " + ec.message());

    const auto began = std::chrono::steady_clock::now();
    auto table = egtb::generate(pieces, jobs);
    if (!table) return fail(table.error());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const auto path = std::filesystem::path(out) / egtb::tableFileName(pieces);
    auto bytes = egtb::writeTable(path, table.value());
    if (!bytes) return fail(bytes.error());
    const egtb::TableStats s = egtb::statsOf(table.value());
    std::cout << "pieces " << pieces << ": " << s.positions << " positions, " << s.wins << " wins, "
              << s.draws << " draws, " << s.losses << " losses, longest " << s.maxPlies
              << " plies; " << bytes.value() << " bytes in " << common::formatFixed(seconds, 1)
              << " s; wrote " << path.string() << std::endl;
    return 0;
}

}  // namespace lasca::tune
