#include <chrono>
#include <filesystem>
#include <iostream>

#include "command_line.h"
#include "common/progress.h"
#include "lasca/egtb/egtb.h"

namespace lasca::tune {

namespace {

// Writes one solved table and its summary line.
int writeSolved(const std::string& out, const egtb::Table& table, double seconds) {
    const auto path = std::filesystem::path(out) / egtb::tableFileName(table.pieces, table.family);
    auto bytes = egtb::writeTable(path, table);
    if (!bytes) return fail(bytes.error());
    const egtb::TableStats s = egtb::statsOf(table);
    std::cout << (table.family == egtb::Family::OneAgainstOne ? "1v1" : "2v1") << " pieces "
              << table.pieces << ": " << s.positions << " positions, " << s.wins << " wins, "
              << s.draws << " draws, " << s.losses << " losses, longest " << s.maxPlies
              << " plies; " << bytes.value() << " bytes in " << common::formatFixed(seconds, 1)
              << " s; wrote " << path.string() << std::endl;
    return 0;
}

double secondsSince(std::chrono::steady_clock::time_point began) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

}  // namespace

// lasca-tune egtb: solves the set "one column a side, N pieces" and, for N in the range of the
// two-against-one tables, the set "two columns against one" after it (which needs it), and
// writes their table files (docs/egtb.md), one summary line each on stdout.
int egtbCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune egtb options");
    int pieces = 0;
    int jobs = 1;
    std::string out;
    std::string family = "all";
    desc.add_options()("help,h", "this help")("pieces", po::value(&pieces)->required(),
                                              "pieces in all, all columns together")(
        "out", po::value(&out)->required(),
        "folder to write lasca-1v1-<N>.egtb and lasca-2v1-<N>.egtb into")(
        "family", po::value(&family),
        "1v1 (one column a side), 2v1 (two columns against one; solves 1v1 first without "
        "writing it) or all (the default: 1v1, and 2v1 when N is 3..6)")(
        "jobs", po::value(&jobs), "threads (the tables do not depend on it)");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune egtb --pieces N --out DIR [--family F] [--jobs J]\n"))
        return 0;
    if (family != "all" && family != "1v1" && family != "2v1")
        return fail("--family must be 1v1, 2v1 or all, not '" + family + "'", kExitUsage);
    const bool trio = family == "2v1" || (family == "all" && pieces >= egtb::kMinTrioPieces &&
                                          pieces <= egtb::kMaxTrioPieces);
    if (family == "2v1") {
        if (!inRange("pieces", pieces, egtb::kMinTrioPieces, egtb::kMaxTrioPieces))
            return kExitUsage;
    } else if (!inRange("pieces", pieces, egtb::kMinPieces, egtb::kMaxPieces)) {
        return kExitUsage;
    }
    if (!inRange("jobs", jobs, 1, 64)) return kExitUsage;
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) return fail("cannot make " + out + ": " + ec.message());

    auto began = std::chrono::steady_clock::now();
    auto table = egtb::generate(pieces, jobs);
    if (!table) return fail(table.error());
    if (family != "2v1") {
        if (const int code = writeSolved(out, table.value(), secondsSince(began)); code != 0)
            return code;
    }
    if (!trio) return 0;
    began = std::chrono::steady_clock::now();
    auto three = egtb::generateTrio(pieces, table.value(), jobs);
    if (!three) return fail(three.error());
    return writeSolved(out, three.value(), secondsSince(began));
}

}  // namespace lasca::tune
