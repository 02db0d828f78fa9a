// Micro-benchmarks of the evaluation: one evaluate() call, and the search's time per
// node on the bench positions, to check that the evaluation costs at most half of a node.
// The network's output from a ready accumulator, a full refresh, one incremental
// update after a move, and the search per node with the network (Arg 1) or classic (Arg 0).
#include <benchmark/benchmark.h>

#include <vector>

#include "lasca/core/movegen.h"
#include "lasca/engine/engine.h"
#include "lasca/eval/eval.h"
#include "lasca/eval/nnue.h"
#include "lasca/search/search.h"
#include "lasca/search/tt.h"

namespace {

using namespace lasca;

// Quiet positions (no capture pending) met in searches: every position of the bench lines
// after a few plies of play, gathered by walking each bench position's first moves.
std::vector<Position> quietPositions() {
    std::vector<Position> out;
    for (const std::string& lfen : engine::Engine::benchPositions()) {
        Position pos = Position::fromLfen(lfen).value();
        MoveList first;
        generateMoves(pos, first);
        for (const Move& m : first) {
            Undo undo{};
            pos.make(m, undo);
            MoveList second;
            generateMoves(pos, second);
            for (const Move& r : second) {
                Undo u{};
                pos.make(r, u);
                if (!hasCapture(pos)) out.push_back(pos);
                pos.unmake(r, u);
            }
            pos.unmake(m, undo);
        }
    }
    return out;
}

void BM_Evaluate(benchmark::State& state) {
    const std::vector<Position> positions = quietPositions();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(eval::evaluate(positions[i]));
        i = i + 1 == positions.size() ? 0 : i + 1;
    }
    state.counters["positions"] = static_cast<double>(positions.size());
}
BENCHMARK(BM_Evaluate)->UseRealTime();

void BM_ExtractFeatures(benchmark::State& state) {
    const std::vector<Position> positions = quietPositions();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(eval::extractFeatures(positions[i]));
        i = i + 1 == positions.size() ? 0 : i + 1;
    }
}
BENCHMARK(BM_ExtractFeatures)->UseRealTime();

void BM_NnueOutput(benchmark::State& state) {
    const std::vector<Position> positions = quietPositions();
    const eval::nnue::Network& net = *eval::nnue::defaultNetwork();
    std::vector<eval::nnue::Accumulator> accs(positions.size());
    for (std::size_t k = 0; k < positions.size(); ++k)
        eval::nnue::refreshAccumulator(net, positions[k], accs[k]);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(eval::nnue::evaluate(net, accs[i], positions[i].sideToMove()));
        i = i + 1 == positions.size() ? 0 : i + 1;
    }
}
BENCHMARK(BM_NnueOutput)->UseRealTime();

void BM_NnueRefreshAndOutput(benchmark::State& state) {
    const std::vector<Position> positions = quietPositions();
    const eval::nnue::Network& net = *eval::nnue::defaultNetwork();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(eval::nnue::evaluate(net, positions[i]));
        i = i + 1 == positions.size() ? 0 : i + 1;
    }
}
BENCHMARK(BM_NnueRefreshAndOutput)->UseRealTime();

// One make with its accumulator update (and the unmake), over every legal move of the
// positions in turn.
void BM_NnueUpdate(benchmark::State& state) {
    std::vector<Position> positions = quietPositions();
    const eval::nnue::Network& net = *eval::nnue::defaultNetwork();
    std::vector<std::pair<std::size_t, Move>> moves;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        MoveList list;
        generateMoves(positions[k], list);
        for (const Move& m : list) moves.emplace_back(k, m);
    }
    eval::nnue::Accumulator base, next;
    std::size_t i = 0;
    for (auto _ : state) {
        auto& [k, m] = moves[i];
        Position& pos = positions[k];
        eval::nnue::ChangedColumns changes;
        changes.recordBefore(pos, m);
        Undo undo{};
        pos.make(m, undo);
        changes.recordAfter(pos);
        eval::nnue::updateAccumulator(net, base, changes, next);
        benchmark::DoNotOptimize(next);
        pos.unmake(m, undo);
        i = i + 1 == moves.size() ? 0 : i + 1;
    }
    state.SetLabel(eval::nnue::simdName());
}
BENCHMARK(BM_NnueUpdate)->UseRealTime();

// The search's time per node: the bench positions to depth 13, one thread, 16 MB (as `bench`).
// items_per_second is nodes per second; the table is cleared outside the timed part.
// Arg 1: with the embedded network.
void BM_SearchPerNode(benchmark::State& state) {
    std::vector<Position> roots;
    for (const std::string& lfen : engine::Engine::benchPositions())
        roots.push_back(Position::fromLfen(lfen).value());
    search::TranspositionTable tt;
    (void)tt.resize(16);
    search::Search search(tt);
    search::SearchLimits limits;
    limits.depth = 13;
    search::SearchSettings settings;
    if (state.range(0) == 1) settings.network = eval::nnue::defaultNetwork();
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        for (const Position& root : roots) {
            state.PauseTiming();
            tt.clear();
            search.clear();
            state.ResumeTiming();
            nodes += search.run(root, {}, limits, settings).nodes;
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(nodes));
}
BENCHMARK(BM_SearchPerNode)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
