// Micro-benchmarks of the rules core: generation, make/unmake and perft.
#include <benchmark/benchmark.h>

#include "lasca/core/game.h"
#include "lasca/core/movegen.h"
#include "lasca/core/perft.h"

namespace {

using namespace lasca;

// A middlegame with captures pending and a few columns: the line of the rules file (R7).
Position middlegame() {
    Game game;
    for (const char* m :
         {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"})
        (void)game.playText(m);
    return game.current();
}

void BM_GenerateMovesStart(benchmark::State& state) {
    const Position pos = Position::startPosition();
    MoveList list;
    for (auto _ : state) {
        generateMoves(pos, list);
        benchmark::DoNotOptimize(list.size());
    }
}
BENCHMARK(BM_GenerateMovesStart);

void BM_GenerateMovesMiddlegame(benchmark::State& state) {
    const Position pos = middlegame();
    MoveList list;
    for (auto _ : state) {
        generateMoves(pos, list);
        benchmark::DoNotOptimize(list.size());
    }
}
BENCHMARK(BM_GenerateMovesMiddlegame);

void BM_MakeUnmake(benchmark::State& state) {
    Position pos = middlegame();
    MoveList list;
    generateMoves(pos, list);
    Undo undo{};
    for (auto _ : state) {
        for (const Move& m : list) {
            pos.make(m, undo);
            pos.unmake(m, undo);
        }
        benchmark::DoNotOptimize(pos.key());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(list.size()));
}
BENCHMARK(BM_MakeUnmake);

void BM_Perft(benchmark::State& state) {
    Position pos = Position::startPosition();
    const int depth = static_cast<int>(state.range(0));
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft(pos, depth);
    state.SetItemsProcessed(static_cast<std::int64_t>(nodes));
}
BENCHMARK(BM_Perft)->Arg(13)->Arg(15)->Arg(17)->Unit(benchmark::kMillisecond);

}  // namespace
