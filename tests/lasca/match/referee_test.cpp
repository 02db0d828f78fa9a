// The referee: every engine failure loses the game, results come from the
// rules core. Fake engines (fake_engine.cpp) misbehave on request.
#include <gtest/gtest.h>

#include "lasca/match/engine.h"
#include "lasca/match/referee.h"

namespace lasca::match {
namespace {

EngineSpec fake(const std::string& mode, int from = 1) {
    EngineSpec spec;
    spec.name = "fake-" + mode;
    spec.path = LASCA_FAKE_ENGINE;
    spec.args = {mode, std::to_string(from)};
    return spec;
}

EngineSpec reference(const std::string& player) {
    EngineSpec spec;
    spec.name = "ref-" + player;
    spec.path = LASCA_REFERENCE;
    spec.options = {{"Player", player}, {"Depth", "2"}};
    return spec;
}

std::unique_ptr<Engine> start(const EngineSpec& spec) {
    auto e = Engine::start(spec, Timeouts{}, "");
    EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error());
    return std::move(e).value();
}

// Games by node count: no engine can lose on time because the machine is busy (the search
// time-out is a hang guard of a minute).
GameSettings fastSettings() {
    GameSettings s;
    s.timeControl.kind = TimeControl::Kind::Nodes;
    s.timeControl.nodes = 1000;
    return s;
}

GameRecord playWhite(const EngineSpec& white, const EngineSpec& black,
                     const GameSettings& settings = fastSettings()) {
    auto w = start(white);
    auto b = start(black);
    return playGame(*w, *b, Position::startPosition(), settings);
}

// parseEngineSpec: the --engine text of both lasca-match and lasca-tune spsa.
TEST(EngineSpecText, FieldsAreReadAndMistakesNamed) {
    const auto full = parseEngineSpec("name=a,cmd=/bin/x,arg=-v,proto=ugi,nodes=500,option.Hash=8",
                                      EngineLimits::Allowed);
    ASSERT_TRUE(full.ok()) << full.error();
    EXPECT_EQ(full.value().name, "a");
    EXPECT_EQ(full.value().path, "/bin/x");
    EXPECT_EQ(full.value().args, std::vector<std::string>{"-v"});
    EXPECT_EQ(full.value().dialect, Dialect::Ugi);
    EXPECT_EQ(full.value().nodes, 500);
    EXPECT_EQ(full.value().movetimeMs, 0);
    ASSERT_EQ(full.value().options.size(), 1u);
    EXPECT_EQ(full.value().options[0].second, "8");

    const auto path = parseEngineSpec("/bin/x", EngineLimits::Refused);
    ASSERT_TRUE(path.ok()) << path.error();
    EXPECT_EQ(path.value().path, "/bin/x");
    EXPECT_EQ(path.value().dialect, Dialect::Uci);

    const struct {
        const char* text;
        EngineLimits limits;
        const char* error;
    } bad[] = {
        {"name=a", EngineLimits::Allowed, "has no cmd"},
        {"cmd=/bin/x,proto=xboard", EngineLimits::Allowed, "proto must be uci or ugi"},
        {"cmd=/bin/x,movetime=0", EngineLimits::Allowed, "movetime must be a whole number"},
        {"cmd=/bin/x,nodes=abc", EngineLimits::Allowed, "nodes must be a whole number"},
        {"cmd=/bin/x,movetime=5,nodes=5", EngineLimits::Allowed, "only one of movetime and nodes"},
        {"cmd=/bin/x,movetime=5", EngineLimits::Refused, "movetime"},
    };
    for (const auto& c : bad) {
        const auto e = parseEngineSpec(c.text, c.limits);
        ASSERT_FALSE(e.ok()) << c.text;
        EXPECT_NE(e.error().find(c.error), std::string::npos) << c.text << ": " << e.error();
        EXPECT_NE(e.error().find(c.text), std::string::npos) << e.error();
    }
}

// --tc of lasca-match and lasca-tune spsa: SECONDS+INC, decimals allowed, both range-checked.
TEST(ClockText, SecondsAndIncrementAreReadAndChecked) {
    const auto clock = parseClock("10+0.1");
    ASSERT_TRUE(clock) << clock.error();
    EXPECT_EQ(clock.value().kind, TimeControl::Kind::Clock);
    EXPECT_EQ(clock.value().baseMs, 10000);
    EXPECT_EQ(clock.value().incMs, 100);
    EXPECT_EQ(parseClock("2").value().incMs, 0);
    for (const char* bad : {"", "+1", "x+1", "1+x", "0+1", "-1+0", "1+-1", "1e300", "1+1e7", "nan"})
        EXPECT_FALSE(parseClock(bad)) << bad;
}

TEST(Referee, IllegalMoveLoses) {
    const GameRecord r = playWhite(fake("illegal", 2), reference("random"));
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_EQ(r.reason, EndReason::IllegalMove);
    EXPECT_EQ(r.moves.size(), 2u);  // White's first move was legal, its second was not
}

// An engine's own limit (movetime=, nodes= in lasca-match's --engine) replaces the match's
// time control for that engine only. The fake engines answer at once, far inside 60 s.
TEST(Referee, EachEngineMayHaveItsOwnLimitPerMove) {
    GameSettings settings = fastSettings();  // go nodes 1000
    settings.maxPlies = 30;
    EngineSpec wantsMovetime = fake("want-movetime");
    const GameRecord without = playWhite(wantsMovetime, fake("want-nodes"), settings);
    EXPECT_EQ(without.reason, EndReason::IllegalMove);  // it was sent `go nodes`
    EXPECT_EQ(without.outcome, Outcome::BlackWins);
    wantsMovetime.movetimeMs = 60000;
    const GameRecord with = playWhite(wantsMovetime, fake("want-nodes"), settings);
    EXPECT_EQ(with.reason, EndReason::MaxPlies);  // each side got the `go` it wanted
    EXPECT_EQ(with.moves.size(), 30u);
    EngineSpec wantsNodes = fake("want-nodes");
    wantsNodes.nodes = 500;
    settings.timeControl.kind = TimeControl::Kind::MoveTime;
    settings.timeControl.movetimeMs = 60000;
    const GameRecord swapped = playWhite(fake("want-movetime"), wantsNodes, settings);
    EXPECT_EQ(swapped.reason, EndReason::MaxPlies);
}

TEST(Referee, GarbledMoveLoses) {
    const GameRecord r = playWhite(reference("random"), fake("garbage"));
    EXPECT_EQ(r.outcome, Outcome::WhiteWins);
    EXPECT_EQ(r.reason, EndReason::GarbledMove);
    EXPECT_EQ(r.moves.size(), 1u);
}

TEST(Referee, BestmoveWithoutMoveLoses) {
    const GameRecord r = playWhite(fake("empty"), reference("random"));
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_EQ(r.reason, EndReason::GarbledMove);
}

TEST(Referee, CrashLosesAndEngineIsMarkedDead) {
    auto w = start(reference("random"));
    auto b = start(fake("exit", 3));
    const GameRecord r = playGame(*w, *b, Position::startPosition(), fastSettings());
    EXPECT_EQ(r.outcome, Outcome::WhiteWins);
    EXPECT_EQ(r.reason, EndReason::Crash);
    EXPECT_EQ(r.moves.size(), 5u);
    EXPECT_FALSE(b->alive());
    EXPECT_TRUE(w->alive());
}

// The hanging engine moves first, so only its own (never answered) move is timed: load can only
// make the forfeit later, never give it to the other side.
TEST(Referee, HangIsATimeForfeit) {
    GameSettings s;
    s.timeControl.movetimeMs = 100;
    s.timeControl.margin = std::chrono::milliseconds(200);
    const GameRecord r = playWhite(fake("hang"), reference("random"), s);
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_EQ(r.reason, EndReason::TimeForfeit);
}

TEST(Referee, ClockRunsOut) {
    auto w = start(reference("random"));
    auto b = start(fake("slow", 2));
    GameSettings s;
    s.timeControl.kind = TimeControl::Kind::Clock;
    s.timeControl.baseMs = 1000;
    s.timeControl.incMs = 0;
    s.timeControl.margin = std::chrono::milliseconds(100);
    const GameRecord r = playGame(*w, *b, Position::startPosition(), s);
    EXPECT_EQ(r.outcome, Outcome::WhiteWins);
    EXPECT_EQ(r.reason, EndReason::TimeForfeit);
    EXPECT_EQ(r.moves.size(), 3u);
}

TEST(Referee, EngineThatNeverHandshakesDoesNotStart) {
    Timeouts t;
    t.startup = std::chrono::milliseconds(300);
    auto e = Engine::start(fake("nostart"), t, "");
    EXPECT_FALSE(e.ok());
}

// The handshake's first half, shared by Engine::start and lasca-tune spsa: the options listed
// up to uciok (ugiok), or why the listing did not end.
TEST(EngineListing, ReadsTheOptionsUpToUciok) {
    for (const Dialect dialect : {Dialect::Uci, Dialect::Ugi}) {
        auto process = common::ChildProcess::start(LASCA_REFERENCE, {}, "");
        ASSERT_TRUE(process.ok()) << process.error();
        const EngineListing listing = readListing(
            *process.value(), dialect, common::SteadyClock::now() + std::chrono::seconds(30));
        EXPECT_EQ(listing.status, common::ReadStatus::Line);
        std::vector<std::string> names;
        for (const auto& option : listing.options) names.push_back(option.name);
        EXPECT_EQ(names, (std::vector<std::string>{"Player", "Depth", "Seed"}));
        ASSERT_EQ(listing.options.size(), 3u);
        EXPECT_TRUE(listing.options[1].spin);
        EXPECT_EQ(listing.options[1].max, 30);
    }
    auto silent = common::ChildProcess::start(LASCA_FAKE_ENGINE, {"nostart"}, "");
    ASSERT_TRUE(silent.ok()) << silent.error();
    EXPECT_EQ(readListing(*silent.value(), Dialect::Uci,
                          common::SteadyClock::now() + std::chrono::milliseconds(300))
                  .status,
              common::ReadStatus::Timeout);
    auto ended = common::ChildProcess::start("/bin/true", {}, "");
    ASSERT_TRUE(ended.ok()) << ended.error();
    EXPECT_EQ(readListing(*ended.value(), Dialect::Uci,
                          common::SteadyClock::now() + std::chrono::seconds(30))
                  .status,
              common::ReadStatus::Closed);
}

TEST(Referee, MissingProgramDoesNotStart) {
    EngineSpec spec;
    spec.name = "missing";
    spec.path = "/nonexistent/engine";
    EXPECT_FALSE(Engine::start(spec, Timeouts{}, "").ok());
}

// R9: the game ends when the side to move has no legal move, decided by the rules core.
TEST(Referee, LegalGameEndsByTheRules) {
    GameSettings s = fastSettings();
    auto w = start(reference("alphabeta"));
    auto b = start(fake("legal"));
    const GameRecord r = playGame(*w, *b, Position::startPosition(), s);
    EXPECT_NE(r.outcome, Outcome::Ongoing);
    EXPECT_TRUE(r.reason == EndReason::NoLegalMove || r.reason == EndReason::Repetition ||
                r.reason == EndReason::NoProgress);
}

TEST(Referee, MaxPliesAdjudicatesADraw) {
    GameSettings s = fastSettings();
    s.maxPlies = 4;
    const auto w = start(fake("legal"));
    const auto b = start(fake("legal"));
    const GameRecord r = playGame(*w, *b, Position::startPosition(), s);
    EXPECT_EQ(r.outcome, Outcome::Draw);
    EXPECT_EQ(r.reason, EndReason::MaxPlies);
    EXPECT_EQ(r.moves.size(), 4u);
}

// An opening where White is already lost (R9) is scored without asking any engine.
TEST(Referee, LostStartPositionNeedsNoMove) {
    const auto w = start(fake("hang"));
    const auto b = start(fake("hang"));
    const auto pos = Position::fromLfen("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/B,-,-,- w");
    ASSERT_TRUE(pos.ok());
    const GameRecord r = playGame(*w, *b, pos.value(), fastSettings());
    EXPECT_EQ(r.outcome, Outcome::BlackWins);
    EXPECT_EQ(r.reason, EndReason::NoLegalMove);
}

}  // namespace
}  // namespace lasca::match
