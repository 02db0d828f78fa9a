// What the files of action.h share inside the rules library (action.cpp: legality;
// action_text.cpp: text forms; setup_numbering.cpp: set-up numbers; action_random.cpp: random
// actions): counting the set-ups of a seat (D2, D3) and walking every legal reply in the
// documented order. Not part of the library's interface.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "torneio/rules/action.h"

namespace torneio::detail {

// The strength left to split freely once every warrior has its minimum (D3).
inline int freeStrength(const Geometry& geometry) {
    return geometry.params().strengthTotal - kWarriors * geometry.params().minStrength;
}

// Ways to split `free` points among 3 warriors in order: C(free + 2, 2).
inline std::uint64_t strengthSplits(int free) {
    const auto f = static_cast<std::uint64_t>(free);
    return (f + 2) * (f + 1) / 2;
}

// The k-th split (0-based) in lexicographic order of (first, second), minimum added back.
inline std::array<int, kWarriors> nthStrengthSplit(std::uint64_t k, int free, int minimum) {
    for (int first = 0; first <= free; ++first) {
        const auto withFirst = static_cast<std::uint64_t>(free - first + 1);
        if (k < withFirst) {
            const int second = static_cast<int>(k);
            return {first + minimum, second + minimum, free - first - second + minimum};
        }
        k -= withFirst;
    }
    return {minimum, minimum, free + minimum};  // not reached for k < strengthSplits(free)
}

// Ordered choices of 4 different zone squares: n (n-1) (n-2) (n-3).
inline std::uint64_t squareChoices(std::size_t zoneSize) {
    if (zoneSize < kPiecesPerSeat) return 0;
    const auto n = static_cast<std::uint64_t>(zoneSize);
    return n * (n - 1) * (n - 2) * (n - 3);
}

// Every legal set-up of `seat`, in the documented order.
template <class F>
void forEachSetUp(int seat, const Geometry& geometry, F&& visit) {
    const std::span<const Square> zone = geometry.zone(seat);
    const int free = freeStrength(geometry);
    const int minimum = geometry.params().minStrength;
    const std::uint64_t splits = strengthSplits(free);
    SetUp setUp;
    for (Square king : zone) {
        setUp.king = king;
        for (Square w1 : zone) {
            if (w1 == king) continue;
            for (Square w2 : zone) {
                if (w2 == king || w2 == w1) continue;
                for (Square w3 : zone) {
                    if (w3 == king || w3 == w1 || w3 == w2) continue;
                    setUp.warriors = {w1, w2, w3};
                    for (std::uint64_t k = 0; k < splits; ++k) {
                        setUp.strengths = nthStrengthSplit(k, free, minimum);
                        visit(setUpAction(setUp));
                    }
                }
            }
        }
    }
}

// Every legal reply to a request other than SetUp, in the documented order.
template <class F>
void forEachSmall(const Request& request, const OwnPieces& own, const Geometry& geometry,
                  F&& visit) {
    switch (request.kind) {
        case RequestKind::SetUp:
            return;
        case RequestKind::Turn: {
            for (int piece = 0; piece < kPiecesPerSeat; ++piece)
                for (Square to : pieceDestinations(own, piece, geometry))
                    visit(moveAction(piece, to));
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (own[w].alive) visit(combatAction(own[w].square));
            if (passAllowed(own, geometry)) visit(passAction());
            return;
        }
        case RequestKind::RetreatOrder: {
            if (!geometry.onBoard(request.from)) return;
            for (Square to : geometry.warriorSteps(request.from)) {
                const bool refused = std::find(request.refused.begin(), request.refused.end(),
                                               to) != request.refused.end();
                if (!refused) visit(orderAction(to));
            }
            return;
        }
        case RequestKind::Withdraw: {
            if (request.piece < kFirstWarrior || request.piece >= kPiecesPerSeat) return;
            if (own[request.piece].square != request.from) return;
            for (Square to : pieceDestinations(own, request.piece, geometry))
                visit(withdrawAction(to));
            return;
        }
        case RequestKind::Reward: {
            for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w)
                if (own[w].alive) visit(rewardAction(w));
            return;
        }
    }
}

}  // namespace torneio::detail
