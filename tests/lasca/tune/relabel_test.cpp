// Relabelling datagen's positions with a deeper search (docs/nnue.md): the same output for any
// number of threads and over shards, the result and the order kept, bad lines reported by number.
#include "lasca/tune/relabel.h"

#include <gtest/gtest.h>

#include <sstream>

#include "run_tune.h"
#include "test_directory.h"

namespace lasca::tune {
namespace {

// A small data file: 2 games of datagen at 200 nodes (a few dozen lines).
const std::string& smallData() {
    static const std::string text = [] {
        DatagenOptions o;
        o.games = 2;
        o.nodes = 200;
        o.seed = 21;
        o.maxPlies = 60;
        o.hashMb = 1;
        std::string out;
        auto played = generateData(o, [&](const DataGame& g) {
            out += formatDataGame(g);
            return true;
        });
        EXPECT_TRUE(played);
        return out;
    }();
    return text;
}

RelabelOptions atNodes(std::uint64_t nodes, int jobs = 1) {
    RelabelOptions o;
    o.nodes = nodes;
    o.jobs = jobs;
    o.hashMb = 1;
    return o;
}

// Relabels `text` (lines `range`, default all); bad lines are collected as "number: error".
struct Relabelled {
    std::string text;
    RelabelTotals totals;
    std::vector<std::string> bad;
};
Relabelled relabel(const std::string& text, const RelabelOptions& options,
                   std::optional<LineRange> range = std::nullopt) {
    std::istringstream lineCount(text);
    const LineRange lines = range.value_or(LineRange{0, countLines(lineCount)});
    std::istringstream in(text);
    std::ostringstream out;
    Relabelled r;
    auto totals = relabelData(in, out, options, lines, [&](std::uint64_t n, const std::string& e) {
        r.bad.push_back(std::to_string(n) + ": " + e);
    });
    EXPECT_TRUE(totals) << totals.error();
    if (totals) r.totals = totals.value();
    r.text = out.str();
    return r;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(Relabel, EachLineKeepsItsPositionAndResultInOrderWithTheNewSearchsScore) {
    const auto input = splitLines(smallData());
    ASSERT_GT(input.size(), 20u);
    const Relabelled r = relabel(smallData(), atNodes(1500));
    const auto output = splitLines(r.text);
    EXPECT_EQ(r.totals.lines, input.size());
    EXPECT_EQ(r.totals.written + r.totals.mates, input.size());
    EXPECT_EQ(r.totals.written, output.size());
    EXPECT_TRUE(r.bad.empty());
    EXPECT_GT(r.totals.nodes, 1500u * input.size() / 2);
    // The same positions in the same order (a mate-scored one dropped), each scored as a search
    // of the position alone with a cleared hash scores it.
    search::TranspositionTable tt;
    ASSERT_TRUE(tt.resize(1));
    search::Search search(tt);
    std::size_t at = 0, changed = 0;
    for (const std::string& line : input) {
        const DataLine before = parseDataLine(line).value();
        const auto score =
            relabelScore(Position::fromLfen(before.lfen).value(), atNodes(1500), tt, search);
        if (!score) continue;
        ASSERT_LT(at, output.size());
        const DataLine after = parseDataLine(output[at++]).value();
        EXPECT_EQ(after.lfen, before.lfen);
        EXPECT_EQ(after.result, before.result);
        EXPECT_EQ(after.score, *score);
        changed += after.score != before.score ? 1 : 0;
    }
    EXPECT_EQ(at, output.size());
    EXPECT_GT(changed, 0u);  // 1500 nodes score otherwise than datagen's 200 in places
}

TEST(Relabel, TheOutputDoesNotDependOnTheNumberOfThreads) {
    const std::string one = relabel(smallData(), atNodes(400, 1)).text;
    EXPECT_FALSE(one.empty());
    EXPECT_EQ(relabel(smallData(), atNodes(400, 3)).text, one);
}

TEST(Relabel, ShardsConcatenatedAreTheWholeRun) {
    const std::string whole = relabel(smallData(), atNodes(300)).text;
    std::istringstream count(smallData());
    const std::uint64_t lines = countLines(count);
    std::string joined;
    std::uint64_t covered = 0;
    for (int i = 0; i < 3; ++i) {
        const LineRange range = shardLines(lines, common::Shard{i, 3});
        EXPECT_EQ(range.first, covered);
        covered = range.end;
        joined += relabel(smallData(), atNodes(300, i + 1), range).text;
    }
    EXPECT_EQ(covered, lines);
    EXPECT_EQ(joined, whole);
}

TEST(Relabel, ShardsAreContiguousBlocksOfNearlyEqualSize) {
    EXPECT_EQ(shardLines(10, common::Shard{0, 3}).first, 0u);
    EXPECT_EQ(shardLines(10, common::Shard{0, 3}).end, 3u);
    EXPECT_EQ(shardLines(10, common::Shard{1, 3}).end, 6u);
    EXPECT_EQ(shardLines(10, common::Shard{2, 3}).end, 10u);
    EXPECT_EQ(shardLines(2, common::Shard{0, 4}).end, 0u);  // more shards than lines
    EXPECT_EQ(shardLines(2, common::Shard{3, 4}).end, 2u);
    EXPECT_EQ(shardLines(7, common::Shard{}).end, 7u);
    std::istringstream noFinalNewline("a\nb\n\nc");
    EXPECT_EQ(countLines(noFinalNewline), 4u);
    std::istringstream empty("");
    EXPECT_EQ(countLines(empty), 0u);
}

TEST(Relabel, ADepthLimitWorksToo) {
    RelabelOptions depth;
    depth.depth = 3;
    depth.hashMb = 1;
    const Relabelled r = relabel(smallData(), depth);
    EXPECT_GT(r.totals.written, 20u);
    EXPECT_EQ(r.text, relabel(smallData(), depth).text);
    EXPECT_NE(r.text, relabel(smallData(), atNodes(300)).text);
}

// A bad line is reported with its number and skipped; the lines around it are relabelled.
TEST(Relabel, BadLinesAreReportedByNumberAndSkipped) {
    const auto input = splitLines(smallData());
    const std::string text = input[0] + "\n" + "0.5 12 not-an-lfen\n" + input[1] + "\r\n\n" +
                             "\x01\xff garbage\n" + "3 0 " + std::string(kStartLfen) + "\n" +
                             input[2];
    const Relabelled r = relabel(text, atNodes(300));
    ASSERT_EQ(r.bad.size(), 3u);
    EXPECT_EQ(r.bad[0].rfind("2: bad LFEN", 0), 0u) << r.bad[0];
    EXPECT_EQ(r.bad[1].rfind("5: ", 0), 0u) << r.bad[1];
    EXPECT_EQ(r.bad[2].rfind("6: bad result", 0), 0u) << r.bad[2];
    EXPECT_EQ(r.totals.bad, 3u);
    EXPECT_EQ(r.totals.lines, 7u);
    const std::string good = input[0] + "\n" + input[1] + "\n" + input[2] + "\n";
    EXPECT_EQ(r.text, relabel(good, atNodes(300)).text);
}

// The program: the same lines as the library, one error line per bad line naming the file and
// line, exit code 1 when a line was skipped; a bad command line is exit code 2.
TEST(Relabel, TheCommandWritesTheFileAndNamesBadLines) {
    const auto dir = common::test::testDirectory();
    const auto in = dir / "in.txt";
    const auto input = splitLines(smallData());
    common::test::writeText(in, input[0] + "\n" + input[1] + "\nnonsense\n" + input[2] + "\n");
    const auto out = dir / "out.txt";
    const std::string common =
        "datagen --relabel '" + in.string() + "' --out '" + out.string() + "' --eval classic ";
    const test::TuneRun run = test::runTuneProgram(common + "--nodes 300 --jobs 2");
    EXPECT_EQ(run.exitCode, 1) << run.err;
    EXPECT_NE(run.err.find("in.txt:3: expected '<result> <score> <LFEN>' (line skipped)"),
              std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("4 lines"), std::string::npos) << run.err;
    RelabelOptions classic = atNodes(300);
    EXPECT_EQ(common::test::readText(out),
              relabel(input[0] + "\n" + input[1] + "\n" + input[2] + "\n", classic).text);

    for (const std::string& bad :
         {std::string("--nodes 0"), std::string("--nodes 10 --depth 2"), std::string(""),
          std::string("--depth 101"), std::string("--nodes 10 --jobs 0"),
          std::string("--nodes 10 --shard 3/2"), std::string("--nodes 10 --games 5")}) {
        const test::TuneRun usage = test::runTuneProgram(common + bad);
        EXPECT_EQ(usage.exitCode, 2) << bad << ": " << usage.err;
        EXPECT_EQ(splitLines(usage.err).size(), 1u) << bad << ": " << usage.err;
    }
    const test::TuneRun missing = test::runTuneProgram(
        "datagen --relabel '" + (dir / "none.txt").string() + "' --out x --nodes 10");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace lasca::tune
