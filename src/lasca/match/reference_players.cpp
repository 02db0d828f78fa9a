#include "lasca/match/reference_players.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "lasca/core/movegen.h"

namespace lasca::match {

namespace {

Position after(const Position& pos, const Move& m) {
    Position next = pos;
    Undo undo{};
    next.make(m, undo);
    return next;
}

// Score of the position after m for the mover: a win when the opponent has no move, else
// minus the opponent's static evaluation.
Score greedyScore(const Position& pos, const Move& m) {
    const Position next = after(pos, m);
    if (!hasLegalMove(next)) return kMate;
    return -eval::evaluate(next);
}

Move greedyMove(const Position& pos, const MoveList& legal, common::Random& rng) {
    std::vector<std::size_t> best;
    Score bestScore = -kInfinite;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        const Score s = greedyScore(pos, legal[i]);
        if (s > bestScore) {
            bestScore = s;
            best.clear();
        }
        if (s == bestScore) best.push_back(i);
    }
    return legal[best[rng.index(best.size())]];
}

Move alphaBetaMove(const Position& pos, const MoveList& legal, int depth) {
    std::uint64_t nodes = 0;
    Score alpha = -kInfinite;
    Move best = legal[0];
    for (const Move& m : legal) {
        const Score s = -referenceSearch(after(pos, m), depth - 1, 1, -kInfinite, -alpha, nodes);
        if (s > alpha) {
            alpha = s;
            best = m;
        }
    }
    return best;
}

}  // namespace

std::optional<PlayerKind> parsePlayerKind(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "random") return PlayerKind::Random;
    if (lower == "greedy") return PlayerKind::Greedy;
    if (lower == "alphabeta") return PlayerKind::AlphaBeta;
    return std::nullopt;
}

const char* playerKindName(PlayerKind kind) {
    switch (kind) {
        case PlayerKind::Random:
            return "random";
        case PlayerKind::Greedy:
            return "greedy";
        case PlayerKind::AlphaBeta:
            return "alphabeta";
    }
    return "?";
}

Score referenceSearch(const Position& pos, int depth, int ply, Score alpha, Score beta,
                      std::uint64_t& nodes) {
    ++nodes;
    MoveList legal;
    generateMoves(pos, legal);
    // Step 1: no legal move is a loss (R9), sooner is worse.
    if (legal.empty()) return -(kMate - ply);
    // Step 2: at the horizon, a quiet position is evaluated; a pending capture is played out.
    const bool quiet = !legal[0].capture;
    if ((depth <= 0 && quiet) || ply >= kReferenceMaxPly) return eval::evaluate(pos);
    // Step 3: negamax over every legal move, cut off when beta is reached.
    for (const Move& m : legal) {
        const Score s = -referenceSearch(after(pos, m), depth - 1, ply + 1, -beta, -alpha, nodes);
        if (s > alpha) alpha = s;
        if (alpha >= beta) break;
    }
    return alpha;
}

Move chooseMove(const Position& pos, const PlayerConfig& config, common::Random& rng) {
    MoveList legal;
    generateMoves(pos, legal);
    if (legal.empty()) return Move{};
    switch (config.kind) {
        case PlayerKind::Random:
            return legal[rng.index(legal.size())];
        case PlayerKind::Greedy:
            return greedyMove(pos, legal, rng);
        case PlayerKind::AlphaBeta:
            return alphaBetaMove(pos, legal, std::max(config.depth, 1));
    }
    return legal[0];
}

}  // namespace lasca::match
