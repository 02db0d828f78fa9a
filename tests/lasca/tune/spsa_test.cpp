// SPSA: the arithmetic on a simulated match (it finds a known optimum, a seed repeats
// a run, the gains are fishtest's), the parameter file's parser, and `lasca-tune spsa` itself
// playing a tiny run with the real engine.
#include "lasca/tune/spsa.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "common/random.h"
#include "lasca/tune/spsa_games.h"
#include "run_tune.h"
#include "test_directory.h"

namespace lasca::tune {
namespace {

// ---- A simulated match -----------------------------------------------------------------------

// MatchSimulator: engines whose strength is known. An engine playing `values` has the Elo
//     -kEloScale * sum(((values_i - optimum_i) / width_i)^2),
// so the optimum is the strongest; a game between two engines is drawn with probability
// kDrawRate and otherwise won by the first with the logistic probability of their Elo
// difference. Seeded: a simulator repeats its games exactly.
class MatchSimulator {
  public:
    static constexpr double kEloScale = 100;
    static constexpr double kDrawRate = 0.3;

    MatchSimulator(std::vector<double> optimum, std::vector<double> width, std::uint64_t seed)
        : optimum_(std::move(optimum)), width_(std::move(width)), random_(seed) {}

    double elo(const std::vector<int>& values) const {
        double sum = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double d = (values[i] - optimum_[i]) / width_[i];
            sum += d * d;
        }
        return -kEloScale * sum;
    }

    // Points of `first` minus points of `second` over a game pair.
    double pairResult(const std::vector<int>& first, const std::vector<int>& second) {
        const double p = 1 / (1 + std::pow(10.0, (elo(second) - elo(first)) / 400));
        double result = 0;
        for (int game = 0; game < 2; ++game) {
            if (random_.chance(kDrawRate)) continue;
            result += random_.chance(p) ? 1 : -1;
        }
        return result;
    }

  private:
    std::vector<double> optimum_;
    std::vector<double> width_;
    common::Random random_;
};

SpsaParam param(const std::string& name, double start, int min, int max, double cEnd, double rEnd) {
    return SpsaParam{name, start, min, max, cEnd, rEnd};
}

// Two parameters far from the simulator's optimum (80, 60).
std::vector<SpsaParam> simulatedParams() {
    return {param("Alpha", 150, 0, 300, 8, 0.02), param("Beta", 10, 0, 100, 4, 0.02)};
}

MatchSimulator simulator(std::uint64_t seed) {
    return MatchSimulator({80, 60}, {40, 20}, seed);
}

// Runs the whole schedule against the simulator; the thetas after each iteration.
std::vector<std::vector<double>> simulate(Spsa& spsa, MatchSimulator& sim) {
    std::vector<std::vector<double>> thetas;
    while (!spsa.finished()) {
        auto proposal = spsa.propose();
        EXPECT_TRUE(proposal) << proposal.error();
        const SpsaProposal& p = proposal.value();
        EXPECT_TRUE(spsa.update(p, sim.pairResult(p.plus, p.minus)));
        thetas.push_back(spsa.theta());
    }
    return thetas;
}

Spsa makeSpsa(std::vector<SpsaParam> params, int iterations, std::uint64_t seed) {
    SpsaSchedule schedule;
    schedule.iterations = iterations;
    auto made = Spsa::create(std::move(params), schedule, seed);
    EXPECT_TRUE(made) << made.error();
    return std::move(made).value();
}

TEST(Spsa, MovesThetaTowardTheOptimumOfANoisyMatch) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        Spsa spsa = makeSpsa(simulatedParams(), 2000, seed);
        MatchSimulator sim = simulator(seed + 100);
        simulate(spsa, sim);
        // From 70 and 50 away to within a quarter of that.
        EXPECT_NEAR(spsa.theta()[0], 80, 17.5) << "seed " << seed;
        EXPECT_NEAR(spsa.theta()[1], 60, 12.5) << "seed " << seed;
        EXPECT_GT(sim.elo(spsa.roundedTheta()), sim.elo({150, 10}) / 10) << "seed " << seed;
        EXPECT_EQ(spsa.proposed(), 2000);
        EXPECT_EQ(spsa.updated(), 2000);
    }
}

TEST(Spsa, TheSameSeedRepeatsTheRun) {
    auto run = [](std::uint64_t seed) {
        Spsa spsa = makeSpsa(simulatedParams(), 300, seed);
        MatchSimulator sim = simulator(7);
        return simulate(spsa, sim);
    };
    EXPECT_EQ(run(3), run(3));
    EXPECT_NE(run(3), run(4));

    // The proposals themselves, before any result: the same Deltas and values.
    Spsa a = makeSpsa(simulatedParams(), 50, 9);
    Spsa b = makeSpsa(simulatedParams(), 50, 9);
    for (int k = 1; k <= 50; ++k) {
        const SpsaProposal pa = a.propose().value();
        const SpsaProposal pb = b.propose().value();
        EXPECT_EQ(pa.iteration, k);
        EXPECT_EQ(pa.delta, pb.delta);
        EXPECT_EQ(pa.plus, pb.plus);
        EXPECT_EQ(pa.minus, pb.minus);
        for (int d : pa.delta) EXPECT_TRUE(d == 1 || d == -1);
    }
    EXPECT_TRUE(a.finished());
    EXPECT_FALSE(a.propose());  // all 50 are proposed
}

// fishtest's definitions, written out as fishtest writes them:
//   c = c_end * N^gamma, a_end = r_end * c_end^2, a = a_end * (A + N)^alpha, A = 0.1 N,
//   c_k = c / k^gamma, a_k = a / (A + k)^alpha, r_k = a_k / c_k^2.
TEST(Spsa, GainsAreFishtestsAtTheFirstAndTheLastIteration) {
    const SpsaParam p = param("X", 100, 0, 200, 4, 0.002);
    SpsaSchedule s;
    s.iterations = 1000;
    const double n = 1000, bigA = 100, alpha = 0.602, gamma = 0.101;
    const double c = 4 * std::pow(n, gamma);
    const double aEnd = 0.002 * 4 * 4;
    const double a = aEnd * std::pow(bigA + n, alpha);
    for (int k : {1, 1000}) {
        const double ck = c / std::pow(k, gamma);
        const double ak = a / std::pow(bigA + k, alpha);
        const SpsaGains g = spsaGains(p, s, k);
        EXPECT_NEAR(g.c, ck, 1e-12 * ck) << k;
        EXPECT_NEAR(g.a, ak, 1e-12 * ak) << k;
        EXPECT_NEAR(g.r, ak / (ck * ck), 1e-12 * g.r) << k;
    }
    // At k = N the gains are the file's final values.
    const SpsaGains last = spsaGains(p, s, 1000);
    EXPECT_NEAR(last.c, 4, 1e-12);
    EXPECT_NEAR(last.r, 0.002, 1e-15);
    EXPECT_NEAR(last.a, 0.032, 1e-15);
    // The numbers themselves at k = 1: c_1 = 4 * 1000^0.101 = 8.03637,
    // a_1 = 0.032 * (1100 / 101)^0.602 = 0.134731, r_1 = a_1 / c_1^2 = 0.0020862.
    const SpsaGains first = spsaGains(p, s, 1);
    EXPECT_NEAR(first.c, 8.03637, 1e-5);
    EXPECT_NEAR(first.a, 0.134731, 1e-6);
    EXPECT_NEAR(first.r, 0.0020862, 1e-7);

    // The first iteration plays theta +- c_1 (rounded) and moves theta by r_1 c_1 result Delta.
    Spsa spsa = makeSpsa({p}, 1000, 1);
    const SpsaProposal prop = spsa.propose().value();
    const int d = prop.delta[0];
    EXPECT_EQ(prop.plus[0], static_cast<int>(std::lround(100 + first.c * d)));
    EXPECT_EQ(prop.minus[0], static_cast<int>(std::lround(100 - first.c * d)));
    ASSERT_TRUE(spsa.update(prop, 1.5));
    EXPECT_NEAR(spsa.theta()[0], 100 + first.r * first.c * 1.5 * d, 1e-12);
}

TEST(Spsa, ThetaAndTheValuesPlayedStayInTheRange) {
    // A start at the edge and a perturbation larger than the range.
    Spsa spsa = makeSpsa({param("X", 10, 0, 10, 30, 5)}, 40, 2);
    for (int k = 0; k < 40; ++k) {
        const SpsaProposal p = spsa.propose().value();
        for (int v : {p.plus[0], p.minus[0]}) {
            EXPECT_GE(v, 0);
            EXPECT_LE(v, 10);
        }
        ASSERT_TRUE(spsa.update(p, k % 2 ? 2 : -2));
        EXPECT_GE(spsa.theta()[0], 0);
        EXPECT_LE(spsa.theta()[0], 10);
    }
}

TEST(Spsa, BadResultsAndSettingsAreErrors) {
    Spsa spsa = makeSpsa(simulatedParams(), 10, 1);
    const SpsaProposal p = spsa.propose().value();
    const auto before = spsa.theta();
    EXPECT_FALSE(spsa.update(p, 2.5));
    EXPECT_FALSE(spsa.update(p, std::nan("")));
    SpsaProposal other = p;
    other.delta.pop_back();
    EXPECT_FALSE(spsa.update(other, 1));
    EXPECT_EQ(spsa.theta(), before);

    SpsaSchedule s;
    s.iterations = 0;
    EXPECT_FALSE(Spsa::create(simulatedParams(), s, 1));
    s.iterations = 10;
    s.alpha = -1;
    EXPECT_FALSE(Spsa::create(simulatedParams(), s, 1));
    EXPECT_FALSE(Spsa::create({}, SpsaSchedule{}, 1));
    EXPECT_FALSE(Spsa::create({param("X", 5, 10, 0, 1, 1)}, SpsaSchedule{}, 1));
}

TEST(Spsa, OptionStringAndProgressLines) {
    const std::vector<SpsaParam> params = {param("RfpMargin", 110, 50, 200, 8, 0.002),
                                           param("LmrBase", 60, 0, 200, 8, 0.002)};
    EXPECT_EQ(matchOptionString(params, {112, 58}), "option.RfpMargin=112,option.LmrBase=58");
    EXPECT_EQ(spsaProgressHeader(params), "# iteration result RfpMargin LmrBase");
    EXPECT_EQ(spsaProgressLine(3, -1, {110.256, 58}), "3 -1.0 110.26 58.00");
    EXPECT_EQ(spsaProgressTitle(3000, 2), "# lasca-tune spsa: 3000 iterations, seed 2");
}

// ---- Resuming from the progress file --------------------------------------------------------

// RecordedRun: a whole run against the simulator, as --out would have written it, with each
// iteration's proposal.
struct RecordedRun {
    std::vector<std::string> lines;  // title, header, iterations 0..N
    std::vector<SpsaProposal> proposals;
    std::vector<std::vector<double>> thetas;  // after iterations 0..N
};

RecordedRun recordRun(std::vector<SpsaParam> params, int iterations, std::uint64_t seed) {
    RecordedRun run;
    Spsa spsa = makeSpsa(params, iterations, seed);
    MatchSimulator sim = simulator(seed + 50);
    run.lines = {spsaProgressTitle(iterations, seed), spsaProgressHeader(params),
                 spsaProgressLine(0, 0, spsa.theta())};
    run.thetas.push_back(spsa.theta());
    while (!spsa.finished()) {
        const SpsaProposal p = spsa.propose().value();
        const double result = sim.pairResult(p.plus, p.minus);
        EXPECT_TRUE(spsa.update(p, result));
        run.proposals.push_back(p);
        run.thetas.push_back(spsa.theta());
        run.lines.push_back(spsaProgressLine(p.iteration, result, spsa.theta()));
    }
    return run;
}

// The file's first `count` lines, each with its newline.
std::string firstLines(const RecordedRun& run, std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count; ++i) text += run.lines[i] + "\n";
    return text;
}

TEST(Spsa, ResumingFromTheProgressFileContinuesTheSameRun) {
    const RecordedRun run = recordRun(simulatedParams(), 60, 11);
    for (int stoppedAfter : {0, 1, 25, 60}) {
        const std::string text = firstLines(run, static_cast<std::size_t>(stoppedAfter) + 3);
        for (const std::string& file : {text, text + "26 1.0 1", text + "\n"}) {
            Spsa resumed = makeSpsa(simulatedParams(), 60, 11);
            auto taken = resumeSpsa(resumed, file, 11);
            if (file.ends_with("\n\n")) {  // a blank line is not an iteration
                EXPECT_FALSE(taken);
                continue;
            }
            ASSERT_TRUE(taken) << taken.error();
            EXPECT_EQ(taken.value().iterations, stoppedAfter);
            EXPECT_EQ(taken.value().text, text);  // a line cut short is left out
            EXPECT_EQ(resumed.theta(), run.thetas[static_cast<std::size_t>(stoppedAfter)]);
            EXPECT_EQ(resumed.updated(), stoppedAfter);
            if (stoppedAfter == 60) {
                EXPECT_TRUE(resumed.finished());
                continue;
            }
            // The next proposal is the one the run made without stopping.
            const SpsaProposal next = resumed.propose().value();
            const SpsaProposal& original = run.proposals[static_cast<std::size_t>(stoppedAfter)];
            EXPECT_EQ(next.iteration, original.iteration);
            EXPECT_EQ(next.delta, original.delta);
            EXPECT_EQ(next.plus, original.plus);
            EXPECT_EQ(next.minus, original.minus);
        }
    }
}

TEST(Spsa, AProgressFileOfAnotherRunIsRefusedNamingTheLine) {
    const RecordedRun run = recordRun(simulatedParams(), 60, 11);
    const std::string good = firstLines(run, 13);  // iterations 0..10
    auto resume = [](const std::string& text, std::vector<SpsaParam> params, int iterations,
                     std::uint64_t seed) {
        Spsa spsa = makeSpsa(std::move(params), iterations, seed);
        auto taken = resumeSpsa(spsa, text, seed);
        return taken ? std::string("resumed") : taken.error();
    };
    EXPECT_EQ(resume(good, simulatedParams(), 60, 11), "resumed");
    // Another seed or iteration count: the title says so.
    EXPECT_NE(resume(good, simulatedParams(), 60, 12).find("line 1: "), std::string::npos);
    EXPECT_NE(resume(good, simulatedParams(), 61, 11).find("is not this run's title"),
              std::string::npos);
    // Other parameter names: the header.
    std::vector<SpsaParam> renamed = simulatedParams();
    renamed[1].name = "Gamma";
    EXPECT_NE(resume(good, renamed, 60, 11).find("line 2: "), std::string::npos);
    // The same names with another perturbation or start: the replayed thetas differ.
    std::vector<SpsaParam> otherGains = simulatedParams();
    otherGains[0].cEnd = 9;
    EXPECT_NE(resume(good, otherGains, 60, 11).find("line 4: replayed, iteration 1 gives"),
              std::string::npos);
    std::vector<SpsaParam> otherStart = simulatedParams();
    otherStart[0].start = 149;
    EXPECT_NE(resume(good, otherStart, 60, 11).find("line 3: "), std::string::npos);
    // Lines out of order, edited, cut or not numbers.
    const std::string head = firstLines(run, 5);  // iterations 0..2
    const auto line = [&](std::size_t i) { return run.lines[i] + "\n"; };
    EXPECT_NE(
        resume(head + line(6), simulatedParams(), 60, 11).find("line 6: expected iteration 3"),
        std::string::npos);
    std::string edited = run.lines[5];
    edited[2] = edited[2] == '0' ? '1' : '0';  // the result's first digit: "3 1.0" <-> "3 0.0"
    EXPECT_NE(resume(head + edited + "\n", simulatedParams(), 60, 11).find("line 6: "),
              std::string::npos);
    EXPECT_NE(resume(head + "3 x 1 2\n", simulatedParams(), 60, 11).find("result 'x'"),
              std::string::npos);
    EXPECT_NE(resume(head + "3 5.0 150 10\n", simulatedParams(), 60, 11).find("-2..2"),
              std::string::npos);
    EXPECT_NE(resume(head + "3 1.0\n", simulatedParams(), 60, 11).find("line 6: "),
              std::string::npos);
    EXPECT_NE(resume(firstLines(run, 2), simulatedParams(), 60, 11).find("no iteration 0"),
              std::string::npos);
    EXPECT_NE(resume("", simulatedParams(), 60, 11).find("no iteration 0"), std::string::npos);
    EXPECT_NE(resume("\x01\xff garbage\n", simulatedParams(), 60, 11).find("line 1: "),
              std::string::npos);
    // More iterations than the run has.
    EXPECT_EQ(resume(firstLines(run, 63), simulatedParams(), 60, 11), "resumed");
    EXPECT_NE(resume(firstLines(run, 63) + "61 0.0 80.00 60.00\n", simulatedParams(), 60, 11)
                  .find("line 64: "),
              std::string::npos);
    // A tuner that has proposed already.
    Spsa used = makeSpsa(simulatedParams(), 60, 11);
    ASSERT_TRUE(used.propose());
    EXPECT_FALSE(resumeSpsa(used, good, 11));
}

// ---- The parameter file ----------------------------------------------------------------------

TEST(SpsaParams, ReadsLinesWithCommentsAndBlankLines) {
    const auto params = parseSpsaParams(
        "# name start min max c_end r_end\n"
        "\n"
        "RfpMargin 110 50 250 8 0.002   # per ply\r\n"
        "  LmrBase\t60.5 -20 200 1e1 2e-3\n");
    ASSERT_TRUE(params) << params.error();
    ASSERT_EQ(params.value().size(), 2u);
    const SpsaParam& lmr = params.value()[1];
    EXPECT_EQ(lmr.name, "LmrBase");
    EXPECT_EQ(lmr.start, 60.5);
    EXPECT_EQ(lmr.min, -20);
    EXPECT_EQ(lmr.max, 200);
    EXPECT_EQ(lmr.cEnd, 10);
    EXPECT_EQ(lmr.rEnd, 0.002);
    EXPECT_EQ(params.value()[0].name, "RfpMargin");
}

TEST(SpsaParams, RejectsBadLinesNamingThem) {
    const struct {
        const char* text;
        const char* error;  // a part of the error message
    } cases[] = {
        {"X 10 20 5 1 0.002", "line 1: X: min 20 must be below max 5"},
        {"X 10 5 5 1 0.002", "min 5 must be below max 5"},
        {"X 30 0 20 1 0.002", "start 30.00 is outside 0..20"},
        {"X -1 0 20 1 0.002", "start -1.00 is outside 0..20"},
        {"X ten 0 20 1 0.002", "start 'ten' is not a number"},
        {"X 10 0 2o 1 0.002", "max '2o' is not a number"},
        {"X 10 0.5 20 1 0.002", "min '0.5' is not a whole number"},
        {"X 10 0 1e12 1 0.002", "max '1e12' is not a whole number"},
        {"X 10 0 20 0 0.002", "c_end must be a number above 0"},
        {"X 10 0 20 1 -0.002", "r_end must be a number above 0"},
        {"X 10 0 20 inf 0.002", "c_end 'inf' is not a number"},
        {"X 10 0 20 nan 0.002", "c_end 'nan' is not a number"},
        {"X 10 0 20 1", "expected 6 fields"},
        {"X 10 0 20 1 0.002 7", "expected 6 fields"},
        {"X=1 10 0 20 1 0.002", "name 'X=1' must be"},
        {"A,B 10 0 20 1 0.002", "must be 1 to 64 letters"},
        {"X 10 0 20 1 0.002\n# fine\nX 10 0 20 1 0.002", "line 3: X is given twice"},
        {"# only a comment\n\n", "no parameters"},
        {"", "no parameters"},
        {"Y 1 0 2 1 0.1\nX +5 0 20 1 0.002", "line 2: start '+5' is not a number"},
    };
    for (const auto& c : cases) {
        const auto parsed = parseSpsaParams(c.text);
        ASSERT_FALSE(parsed) << c.text;
        EXPECT_NE(parsed.error().find(c.error), std::string::npos)
            << c.text << " gave: " << parsed.error();
    }
}

// ---- lasca-tune spsa with the engine -----------------------------------------------------------

using test::TuneRun;

TuneRun runTune(const std::string& args) {
    return test::runTuneProgram("spsa " + args);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string writeParams(const std::string& name, const std::string& text) {
    const auto path = common::test::testDirectory() / name;
    common::test::writeText(path, text);
    return path.string();
}

const char* kTwoParams =
    "# a tiny run\n"
    "RfpMargin 110 50 250 10 0.002\n"
    "LmrBase 60 0 200 10 0.002\n";

TEST(SpsaCli, ATinyRunPlaysAndPrintsTheOptionString) {
    const std::string params = writeParams("params.txt", kTwoParams);
    const std::string out = (common::test::testDirectory() / "progress.txt").string();
    const TuneRun run = runTune("--engine " + std::string(LASCA_BINARY) + " --params " + params +
                                " --iterations 2 --nodes 200 --seed 5 --openings " +
                                LASCA_OPENINGS + " --out " + out);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto printed = lines(run.out);
    ASSERT_EQ(printed.size(), 4u) << run.out;
    EXPECT_EQ(printed[0].rfind("SPSA: 2 iterations, 4 games, theta+ scored ", 0), 0u) << run.out;
    EXPECT_NE(printed[0].find(", 0 games lost by an engine failure"), std::string::npos);
    EXPECT_EQ(printed[1].rfind("RfpMargin 110.00 -> ", 0), 0u) << run.out;
    EXPECT_EQ(printed[3].rfind("option.RfpMargin=", 0), 0u) << run.out;
    EXPECT_NE(printed[3].find(",option.LmrBase="), std::string::npos) << run.out;

    const auto progress = lines(common::test::readText(out));
    ASSERT_EQ(progress.size(), 5u);  // the run's line, the header, iterations 0, 1 and 2
    EXPECT_EQ(progress[1], "# iteration result RfpMargin LmrBase");
    EXPECT_EQ(progress[2], "0 0.0 110.00 60.00");
    EXPECT_EQ(progress[4].rfind("2 ", 0), 0u);

    // With a node limit a run repeats exactly: one pair at a time, and both pairs at once.
    for (const char* concurrency : {"1", "2"}) {
        std::vector<std::string> progressFiles;
        for (int repeat = 0; repeat < 2; ++repeat) {
            const std::string file =
                (common::test::testDirectory() /
                 ("c" + std::string(concurrency) + "-" + std::to_string(repeat) + ".txt"))
                    .string();
            const TuneRun again =
                runTune("--engine " + std::string(LASCA_BINARY) + " --params " + params +
                        " --iterations 2 --nodes 200 --seed 5" + " --openings " + LASCA_OPENINGS +
                        " --concurrency " + concurrency + " --out " + file);
            ASSERT_EQ(again.exitCode, 0) << again.err;
            progressFiles.push_back(common::test::readText(file));
        }
        EXPECT_EQ(progressFiles[0], progressFiles[1]) << "--concurrency " << concurrency;
        EXPECT_EQ(lines(progressFiles[0]).size(), 5u);
    }
}

// A run stopped after two of its four iterations and resumed from its progress file ends as
// the run that did not stop (node limits: the games repeat), and says what it replayed.
TEST(SpsaCli, ResumeContinuesAStoppedRunFromItsProgressFile) {
    const std::string params = writeParams("params.txt", kTwoParams);
    const auto dir = common::test::testDirectory();
    const std::string base = "--engine " + std::string(LASCA_BINARY) + " --params " + params +
                             " --iterations 4 --nodes 200 --seed 5 --openings " + LASCA_OPENINGS;
    const std::string whole = (dir / "whole.txt").string();
    const TuneRun uninterrupted = runTune(base + " --out " + whole);
    ASSERT_EQ(uninterrupted.exitCode, 0) << uninterrupted.err;
    const auto wholeLines = lines(common::test::readText(whole));
    ASSERT_EQ(wholeLines.size(), 7u);  // title, header, iterations 0..4

    // Stopped after iteration 2, while writing iteration 3's line.
    const std::string stopped = (dir / "stopped.txt").string();
    std::string text;
    for (std::size_t i = 0; i < 5; ++i) text += wholeLines[i] + "\n";
    common::test::writeText(stopped, text + wholeLines[5].substr(0, 4));
    const TuneRun resumed = runTune(base + " --concurrency 2 --resume --out " + stopped);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
    EXPECT_EQ(common::test::readText(stopped), common::test::readText(whole));
    EXPECT_FALSE(std::filesystem::exists(stopped + ".new"));  // renamed over the file
    const auto printed = lines(resumed.out);
    ASSERT_EQ(printed.size(), 4u) << resumed.out;
    EXPECT_EQ(printed[0].rfind("SPSA: 4 iterations, 2 of them replayed from the progress file, "
                               "4 games, theta+ scored ",
                               0),
              0u)
        << resumed.out;
    EXPECT_EQ(printed[3], lines(uninterrupted.out)[3]);  // the same option string

    // A progress file of another seed, or no file at all: one error line, the file untouched.
    const std::string other = (dir / "other.txt").string();
    common::test::writeText(other, text);
    const std::string otherSeed = "--engine " + std::string(LASCA_BINARY) + " --params " + params +
                                  " --iterations 4 --nodes 200 --seed 6 --resume --out " + other;
    for (const std::string& args :
         {otherSeed, base + " --resume", base + " --resume --out " + (dir / "none.txt").string()}) {
        const TuneRun refused = runTune(args);
        EXPECT_EQ(refused.exitCode, 2) << args;
        const auto errorLines = lines(refused.err);
        ASSERT_EQ(errorLines.size(), 1u) << args << "\n" << refused.err;
        EXPECT_NE(errorLines[0].find("--resume"), std::string::npos) << refused.err;
        EXPECT_TRUE(refused.out.empty());
    }
    EXPECT_EQ(common::test::readText(other), text);
}

TEST(SpsaCli, BadArgumentsGiveOneErrorLineAndExitTwo) {
    const std::string params = writeParams("params.txt", kTwoParams);
    const std::string engine = " --engine " + std::string(LASCA_BINARY);
    const std::string base = engine + " --params " + params + " --nodes 100";
    const struct {
        std::string args;
        const char* error;
    } cases[] = {
        {base + " --iterations 0", "--iterations must be 1..1000000000"},
        {base + " --iterations -3", "--iterations must be 1..1000000000"},
        {base + " --iterations abc", "iterations"},
        {base + " --iterations 99999999999999999999", "iterations"},
        {engine + " --params " + params + " --iterations 2", "give one of --nodes, --movetime"},
        {base + " --iterations 2 --movetime 10", "give one of --nodes, --movetime and --tc"},
        {base + " --iterations 2 --tc 1+0.1", "give one of --nodes, --movetime and --tc"},
        {engine + " --params " + params + " --iterations 2 --tc 0+1", "--tc needs"},
        {engine + " --params " + params + " --iterations 2 --tc 1e300", "--tc needs"},
        {engine + " --params " + params + " --iterations 2 --tc x+1", "is not SECONDS+INC"},
        {engine + " --params " + params + " --iterations 2 --nodes -1", "--nodes must be"},
        {engine + " --params " + params + " --iterations 2 --movetime 0", "--movetime must be"},
        {base + " --iterations 2 --concurrency 0", "--concurrency must be 1..256"},
        {base + " --iterations 2 --seed -1", "--seed must be"},
        {engine + " --params /no/such/file --nodes 100 --iterations 2", "cannot read"},
        {base + " --iterations 2 --openings /no/such/file", "cannot read"},
        {" --engine /no/such/engine --params " + params + " --nodes 100 --iterations 2",
         "--engine"},
        {base + " --iterations 2 --no-such-flag", "unrecognised option"},
        {" --params " + params + " --nodes 100 --iterations 2", "engine"},
    };
    for (const auto& c : cases) {
        const TuneRun run = runTune(c.args);
        EXPECT_EQ(run.exitCode, 2) << c.args;
        const auto errorLines = lines(run.err);
        ASSERT_EQ(errorLines.size(), 1u) << c.args << "\n" << run.err;
        EXPECT_NE(errorLines[0].find(c.error), std::string::npos) << c.args << "\n" << run.err;
        EXPECT_TRUE(run.out.empty()) << c.args;
    }
}

TEST(SpsaCli, ParametersTheEngineDoesNotTakeAreRefusedBeforeAnyGame) {
    const std::string engine = " --engine " + std::string(LASCA_BINARY);
    const struct {
        const char* params;
        const char* error;
    } cases[] = {
        {"NoSuchOption 10 0 20 2 0.002\n", "the engine has no option NoSuchOption"},
        {"RfpMargin 110 0 2000 8 0.002\n",
         "RfpMargin: the range 0..2000 is not inside the "
         "engine's 1..1000"},
        {"UseNNUE 1 0 1 1 0.002\n", "the engine's option UseNNUE is not a spin option"},
        {"RfpMargin 110 50 250 8 0.002\nRfpMargin 100 50 250 8 0.002\n", "given twice"},
        {"RfpMargin 300 50 250 8 0.002\n", "start 300.00 is outside 50..250"},
    };
    for (const auto& c : cases) {
        const std::string params = writeParams("bad.txt", c.params);
        const TuneRun run = runTune(engine + " --params " + params + " --nodes 100 --iterations 2");
        EXPECT_EQ(run.exitCode, 2) << c.params;
        const auto errorLines = lines(run.err);
        ASSERT_EQ(errorLines.size(), 1u) << c.params << "\n" << run.err;
        EXPECT_NE(errorLines[0].find(c.error), std::string::npos) << run.err;
    }
}

// The shipped parameter file of the time manager's and the search's numbers: every line names
// a spin option of the engine, within its range, starting at the option's default; and a run
// with a clock (which the time options need) plays.
TEST(SpsaCli, TheShippedTimeAndSearchParametersFitTheEngine) {
    auto params = parseSpsaParams(common::test::readText(LASCA_SPSA_TIME_PARAMS));
    ASSERT_TRUE(params) << params.error();
    ASSERT_EQ(params.value().size(), 16u);
    SpsaRunConfig config;
    config.engine.path = LASCA_BINARY;
    auto checked = checkEngineOptions(config, params.value());
    EXPECT_TRUE(checked) << checked.error();
    const std::string tc = "--engine " + std::string(LASCA_BINARY) + " --params " +
                           LASCA_SPSA_TIME_PARAMS + " --iterations 1 --tc 1+0.01 --openings " +
                           LASCA_OPENINGS;
    const TuneRun run = runTune(tc);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto printed = lines(run.out);
    ASSERT_EQ(printed.size(), 18u) << run.out;
    EXPECT_EQ(printed[0].rfind("SPSA: 1 iterations, 2 games", 0), 0u) << run.out;
    EXPECT_EQ(printed[1].rfind("TimeMovesToGo 30.00 -> ", 0), 0u) << run.out;
    EXPECT_EQ(printed[17].rfind("option.TimeMovesToGo=", 0), 0u) << run.out;
}

// The run over several sittings whose progress the repository keeps (docs/tuning.md, "The time
// manager's numbers"): it replays whole, all 3000 iterations, with the shipped parameter file and
// its command's count and seed; an edit of either file shows here.
TEST(SpsaCli, TheKeptProgressOfTheTimeRunResumesWithTheShippedParameters) {
    auto params = parseSpsaParams(common::test::readText(LASCA_SPSA_TIME_PARAMS));
    ASSERT_TRUE(params) << params.error();
    SpsaSchedule schedule;
    schedule.iterations = 3000;
    auto spsa = Spsa::create(params.value(), schedule, 2);
    ASSERT_TRUE(spsa) << spsa.error();
    const std::string progress = common::test::readText(LASCA_SPSA_TIME_PROGRESS);
    auto resumed = resumeSpsa(spsa.value(), progress, 2);
    ASSERT_TRUE(resumed) << resumed.error();
    EXPECT_EQ(resumed.value().iterations, schedule.iterations);
    EXPECT_EQ(resumed.value().text, progress);  // every line whole and replayed
}

// The openings' order: a shuffle, the same for the same seed.
TEST(SpsaGames, OpeningOrderIsASeededShuffle) {
    const auto a = openingOrder(50, 1);
    EXPECT_EQ(a, openingOrder(50, 1));
    EXPECT_NE(a, openingOrder(50, 2));
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
    EXPECT_TRUE(openingOrder(0, 1).empty());
}

TEST(SpsaGames, TunedEngineAddsTheValuesAfterItsOwnOptions) {
    match::EngineSpec base;
    base.path = "lasca";
    base.options = {{"Hash", "8"}};
    const auto spec =
        tunedEngine(base, {param("RfpMargin", 110, 50, 200, 8, 0.002)}, {120}, "plus");
    EXPECT_EQ(spec.name, "plus");
    ASSERT_EQ(spec.options.size(), 2u);
    EXPECT_EQ(spec.options[1], (std::pair<std::string, std::string>{"RfpMargin", "120"}));
}

}  // namespace
}  // namespace lasca::tune
