// Protocol tests: searches give exactly one legal bestmove, equal to the first move of the
// last pv; the search limits.
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include "common/test_directory.h"
#include "lasca/egtb/egtb.h"
#include "lasca/engine/protocol_checks.h"

namespace lasca::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Searches: exactly one legal bestmove, equal to the first move of the last pv

struct SearchCase {
    const char* name;
    Dialect dialect;
    PositionSetup setup;
    std::string go;
    Lines options;           // setoption commands sent first
    long long clockMs = -1;  // the mover's remaining time, if any
};

class SearchReplies : public ProtocolFixture, public ::testing::WithParamInterface<SearchCase> {};

TEST_P(SearchReplies, OneLegalBestmoveEqualToThePv) {
    const SearchCase& c = GetParam();
    auto e = startEngine();
    if (c.dialect != Dialect::None) handshake(*e, c.dialect == Dialect::Ugi ? "ugi" : "uci");
    for (const std::string& option : c.options) sendQuiet(*e, option);
    const SearchOutcome r = checkSearch(*e, c.setup, c.go, c.dialect);
    std::cout << "[ info     ] " << c.go << " -> " << (r.lines.empty() ? "" : r.lines.back())
              << " after " << r.ms << " ms, " << searchInfos(r.lines).size() << " info lines\n";
    EXPECT_FALSE(searchInfos(r.lines).empty()) << "no info line before the bestmove";
    // No bound on the answer time: on a busy machine the wall clock says nothing about the
    // engine. That the engine never oversteps its clock is checked on a virtual clock
    // (Search.FastGamesNeverLoseOnTime); here kSearchTimeout is only a hang guard.
}

void PrintTo(const SearchCase& c, std::ostream* os) {
    *os << c.go;
}

std::string searchCaseName(const ::testing::TestParamInfo<SearchCase>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Go, SearchReplies,
    ::testing::Values(
        SearchCase{"Depth5Uci", Dialect::Uci, kStart, "go depth 5", {}},
        SearchCase{"Depth5Ugi", Dialect::Ugi, kStart, "go depth 5", {}},
        SearchCase{"Depth5BlackUgi", Dialect::Ugi, kBlackToMove, "go depth 5", {}},
        SearchCase{"Depth5NoHandshake", Dialect::None, kBlackToMove, "go depth 5", {}},
        SearchCase{"Nodes5000Uci", Dialect::Uci, kStart, "go nodes 5000", {}},
        SearchCase{"Nodes5000Ugi", Dialect::Ugi, kBlackToMove, "go nodes 5000", {}},
        SearchCase{"Movetime100Uci", Dialect::Uci, kStart, "go movetime 100", {}},
        SearchCase{"Movetime100Ugi", Dialect::Ugi, kBlackToMove, "go movetime 100", {}},
        SearchCase{"ClockWhiteUci",
                   Dialect::Uci,
                   kStart,
                   "go wtime 2000 btime 2000 winc 10 binc 10",
                   {},
                   2000},
        SearchCase{"ClockBlackUci",
                   Dialect::Uci,
                   kBlackToMove,
                   "go wtime 2000 btime 1500 winc 10 binc 10",
                   {},
                   1500},
        SearchCase{"ClockMovestogoUci",
                   Dialect::Uci,
                   kStart,
                   "go wtime 3000 btime 3000 movestogo 5",
                   {},
                   3000},
        SearchCase{"P1timeWhiteUgi",
                   Dialect::Ugi,
                   kStart,
                   "go p1time 2000 p2time 2000 p1inc 10 p2inc 10",
                   {},
                   2000},
        SearchCase{"P1timeBlackUgi",
                   Dialect::Ugi,
                   kBlackToMove,
                   "go p1time 1500 p2time 2000 p1inc 10 p2inc 10",
                   {},
                   2000},
        SearchCase{"P1timeInUci", Dialect::Uci, kStart, "go p1time 2000 p2time 2000", {}, 2000},
        SearchCase{"SingleMoveDepth5", Dialect::Ugi, kSingleMove, "go depth 5", {}},
        SearchCase{
            "MultiPV3Uci", Dialect::Uci, kStart, "go depth 4", {"setoption name MultiPV value 3"}},
        SearchCase{
            "Threads2Ugi", Dialect::Ugi, kStart, "go depth 6", {"setoption name Threads value 2"}},
        SearchCase{"ParametersInAnyOrder",
                   Dialect::Uci,
                   kBlackToMove,
                   "go binc 5 movetime 80 depth 30 btime 5000",
                   {},
                   5000},
        SearchCase{"Mate2", Dialect::Uci, kStart, "go depth 4 mate 2", {}}),
    searchCaseName);

// With EgtbPath, a go in a position the tables hold says the table's result before searching;
// a position they do not hold gets no such line.
TEST_F(ProtocolTest, GoInATablePositionSaysTheTablesResult) {
    const auto dir = common::test::testDirectory();
    auto table = egtb::generate(4, 1);
    ASSERT_TRUE(table);
    ASSERT_TRUE(egtb::writeTable(dir / egtb::tableFileName(4), table.value()));
    auto e = startEngine();
    sendQuiet(*e, "setoption name EgtbPath value " + dir.string());
    sendQuiet(*e, "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b");
    ASSERT_TRUE(e->send("go depth 2"));
    bool found = false;
    const Lines lines = e->readUntil("bestmove", kSearchTimeout, &found);
    ASSERT_TRUE(found) << joined(lines);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines.front(), "info string table Black wins in 3 plies");
    EXPECT_EQ(field(searchInfos(lines).back(), "mate"), "2");
    EXPECT_EQ(lines.back(), "bestmove b2-c1");
    // Not a table position: a search as without tables.
    const SearchOutcome start = checkSearch(*e, kStart, "go depth 2", Dialect::Uci);
    EXPECT_FALSE(start.best.empty());
}

TEST_F(ProtocolTest, NodesLimitBoundsTheReportedNodes) {
    auto e = startEngine();
    const SearchOutcome r = checkSearch(*e, kStart, "go nodes 5000", Dialect::Uci);
    for (const std::string& info : searchInfos(r.lines))
        EXPECT_LE(std::stoull(field(info, "nodes")), 5000u) << info;
}

TEST_F(ProtocolTest, OneThreadNodeSearchesRepeatAfterNewGame) {
    auto e = startEngine();
    const SearchOutcome first = checkSearch(*e, kBlackToMove, "go nodes 20000", Dialect::Uci);
    sendQuiet(*e, "ucinewgame");
    const SearchOutcome second = checkSearch(*e, kBlackToMove, "go nodes 20000", Dialect::Uci);
    EXPECT_EQ(first.best, second.best);
    EXPECT_EQ(lastPvMove(first.lines), lastPvMove(second.lines));
}

TEST_F(ProtocolTest, MultiPVReportsEveryRank) {
    auto e = startEngine();
    sendQuiet(*e, "setoption name MultiPV value 3");
    const SearchOutcome r = checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    std::set<std::string> ranks;
    for (const std::string& info : searchInfos(r.lines)) ranks.insert(field(info, "multipv"));
    EXPECT_EQ(ranks, (std::set<std::string>{"1", "2", "3"}));
}

TEST_F(ProtocolTest, SearchmovesRestrictsTheRoot) {
    auto e = startEngine();
    EXPECT_EQ(checkSearch(*e, kStart, "go depth 4 searchmoves g3-f4", Dialect::Uci).best, "g3-f4");
    const std::string best =
        checkSearch(*e, kStart, "go searchmoves a3-b4 e3-f4 depth 3", Dialect::Uci).best;
    EXPECT_TRUE(best == "a3-b4" || best == "e3-f4") << best;
    // The compact form is read too.
    EXPECT_EQ(checkSearch(*e, kStart, "go searchmoves c3d4 depth 2", Dialect::Uci).best, "c3-d4");
}

TEST_F(ProtocolTest, SingleLegalMoveIsPlayedAtOnceWithAClock) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const SearchOutcome r =
        checkSearch(*e, kSingleMove, "go p1time 600000 p2time 600000", Dialect::Ugi);
    EXPECT_EQ(r.best, "e7xc5xe3");
    std::cout << "[ info     ] single legal move answered after " << r.ms << " ms\n";
    // Played at once: a single iteration, where the planned time for 10 minutes would reach a
    // deep one. Counted in iterations, not milliseconds, so a busy machine cannot fail it.
    for (const std::string& info : searchInfos(r.lines)) EXPECT_EQ(field(info, "depth"), "1");
}

// movetime: "think this long, less MoveOverhead" (400 - 30 here). Load can only make the answer
// later, so the lower bound (90% of the time) is safe; there is no upper bound (a busy machine
// may answer late through no fault of the engine; kSearchTimeout is the hang guard).
TEST_F(ProtocolTest, MovetimeIsUsedFully) {
    auto e = startEngine();
    for (const PositionSetup& setup : {kStart, kBlackToMove}) {
        const SearchOutcome r = checkSearch(*e, setup, "go movetime 400", Dialect::Uci);
        std::cout << "[ info     ] go movetime 400 (MoveOverhead 30) answered after " << r.ms
                  << " ms\n";
        EXPECT_GE(r.ms, (400 - 30) * 9 / 10) << "movetime 400 answered too early";
    }
}

}  // namespace
}  // namespace lasca::test
