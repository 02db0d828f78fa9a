#include <chrono>
#include <fstream>
#include <iostream>
#include <limits>

#include "command_line.h"
#include "common/progress.h"
#include "lasca/tune/relabel.h"

namespace lasca::tune {

namespace {

// At most this many bad lines are reported one by one; the summary counts them all.
constexpr std::uint64_t kBadLinesShown = 100;

std::string relabelLine(const RelabelTotals& t, double seconds) {
    const double rate = seconds > 0 ? static_cast<double>(t.lines) / seconds : 0;
    return std::to_string(t.lines) + " lines (" + common::formatFixed(rate, 0) + "/s), " +
           std::to_string(t.written) + " written, " + std::to_string(t.mates) +
           " dropped (mate scores), " + std::to_string(t.bad) + " bad, " + std::to_string(t.nodes) +
           " nodes";
}

}  // namespace

// lasca-tune datagen --relabel: datagen's positions searched again with another budget.
int relabelCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune datagen --relabel options");
    std::string in, out, shardText, eval;
    std::int64_t nodes = 0, depth = 0, jobs = 0;
    desc.add_options()("help,h", "this help")(
        "relabel", po::value(&in)->required(),
        "text data file (datagen's lines) whose positions are searched again")(
        "out", po::value(&out)->required(), "text data file to write")(
        "nodes", po::value(&nodes)->default_value(0), "nodes searched per position")(
        "depth", po::value(&depth)->default_value(0), "depth searched per position")(
        "jobs", po::value(&jobs)->default_value(1), "threads, each searching whole positions")(
        "eval", po::value(&eval)->default_value("nnue"),
        "the search's evaluation: classic, nnue (the embedded network) or a network file")(
        "shard", po::value(&shardText),
        "relabel only the i-th of n contiguous blocks of the lines (1 <= i <= n)");
    if (!parseOptions(args, desc,
                      "usage: lasca-tune datagen --relabel FILE --out FILE (--nodes N | --depth D)"
                      " [options]\n"))
        return 0;
    if (!inRange("nodes", nodes, 0, 1'000'000'000) ||
        !inRange("depth", depth, 0, search::kMaxDepth) || !inRange("jobs", jobs, 1, 256))
        return kExitUsage;
    if ((nodes > 0) == (depth > 0))
        return fail("give one of --nodes N (1..1000000000) and --depth D (1.." +
                        std::to_string(search::kMaxDepth) + ")",
                    kExitUsage);
    RelabelOptions options;
    options.nodes = static_cast<std::uint64_t>(nodes);
    options.depth = static_cast<int>(depth);
    options.jobs = static_cast<int>(jobs);
    auto network = eval::nnue::networkForEval(eval);
    if (!network) return fail("--eval: " + network.error(), kExitUsage);
    options.network = network.value();
    common::Shard shard;
    if (!shardText.empty()) {
        auto parsed = common::parseShard(shardText);
        if (!parsed) return fail(parsed.error(), kExitUsage);
        shard = parsed.value();
    }

    std::ifstream input(in, std::ios::binary);
    if (!input) return fail("cannot read " + in);
    const LineRange range = shardLines(countLines(input), shard);
    input.clear();
    input.seekg(0);
    std::ofstream o(out, std::ios::binary);
    if (!o) return fail("cannot write " + out);

    const auto began = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    };
    const std::uint64_t total = range.end - range.first;
    std::uint64_t shown = 0;
    auto totals = relabelData(
        input, o, options, range,
        [&](std::uint64_t line, const std::string& error) {
            if (shown++ < kBadLinesShown)
                fail(in + ":" + std::to_string(line) + ": " + error + " (line skipped)");
        },
        [&](const RelabelTotals& t) {
            common::showProgress("lines " + std::to_string(t.lines) + "/" + std::to_string(total) +
                                 "  ETA " +
                                 common::formatDuration(common::etaSeconds(
                                     elapsed(), static_cast<std::size_t>(t.lines),
                                     static_cast<std::size_t>(total - std::min(total, t.lines)))));
        });
    common::endProgress();
    if (!totals) return fail(totals.error() + " on " + out);
    o.flush();
    if (!o) return fail("write error on " + out);
    std::cerr << "lasca-tune: " << relabelLine(totals.value(), elapsed()) << " in "
              << common::formatFixed(elapsed(), 1) << " s; wrote " << out << "\n";
    return totals.value().bad > 0 ? kExitError : 0;
}

}  // namespace lasca::tune
