// A uniformly random legal reply to a request (action.h randomAction).
#include <utility>
#include <vector>

#include "action_internal.h"
#include "torneio/rules/action.h"

namespace torneio {

using detail::forEachSmall;
using detail::freeStrength;
using detail::nthStrengthSplit;
using detail::strengthSplits;

Action randomAction(const Request& request, const OwnPieces& own, const Geometry& geometry,
                    common::Random& random) {
    if (request.kind == RequestKind::SetUp) {
        if (request.seat < 0 || request.seat >= geometry.seats()) return passAction();
        // A uniformly random ordered choice of 4 zone squares (partial Fisher-Yates), then a
        // uniformly random strength split: together uniform over the legal set-ups.
        const std::span<const Square> zone = geometry.zone(request.seat);
        if (zone.size() < kPiecesPerSeat) return passAction();
        std::vector<Square> squares(zone.begin(), zone.end());
        for (std::size_t i = 0; i < kPiecesPerSeat; ++i)
            std::swap(squares[i], squares[i + random.index(squares.size() - i)]);
        SetUp setUp;
        setUp.king = squares[0];
        setUp.warriors = {squares[1], squares[2], squares[3]};
        const int free = freeStrength(geometry);
        setUp.strengths = nthStrengthSplit(random.below(strengthSplits(free)), free,
                                           geometry.params().minStrength);
        return setUpAction(setUp);
    }
    // At most 4 * 8 moves + 3 combats + pass: count, draw an index, walk again to it.
    const std::uint64_t count = countLegalActions(request, own, geometry);
    if (count == 0) return passAction();
    std::uint64_t chosen = random.below(count);
    Action picked = passAction();
    forEachSmall(request, own, geometry, [&](const Action& a) {
        if (chosen-- == 0) picked = a;
    });
    return picked;
}
}  // namespace torneio
