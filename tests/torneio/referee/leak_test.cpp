// No information leaks through the protocol (D8): every line a seat receives from the referee
// is a function of that seat's view. For random games of 2, 3 and 4 seats, a seat's received
// lines are recorded; then the same game is replayed with hidden facts of the other seats
// changed (their set-ups' strengths, their moves, withdrawals and reward placements), keeping
// only changes after which the game is still legal and its public course the same; the seat,
// the same in-process player with the same seed, must receive byte-identical lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "common/random.h"
#include "common/text.h"
#include "torneio/referee/game.h"
#include "torneio/rules/view.h"

namespace torneio::referee {
namespace {

// TranscriptSeat: an in-process `torneio` player whose received lines are kept.
class TranscriptSeat final : public Seat {
  public:
    explicit TranscriptSeat(const SeatSpec& spec) : inner_(openSeat(spec, "").value()) {}
    bool send(std::string_view line) override {
        received_.emplace_back(line);
        return inner_->send(line);
    }
    common::ReadStatus receive(std::string& line, common::SteadyClock::time_point d) override {
        return inner_->receive(line, d);
    }
    void close() override { inner_->close(); }
    bool open() const override { return inner_->open(); }
    const std::vector<std::string>& received() const { return received_; }

  private:
    std::unique_ptr<Seat> inner_;
    std::vector<std::string> received_;
};

// ScriptedSeat: answers the protocol with a fixed list of replies, one per request.
class ScriptedSeat final : public Seat {
  public:
    explicit ScriptedSeat(std::deque<std::string> replies) : replies_(std::move(replies)) {}
    bool send(std::string_view line) override {
        if (line == "torneio") out_.push_back("torneiook");
        if (line == "isready") out_.push_back("readyok");
        if (line.starts_with("request")) {
            out_.push_back(replies_.empty() ? "out of script" : replies_.front());
            if (!replies_.empty()) replies_.pop_front();
        }
        return true;
    }
    common::ReadStatus receive(std::string& line, common::SteadyClock::time_point) override {
        if (out_.empty()) return common::ReadStatus::Timeout;
        line = out_.front();
        out_.pop_front();
        return common::ReadStatus::Line;
    }
    void close() override {}
    bool open() const override { return true; }
    bool finished() const { return replies_.empty(); }

  private:
    std::deque<std::string> replies_;
    std::deque<std::string> out_;
};

struct Step {
    int seat = -1;
    Action action;
};

std::vector<Step> stepsOf(const Record& record) {
    std::vector<Step> steps;
    for (const RecordEntry& e : record.entries)
        if (e.kind == RecordEntry::Kind::Action) steps.push_back({e.seat, e.action});
    return steps;
}

// The state after the first `count` steps (all legal by construction of the caller).
State prefix(const Params& params, const std::vector<Step>& steps, std::size_t count) {
    State state = State::create(params).value();
    for (std::size_t i = 0; i < count; ++i) (void)state.apply(steps[i].seat, steps[i].action);
    return state;
}

// What `viewer` is told along the steps (its visible events and its requests), or nothing when
// the steps are not a legal game played to its end.
std::optional<std::vector<std::string>> toldTo(const Params& params, const std::vector<Step>& steps,
                                               int viewer) {
    State state = State::create(params).value();
    std::vector<std::string> lines;
    std::size_t sent = 0;
    const auto forward = [&] {
        for (const Event& e : visibleEvents(state, viewer, sent))
            lines.push_back(formatEvent(e, state.geometry()));
        sent = state.events().size();
    };
    for (const Step& step : steps) {
        forward();
        if (state.over()) return std::nullopt;
        if (state.toDecide() == viewer)
            lines.push_back(formatRequest(state.request(), state.geometry()));
        if (!state.apply(step.seat, step.action)) return std::nullopt;
    }
    forward();
    if (!state.over()) return std::nullopt;
    return lines;
}

// Other replies the deciding seat could have made at step i.
std::vector<Action> alternatives(const State& state, const Action& played, common::Random& random) {
    const Request& request = state.request();
    const OwnPieces& own = state.pieces(request.seat);
    std::vector<Action> options;
    if (request.kind == RequestKind::SetUp) {
        SetUp permuted = played.setUp;
        std::sort(permuted.strengths.begin(), permuted.strengths.end());
        do options.push_back(setUpAction(permuted));
        while (std::next_permutation(permuted.strengths.begin(), permuted.strengths.end()));
        for (int i = 0; i < 4; ++i)
            options.push_back(randomAction(request, own, state.geometry(), random));
    } else if (request.kind != RequestKind::RetreatOrder) {  // an order is public (G9)
        options = legalActions(request, own, state.geometry());
        std::erase_if(options, [](const Action& a) { return a.kind == ActionKind::Combat; });
    }
    std::erase(options, played);
    random.shuffle(std::span<Action>(options));
    return options;
}

// Changes as many hidden decisions of the seats other than `viewer` as it can while what the
// viewer is told stays the same. Counts the changes by kind of action.
std::vector<Step> hideDifferently(const Params& params, std::vector<Step> steps, int viewer,
                                  std::uint64_t seed, std::array<int, 7>& changed) {
    const auto told = toldTo(params, steps, viewer);
    EXPECT_TRUE(told.has_value());
    common::Random random(seed);
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].seat != viewer && steps[i].action.kind != ActionKind::Combat &&
            steps[i].action.kind != ActionKind::Order)
            candidates.push_back(i);
    random.shuffle(std::span<std::size_t>(candidates));
    if (candidates.size() > 80) candidates.resize(80);
    for (std::size_t i : candidates) {
        const State before = prefix(params, steps, i);
        int tries = 0;
        for (const Action& other : alternatives(before, steps[i].action, random)) {
            if (++tries > 6) break;
            std::vector<Step> changedSteps = steps;
            changedSteps[i].action = other;
            if (toldTo(params, changedSteps, viewer) != told) continue;
            ++changed[static_cast<std::size_t>(other.kind)];
            steps = std::move(changedSteps);
            break;
        }
    }
    return steps;
}

// Table: the seats of one game; the viewer's is a TranscriptSeat of its spec, every other one is
// made by `other(seat)`; all have had their handshake.
struct Table {
    std::vector<std::unique_ptr<Seat>> owned;
    std::vector<Seat*> seats;
    TranscriptSeat* watched = nullptr;
};

Table seatTable(const std::vector<SeatSpec>& specs, int viewer,
                const std::function<std::unique_ptr<Seat>(int)>& other) {
    Table table;
    for (int s = 0; s < static_cast<int>(specs.size()); ++s) {
        const SeatSpec& spec = specs[static_cast<std::size_t>(s)];
        if (s == viewer) {
            auto seat = std::make_unique<TranscriptSeat>(spec);
            table.watched = seat.get();
            table.owned.push_back(std::move(seat));
        } else {
            table.owned.push_back(other(s));
        }
        EXPECT_TRUE(handshake(*table.owned.back(), spec, Limits{}).ok());
        table.seats.push_back(table.owned.back().get());
    }
    return table;
}

SeatSpec inProcess(const std::string& name, const std::string& kind, int seed) {
    return SeatSpec{
        name, SeatKind::InProcess, "", {}, {{"Player", kind}, {"Seed", std::to_string(seed)}}};
}

TEST(NoLeak, EverySeatReceivesTheSameLinesWhenOthersHideDifferentlyD8) {
    std::array<int, 7> changed{};
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (int viewer = 0; viewer < seats; ++viewer) {
            const std::string kind = viewer % 2 == 0 ? "random" : "heuristic";
            const Params params = defaultParams(seats);
            const GameSetup setup{
                params, static_cast<std::uint64_t>(100 * seats + viewer), {}, {}, {}, {}, {}};
            GameSetup named = setup;
            std::vector<SeatSpec> specs;
            for (int s = 0; s < seats; ++s) {
                specs.push_back(
                    inProcess("p" + std::to_string(s + 1), s == viewer ? kind : "random", s));
                named.names.push_back(specs.back().name);
            }
            // The game as played.
            Table table = seatTable(specs, viewer, [&](int s) {
                return openSeat(specs[static_cast<std::size_t>(s)], "").value();
            });
            const GameResult played = playGame(table.seats, named, Limits{});
            ASSERT_TRUE(played.faults.empty());

            // The same game with hidden facts changed, the others replaying a script.
            const std::vector<Step> steps = stepsOf(played.record);
            const std::vector<Step> hidden = hideDifferently(
                params, steps, viewer, static_cast<std::uint64_t>(seats * 10 + viewer), changed);
            std::vector<ScriptedSeat*> scripts;
            Table replay = seatTable(specs, viewer, [&](int s) {
                std::deque<std::string> replies;
                for (const Step& step : hidden)
                    if (step.seat == s)
                        replies.push_back(formatAction(step.action, Geometry(params)));
                auto seat = std::make_unique<ScriptedSeat>(std::move(replies));
                scripts.push_back(seat.get());
                return std::unique_ptr<Seat>(std::move(seat));
            });
            const GameResult replayed = playGame(replay.seats, named, Limits{});
            ASSERT_TRUE(replayed.faults.empty()) << replayed.faults.front().detail;
            for (const ScriptedSeat* script : scripts) EXPECT_TRUE(script->finished());
            EXPECT_EQ(stepsOf(replayed.record).size(), hidden.size());
            EXPECT_EQ(replay.watched->received(), table.watched->received())
                << seats << " seats, seat " << viewer + 1;
            if (hidden.size() == steps.size()) {
                EXPECT_FALSE(replayed.record == played.record) << "nothing hidden was changed";
            }
        }
    }
    // Every kind of hidden fact was changed somewhere (set-ups, moves, reward placements);
    // withdrawals only come after combats without a winner, which are rare.
    EXPECT_GT(changed[static_cast<std::size_t>(ActionKind::SetUp)], 0);
    EXPECT_GT(changed[static_cast<std::size_t>(ActionKind::Move)], 0);
    EXPECT_GT(changed[static_cast<std::size_t>(ActionKind::Reward)], 0);
    std::cout << "hidden decisions changed: set-ups " << changed[0] << ", moves " << changed[1]
              << ", passes " << changed[3] << ", withdrawals " << changed[5] << ", rewards "
              << changed[6] << "\n";
}

// ---- Seeds -----------------------------------------------------------------------------------
// A seat's seed (its `newgame` line) must tell it nothing of the game's seed or of another seat's:
// with the invertible mix used before (seat seed = mixSeed(game seed, seat + 1)), a seat
// recovered the game's seed from its own and then every other seat's, and so the set-up of any
// deterministic opponent program before the first move.

// The mix of before (common::mixSeed at the time: splitmix64 of seed ^ stream * K) and its inverse.
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL, kStreamMul = 0xd1b54a32d192ed03ULL;
constexpr std::uint64_t kMul1 = 0xbf58476d1ce4e5b9ULL, kMul2 = 0x94d049bb133111ebULL;

std::uint64_t oldMix(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t z = (seed ^ (stream * kStreamMul)) + kGolden;
    z = (z ^ (z >> 30)) * kMul1;
    z = (z ^ (z >> 27)) * kMul2;
    return z ^ (z >> 31);
}

std::uint64_t inverseOfOddMultiplier(std::uint64_t a) {
    std::uint64_t x = a;  // Newton's iteration: each step doubles the correct low bits
    for (int i = 0; i < 6; ++i) x *= 2 - a * x;
    return x;
}

std::uint64_t undoXorShift(std::uint64_t y, int shift) {
    std::uint64_t x = y;
    for (int i = 0; i < 64 / shift + 1; ++i) x = y ^ (x >> shift);
    return x;
}

std::uint64_t oldUnmix(std::uint64_t mixed, std::uint64_t stream) {
    std::uint64_t z = undoXorShift(mixed, 31) * inverseOfOddMultiplier(kMul2);
    z = undoXorShift(z, 27) * inverseOfOddMultiplier(kMul1);
    z = undoXorShift(z, 30) - kGolden;
    return z ^ (stream * kStreamMul);
}

// The seed in a `newgame seat <n> seed <s> ...` line.
std::uint64_t newGameSeed(const std::vector<std::string>& received) {
    for (const std::string& line : received)
        if (line.starts_with("newgame ")) {
            const auto tokens = common::splitWhitespace(line);
            return common::parseSeed(tokens.at(4)).value();
        }
    ADD_FAILURE() << "no newgame line";
    return 0;
}

// OwnSeedBlindSeat: an in-process player that never sees its own seed (its `newgame` line comes
// with seed 0), so that its play does not depend on it.
class OwnSeedBlindSeat final : public Seat {
  public:
    explicit OwnSeedBlindSeat(const SeatSpec& spec) : inner_(openSeat(spec, "").value()) {}
    bool send(std::string_view line) override {
        if (!line.starts_with("newgame ")) return inner_->send(line);
        auto tokens = common::splitWhitespace(line);
        std::string blind;
        for (std::size_t i = 0; i < tokens.size(); ++i)
            blind += (i ? " " : "") + std::string(i == 4 ? "0" : tokens[i]);
        return inner_->send(blind);
    }
    common::ReadStatus receive(std::string& line, common::SteadyClock::time_point d) override {
        return inner_->receive(line, d);
    }
    void close() override { inner_->close(); }
    bool open() const override { return inner_->open(); }

  private:
    std::unique_ptr<Seat> inner_;
};

// The lines every seat of one game received (in-process heuristic players), seats given seeds.
std::vector<std::vector<std::string>> transcripts(int seats, const GameSetup& setup,
                                                  bool othersBlind) {
    std::vector<SeatSpec> specs;
    for (int s = 0; s < seats; ++s)
        specs.push_back(inProcess("p" + std::to_string(s), "heuristic", 0));
    std::vector<std::unique_ptr<TranscriptSeat>> watched;
    std::vector<std::unique_ptr<Seat>> owned;
    std::vector<Seat*> bySeat;
    for (int s = 0; s < seats; ++s) {
        const SeatSpec& spec = specs[static_cast<std::size_t>(s)];
        if (s == 0 || !othersBlind)
            owned.push_back(std::make_unique<TranscriptSeat>(spec));
        else
            owned.push_back(std::make_unique<OwnSeedBlindSeat>(spec));
        EXPECT_TRUE(handshake(*owned.back(), spec, Limits{}).ok());
        bySeat.push_back(owned.back().get());
    }
    const GameResult result = playGame(bySeat, setup, Limits{});
    EXPECT_TRUE(result.faults.empty());
    std::vector<std::vector<std::string>> lines;
    for (const auto& seat : owned)
        if (const auto* transcript = dynamic_cast<const TranscriptSeat*>(seat.get()))
            lines.push_back(transcript->received());
    return lines;
}

TEST(Seeds, TheInverseOfTheOldMixFindsNothing) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t game : {1ull, 42ull, 0xfeedfacecafebeefull}) {
            const GameSetup setup{defaultParams(seats), game, {}, {}, {}, {}, {}};
            const auto lines = transcripts(seats, setup, false);
            ASSERT_EQ(lines.size(), static_cast<std::size_t>(seats));
            std::vector<std::uint64_t> given;
            for (const auto& received : lines) given.push_back(newGameSeed(received));
            for (int s = 0; s < seats; ++s) {
                const auto mine = given[static_cast<std::size_t>(s)];
                EXPECT_EQ(mine, seatSeed(game, s));
                // The old attack: unmix the own seed, then mix again for the others.
                const std::uint64_t guessedGame = oldUnmix(mine, static_cast<std::uint64_t>(s + 1));
                EXPECT_EQ(oldMix(guessedGame, static_cast<std::uint64_t>(s + 1)), mine);
                EXPECT_NE(guessedGame, game);
                for (int other = 0; other < seats; ++other) {
                    if (other == s) continue;
                    const auto theirs = given[static_cast<std::size_t>(other)];
                    EXPECT_NE(theirs, mine);
                    EXPECT_NE(oldMix(guessedGame, static_cast<std::uint64_t>(other + 1)), theirs);
                    EXPECT_NE(oldMix(mine, static_cast<std::uint64_t>(other + 1)), theirs);
                }
            }
        }
    }
}

// No fixed relation between two seats' seeds: over many games, their difference and their
// exclusive-or take a new value every game.
TEST(Seeds, TwoSeatsSeedsHaveNoFixedRelation) {
    std::set<std::uint64_t> differences, exclusive;
    constexpr int kGames = 200;
    for (std::uint64_t game = 0; game < kGames; ++game) {
        differences.insert(seatSeed(game, 1) - seatSeed(game, 0));
        exclusive.insert(seatSeed(game, 1) ^ seatSeed(game, 0));
    }
    EXPECT_EQ(differences.size(), static_cast<std::size_t>(kGames));
    EXPECT_EQ(exclusive.size(), static_cast<std::size_t>(kGames));
}

// Another seat's seed reaches this seat through no line: with the others playing in a way that
// does not depend on their seeds, changing their seeds leaves every line this seat receives
// byte-identical. The control: when their play does depend on their seeds, the lines change,
// so the comparison can fail.
TEST(Seeds, AnotherSeatsSeedLeavesThisSeatsInputsByteIdentical) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        GameSetup first{defaultParams(seats), 7, {}, {}, {}, {}, {}};
        GameSetup second = first;
        for (int s = 0; s < seats; ++s) {
            first.seatSeeds.push_back(seatSeed(7, s));
            second.seatSeeds.push_back(s == 0 ? seatSeed(7, 0) : seatSeed(8, s));
        }
        EXPECT_EQ(transcripts(seats, first, true).front(), transcripts(seats, second, true).front())
            << seats << " seats";
        EXPECT_NE(transcripts(seats, first, false).front(),
                  transcripts(seats, second, false).front())
            << seats << " seats: the control";
    }
}

}  // namespace
}  // namespace torneio::referee
