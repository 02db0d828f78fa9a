// Tests of the `ai` player: its belief and ISMCTS search read only the seat's
// knowledge and events (D8); every determinization it samples agrees with the public events;
// the same seed and budget give the same decisions; it beats the heuristic player.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/random.h"
#include "torneio/play/ai/ai.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/ai/belief.h"
#include "torneio/play/ai/selfplay.h"
#include "torneio/play/heuristic.h"
#include "torneio/rules/distance.h"
#include "torneio/rules/view.h"

namespace torneio::play {
namespace {

AiConfig smallConfig(int simulations) {
    AiConfig config;
    config.limits.simulations = simulations;
    config.particles = 64;
    return config;
}

// ---- D8: hidden facts of other seats do not change the AI's decisions -------------------------

// Two games with the same set-up for seat 1 (the AI) and different secret set-ups for seat 2
// (king, squares, strengths). Seat 2 only moves (G6: the public event is "moved", nothing
// more), so seat 1's event lines stay identical as long as nobody fights; the AI's decisions
// must then be identical too, at a fixed seed and budget, with either decision policy (the
// `Policy` option reaches both through the protocol).
void checkHiddenFactsDoNotChangeDecisions(DecisionPolicy policy) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    torneio::SetUp mine;
    mine.king = g.parse("a1").value();
    mine.warriors = {g.parse("c1").value(), g.parse("e1").value(), g.parse("g1").value()};
    mine.strengths = {5, 3, 2};
    torneio::SetUp theirsA;
    theirsA.king = g.parse("b8").value();
    theirsA.warriors = {g.parse("d8").value(), g.parse("f8").value(), g.parse("h8").value()};
    theirsA.strengths = {4, 3, 3};
    torneio::SetUp theirsB;
    theirsB.king = g.parse("g7").value();
    theirsB.warriors = {g.parse("a7").value(), g.parse("c7").value(), g.parse("e7").value()};
    theirsB.strengths = {10, 0, 0};
    const std::vector<torneio::SetUp> a{mine, theirsA};
    const std::vector<torneio::SetUp> b{mine, theirsB};
    State stateA = State::withSetUps(params, a).value();
    State stateB = State::withSetUps(params, b).value();
    AiConfig config = smallConfig(60);
    config.policy = policy;
    AiPlayer aiA(config);
    AiPlayer aiB(config);
    Knowledge knowA(params, 0);
    Knowledge knowB(params, 0);
    aiA.newGame(knowA, 7);
    aiB.newGame(knowB, 7);
    std::size_t seenA = 0;
    std::size_t seenB = 0;
    const auto feed = [](const State& s, std::size_t& seen, Knowledge& k, AiPlayer& ai) {
        for (const Event& e : visibleEvents(s, 0, seen)) {
            ASSERT_TRUE(k.update(e));
            ai.observe(e, k);
        }
        seen = s.events().size();
    };
    common::Random movesA(3);
    common::Random movesB(3);
    int compared = 0;
    for (int turn = 0; turn < 40; ++turn) {
        std::vector<std::string> linesA;
        std::vector<std::string> linesB;
        for (const Event& e : visibleEvents(stateA, 0, seenA)) linesA.push_back(formatEvent(e, g));
        for (const Event& e : visibleEvents(stateB, 0, seenB)) linesB.push_back(formatEvent(e, g));
        if (linesA != linesB) break;  // a combat told seat 1 something: the games differ now
        feed(stateA, seenA, knowA, aiA);
        feed(stateB, seenB, knowB, aiB);
        if (stateA.over() || stateB.over()) break;
        if (stateA.toDecide() == 0) {
            ASSERT_EQ(stateB.toDecide(), 0);
            ASSERT_EQ(stateA.request(), stateB.request());
            const Action actionA = aiA.decide(stateA.request(), knowA);
            const Action actionB = aiB.decide(stateB.request(), knowB);
            ASSERT_EQ(actionA, actionB) << "decision " << compared;
            ++compared;
            ASSERT_TRUE(stateA.apply(0, actionA));
            ASSERT_TRUE(stateB.apply(0, actionB));
        } else {  // seat 2 moves a random piece (never a combat)
            const auto move = [](State& s, common::Random& r) {
                std::vector<Action> legal = legalActions(s.request(), s.pieces(1), s.geometry());
                std::erase_if(legal, [](const Action& x) { return x.kind != ActionKind::Move; });
                ASSERT_FALSE(legal.empty());
                ASSERT_TRUE(s.apply(1, legal[r.index(legal.size())]));
            };
            move(stateA, movesA);
            move(stateB, movesB);
        }
    }
    EXPECT_GE(compared, 3);
}

TEST(AiTest, HiddenFactsOfOtherSeatsDoNotChangeDecisions) {
    checkHiddenFactsDoNotChangeDecisions(DecisionPolicy::Hunt);
}

TEST(AiTest, HiddenFactsOfOtherSeatsDoNotChangeSearchDecisions) {
    checkHiddenFactsDoNotChangeDecisions(DecisionPolicy::Search);
}

// The model search reads only the seat's knowledge and belief: two games that differ only in
// the opponent's hidden pieces give it the same decisions for the same seed.
TEST(AiTest, HiddenFactsOfOtherSeatsDoNotChangeModelSearchDecisions) {
    checkHiddenFactsDoNotChangeDecisions(DecisionPolicy::Ismcts);
}

// ---- Every sampled determinization agrees with the public events ------------------------------

// Pin: a public fact about one piece of an opponent (G7, G9, D8), as an independent checker
// derives it from the event lines: its square, what kind of piece (king, warrior, any), its
// least strength, and the seat's move count and gained points when it was seen.
struct Pin {
    int seat = -1;
    Square square = kNoSquare;
    int kind = 0;  // 0 any, 1 king, 2 warrior
    int strength = -1;
    int movesAt = 0;
    int gainedAt = 0;
    bool absent = false;  // "no piece of the seat here" (a combat without its reveal)
};

// Checker: replays seat 1's visible events and checks a sampled StartPosition against them.
class Checker {
  public:
    explicit Checker(const Params& params) : g_(params) {}

    void see(const Event& e) {
        const auto s = static_cast<std::size_t>(std::max(0, e.seat));
        switch (e.kind) {
            case EventKind::Moved:
            case EventKind::Withdrew:
                ++moves_[s];
                break;
            case EventKind::Combat:
                square_ = e.square;
                revealed_ = {};
                if (e.seat != 0) add(e.seat, e.square, 2, -1, false);
                break;
            case EventKind::Unopposed:
                for (int o = 1; o < g_.seats(); ++o)
                    if (o != e.seat) add(o, e.square, 0, -1, true);
                break;
            case EventKind::Reveal:
                revealed_[s] = true;
                if (e.seat != 0) {
                    lastReveal_[s] = e.value;
                    add(e.seat, square_, e.value == kKingReveal ? 1 : 2,
                        e.value == kKingReveal ? -1 : e.value, false);
                }
                break;
            case EventKind::Result:
                for (int o = 1; o < g_.seats(); ++o)
                    if (!revealed_[static_cast<std::size_t>(o)]) add(o, square_, 0, -1, true);
                break;
            case EventKind::Refused:
                if (e.seat != 0) add(e.seat, e.square, 0, -1, false);
                break;
            case EventKind::Retreat:
                if (e.seat != 0) {  // the piece jumps without a "moved": older pins of its kind go
                    std::erase_if(pins_, [&](const Pin& p) {
                        return p.seat == e.seat && (p.kind != 1 || p.absent);
                    });
                    add(e.seat, e.square, 2, -1, false);
                }
                break;
            case EventKind::Removed:
                if (e.seat != 0) {
                    ++removed_[s];
                    removedStrength_[s] += lastReveal_[s];
                    std::erase_if(pins_,
                                  [&](const Pin& p) { return p.seat == e.seat && p.kind != 1; });
                }
                break;
            case EventKind::Eliminated:
                out_[s] = true;
                break;
            case EventKind::Gained:
                gained_[s] += e.value;
                break;
            default:
                break;
        }
    }

    void check(const StartPosition& start, const Knowledge& k) const {
        ASSERT_EQ(start.pieces[0], k.own());
        for (int o = 1; o < g_.seats(); ++o) {
            const auto s = static_cast<std::size_t>(o);
            const OwnPieces& pieces = start.pieces[s];
            if (out_[s]) {
                ASSERT_FALSE(pieces.kingAlive());
                continue;
            }
            ASSERT_TRUE(pieces.kingAlive());
            int alive = 0;
            int strength = 0;
            for (int i = 0; i < kPiecesPerSeat; ++i) {
                if (!pieces[i].alive) continue;
                ++alive;
                ASSERT_TRUE(g_.onBoard(pieces[i].square));
                ASSERT_EQ(pieces.pieceOn(pieces[i].square), i);
                if (i != kKing) {
                    ASSERT_GE(pieces[i].strength, g_.params().minStrength);
                    strength += pieces[i].strength;
                }
            }
            ASSERT_EQ(alive, kPiecesPerSeat - removed_[s]) << "seat " << o;
            ASSERT_EQ(strength, g_.params().strengthTotal + gained_[s] - removedStrength_[s])
                << "seat " << o;
            for (const Pin& pin : pins_)
                if (pin.seat == o) checkPin(pin, pieces);
        }
    }

  private:
    void add(int seat, Square square, int kind, int strength, bool absent) {
        const auto s = static_cast<std::size_t>(seat);
        pins_.push_back(Pin{seat, square, kind, strength, moves_[s], gained_[s], absent});
    }

    void checkPin(const Pin& pin, const OwnPieces& pieces) const {
        const auto s = static_cast<std::size_t>(pin.seat);
        const int moves = moves_[s] - pin.movesAt;
        if (pin.absent) {
            if (moves == 0) {
                ++pinChecks_;
                if (pieces.occupies(pin.square)) ++pinFailures_;
            }
            return;
        }
        bool found = false;
        for (int i = 0; i < kPiecesPerSeat && !found; ++i) {
            const Piece& p = pieces[i];
            if (!p.alive || (pin.kind == 1 && i != kKing) || (pin.kind == 2 && i == kKing))
                continue;
            const int distance = i == kKing ? kingMoves(g_, pin.square, p.square)
                                            : chebyshev(g_, pin.square, p.square);
            if (distance > moves) continue;
            if (pin.strength >= 0 && (p.strength < pin.strength ||
                                      p.strength > pin.strength + gained_[s] - pin.gainedAt))
                continue;
            found = true;
        }
        ++pinChecks_;
        if (!found) ++pinFailures_;
    }

  public:
    // Pins (reveals, calls, refusals, retreats, absences) checked, and those a sample broke.
    mutable long pinChecks_ = 0;
    mutable long pinFailures_ = 0;

  private:
    Geometry g_;
    Square square_ = kNoSquare;
    std::array<bool, kMaxSeats> revealed_{};
    std::array<bool, kMaxSeats> out_{};
    std::array<int, kMaxSeats> moves_{};
    std::array<int, kMaxSeats> gained_{};
    std::array<int, kMaxSeats> removed_{};
    std::array<int, kMaxSeats> removedStrength_{};
    std::array<int, kMaxSeats> lastReveal_{};
    std::vector<Pin> pins_;
};

void checkSamples(int seats, int games) {
    const Params params = defaultParams(seats);
    int resets = 0;
    long pinChecks = 0;
    long pinFailures = 0;
    for (int game = 0; game < games; ++game) {
        std::vector<std::unique_ptr<Player>> owned;
        std::vector<Player*> players;
        for (int s = 0; s < seats; ++s) {
            owned.push_back(game % 2 == 0 ? makeHeuristicPlayer() : makeRandomPlayer());
            players.push_back(owned.back().get());
        }
        Belief belief(params, 0, 64, static_cast<std::uint64_t>(game));
        Checker checker(params);
        std::size_t seen = 0;
        common::Random random(static_cast<std::uint64_t>(game) + 100);
        const auto after = [&](const State& state, std::span<const Knowledge> known) {
            for (const Event& e : visibleEvents(state, 0, seen)) {
                belief.observe(e, known[0]);
                checker.see(e);
            }
            seen = state.events().size();
            if (state.eliminated(0) || state.over()) return;
            for (int k = 0; k < 4; ++k) checker.check(belief.sample(known[0], random), known[0]);
        };
        auto played = playGame(params, players, static_cast<std::uint64_t>(game), after);
        ASSERT_TRUE(played) << played.error();
        if (::testing::Test::HasFatalFailure()) return;
        resets += belief.resets();
        pinChecks += checker.pinChecks_;
        pinFailures += checker.pinFailures_;
    }
    ::testing::Test::RecordProperty("resets", resets);
    // Own pieces, piece counts and strength sums hold exactly (asserted above). The pins are
    // exact while the particles' repairs succeed; forced repairs (resets) can break old pins.
    // Known gap (docs/torneio-strength.md): bounded here, not yet zero.
    std::printf(
        "pin checks %ld, broken %ld (%.2f%%), resets %d\n", pinChecks, pinFailures,
        100.0 * static_cast<double>(pinFailures) / static_cast<double>(std::max(1L, pinChecks)),
        resets);
    EXPECT_LE(static_cast<double>(pinFailures), 0.05 * static_cast<double>(pinChecks));
}

TEST(AiTest, SamplesAgreeWithPublicEventsTwoSeats) {
    checkSamples(2, 12);
}
TEST(AiTest, SamplesAgreeWithPublicEventsFourSeats) {
    checkSamples(4, 6);
}

// ---- Determinism ------------------------------------------------------------------------------

TEST(AiTest, SameSeedAndBudgetGiveSameGame) {
    const Params params = defaultParams(3);
    std::vector<std::vector<Decision>> histories;
    for (int run = 0; run < 2; ++run) {
        AiPlayer ai(smallConfig(40));
        auto h1 = makeHeuristicPlayer();
        auto h2 = makeHeuristicPlayer();
        std::vector<Player*> players{&ai, h1.get(), h2.get()};
        auto played = playGame(params, players, 42);
        ASSERT_TRUE(played) << played.error();
        histories.push_back(played.value().history());
    }
    EXPECT_EQ(histories[0], histories[1]);
}

// The `Policy` option (ai_options.h) picks the decision policy: `search` runs ISMCTS within the
// Simulations budget, `hunt` (the default) does not search; both are deterministic by seed.
TEST(AiTest, PolicyOptionSelectsTheSearchAndStaysDeterministic) {
    const Params params = defaultParams(2);
    for (const char* policy : {"hunt", "search"}) {
        std::vector<std::vector<Decision>> histories;
        for (int run = 0; run < 2; ++run) {
            common::Options options;
            addAiOptions(options);
            ASSERT_TRUE(options.set("Policy", policy));
            ASSERT_TRUE(options.set("Simulations", "25"));
            ASSERT_TRUE(options.set("Particles", "32"));
            EXPECT_FALSE(options.set("Policy", "minimax"));  // not a choice: value kept
            EXPECT_EQ(options.stringValue("Policy"), policy);
            AiPlayer ai;
            ai.configure(options);
            EXPECT_EQ(ai.config().policy, std::string_view(policy) == "search"
                                              ? DecisionPolicy::Search
                                              : DecisionPolicy::Hunt);
            auto h = makeHeuristicPlayer();
            std::vector<Player*> players{&ai, h.get()};
            Params shortGame = params;
            shortGame.maxRounds = 30;
            auto played = playGame(shortGame, players, 7);
            ASSERT_TRUE(played) << played.error();
            histories.push_back(played.value().history());
            if (std::string_view(policy) == "search")
                EXPECT_EQ(ai.lastStats().simulations, 25);
            else
                EXPECT_EQ(ai.lastStats().simulations, 0);
        }
        EXPECT_EQ(histories[0], histories[1]) << policy;
    }
}

// The `Level` option (ai_options.h kAiLevels): easy and normal set RandomMoves' percent
// whatever RandomMoves says; strong keeps RandomMoves as set; an unknown level is refused.
TEST(AiTest, LevelOptionSetsThePercentOfRandomDecisions) {
    const struct {
        const char* level;
        const char* randomMoves;
        int expected;
    } cases[] = {
        {"easy", "0", 90},  {"normal", "0", 50},  {"strong", "0", 0},
        {"easy", "30", 90}, {"strong", "30", 30},
    };
    for (const auto& c : cases) {
        common::Options options;
        addAiOptions(options);
        ASSERT_TRUE(options.set("RandomMoves", c.randomMoves));
        ASSERT_TRUE(options.set("Level", c.level));
        EXPECT_FALSE(options.set("Level", "grandmaster"));
        AiPlayer ai;
        ai.configure(options);
        EXPECT_EQ(ai.config().randomMoves, c.expected) << c.level << " " << c.randomMoves;
    }
    EXPECT_EQ(kAiLevels[0].randomMoves, 90);
    EXPECT_EQ(kAiLevels[std::size(kAiLevels) - 1].randomMoves, 0) << "the last level is full";
}

// The guided policy with 0 simulations plays exactly the hunt (whole games, the same
// seeds), and with simulations it stays deterministic and spends exactly its budget.
TEST(AiTest, GuidedWithoutSimulationsIsTheHuntAndStaysDeterministic) {
    Params shortGame = defaultParams(2);
    shortGame.maxRounds = 40;
    auto play = [&](const char* policy, const char* simulations, int* spent) {
        common::Options options;
        addAiOptions(options);
        EXPECT_TRUE(options.set("Policy", policy));
        EXPECT_TRUE(options.set("Simulations", simulations));
        EXPECT_TRUE(options.set("Particles", "32"));
        AiPlayer ai;
        ai.configure(options);
        auto h = makeHeuristicPlayer();
        std::vector<Player*> players{&ai, h.get()};
        auto played = playGame(shortGame, players, 11);
        EXPECT_TRUE(played) << played.error();
        if (spent) *spent = ai.lastStats().simulations;
        return played ? played.value().history() : std::vector<Decision>{};
    };
    EXPECT_EQ(play("guided", "0", nullptr), play("hunt", "0", nullptr));
    int spent = 0;
    const auto guided = play("guided", "20", &spent);
    EXPECT_EQ(guided, play("guided", "20", nullptr));
    EXPECT_NE(guided, play("hunt", "0", nullptr)) << "the rollouts change some decision";
    EXPECT_EQ(spent, 20);
}

// ---- The hunt policy on a given map ------------------------------------------------------------

// Seat 0 on 8x8 with its king on a1 and warriors on c1, e1, g1 (strengths 4, 3, 3).
Knowledge southSeat(const Params& params) {
    const Geometry g(params);
    OwnPieces own;
    own[kKing] = {g.at(0, 0), 0, true};
    own[1] = {g.at(2, 0), 4, true};
    own[2] = {g.at(4, 0), 3, true};
    own[3] = {g.at(6, 0), 3, true};
    return Knowledge(params, 0, own);
}

BeliefMap certainKingMap(const Geometry& g, Square king) {
    BeliefMap map;
    const auto squares = static_cast<std::size_t>(g.squareCount());
    map.king.assign(squares, 0.0);
    map.warriors.assign(squares, 0.0);
    for (auto& s : map.stronger) s.assign(squares, 0.0);
    map.king[static_cast<std::size_t>(king)] = 1.0;
    return map;
}

// A map that is sure of the enemy king (what the omniscient comparison player is handed): a
// warrior on the king's square calls the combat there (G11); one step away, a warrior steps on.
TEST(AiTest, HuntOnCertainMapCallsCombatOrStepsOntoTheKing) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const Knowledge k = southSeat(params);
    Request turn;
    turn.kind = RequestKind::Turn;
    turn.seat = 0;
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        common::Random random(seed);
        EXPECT_EQ(huntDecision(turn, k, certainKingMap(g, g.at(4, 0)), HuntWeights{}, random),
                  combatAction(g.at(4, 0)));
        const Action step =
            huntDecision(turn, k, certainKingMap(g, g.at(5, 1)), HuntWeights{}, random);
        EXPECT_EQ(step.kind, ActionKind::Move);
        EXPECT_EQ(step.square, g.at(5, 1));
    }
}

// ---- Bad input
// -----------------------------------------------------------------------------------

// Lines no model explains: seat 2 calls combats on every square of the board, one a turn, so
// that no warrior could walk there (G5) and its king could stand nowhere (a warrior of its own
// stood on each square, G5). The player takes every line without a crash, counts the
// contradictions (Belief::resets), keeps a king field that sums to 1, and still answers its
// turn with a legal action.
TEST(AiTest, ContradictoryLinesResetTheBeliefAndTheTurnStaysLegal) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    Knowledge k = southSeat(params);
    for (const bool plan : {false, true}) {
        AiConfig config;
        config.hunt.planHorizon = plan ? 4 : 0;
        AiPlayer ai(config);
        ai.newGame(k, 11);
        int round = 1;
        const auto feed = [&](const std::string& line) {
            auto event = parseEvent(line, 0, g);
            ASSERT_TRUE(event) << line;
            ASSERT_TRUE(k.update(event.value())) << line;
            ai.observe(event.value(), k);
        };
        for (Square q = 0; q < g.squareCount(); ++q) {
            const std::string square = g.name(q);
            feed("event turn 2 " + std::to_string(round));
            feed("event combat 2 " + square);
            feed("event unopposed 2 " + square);
            feed("event turn 1 " + std::to_string(round++));
            feed("event moved 1");
        }
        EXPECT_GT(ai.belief().resets(), 0);
        double total = 0;
        for (double p : ai.belief().kingField(1)) {
            EXPECT_TRUE(p >= 0 && p <= 1);
            total += p;
        }
        EXPECT_NEAR(total, 1.0, 1e-9);
        feed("event turn 1 " + std::to_string(round));
        Request turn;
        turn.kind = RequestKind::Turn;
        turn.seat = 0;
        EXPECT_TRUE(isLegal(turn, k.own(), g, ai.decide(turn, k)));
    }
}

// D5 "unopposed" on every square of the board, one after another with no move between: no
// square is left for seat 2's king under any hypothesis. The king filter restarts from the
// widest belief the last fact allows (every other square alike) and counts the reset.
TEST(AiTest, KingFilterWithNoSquareLeftRestartsUniformAndCounts) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const Knowledge k = southSeat(params);
    Belief belief(params, 0, 16, 5, AiConfig{}.kingPrior, AiConfig{}.opponentModel);
    Event unopposed;
    unopposed.kind = EventKind::Unopposed;
    unopposed.seat = 0;
    for (Square q = 0; q < g.squareCount(); ++q) {
        unopposed.square = q;
        belief.observe(unopposed, k);
    }
    EXPECT_GT(belief.resets(), 0);
    const std::vector<double>& field = belief.kingField(1);
    const Square last = g.squareCount() - 1;
    for (Square q = 0; q < g.squareCount(); ++q)
        EXPECT_NEAR(field[static_cast<std::size_t>(q)],
                    q == last ? 0.0 : 1.0 / (g.squareCount() - 1), 1e-12)
            << g.name(q);
}

// ---- Strength ----------------------------------------------------------------------------------

// A short match, seats rotated: the AI (default hunt policy) against `seats - 1` heuristic
// players, its seat moving one on per game; its score (1 a win, 1/k per survivor of a draw).
// Deterministic at fixed seeds (docs/torneio-strength.md gives the margins).
double matchScore(int seats, std::uint64_t seedBase, int games) {
    const Params params = defaultParams(seats);
    double score = 0;
    for (int game = 0; game < games; ++game) {
        AiPlayer ai{AiConfig{}};
        std::vector<std::unique_ptr<Player>> heuristics;
        std::vector<Player*> players;
        const int aiSeat = game % seats;
        for (int seat = 0; seat < seats; ++seat) {
            if (seat == aiSeat) {
                players.push_back(&ai);
                continue;
            }
            heuristics.push_back(makeHeuristicPlayer());
            players.push_back(heuristics.back().get());
        }
        auto played = playGame(params, players, static_cast<std::uint64_t>(game) + seedBase);
        if (!played) return -1;
        const Outcome& outcome = played.value().outcome();
        const unsigned bit = 1u << aiSeat;
        if (outcome.seats & bit)
            score +=
                outcome.kind == OutcomeKind::Win ? 1.0 : 1.0 / __builtin_popcount(outcome.seats);
    }
    return score / games;
}

// Two seats, 40 games: the bar is 0.65.
TEST(AiTest, BeatsHeuristicInShortMatch) {
    const double score = matchScore(2, 1000, 40);
    RecordProperty("score", std::to_string(score));
    std::printf("score %.3f\n", score);
    EXPECT_GT(score, 0.65) << "score " << score;
}

// Three seats (10x10), 36 games against two heuristic players: the fair share is 1/3, the bar
// is 0.5.
TEST(AiTest, BeatsTwoHeuristicsInShortMatch) {
    const double score = matchScore(3, 1000, 36);
    RecordProperty("score", std::to_string(score));
    std::printf("score %.3f\n", score);
    EXPECT_GT(score, 0.5) << "score " << score;
}

// The opponent model's set-up prior. Before any event the king field is the
// KingPrior's mixture: uniform over the zone with {0, 0}; with back line and corners the two
// ends of the back line hold their shares on top, it sums to 1, and weights past 1 are clamped.
TEST(AiTest, KingPriorShapesTheFieldBeforeAnyEvent) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const auto zone = g.zone(1);
    const std::vector<Square> back = backLine(g, 1);
    ASSERT_GE(back.size(), 2u);
    const auto sum = [](const std::vector<double>& field) {
        double total = 0;
        for (double p : field) total += p;
        return total;
    };
    const Belief uniform(params, 0, 16, 1, KingPrior{0, 0});
    for (Square z : zone)
        EXPECT_DOUBLE_EQ(uniform.kingField(1)[static_cast<std::size_t>(z)],
                         1.0 / static_cast<double>(zone.size()));
    const Belief modelled(params, 0, 16, 1, KingPrior{0.4, 0.3});
    const auto& field = modelled.kingField(1);
    EXPECT_NEAR(sum(field), 1.0, 1e-12);
    const double even = 0.3 / static_cast<double>(zone.size());
    const double line = 0.4 / static_cast<double>(back.size());
    EXPECT_NEAR(field[static_cast<std::size_t>(back.front())], even + line + 0.15, 1e-12);
    EXPECT_NEAR(field[static_cast<std::size_t>(back.back())], even + line + 0.15, 1e-12);
    EXPECT_NEAR(field[static_cast<std::size_t>(back[1])], even + line, 1e-12);
    for (Square z : zone) {
        if (edgeDistance(g, 1, z) == 0) continue;
        EXPECT_NEAR(field[static_cast<std::size_t>(z)], even, 1e-12);
    }
    const Belief clamped(params, 0, 16, 1, KingPrior{3.0, -1.0});
    EXPECT_NEAR(sum(clamped.kingField(1)), 1.0, 1e-12);
    EXPECT_NEAR(clamped.kingField(1)[static_cast<std::size_t>(back[1])],
                1.0 / static_cast<double>(back.size()), 1e-12);
}

// The default ai (opponent-model prior) against the ai with a uniform prior (`KingPriorBack 0`,
// `KingPriorCorners 0`), 2 seats, 60 games at fixed seeds, seats rotated.
// Measured 0.920 over 1000 games (docs/torneio-strength.md, seventh pass); the bar is 0.7.
TEST(AiTest, OpponentModelBeatsTheUniformPrior) {
    const Params params = defaultParams(2);
    AiConfig before;
    before.kingPrior = KingPrior{0, 0};
    double score = 0;
    const int games = 60;
    for (int game = 0; game < games; ++game) {
        AiPlayer modelled{AiConfig{}};
        AiPlayer uniform{before};
        const int seat = game % 2;
        std::vector<Player*> players{&modelled, &uniform};
        if (seat == 1) std::swap(players[0], players[1]);
        auto played = playGame(params, players, static_cast<std::uint64_t>(game) + 500);
        ASSERT_TRUE(played) << played.error();
        const Outcome& outcome = played.value().outcome();
        if (outcome.seats & (1u << seat)) score += outcome.kind == OutcomeKind::Win ? 1.0 : 0.5;
    }
    score /= games;
    RecordProperty("score", std::to_string(score));
    EXPECT_GT(score, 0.7) << "score " << score;
}

// BeliefModel `types` (OpponentModel::policyTypes): every turn of an opponent weighs its kinds
// of player. A long run of "moved" (a player that almost never calls a combat) puts most of
// the weight on the uniformly random mover, and a run of combat calls takes it away again;
// with `facts` a "moved" says nothing about the kinds, whose weights stay as they were.
TEST(AiTest, BeliefModelTypesWeighsTheKindsOfPlayerByTheirTurns) {
    const Params params = defaultParams(2);
    const Knowledge knowledge = southSeat(params);
    Belief facts(params, 0, 16, 1, KingPrior{}, OpponentModel{.policyTypes = false});
    Belief types(params, 0, 16, 1, KingPrior{}, OpponentModel{.policyTypes = true});
    Event moved;
    moved.kind = EventKind::Moved;
    moved.seat = 1;
    for (int turn = 0; turn < 60; ++turn) {
        facts.observe(moved, knowledge);
        types.observe(moved, knowledge);
    }
    for (double w : facts.kingMobilityWeights(1))
        EXPECT_NEAR(w, 1.0 / kKingMobilities, 1e-12) << "a move alone weighs no kind";
    constexpr std::size_t randomMover = 4;
    const auto& weights = types.kingMobilityWeights(1);
    double sum = 0;
    for (double w : weights) sum += w;
    EXPECT_NEAR(sum, 1.0, 1e-9);
    EXPECT_GT(weights[randomMover], 0.5);
    // Combat calls on squares far from the king's zone: a player that calls often is no
    // random mover.
    const Geometry g(params);
    for (int turn = 0; turn < 20; ++turn) {
        Event combat;
        combat.kind = EventKind::Combat;
        combat.seat = 1;
        combat.square = g.at(2 * (turn % 4) + 1, 3);
        types.observe(combat, knowledge);
    }
    EXPECT_LT(types.kingMobilityWeights(1)[randomMover], 0.1);
    double field = 0;
    for (double p : types.kingField(1)) field += p;
    EXPECT_NEAR(field, 1.0, 1e-9);
}

// The `BeliefModel` and `HideWeight` options (ai_options.h) reach the player's config; the
// hiding king changes some decision of a game, and each setting gives the same game twice.
TEST(AiTest, BeliefModelAndHideWeightOptionsStayDeterministic) {
    Params shortGame = defaultParams(2);
    shortGame.maxRounds = 60;
    auto play = [&](const char* model, const char* hide) {
        common::Options options;
        addAiOptions(options);
        EXPECT_TRUE(options.set("BeliefModel", model));
        EXPECT_TRUE(options.set("HideWeight", hide));
        EXPECT_FALSE(options.set("BeliefModel", "psychic"));
        EXPECT_FALSE(options.set("HideWeight", "101"));
        AiPlayer ai;
        ai.configure(options);
        EXPECT_EQ(ai.config().opponentModel.policyTypes, std::string_view(model) == "types");
        EXPECT_EQ(ai.config().hunt.hideWeight, std::atof(hide));
        AiConfig other;
        other.opponentModel.policyTypes = false;
        other.hunt.hideWeight = 0;
        AiPlayer opponent(other);
        std::vector<Player*> players{&ai, &opponent};
        auto played = playGame(shortGame, players, 23);
        EXPECT_TRUE(played) << played.error();
        return played ? played.value().history() : std::vector<Decision>{};
    };
    common::Options defaults;
    addAiOptions(defaults);
    EXPECT_EQ(defaults.stringValue("BeliefModel"), "types") << "the default, as AiConfig's";
    EXPECT_EQ(defaults.intValue("HideWeight"), kDefaultHideWeight);
    EXPECT_EQ(AiConfig{}.hunt.hideWeight, kDefaultHideWeight);
    EXPECT_TRUE(AiConfig{}.opponentModel.policyTypes);
    for (const char* model : {"facts", "types"})
        for (const char* hide : {"0", "3"}) EXPECT_EQ(play(model, hide), play(model, hide));
    EXPECT_NE(play("types", "3"), play("types", "0")) << "the king hides at some point";
}

// The `HuntPlan` option (ai_options.h) reaches HuntWeights::planHorizon; off by default; the
// planned sweep changes some decision of a game, and each setting gives the same game twice.
TEST(AiTest, HuntPlanOptionStaysDeterministic) {
    Params shortGame = defaultParams(2);
    shortGame.maxRounds = 60;
    auto play = [&](const char* plan) {
        common::Options options;
        addAiOptions(options);
        EXPECT_TRUE(options.set("HuntPlan", plan));
        EXPECT_FALSE(options.set("HuntPlan", std::to_string(kMaxHuntPlan + 1)));
        EXPECT_FALSE(options.set("HuntPlan", "-1"));
        AiPlayer ai;
        ai.configure(options);
        EXPECT_EQ(ai.config().hunt.planHorizon, std::atoi(plan));
        AiPlayer opponent;
        std::vector<Player*> players{&ai, &opponent};
        auto played = playGame(shortGame, players, 29);
        EXPECT_TRUE(played) << played.error();
        return played ? played.value().history() : std::vector<Decision>{};
    };
    common::Options defaults;
    addAiOptions(defaults);
    EXPECT_EQ(defaults.intValue("HuntPlan"), kDefaultHuntPlan);
    EXPECT_EQ(AiConfig{}.hunt.planHorizon, kDefaultHuntPlan);
    EXPECT_EQ(kDefaultHuntPlan, 0) << "measured no better (docs/torneio-strength.md, ninth pass)";
    for (const char* plan : {"0", "4"}) EXPECT_EQ(play(plan), play(plan));
    EXPECT_NE(play("4"), play("0")) << "the planned sweep decides some turn otherwise";
}

// The default ai (BeliefModel types, HideWeight 3) against the player before them
// (BeliefModel facts, HideWeight 0), 2 seats, 60 games at fixed seeds, seats rotated.
// Measured 0.727 over 1000 games (docs/torneio-strength.md, eighth pass); the bar is 0.6.
TEST(AiTest, TypesAndHidingBeatThePlayerBefore) {
    const Params params = defaultParams(2);
    AiConfig before;
    before.opponentModel.policyTypes = false;
    before.hunt.hideWeight = 0;
    double score = 0;
    const int games = 60;
    for (int game = 0; game < games; ++game) {
        AiPlayer now{AiConfig{}};
        AiPlayer then{before};
        const int seat = game % 2;
        std::vector<Player*> players{&now, &then};
        if (seat == 1) std::swap(players[0], players[1]);
        auto played = playGame(params, players, static_cast<std::uint64_t>(game) + 700);
        ASSERT_TRUE(played) << played.error();
        const Outcome& outcome = played.value().outcome();
        if (outcome.seats & (1u << seat)) score += outcome.kind == OutcomeKind::Win ? 1.0 : 0.5;
    }
    score /= games;
    RecordProperty("score", std::to_string(score));
    EXPECT_GT(score, 0.6) << "score " << score;
}

// Belief::sampleWithKingFilter draws each opponent's king from its king filter: never on a
// square the filter rules out (before any event: outside the seat's zone) nor on one of the
// sampled warriors' squares, with the frequencies of the filter (within sampling noise), and
// names the mobility hypothesis it drew from (-1 for the own seat).
TEST(AiTest, SamplesDrawTheKingFromTheKingFilter) {
    const Params params = defaultParams(2);
    const Knowledge knowledge = southSeat(params);
    const Belief belief(params, 0, 64, 3, KingPrior{0.4, 0.3}, OpponentModel{.policyTypes = true});
    const std::vector<double>& field = belief.kingField(1);
    const Geometry g(params);
    const std::vector<Square> back = backLine(g, 1);
    common::Random random(11);
    const int draws = 4000;
    int onCorner = 0;
    for (int i = 0; i < draws; ++i) {
        std::array<int, kMaxSeats> hypotheses{};
        const StartPosition start = belief.sampleWithKingFilter(knowledge, random, hypotheses);
        EXPECT_EQ(hypotheses[0], -1);
        ASSERT_GE(hypotheses[1], 0);
        ASSERT_LT(hypotheses[1], kKingMobilities);
        EXPECT_EQ(start.pieces[0], knowledge.own());
        const OwnPieces& theirs = start.pieces[1];
        const Square king = theirs[kKing].square;
        ASSERT_GT(field[static_cast<std::size_t>(king)], 0.0) << g.name(king);
        EXPECT_EQ(theirs.pieceOn(king), kKing);
        onCorner += king == back.front() ? 1 : 0;
    }
    EXPECT_NEAR(static_cast<double>(onCorner) / draws,
                field[static_cast<std::size_t>(back.front())], 0.05);
    std::array<int, kMaxSeats> h1{};
    std::array<int, kMaxSeats> h2{};
    common::Random first(5);
    common::Random second(5);
    EXPECT_EQ(belief.sampleWithKingFilter(knowledge, first, h1),
              belief.sampleWithKingFilter(knowledge, second, h2));
    EXPECT_EQ(h1, h2);
}

// `Policy ismcts` (model_search.h): the option selects the model search, which spends exactly
// its Simulations budget on a turn, gives the same game twice for the same seed and budget,
// and decides some turn otherwise than the hunt it starts from.
TEST(AiTest, ModelSearchKeepsItsBudgetAndStaysDeterministic) {
    Params shortGame = defaultParams(2);
    shortGame.maxRounds = 25;
    auto play = [&](const char* policy, int& simulations) {
        common::Options options;
        addAiOptions(options);
        EXPECT_TRUE(options.set("Policy", policy));
        EXPECT_TRUE(options.set("Simulations", "24"));
        EXPECT_TRUE(options.set("Particles", "32"));
        AiPlayer ai;
        ai.configure(options);
        EXPECT_EQ(ai.config().policy, std::string_view(policy) == "ismcts" ? DecisionPolicy::Ismcts
                                                                           : DecisionPolicy::Hunt);
        auto h = makeHeuristicPlayer();
        std::vector<Player*> players{&ai, h.get()};
        auto played = playGame(shortGame, players, 9);
        EXPECT_TRUE(played) << played.error();
        simulations = ai.lastStats().simulations;
        return played ? played.value().history() : std::vector<Decision>{};
    };
    int simulations = 0;
    const std::vector<Decision> first = play("ismcts", simulations);
    EXPECT_EQ(simulations, 24);
    int again = 0;
    EXPECT_EQ(play("ismcts", again), first);
    int none = 0;
    const std::vector<Decision> hunt = play("hunt", none);
    EXPECT_EQ(none, 0);
    EXPECT_NE(hunt, first);
}

// ModelSearchWeights::closeMargin: a margin below every gap between the hunt's two best scores
// leaves every turn to the hunt (no simulation is spent), a margin above every gap is the search
// without one (the same game as margin 0), one in between searches some turns only; each
// setting gives the same game twice.
TEST(AiTest, ModelSearchCloseMarginSearchesOnlyNearTies) {
    // Counts the simulations of every decision of the player it wraps.
    class Counting final : public Player {
      public:
        explicit Counting(const AiConfig& config) : ai_(config) {}
        void newGame(const Knowledge& k, std::uint64_t seed) override { ai_.newGame(k, seed); }
        void observe(const Event& e, const Knowledge& k) override { ai_.observe(e, k); }
        Action decide(const Request& request, const Knowledge& k) override {
            const Action action = ai_.decide(request, k);
            if (request.kind == RequestKind::Turn) simulations += ai_.lastStats().simulations;
            return action;
        }
        long simulations = 0;

      private:
        AiPlayer ai_;
    };
    Params shortGame = defaultParams(2);
    shortGame.maxRounds = 25;
    auto play = [&](double margin, long& simulations) {
        AiConfig config;
        config.policy = DecisionPolicy::Ismcts;
        config.limits.simulations = 24;
        config.particles = 32;
        config.model.closeMargin = margin;
        Counting ai(config);
        auto h = makeHeuristicPlayer();
        std::vector<Player*> players{&ai, h.get()};
        auto played = playGame(shortGame, players, 9);
        EXPECT_TRUE(played) << played.error();
        simulations = ai.simulations;
        return played ? played.value().history() : std::vector<Decision>{};
    };
    long never = -1;
    const std::vector<Decision> hunt = play(1e-12, never);
    EXPECT_EQ(never, 0);
    long again = -1;
    EXPECT_EQ(play(1e-12, again), hunt);
    long all = 0;
    const std::vector<Decision> searched = play(0, all);
    EXPECT_NE(searched, hunt);
    EXPECT_EQ(play(1e9, again), searched);
    EXPECT_EQ(again, all);
    long some = 0;
    const std::vector<Decision> near = play(0.01, some);
    EXPECT_GT(some, 0);
    EXPECT_LT(some, all);
    EXPECT_EQ(play(0.01, again), near);
}

// The same matches at other seed bases: the margins of the tests above (run by hand).
TEST(AiTest, DISABLED_BeatsHeuristicMargin) {
    for (std::uint64_t base : {1000u, 2000u, 3000u, 4000u, 5000u})
        std::printf("seed base %llu: 2 seats %.3f, 3 seats %.3f\n",
                    static_cast<unsigned long long>(base), matchScore(2, base, 40),
                    matchScore(3, base, 36));
}

}  // namespace
}  // namespace torneio::play
