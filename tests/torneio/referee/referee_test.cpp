// The referee (torneio-referee): games between real `torneio` programs of 2, 3 and 4 seats;
// hostile players that each fail the protocol in one way, and are disqualified alone while the
// game goes on; seats that never start; a program that stops reading; between the games of a
// match; the command line (one game, resume, shards and merge, replay, usage errors, the
// report's columns).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "common/text.h"
#include "test_directory.h"
#include "torneio/referee/game.h"
#include "torneio/referee/match.h"

namespace torneio::referee {
namespace {

namespace fs = std::filesystem;

SeatSpec program(const std::string& name, const std::string& kind) {
    return SeatSpec{name, SeatKind::Program, TORNEIO_PLAYER, {}, {{"Player", kind}}};
}

SeatSpec hostile(const std::string& mode, int trigger = 3) {
    return SeatSpec{
        "hostile-" + mode, SeatKind::Program, TORNEIO_HOSTILE, {mode, std::to_string(trigger)}, {}};
}

// EndWatch: a seat that counts the end events it was sent (lines `event end ...`), around the
// real seat.
class EndWatch : public Seat {
  public:
    explicit EndWatch(Seat& inner) : inner_(inner) {}
    bool send(std::string_view line) override {
        if (line.starts_with("event end")) ++ends;
        return inner_.send(line);
    }
    bool flush() override { return inner_.flush(); }
    void limitWrites(std::chrono::milliseconds wait) override { inner_.limitWrites(wait); }
    bool stuck() const override { return inner_.stuck(); }
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override {
        return inner_.receive(line, deadline);
    }
    void close() override { inner_.close(); }
    bool open() const override { return inner_.open(); }
    int ends = 0;

  private:
    Seat& inner_;
};

// Opens and greets every seat, plays one game and checks what every game must satisfy: it
// ended, its record replays by the rules, the record's disqualifications are the faults, the
// `decided` hook saw every accepted decision of the record, in order, once, and the `ended`
// hook came once, with the final record, before any seat was sent an end event.
GameResult play(const std::vector<SeatSpec>& specs, const Limits& limits, std::uint64_t seed) {
    std::vector<std::unique_ptr<Seat>> seats;
    std::vector<Seat*> bySeat;
    GameSetup setup{defaultParams(static_cast<int>(specs.size())), seed, {}, {}, {}, {}, {}};
    for (const SeatSpec& spec : specs) {
        auto opened = openSeat(spec, "");
        EXPECT_TRUE(opened.ok()) << spec.name;
        seats.push_back(std::move(opened).value());
        auto greeted = handshake(*seats.back(), spec, limits);
        EXPECT_TRUE(greeted.ok()) << spec.name << ": " << greeted.error();
        bySeat.push_back(greeted.ok() ? seats.back().get() : nullptr);
        setup.names.push_back(spec.name);
    }
    std::vector<std::pair<int, Action>> decided;
    setup.decided = [&decided](int seat, const Action& action) {
        decided.emplace_back(seat, action);
    };
    std::vector<std::unique_ptr<EndWatch>> watches;
    for (auto& seat : bySeat) {
        if (!seat) continue;
        watches.push_back(std::make_unique<EndWatch>(*seat));
        seat = watches.back().get();
    }
    int endsReported = 0, endsSentBefore = 0;
    std::optional<Outcome> endedWith;
    setup.ended = [&](const Record& record) {
        ++endsReported;
        endedWith = record.outcome;
        for (const auto& w : watches) endsSentBefore += w->ends;
    };
    GameResult result = playGame(bySeat, setup, limits);
    EXPECT_EQ(endsReported, 1);
    EXPECT_EQ(endsSentBefore, 0);
    if (endedWith) {
        EXPECT_EQ(endedWith->kind, result.record.outcome.kind);
    }
    std::vector<std::pair<int, Action>> recorded;
    for (const auto& entry : result.record.entries)
        if (entry.kind == RecordEntry::Kind::Action)
            recorded.emplace_back(entry.seat, entry.action);
    EXPECT_EQ(decided, recorded);
    EXPECT_NE(result.record.outcome.kind, OutcomeKind::Ongoing);
    auto replayed = replayRecord(result.record);
    EXPECT_TRUE(replayed.ok()) << replayed.error();
    const GameSummary summary = summarize(0, result.record);
    for (std::size_t s = 0; s < specs.size(); ++s) {
        const bool faulted =
            std::any_of(result.faults.begin(), result.faults.end(),
                        [s](const SeatFault& f) { return f.seat == static_cast<int>(s); });
        EXPECT_EQ(summary.faults[s].has_value(), faulted) << "seat " << s + 1;
    }
    return result;
}

TEST(Referee, RealPlayersFinishGamesOfTwoThreeAndFourSeats) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        std::vector<SeatSpec> specs;
        for (int s = 0; s < seats; ++s)
            specs.push_back(
                program("p" + std::to_string(s + 1), s % 2 == 0 ? "heuristic" : "random"));
        const GameResult result = play(specs, Limits{}, static_cast<std::uint64_t>(seats));
        EXPECT_TRUE(result.faults.empty());
        EXPECT_EQ(result.record.players.size(), static_cast<std::size_t>(seats));
    }
}

// Plays a game of three with each hostile player in each seat in turn (seed 11): it alone is
// disqualified, with the fault its failure deserves, and the other two finish the game. Its
// third reply is accepted only when the failure comes after it (outofturn, extraready,
// closeinput, closeunread).
void expectDisqualifiedAlone(const std::vector<std::pair<std::string, Fault>>& modes,
                             const Limits& limits) {
    for (const auto& [mode, fault] : modes) {
        for (int seat = 0; seat < 3; ++seat) {
            std::vector<SeatSpec> specs = {program("a", "random"), program("b", "random"),
                                           program("c", "heuristic")};
            specs[static_cast<std::size_t>(seat)] = hostile(mode);
            const GameResult result = play(specs, limits, 11);
            ASSERT_EQ(result.faults.size(), 1u) << mode << " at seat " << seat + 1;
            EXPECT_EQ(result.faults[0].seat, seat) << mode;
            EXPECT_EQ(result.faults[0].fault, fault)
                << mode << " at seat " << seat + 1 << ": " << result.faults[0].detail;
            const std::string line =
                "event disqualified " + seatText(seat) + " " + std::string(faultName(fault));
            const auto& entries = result.record.entries;
            EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [&](const RecordEntry& e) {
                return e.kind == RecordEntry::Kind::Event &&
                       formatEvent(e.event, Geometry(result.record.params)) == line;
            })) << mode;
            EXPECT_EQ(std::popcount(result.record.outcome.seats) >= 1, true);
            EXPECT_EQ(result.record.outcome.seats >> seat & 1u, 0u) << mode;
            const bool answeredThird = mode == "outofturn" || mode == "extraready" ||
                                       mode == "closeinput" || mode == "closeunread";
            EXPECT_EQ(std::count_if(entries.begin(), entries.end(),
                                    [&](const RecordEntry& e) {
                                        return e.kind == RecordEntry::Kind::Action &&
                                               e.seat == seat;
                                    }),
                      answeredThird ? 3 : 2)
                << mode << " at seat " << seat + 1;
        }
    }
}

// Each hostile player fails once at its third request.
TEST(Referee, HostilePlayersAreDisqualifiedAloneAndTheGameGoesOn) {
    Limits limits;
    limits.decision = std::chrono::milliseconds(500);  // a hang guard: the hang mode waits it out
    expectDisqualifiedAlone({{"garbage", Fault::Malformed},
                             {"illegal", Fault::Illegal},
                             {"longline", Fault::TooLong},
                             {"outofturn", Fault::OutOfTurn},
                             {"hang", Fault::Timeout},
                             {"crash", Fault::Crash},
                             // part of a line, or a whole reply, without its line end and then
                             // the end: no line came
                             {"fragment", Fault::Crash},
                             {"unended", Fault::Crash},
                             // a second readyok, read as the answer to the next isready: the
                             // real one is the reply
                             {"extraready", Fault::OutOfTurn},
                             // its input closed, its output open: the referee's next lines
                             // cannot be written
                             {"closeinput", Fault::Crash}},
                            limits);
}

// A seat whose input closes while the referee's lines to it are still unread can never answer
// them: it has crashed, and is told so at once, not after the decision time. The decision time
// is a minute, so the fault says which came first whatever the machine's speed: a time-out
// would take the minute; the crash comes as soon as the input closes.
//   closeinput   closes its input before its third reply: the next write to it fails
//   closeunread  closes it after the referee's next lines arrived: they were written, unread
TEST(Referee, ASeatThatClosesItsInputWithLinesUnreadCrashesAtOnce) {
    Limits limits;
    limits.decision = std::chrono::seconds(60);
    expectDisqualifiedAlone({{"closeinput", Fault::Crash}, {"closeunread", Fault::Crash}}, limits);
}

// The fault's detail says how long the line was, or, past what a child's line reader keeps,
// at least how long.
TEST(Referee, ALineTooLongIsReportedWithItsLength) {
    Limits limits;
    limits.decision = std::chrono::milliseconds(5000);  // a hang guard
    const std::vector<std::pair<std::string, std::string>> modes = {
        {"longline", "a line of 100000 bytes (at most 4096)"},
        {"hugeline", "a line of at least 1048576 bytes (at most 4096)"}};
    for (const auto& [mode, detail] : modes) {
        const GameResult result = play({hostile(mode), program("b", "random")}, limits, 5);
        ASSERT_EQ(result.faults.size(), 1u) << mode;
        EXPECT_EQ(result.faults[0].fault, Fault::TooLong);
        EXPECT_EQ(result.faults[0].detail, detail);
    }
}

TEST(Referee, PoliteHostileIsAControl) {
    const GameResult result =
        play({hostile("polite"), program("b", "random"), program("c", "random")}, Limits{}, 3);
    EXPECT_TRUE(result.faults.empty());
}

TEST(Referee, TwoSeatsTheOtherWinsWhenOneFails) {
    const GameResult result = play({program("a", "random"), hostile("garbage")}, Limits{}, 2);
    ASSERT_EQ(result.faults.size(), 1u);
    EXPECT_EQ(result.record.outcome.kind, OutcomeKind::Win);
    EXPECT_EQ(result.record.outcome.seats, 1u);
}

TEST(Referee, ASeatThatNeverAnswersIsOutFromTheStart) {
    Limits limits;
    limits.start = std::chrono::milliseconds(300);  // a hang guard
    const SeatSpec silent{"silent", SeatKind::Program, "/bin/sleep", {"30"}, {}};
    auto seat = openSeat(silent, "");
    ASSERT_TRUE(seat.ok());
    EXPECT_FALSE(handshake(*seat.value(), silent, limits).ok());
    const SeatSpec refused{"refused", SeatKind::Program, TORNEIO_PLAYER, {}, {{"Hash", "16"}}};
    auto other = openSeat(refused, "");
    ASSERT_TRUE(other.ok());
    EXPECT_FALSE(handshake(*other.value(), refused, limits).ok());  // an option it lacks

    auto a = openSeat(program("a", "random"), "");
    auto b = openSeat(program("b", "random"), "");
    ASSERT_TRUE(handshake(*a.value(), program("a", "random"), Limits{}).ok());
    ASSERT_TRUE(handshake(*b.value(), program("b", "random"), Limits{}).ok());
    std::vector<Seat*> seats = {a.value().get(), nullptr, b.value().get()};
    const GameResult result = playGame(
        seats, GameSetup{defaultParams(3), 4, {"a", "silent", "b"}, {}, {}, {}, {}}, Limits{});
    ASSERT_EQ(result.faults.size(), 1u);
    EXPECT_EQ(result.faults[0].fault, Fault::NoStart);
    EXPECT_NE(result.record.outcome.kind, OutcomeKind::Ongoing);
    EXPECT_TRUE(replayRecord(result.record).ok());
}

// In a match, a player that crashes in every game is started again for the next one; each
// game goes on without it and its record says why.
TEST(Referee, MatchRestartsAPlayerAfterItsCrash) {
    MatchConfig config;
    config.players = {hostile("crash"), program("a", "random"), program("b", "random")};
    config.params = defaultParams(3);
    config.games = 6;
    config.concurrency = 2;
    const auto games = runMatch(config, {}, nullptr);
    ASSERT_EQ(games.size(), 6u);
    const auto totals = tally(games, {"hostile-crash", "a", "b"});
    EXPECT_EQ(totals[0].faults, 6);
    EXPECT_EQ(totals[0].points, 0);
    EXPECT_EQ(totals[1].faults + totals[2].faults, 0);
    for (const GameSummary& game : games)
        for (std::size_t s = 0; s < 3; ++s)
            if (game.players[s] == "hostile-crash") {
                EXPECT_EQ(game.faults[s], Fault::Crash);
            }
}

// Between games of a match, what a player sends after a game's end is discarded, and a player
// that ended after a game is started again: neither costs it its next game.
TEST(Referee, MatchDiscardsLinesBetweenGamesAndRestartsAPlayerThatEnded) {
    for (const std::string mode : {"afterend", "exitafterend"}) {
        MatchConfig config;
        config.players = {hostile(mode), program("a", "random"), program("b", "random")};
        config.params = defaultParams(3);
        config.games = 4;
        const auto games = runMatch(config, {}, nullptr);
        ASSERT_EQ(games.size(), 4u) << mode;
        const auto totals = tally(games, {"hostile-" + mode, "a", "b"});
        EXPECT_EQ(totals[0].games, 4) << mode;
        EXPECT_EQ(totals[0].faults + totals[1].faults + totals[2].faults, 0) << mode;
    }
}

// A program that stops reading its input: the referee's lines to it fill the pipe, and a write
// waits no longer than the decision time. The seat is stuck from then on: its lines are not
// taken, its reply never comes, and closing it does not block. Counted in lines written, not
// in time (the guard only catches a hang).
TEST(Seats, AProgramThatStopsReadingIsStuckNotBlocking) {
    const SeatSpec deaf{"deaf", SeatKind::Program, "/bin/sleep", {"30"}, {}};
    auto opened = openSeat(deaf, "");
    ASSERT_TRUE(opened.ok());
    Seat& seat = *opened.value();
    seat.limitWrites(std::chrono::milliseconds(200));
    const auto start = std::chrono::steady_clock::now();
    const std::string line(99, 'e');
    std::size_t sent = 0;
    while (sent < 100000 && seat.send(line)) ++sent;
    EXPECT_GT((sent + 1) * (line.size() + 1), std::size_t{65536});  // a pipe's capacity
    EXPECT_LT(sent, 100000u);                                       // then refused
    EXPECT_TRUE(seat.stuck());
    EXPECT_FALSE(seat.send("event turn 1 1"));
    EXPECT_FALSE(seat.flush());
    std::string reply;
    EXPECT_EQ(seat.receive(reply, common::SteadyClock::now() + std::chrono::seconds(5)),
              common::ReadStatus::Timeout);
    seat.close();
    EXPECT_FALSE(seat.open());
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));  // a guard
}

TEST(Seats, SpecsAndKinds) {
    const auto full = parseSeatSpec("name=h,cmd=build/torneio,option.Player=heuristic");
    ASSERT_TRUE(full.ok());
    EXPECT_EQ(full.value().kind, SeatKind::Program);
    EXPECT_EQ(full.value().options.size(), 1u);
    const auto bare = parseSeatSpec("/usr/bin/player");
    ASSERT_TRUE(bare.ok());
    EXPECT_EQ(bare.value().name, "player");
    const auto inprocess = parseSeatSpec("name=r,inprocess,option.Player=random");
    ASSERT_TRUE(inprocess.ok());
    EXPECT_EQ(inprocess.value().kind, SeatKind::InProcess);
    const auto human = parseSeatSpec("name=me,human");
    ASSERT_TRUE(human.ok());
    EXPECT_EQ(human.value().kind, SeatKind::Human);
    EXPECT_TRUE(openSeat(human.value(), "").ok());           // the terminal (human_seat.h)
    EXPECT_FALSE(parseSeatSpec("name=x").ok());              // no cmd
    EXPECT_FALSE(parseSeatSpec("name=x,cmd=y,human").ok());  // a human runs no program
    EXPECT_FALSE(parseSeatSpec("name=x,human=yes").ok());
    EXPECT_FALSE(parseSeatSpec("name=x,colour=red,cmd=y").ok());
    EXPECT_FALSE(
        openSeat(SeatSpec{"x", SeatKind::Program, "/nonexistent/player", {}, {}}, "").ok());
}

// ---- Command line --------------------------------------------------------------------------

int run(const std::string& command) {
    const int status = std::system((command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string output(const std::string& command) {
    static int outputs = 0;
    const fs::path file = common::test::testDirectory() / ("out-" + std::to_string(++outputs));
    EXPECT_EQ(std::system((command + " > " + file.string() + " 2>/dev/null").c_str()), 0)
        << command;
    return common::test::readText(file);
}

const std::string kReferee = TORNEIO_REFEREE;
const std::string kPlayers = std::string(" --player name=h,cmd=") + TORNEIO_PLAYER +
                             ",option.Player=heuristic --player name=r,cmd=" + TORNEIO_PLAYER +
                             ",option.Player=random --log-dir ''";

TEST(Cli, UsageErrorsExitWithTwo) {
    EXPECT_EQ(run(kReferee + " --no-such-flag"), 2);
    EXPECT_EQ(run(kReferee + " --help"), 0);
    EXPECT_EQ(run(kReferee + " --player /nonexistent --player /nonexistent"), 2);
    EXPECT_EQ(run(kReferee + " --player name=a,human --player name=b,human"), 2);  // one terminal
    EXPECT_EQ(run(kReferee + " --player name=me,human --player " + TORNEIO_PLAYER + " -g 2"), 2);
    EXPECT_EQ(run(kReferee + " --player " + TORNEIO_PLAYER), 2);  // one seat
    EXPECT_EQ(run(kReferee + kPlayers + " --params rounds=0"), 2);
    EXPECT_EQ(run(kReferee + kPlayers + " --shard 3/2"), 2);
}

TEST(Cli, OneGameByDefault) {
    const std::string text = output(kReferee + kPlayers + " --seed 5");
    EXPECT_NE(text.find("Results of 1 games"), std::string::npos) << text;
}

// A match interrupted and resumed plays only the games not yet recorded; shards played
// apart and merged report the whole match; every record replays.
TEST(Cli, ResumeShardsMergeAndReplay) {
    const fs::path dir = common::test::testDirectory();
    const std::string records = (dir / "all").string();
    ASSERT_EQ(run(kReferee + kPlayers + " --seed 7 --games 4 -c 2 --records " + records), 0);
    EXPECT_EQ(run(kReferee + kPlayers + " --games 8 -c 2 --records " + records), 2);  // no --resume
    const auto before = fs::last_write_time(recordPath(records, 0));
    const std::string resumed =  // the match seed comes from the records
        output(kReferee + kPlayers + " --games 8 -c 2 --resume --records " + records);
    EXPECT_NE(resumed.find("Results of 8 games"), std::string::npos) << resumed;
    EXPECT_EQ(fs::last_write_time(recordPath(records, 0)), before);  // not played again
    for (int i = 1; i <= 2; ++i)
        ASSERT_EQ(run(kReferee + kPlayers + " --seed 7 --games 8 --shard " + std::to_string(i) +
                      "/2" + " --records " + (dir / ("s" + std::to_string(i))).string()),
                  0);
    const std::string merged =
        output(kReferee + " merge " + (dir / "s1").string() + " " + (dir / "s2").string());
    EXPECT_NE(merged.find("Results of 8 games"), std::string::npos) << merged;
    // The same seed gives the same games: the merged shards report what the resumed run did.
    EXPECT_EQ(merged.substr(merged.find('\n')), resumed.substr(resumed.find('\n')));
    EXPECT_EQ(run(kReferee + " replay " + records + " " + (dir / "s1").string()), 0);
}

// Without --seed the match's seed is drawn from the operating system, printed in the report and
// kept in every record; with --seed it is that one; a resumed match goes on with the seed of its
// records, and a --seed that is not theirs is refused.
TEST(Cli, MatchSeedIsDrawnUnlessGivenAndKeptInTheRecords) {
    const std::regex seedLine("match seed ([0-9]+)");
    std::smatch found;
    const std::string first = output(kReferee + kPlayers);
    const std::string second = output(kReferee + kPlayers);
    ASSERT_TRUE(std::regex_search(first, found, seedLine)) << first;
    const std::string drawn = found[1];
    ASSERT_TRUE(std::regex_search(second, found, seedLine)) << second;
    EXPECT_NE(found[1], drawn);  // two draws of 64 bits
    EXPECT_NE(output(kReferee + kPlayers + " --seed 12345").find("match seed 12345"),
              std::string::npos);
    EXPECT_EQ(run(kReferee + kPlayers + " --seed -1"), 2);
    EXPECT_EQ(run(kReferee + kPlayers + " --seed 18446744073709551616"), 2);

    const std::string records = (common::test::testDirectory() / "records").string();
    ASSERT_EQ(run(kReferee + kPlayers + " --games 2 --records " + records), 0);
    const auto record = readRecord(recordPath(records, 0));
    ASSERT_TRUE(record.ok()) << record.error();
    ASSERT_TRUE(record.value().matchSeed.has_value());
    const std::string matchSeed = std::to_string(*record.value().matchSeed);
    EXPECT_EQ(record.value().seed, gameSeed(*record.value().matchSeed, 0));
    const std::string resumed =
        output(kReferee + kPlayers + " --games 4 --resume --records " + records);
    EXPECT_NE(resumed.find("match seed " + matchSeed), std::string::npos) << resumed;
    const auto later = readRecord(recordPath(records, 3));
    ASSERT_TRUE(later.ok()) << later.error();
    EXPECT_EQ(later.value().matchSeed, record.value().matchSeed);
    EXPECT_EQ(run(kReferee + kPlayers + " --games 6 --resume --seed 1 --records " + records), 2);
}

// `torneio-referee replay DIR` names what it skipped; a folder without any record is an error.
TEST(Cli, ReplayNamesWhatItSkipsAndNeedsARecord) {
    const auto dir = common::test::testDirectory();
    const std::string records = (dir / "records").string();
    ASSERT_EQ(run(kReferee + kPlayers + " --seed 3 --records " + records), 0);
    common::test::writeText(dir / "records" / "notes.txt", "mine\n");
    const std::string text = output(kReferee + " replay " + records);
    EXPECT_NE(text.find("notes.txt: skipped"), std::string::npos) << text;
    EXPECT_NE(text.find("1 games, 0 with errors"), std::string::npos) << text;
    std::filesystem::create_directories(dir / "empty");
    EXPECT_EQ(run(kReferee + " replay " + (dir / "empty").string()), 2);
    EXPECT_EQ(run(kReferee + " replay " + (dir / "records" / "notes.txt").string()), 2);
}

// `torneio replay FILE` checks a record by the rules and prints the game; `--seat N` prints what
// that seat saw, which holds no other seat's private event; a tampered record is refused.
TEST(Cli, TorneioReplayPrintsAGameAndASeatsView) {
    const fs::path dir = common::test::testDirectory() / "records";
    ASSERT_EQ(run(kReferee + kPlayers + " --seed 3 --records " + dir.string()), 0);
    const std::string file = recordPath(dir.string(), 0);
    const std::string player = TORNEIO_PLAYER;
    const std::string whole = output(player + " replay " + file);
    EXPECT_NE(whole.find("seat 1: setup king"), std::string::npos) << whole;
    EXPECT_NE(whole.find("seat 2: setup king"), std::string::npos) << whole;
    EXPECT_NE(whole.find("\nresult: "), std::string::npos) << whole;
    const std::string seen = output(player + " replay " + file + " --seat 1");
    EXPECT_NE(seen.find("(as seen by seat 1)"), std::string::npos) << seen;
    EXPECT_EQ(seen.find("seat 2: "), std::string::npos) << seen;
    EXPECT_EQ(seen.find("(to seat 2)"), std::string::npos) << seen;
    EXPECT_NE(seen.find("(to seat 1)"), std::string::npos) << seen;
    const std::string json = output(player + " replay " + file + " --seat 2 --json");
    EXPECT_NE(json.find("\"view\":2"), std::string::npos) << json.substr(0, 300);
    // A record whose first "moved" event names the wrong seat no longer matches the rules.
    std::string text = common::test::readText(file);
    const auto at = text.find("event moved 1");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 13, "event moved 2");
    const std::string tampered = (common::test::testDirectory() / "tampered.jsonl").string();
    common::test::writeText(tampered, text);
    EXPECT_EQ(run(player + " replay " + tampered), 1);
    EXPECT_EQ(run(player + " replay"), 2);
    EXPECT_EQ(run(player + " replay " + file + " --seat 3"), 2);
}

// The case of 4-seat games on a large board: every seat stops reading once it is eliminated,
// while the survivors play on for many rounds; the public events pile up in the pipes of the
// eliminated ones. The referee drops them (no fault: they are out already) and every game ends.
TEST(Cli, EliminatedSeatsThatStopReadingAreDroppedAndTheGamesEnd) {
    const fs::path dir = common::test::testDirectory();
    const std::string log = (dir / "stderr").string();
    const std::string text = output(
        "(timeout 240 " + kReferee + " --player name=d,cmd=" + TORNEIO_HOSTILE +
        ",arg=deafwhenout --seats 4 --params 'board=16 rounds=100000' --decision-ms 500" +
        " --timeout-start 1000 --seed 901 --games 2 --log-level info --log-dir '' 2>" + log + ")");
    EXPECT_NE(text.find("Results of 2 games"), std::string::npos) << text;
    const std::string messages = common::test::readText(log);
    EXPECT_NE(messages.find("eliminated, dropped: its input took no lines within 500 ms"),
              std::string::npos)
        << messages.substr(0, 2000);
    EXPECT_EQ(messages.find("disqualified"), std::string::npos) << messages.substr(0, 2000);
}

// The report's columns count characters, not bytes: names with letters beyond ASCII (several
// bytes each in UTF-8) line up with the others.
TEST(Cli, ReportColumnsCountCharactersNotBytes) {
    const std::string names[] = {"J\xC3\xB6rg",
                                 "\xC3\x89milie-\xC3\xA0-la-pla\xC3\xA7"
                                 "a",
                                 "ann"};
    std::string players;
    for (const std::string& name : names)
        players += std::string(" --player name=") + name + ",cmd=" + TORNEIO_PLAYER;
    const std::string text = output(kReferee + players + " --seed 4 --log-dir ''");
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_GE(lines.size(), 5u) << text;
    // The characters up to the end of the sixth column ("faults" and its counts).
    const auto columnsEnd = [](const std::string& line) {
        const auto tokens = common::splitWhitespace(line);
        EXPECT_GE(tokens.size(), 6u) << line;
        if (tokens.size() < 6) return std::size_t{0};
        const auto end =
            static_cast<std::size_t>(tokens[5].data() + tokens[5].size() - line.data());
        return common::characterCount(std::string_view(line).substr(0, end));
    };
    const std::size_t header = columnsEnd(lines[1]);
    for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(columnsEnd(lines[i]), header) << text;
}

// protocol.md names the seat seed's function exactly: BLAKE2b with an 8-byte output, which
// is not the first 8 bytes of a longer BLAKE2b digest.
TEST(Docs, ProtocolNamesTheSeedDigestLength) {
    std::string lines = common::test::readText(TORNEIO_PROTOCOL_MD);
    std::replace(lines.begin(), lines.end(), '\n', ' ');
    std::string text;  // the words of protocol.md, one blank between each two
    for (const auto word : common::splitWhitespace(lines)) text += std::string(word) + " ";
    EXPECT_NE(text.find("BLAKE2b with an 8-byte output"), std::string::npos);
    EXPECT_EQ(text.find("gets the first 8 bytes"), std::string::npos);
}

}  // namespace
}  // namespace torneio::referee
