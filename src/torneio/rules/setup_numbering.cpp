// The numbering of a seat's legal set-ups (action.h nthSetUp, setUpNumber): mixed radix over
// the king's and warriors' zone squares, then the strength split (D2, D3).
#include <algorithm>
#include <string>
#include <vector>

#include "action_internal.h"
#include "torneio/rules/action.h"

namespace torneio {

using common::makeError;
using detail::freeStrength;
using detail::nthStrengthSplit;
using detail::squareChoices;
using detail::strengthSplits;

common::Result<SetUp> nthSetUp(int seat, std::uint64_t index, const Geometry& geometry) {
    if (seat < 0 || seat >= geometry.seats())
        return makeError("seat " + std::to_string(seat + 1) + " is not in this game");
    const std::span<const Square> zone = geometry.zone(seat);
    const int free = freeStrength(geometry);
    const std::uint64_t splits = strengthSplits(free);
    const std::uint64_t count = squareChoices(zone.size()) * splits;
    if (index >= count)
        return makeError("set-up number " + std::to_string(index) + " out of range 0.." +
                         std::to_string(count == 0 ? 0 : count - 1));
    // Mixed radix, most significant first: king, warrior 1, 2, 3 (each a rank among the zone
    // squares still free, ascending), strength split.
    SetUp setUp;
    setUp.strengths = nthStrengthSplit(index % splits, free, geometry.params().minStrength);
    std::uint64_t rest = index / splits;
    std::array<std::uint64_t, kPiecesPerSeat> rank{};
    for (int i = kPiecesPerSeat - 1; i >= 0; --i) {
        const std::uint64_t radix = zone.size() - static_cast<std::size_t>(i);
        rank[static_cast<std::size_t>(i)] = rest % radix;
        rest /= radix;
    }
    std::vector<Square> left(zone.begin(), zone.end());
    std::array<Square, kPiecesPerSeat> chosen{};
    for (std::size_t i = 0; i < kPiecesPerSeat; ++i) {
        const auto at = left.begin() + static_cast<std::ptrdiff_t>(rank[i]);
        chosen[i] = *at;
        left.erase(at);
    }
    setUp.king = chosen[0];
    setUp.warriors = {chosen[1], chosen[2], chosen[3]};
    return setUp;
}

common::Result<std::uint64_t> setUpNumber(int seat, const SetUp& setUp, const Geometry& geometry) {
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = seat;
    if (seat < 0 || seat >= geometry.seats())
        return makeError("seat " + std::to_string(seat + 1) + " is not in this game");
    if (auto legal = checkAction(request, OwnPieces{}, geometry, setUpAction(setUp)); !legal)
        return makeError(legal.error());
    const std::span<const Square> zone = geometry.zone(seat);
    std::vector<Square> left(zone.begin(), zone.end());
    std::uint64_t number = 0;
    const std::array<Square, kPiecesPerSeat> squares{setUp.king, setUp.warriors[0],
                                                     setUp.warriors[1], setUp.warriors[2]};
    for (Square s : squares) {
        const auto at = std::find(left.begin(), left.end(), s);
        number = number * left.size() + static_cast<std::uint64_t>(at - left.begin());
        left.erase(at);
    }
    // The split's rank: the splits with a smaller first strength, then the second strength.
    const int free = freeStrength(geometry);
    const int minimum = geometry.params().minStrength;
    const auto first = static_cast<std::uint64_t>(setUp.strengths[0] - minimum);
    const auto second = static_cast<std::uint64_t>(setUp.strengths[1] - minimum);
    const auto f = static_cast<std::uint64_t>(free);
    const std::uint64_t split = first * (2 * f + 3 - first) / 2 + second;
    return number * strengthSplits(free) + split;
}
}  // namespace torneio
