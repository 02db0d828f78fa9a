// Reference opponents for the match runner: a random mover, a one-ply greedy player and a plain
// fixed-depth alpha-beta. They are deliberately simple and predictable, so that a match against
// them measures an engine on a known scale. Pure functions: no I/O, no global state.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/random.h"
#include "lasca/eval/eval.h"
#include "lasca/core/move.h"
#include "lasca/core/position.h"

namespace lasca::match {

// PlayerKind: which reference player chooses the move.
//   Random     a uniformly random legal move
//   Greedy     the move after which the opponent's static evaluation is lowest (seeded
//              tie-break among equal moves)
//   AlphaBeta  plain negamax alpha-beta to a fixed depth (no TT, no pruning, no extensions
//              except that captures pending at depth 0 are played out, since they are
//              compulsory); the first best move in generation order
enum class PlayerKind { Random, Greedy, AlphaBeta };

std::optional<PlayerKind> parsePlayerKind(std::string_view name);  // "random", ... any case
const char* playerKindName(PlayerKind kind);

// PlayerConfig: a reference player. depth is used by AlphaBeta only (plies, >= 1).
struct PlayerConfig {
    PlayerKind kind = PlayerKind::AlphaBeta;
    int depth = 6;
};

// The deepest ply the alpha-beta searches, also while playing out captures: a guard against
// endless capture chains; beyond it the static evaluation is returned.
inline constexpr int kReferenceMaxPly = 100;

// Score of a position for the side to move from a negamax search of `depth` plies, with
// losses (R9, no legal move) scored -(kMate - ply). `nodes` counts positions visited.
Score referenceSearch(const Position& pos, int depth, int ply, Score alpha, Score beta,
                      std::uint64_t& nodes);

// The move the player chooses, or the null move when the side to move has no legal move.
// Only Random and Greedy draw from rng.
Move chooseMove(const Position& pos, const PlayerConfig& config, common::Random& rng);

}  // namespace lasca::match
