// Protocol tests: the reply grammar itself, handshakes and dialects.
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include "lasca/engine/protocol_checks.h"

namespace lasca::test {
namespace {

// ---------------------------------------------------------------------------------------------
// The grammar itself

TEST(ReplyGrammar, AcceptsEveryDocumentedForm) {
    const Lines good = {
        "id name Lasca 0.1.0",
        "id author the lasca developers",
        "option name Hash type spin default 16 min 1 max 32768",
        "option name Ponder type check default false",
        "option name Debug Log File type string default <empty>",
        "uciok",
        "ugiok",
        "readyok",
        "info depth 1 seldepth 1 multipv 1 score cp 166 nodes 2 nps 2000 time 1 hashfull 0 pv "
        "b2xd4",
        "info depth 9 seldepth 14 multipv 2 score mate -3 upperbound nodes 1 nps 1 time 0 "
        "hashfull 1000 pv c3-d4 e5xc3xe1 d2xb4",
        "info string error: empty line",
        "bestmove c3-d4",
        "bestmove 0000",
        "bestmove d2xb4xd6 ponder e5-f4",
        "response true",
        "response p2win",
        "e7xc5xe3: 1",
        "Nodes searched: 1",
        "Nodes/second: 12345",
        "Total time (ms): 0",
    };
    for (const std::string& line : good) EXPECT_TRUE(replyForm(line).has_value()) << line;
}

TEST(ReplyGrammar, RejectsMalformedLines) {
    const Lines bad = {
        "",
        "bestmove",
        "bestmove c3d4",
        "bestmove c3-d4 ponder",
        "bestmove c3-d4 extra",
        "bestmove a2-b3",  // not playable squares
        "bestmove c3-d4x",
        "info depth x seldepth 1 multipv 1 score cp 1 nodes 1 nps 1 time 1 hashfull 0 pv c3-d4",
        "info depth 1 seldepth 1 multipv 1 score cp 1 nodes 1 nps 1 time 1 hashfull 0 pv",
        "info string",
        "readyok ",
        "readyok\r",
        "response maybe",
        "uciok\x01",
        "option name Hash type spin default 16",
    };
    for (const std::string& line : bad)
        EXPECT_FALSE(replyForm(line).has_value()) << printable(line);
}

// ---------------------------------------------------------------------------------------------
// Handshakes and dialects

TEST_F(ProtocolTest, UciHandshakeIsExact) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, UgiHandshakeIsExact) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, HandshakeCanBeRepeatedAndSwitchesTheDialect) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Ugi);
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    checkSearch(*e, kBlackToMove, "go depth 4", Dialect::Ugi);
}

TEST_F(ProtocolTest, WithoutHandshakeTheEngineBehavesAsUci) {
    auto e = startEngine();
    EXPECT_EQ(sync(*e), Lines{});
    checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    // query and the p1/p2 names of go are UGI's but accepted in UCI.
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    checkSearch(*e, kBlackToMove, "go p1time 1000 p2time 1000 p1inc 10 p2inc 10", Dialect::Uci);
}

}  // namespace
}  // namespace lasca::test
