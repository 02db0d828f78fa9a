// Protocol tests: errors and bad input, one error line each and nothing changed.
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include "lasca/engine/protocol_checks.h"

namespace lasca::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Errors and bad input: one error line each, nothing changed

// A game state that differs from the start: White to move, one move played by each side.
const PositionSetup kErrorSetup{"", {"c3-d4", "e5xc3", "b2xd4"}};

TEST_F(ProtocolTest, UnknownCommand) {
    auto e = startEngine();
    handshake(*e, "ugi");
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(*e, "foo"), "info string error: unknown command 'foo' (try help)");
    for (const char* line : {"foo bar baz", "UCI", "Isready", "go_depth", "debug maybe", "debug",
                             "positionstartpos", "isready\x01", "0000", "c3-d4"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, UnknownOptionAndMalformedSetoption) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    for (const char* line :
         {"setoption name Foo value 1", "setoption name Hashh value 16", "setoption name Debug",
          "setoption name Log File value x", "setoption", "setoption name",
          "setoption Hash value 16", "setoption value 3", "setoption name value 3"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, MalformedPositionAndLfen) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(
                  *e, "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-,-/w,w,w,w/w,w,w/w,w,w,w w"),
              "info string error: LFEN rank 4 has 4 squares, expected 3");
    // A column play cannot make: black over white over black on d4. The engine names it and
    // keeps its position (expectOneErrorLine compares the state before and after).
    EXPECT_EQ(expectOneErrorLine(*e,
                                 "position fen -,-,b,b/b,b,b/b,b,b,b/-,bwb,-/w,w,w,w/w,w,w/"
                                 "-,w,w,w w 0 1"),
              "info string error: LFEN column 'bwb' on d4 has 3 colour blocks; play makes at "
              "most two (the commander's colour over the other's)");
    for (const char* line : {
             "position",
             "position foo",
             "position startpos extra",
             "position startpos c3-d4",
             "position fen",
             "position fen moves c3-d4",
             "position fen w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w",  // no side
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w w",        // 6 ranks
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w/- w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w w",  // 3 on rank 1
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,x w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w x",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w W",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w -1",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 1000001",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w x",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 0",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1000001",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1 5",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 99999999999",
             "position fen b,b,b,b/b,b,b/b,b,b,b/w,-,-/w,w,w,w/w,w,w/w,w,w,w w",   // 12 white
             "position fen bb,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,- w",  // 12 black
             "position fen w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,b w",   // soldiers
                                                                                   // unpromoted
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/b,-,-,- w",
             "position fen "
             "wwwwwwwwwwwwbbbbbbbbbbb,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w",  // 23
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,bwbw,-/-,-,-,-/-,-,-/-,-,-,- w",  // 4 blocks
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/Wwbw,-,-/-,-,-,- b",  // 3 blocks
             "position fen b;b;b;b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w",
             "position fen start",
             "position startpos fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w",
         })
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, BadGoParametersStartNoSearch) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(*e, "go depth -3"),
              "info string error: go: depth needs a number in 1..100, got '-3'");
    for (const char* line : {
             "go foo",
             "go depth",
             "go depth abc",
             "go depth 0",
             "go depth 101",
             "go depth 5x",
             "go depth +5",
             "go depth 1.5",
             "go depth 99999999999999999999999999",
             "go nodes 0",
             "go nodes -1",
             "go nodes 1125899906842625",
             "go nodes 99999999999999999999",
             "go wtime",
             "go wtime -1",
             "go wtime abc",
             "go wtime 1000000001",
             "go wtime 99999999999999999999999",
             "go btime -5",
             "go winc x",
             "go binc -1",
             "go p1time -1",
             "go p2time x",
             "go p1inc 1000000001",
             "go p2inc -",
             "go movestogo 0",
             "go movestogo 1001",
             "go movetime -100",
             "go movetime 1e3",
             "go mate 0",
             "go mate 65",
             "go perft 0",
             "go perft 25",
             "go perft",
             "go depth 3 foo",
             "go searchmoves",
             "go searchmoves c3-e5",
             "go searchmoves z9-a1",
             "go searchmoves c3-d4 c3-d4x",
             "go depth 3 searchmoves",
             "go infinite depth",
             "go wtime 1000 btime",
         })
        expectOneErrorLine(*e, line);
    // No search was started by any of them: stop finds nothing to stop.
    sendQuiet(*e, "stop");
}

TEST_F(ProtocolTest, BadOptionValuesLeaveOptionsUnchanged) {
    auto e = startEngine();
    sendQuiet(*e, "setoption name MultiPV value 2");
    EXPECT_EQ(expectOneErrorLine(*e, "setoption name Hash value 0"),
              "info string error: option Hash value '0' out of range 1..32768");
    for (const char* line : {
             "setoption name MultiPV value 0",
             "setoption name MultiPV value 65",
             "setoption name MultiPV value -1",
             "setoption name MultiPV value abc",
             "setoption name MultiPV value 2.5",
             "setoption name MultiPV value 3x",
             "setoption name MultiPV value 99999999999999999999",
             "setoption name MultiPV value",
             "setoption name MultiPV",
             "setoption name Hash value -16",
             "setoption name Hash value 99999999999999999999999",
             "setoption name Hash value sixteen",
             "setoption name Threads value 0",
             "setoption name Threads value 257",
             "setoption name MoveOverhead value 5001",
             "setoption name MoveOverhead value -1",
             "setoption name Ponder value yes",
             "setoption name Ponder value 1",
             "setoption name RepetitionDraw value maybe",
             "setoption name NoProgressDraw value",
             "setoption name RfpMargin value 0",
             "setoption name RfpMargin value 1001",
             "setoption name LmrDivisor value 49",
             "setoption name LmrMinDepth value 1",
             "setoption name LmrMinMove value 64",
             "setoption name AspirationDelta value 4",
             "setoption name AspirationGrowth value ten",
             "setoption name HistoryBonusMax value 16385",
         })
        expectOneErrorLine(*e, line);
    EXPECT_EQ(expectOneErrorLine(*e, "setoption name LmrDivisor value 0"),
              "info string error: option LmrDivisor value '0' out of range 50..1000");
    // MultiPV is still 2.
    const SearchOutcome r = checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    std::set<std::string> ranks;
    for (const std::string& info : searchInfos(r.lines)) ranks.insert(field(info, "multipv"));
    EXPECT_EQ(ranks, (std::set<std::string>{"1", "2"}));

    // Check options keep their value after bad values.
    sendQuiet(*e, "position fen " + kOfficers + " moves a1-b2 g7-f6 b2-a1 f6-g7 a1-b2 g7-f6 " +
                      "b2-a1 f6-g7");
    EXPECT_EQ(query(*e, "result"), "response draw");
    expectOneErrorLine(*e, "setoption name RepetitionDraw value 0");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name RepetitionDraw value False");
    EXPECT_EQ(query(*e, "result"), "response none");
    expectOneErrorLine(*e, "setoption name RepetitionDraw value true!");
    EXPECT_EQ(query(*e, "result"), "response none");
}

// The learned evaluation's options: UseNNUE (on by default) switches the search and
// `eval` between the network and the classic evaluation; an EvalFile that does not load is one
// error line and the network in use stays; the embedded network's own file loads.
TEST_F(ProtocolTest, NnueOptions) {
    auto e = startEngine();
    e->send("eval");
    const Lines withNet = sync(*e);
    ASSERT_FALSE(withNet.empty());
    EXPECT_TRUE(startsWith(withNet.back(), "info string eval nnue ")) << withNet.back();
    const std::string before = withNet.back();
    expectOneErrorLine(*e, "setoption name EvalFile value /nonexistent/net.nnue");
    expectOneErrorLine(*e, "setoption name EvalFile value " LASCA_SOURCE_DIR "/protocol.md");
    expectOneErrorLine(*e, "setoption name UseNNUE value perhaps");
    e->send("eval");
    const Lines still = sync(*e);
    ASSERT_FALSE(still.empty());
    EXPECT_EQ(still.back(), before);
    sendQuiet(*e, "setoption name EvalFile value " LASCA_SOURCE_DIR "/src/lasca/eval/default.nnue");
    e->send("eval");
    const Lines loaded = sync(*e);
    ASSERT_FALSE(loaded.empty());
    EXPECT_EQ(loaded.back(), before);
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    sendQuiet(*e, "setoption name UseNNUE value false");
    e->send("eval");
    const Lines classic = sync(*e);
    ASSERT_FALSE(classic.empty());
    EXPECT_TRUE(startsWith(classic.back(), "info string eval total ")) << classic.back();
}

TEST_F(ProtocolTest, BadQueryAndBench) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    for (const char* line : {"query", "query foo", "query p1turn result", "query P1TURN", "bench 0",
                             "bench 31", "bench abc", "bench 1 2", "bench -1"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, EmptyLines) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneError(*e, "\n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, "\r\n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, "   \t  \n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, " \t \r\n"), "info string error: empty line");
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, OverlongLines) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneError(*e, std::string(1'048'577, 'a') + "\n"),
              "info string error: line too long (1048577 bytes, at most 1048576)");
    // Even when it starts with a valid command.
    EXPECT_EQ(expectOneError(*e, "isready" + std::string(1'048'570, ' ') + "\n"),
              "info string error: line too long (1048577 bytes, at most 1048576)");
    EXPECT_EQ(expectOneError(*e, "position startpos moves c3-d4" +
                                     std::string(3 * 1'048'576 - 29, ' ') + "\n"),
              "info string error: line too long (3145728 bytes, at most 1048576)");
    // With CRLF (the count may or may not include the '\r': protocol.md does not say).
    EXPECT_TRUE(startsWith(expectOneError(*e, std::string(2'000'000, 'z') + "\r\n"),
                           "info string error: line too long (200000"));
    // Long lines within the limit are read as usual commands.
    EXPECT_EQ(expectOneError(*e, std::string(1'000'000, 'a') + "\n"),
              "info string error: unknown command '" + std::string(40, 'a') + "...' (try help)");
    EXPECT_EQ(expectOneError(*e, std::string(1'048'576, 'b') + "\n"),
              "info string error: unknown command '" + std::string(40, 'b') + "...' (try help)");
    EXPECT_EQ(expectOneError(*e, std::string(1'048'576, 'c') + "\r\n"),
              "info string error: unknown command '" + std::string(40, 'c') + "...' (try help)");
    // A command padded to exactly 1 MiB is still that command.
    ASSERT_TRUE(e->send("isready" + std::string(1'048'576 - 7, ' ')));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(sync(*e), Lines{});
}

// The part of an unknown-command error that shows the input: '?' for unprintable bytes, at
// most 40 characters (then "...").
void expectShownGarbage(const std::string& error, std::string_view input) {
    const std::string head = "info string error: unknown command '";
    const std::string tail = "' (try help)";
    ASSERT_TRUE(startsWith(error, head)) << error;
    ASSERT_GE(error.size(), head.size() + tail.size());
    ASSERT_EQ(error.substr(error.size() - tail.size()), tail) << error;
    std::string shown = error.substr(head.size(), error.size() - head.size() - tail.size());
    std::size_t firstToken = 0;
    while (firstToken < input.size() && input[firstToken] != ' ' && input[firstToken] != '\t')
        ++firstToken;
    if (firstToken > 40) {
        ASSERT_GE(shown.size(), 3u);
        EXPECT_EQ(shown.substr(shown.size() - 3), "...") << error;
        shown.resize(shown.size() - 3);
    }
    ASSERT_EQ(shown.size(), std::min<std::size_t>(firstToken, 40)) << error;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const char c = input[i];
        EXPECT_EQ(shown[i], c >= 0x20 && c < 0x7f ? c : '?') << "at " << i << ": " << error;
    }
}

TEST_F(ProtocolTest, BinaryGarbage) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    std::vector<std::string> inputs;
    std::string controls;  // 0x00..0x1f without '\n', '\t' and '\r' (first token: all of them)
    for (int c = 0; c < 0x20; ++c)
        if (c != '\n' && c != '\t' && c != '\r') controls += static_cast<char>(c);
    inputs.push_back(controls);
    inputs.push_back(std::string(1, '\0'));
    inputs.push_back(std::string(100, '\xff'));
    std::string high;
    for (int c = 0x7f; c <= 0xff; ++c) high += static_cast<char>(c);
    inputs.push_back(high);
    std::mt19937 rng(20240611);
    for (std::size_t length : {1u, 7u, 39u, 40u, 41u, 200u, 4096u, 70000u}) {
        std::string bytes;
        for (std::size_t i = 0; i < length; ++i) {
            char c = static_cast<char>(rng() & 0xff);
            if (c == '\n') c = '\0';
            bytes += c;
        }
        bytes[0] = '\x01';  // the first token is garbage, not a command
        if (bytes.size() > 1 && bytes.back() == '\r') bytes.back() = '\x02';
        inputs.push_back(bytes);
    }
    inputs.push_back(std::string("isready\0", 8));  // a NUL byte inside a command
    for (const std::string& input : inputs) {
        const std::string error = expectOneError(*e, input + "\n");
        expectShownGarbage(error, input);
    }
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, CrlfLineEndsAreAccepted) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    ASSERT_TRUE(e->sendRaw("ugi\r\n"));
    bool found = false;
    EXPECT_EQ(e->readUntil("ugiok", kReplyTimeout, &found), expectedHandshake("ugiok"));
    ASSERT_TRUE(e->sendRaw("position startpos moves c3-d4 e5xc3\r\n"));
    EXPECT_EQ(sync(*e), Lines{});
    const std::string crlf = lfenOf(*e);
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3");
    EXPECT_EQ(lfenOf(*e), crlf);
    ASSERT_TRUE(e->sendRaw("query p1turn\r\nsetoption name MultiPV value 2\r\nisready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "response true");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    ASSERT_TRUE(e->sendRaw("go depth 2\r\n"));
    e->readUntil("bestmove", kReplyTimeout, &found);
    EXPECT_TRUE(found);
    EXPECT_EQ(sync(*e), Lines{});
    ASSERT_TRUE(e->sendRaw("quit\r\n"));
    EXPECT_EQ(e->exitCode(5s), 0);
}

TEST_F(ProtocolTest, TokensSeparatedBySpacesAndTabs) {
    auto e = startEngine();
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3");
    const std::string plain = lfenOf(*e);
    sendQuiet(*e, "position startpos");
    sendQuiet(*e, "  position\tstartpos \t moves   c3-d4\t\te5xc3  ");
    EXPECT_EQ(lfenOf(*e), plain);
    sendQuiet(*e, "position\tfen\tb,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w \t w  0\t1");
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    sendQuiet(*e, "setoption   name\tDebug  Log\tFile value <empty>");
    sendQuiet(*e, "setoption name multipv value 2");
}

TEST_F(ProtocolTest, InputInPiecesAndManyLinesAtOnce) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isr"));
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(e->sendRaw("eady"));
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(e->sendRaw("\nisready\nisready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "query p1turn\n";
    ASSERT_TRUE(e->sendRaw(many));
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(e->readLine(kReplyTimeout), "response true") << i;
    EXPECT_EQ(sync(*e), Lines{});
}

// After every kind of bad input in one session, the engine still works.
TEST_F(ProtocolTest, StillAnswersAfterAllBadInput) {
    auto e = startEngine();
    handshake(*e, "uci");
    std::string garbage;
    std::mt19937 rng(7);
    for (int i = 0; i < 10000; ++i) {
        const char c = static_cast<char>(rng() & 0xff);
        garbage += c == '\n' ? '\0' : c;
    }
    const std::vector<std::string> inputs = {
        "foo\n",
        "setoption name Nope value 1\n",
        "position fen x\n",
        "go depth -1\n",
        "setoption name Hash value huge\n",
        "\n",
        std::string(1'048'577, 'x') + "\n",
        std::string(1'000'000, 'y') + "\n",
        "\x01" + garbage + "\n",
        "query nothing\r\n",
    };
    for (const std::string& input : inputs) ASSERT_TRUE(e->sendRaw(input));
    const Lines lines = sync(*e);
    EXPECT_EQ(lines.size(), inputs.size()) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "info string error: "), lines.size()) << joined(lines);
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
}

}  // namespace
}  // namespace lasca::test
