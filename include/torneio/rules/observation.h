// One seat's observation as numbers (OpenSpiel's ObservationTensor): a fixed-size vector a
// learning program reads, built from the seat's View alone (view.h), so that it cannot hold
// what the seat may not know (D8): two states that differ only in facts hidden from the seat
// give it identical tensors.
//
// Layout: kObservationPlanes planes of Q = boardSize^2 values (square s = rank * boardSize +
// file, as in geometry.h), then kObservationScalars values:
//   plane 0        own king (1 on its square)
//   planes 1-3     own warrior 1, 2, 3 (1 on its square)
//   plane 4        own warriors' strength / strengthTotal on their squares
//   plane 5        own home zone (D2)
//   planes 6-8     the next 1st, 2nd, 3rd opponent clockwise (relative to the seat; zeros past
//                  the seat count): on each square where one of its pieces was last publicly
//                  seen (its combat call, its reveal, a refusal or retreat there, D12),
//                  1 / (1 + m) with m its "moved"/"withdrew" events since; a removal or
//                  elimination clears it
//   plane 9        the pending request's squares: 1 on `from`, 0.5 on each refused square
//   scalars        round / maxRounds; per relative seat 0..3 (the seat first) whether it is in
//                  the game, then its points gained / strengthTotal; one-hot of the request the
//                  seat must answer (setup, turn, order, withdraw, reward; all 0 when not
//                  deciding); points left to place / strengthTotal
// Size: 10 * 64 + 15 = 655 values on the 2-seat defaults (8x8), 1,015 on 10x10.
#pragma once

#include <cstddef>
#include <vector>

#include "torneio/rules/geometry.h"
#include "torneio/rules/params.h"
#include "torneio/rules/state.h"
#include "torneio/rules/view.h"

namespace torneio {

inline constexpr int kObservationPlanes = 10;
inline constexpr int kObservationScalars = 1 + 2 * kMaxSeats + 5 + 1;

// The length of every observation of games with these params.
std::size_t observationSize(const Params& params);

// The observation of the seat whose view this is (the layout above).
std::vector<double> observationTensor(const View& view, const Geometry& geometry);
// The same for `seat` (0-based) of a game: observationTensor(viewOf(state, seat), ...).
std::vector<double> observationTensor(const State& state, int seat);

}  // namespace torneio
