// torneio-bench: random-vs-random decisions per second through the Torneio rules core alone
// (docs/benchmarks.md, "Torneio"). One thread; a fixed seed, so the decision count of a run is
// the same on every machine; the rate is not.
//
//   torneio-bench [games-per-seat-count] [seed]     (defaults 2000 and 1)
//
// For 2, 3 and 4 seats it plays the games twice: with every event kept (as a referee does) and
// with event logging off (as a search would), and prints decisions, time and decisions/second.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string_view>

#include "common/text.h"
#include "common/version.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/state.h"

namespace {

struct Tally {
    std::uint64_t games = 0;
    std::uint64_t decisions = 0;
    std::uint64_t draws = 0;   // D11: games that reached the last round
    std::uint64_t rounds = 0;  // summed over the games
    double seconds = 0;
};

Tally playGames(const torneio::Params& params, std::uint64_t games, std::uint64_t seed,
                bool logEvents) {
    Tally tally;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t g = 0; g < games; ++g) {
        torneio::State state = torneio::State::create(params).value();
        state.setEventLogging(logEvents);
        common::Random random(common::mixSeed(seed, g));
        while (!state.over()) {
            const int seat = state.toDecide();
            if (!state.apply(seat, torneio::randomAction(state, random))) break;
            ++tally.decisions;
        }
        ++tally.games;
        tally.draws += state.outcome().kind == torneio::OutcomeKind::Draw ? 1 : 0;
        tally.rounds += static_cast<std::uint64_t>(state.outcome().round);
    }
    tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return tally;
}

}  // namespace

int main(int argc, char** argv) {
    if (common::printVersionIfAsked(argc, argv, "torneio-bench", std::cout)) return 0;
    std::uint64_t games = 2000;
    std::uint64_t seed = 1;
    if (argc > 1 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
        std::printf(
            "Usage: torneio-bench [games-per-seat-count] [seed]\n\n"
            "Plays random Torneio games with 2, 3 and 4 seats, with and without event "
            "logging,\nand prints games and decisions per second (docs/benchmarks.md).\n\n"
            "Options:\n  -h, --help     this help\n  -V, --version  the version\n");
        return 0;
    }
    if (argc > 1) {
        const auto n = common::parseBoundedInteger(argv[1], 1, 10'000'000);
        if (!n) {
            std::fprintf(stderr, "usage: torneio-bench [games-per-seat-count] [seed]\n");
            return 2;
        }
        games = static_cast<std::uint64_t>(*n);
    }
    if (argc > 2) {
        const auto s = common::parseBoundedInteger(argv[2], 0, INT64_MAX);
        if (!s) {
            std::fprintf(stderr, "usage: torneio-bench [games-per-seat-count] [seed]\n");
            return 2;
        }
        seed = static_cast<std::uint64_t>(*s);
    }
    Tally total;
    for (bool logEvents : {true, false}) {
        for (int seats = torneio::kMinSeats; seats <= torneio::kMaxSeats; ++seats) {
            const Tally t = playGames(torneio::defaultParams(seats), games, seed, logEvents);
            std::printf(
                "seats %d  events %-3s  games %llu  decisions %llu  time %.3f s  "
                "decisions/s %.0f  (draws %llu, mean rounds %.1f)\n",
                seats, logEvents ? "on" : "off", static_cast<unsigned long long>(t.games),
                static_cast<unsigned long long>(t.decisions), t.seconds,
                static_cast<double>(t.decisions) / t.seconds,
                static_cast<unsigned long long>(t.draws),
                static_cast<double>(t.rounds) / static_cast<double>(t.games));
            total.games += t.games;
            total.decisions += t.decisions;
            total.seconds += t.seconds;
        }
    }
    std::printf("total  games %llu  decisions %llu  time %.3f s  decisions/s %.0f\n",
                static_cast<unsigned long long>(total.games),
                static_cast<unsigned long long>(total.decisions), total.seconds,
                static_cast<double>(total.decisions) / total.seconds);
    return 0;
}
