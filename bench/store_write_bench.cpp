// The cost of a write in the web store on each back end: one move saved on a two-person table
// (Store::saveDuel with a one-row MoveRowsChange: the table's row updated and one move row added,
// in one transaction committed before the call returns, as the server does for every move).
//
//   web_store_bench [--moves N] LOCATION...
//
// LOCATION as lasca-web's --db: a file (SQLite), or a postgresql:// URL (an existing, empty
// database). For each, N moves (default 2000) are saved on fresh tables of 100 moves each, one
// at a time, and the time of each call is measured: the calls per second and the median, 95th
// percentile and largest time of one call are printed, one line per location.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "web/store/connection.h"
#include "web/store/store.h"

namespace {

using Clock = std::chrono::steady_clock;

web::store::StoredDuel table(int number) {
    web::store::StoredDuel duel;
    duel.id = "bench" + std::to_string(number);
    duel.startLfen = "W:start";
    duel.whiteHash = "w" + duel.id;
    duel.blackHash = "b" + duel.id;
    duel.watchHash = "v" + duel.id;
    duel.clockTime = 180000;
    duel.clockIncrement = 2000;
    duel.whiteMs = duel.blackMs = 180000;
    duel.created = duel.updated = 1;
    return duel;
}

// Saves `moves` moves; false (and a message) when a save fails.
bool measure(const std::string& location, int moves) {
    auto opened = web::store::Store::open(location);
    if (!opened) {
        std::fprintf(stderr, "web_store_bench: %s\n", opened.error().c_str());
        return false;
    }
    auto& store = *opened.value();
    constexpr int kMovesPerTable = 100;
    std::vector<double> micros;
    micros.reserve(static_cast<std::size_t>(moves));
    web::store::StoredDuel duel;
    const auto start = Clock::now();
    for (int i = 0; i < moves; ++i) {
        const int ply = i % kMovesPerTable;
        if (ply == 0) duel = table(i / kMovesPerTable);
        duel.moves.push_back(ply % 2 == 0 ? "c3-d4" : "d6-c5");
        duel.updated = 1 + i;
        (ply % 2 == 0 ? duel.whiteMs : duel.blackMs) -= 100;
        const auto before = Clock::now();
        const auto saved = store.saveDuel(
            duel, web::store::MoveRowsChange{static_cast<std::size_t>(ply), {duel.moves.back()}});
        micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
        if (!saved) {
            std::fprintf(stderr, "web_store_bench: %s\n", saved.error().c_str());
            return false;
        }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(micros.begin(), micros.end());
    const auto at = [&](double q) {
        return micros[std::min(micros.size() - 1,
                               static_cast<std::size_t>(q * static_cast<double>(micros.size())))];
    };
    std::printf("%-10s %6d moves  %8.0f moves/s  p50 %7.1f us  p95 %7.1f us  max %8.1f us  %s\n",
                web::store::isPostgreSQLUrl(location) ? "postgresql" : "sqlite", moves,
                moves / seconds, at(0.5), at(0.95), micros.back(),
                web::store::withoutPassword(location).c_str());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    int moves = 2000;
    std::vector<std::string> locations;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--moves" && i + 1 < argc) {
            const std::string value = argv[++i];
            const auto parsed = std::from_chars(value.data(), value.data() + value.size(), moves);
            if (parsed.ec != std::errc() || moves < 1) {
                std::fprintf(stderr, "web_store_bench: --moves takes a positive number\n");
                return 2;
            }
        } else {
            locations.push_back(arg);
        }
    }
    if (locations.empty()) {
        std::fprintf(stderr, "usage: web_store_bench [--moves N] LOCATION...\n");
        return 2;
    }
    for (const auto& location : locations)
        if (!measure(location, moves)) return 1;
    return 0;
}
