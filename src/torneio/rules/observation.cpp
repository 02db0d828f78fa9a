#include "torneio/rules/observation.h"

#include <algorithm>
#include <array>

namespace torneio {

namespace {

// LastSeen: per seat and square, the seat's move count when one of its pieces was last seen
// there in public (-1: not seen, or seen and then removed), and per seat its moves so far
// ("moved" and "withdrew" events).
struct LastSeen {
    std::array<std::vector<int>, kMaxSeats> when;
    std::array<int, kMaxSeats> moves{};
};

// The public sightings of every seat in `events` (D12: combat calls, reveals, refusals,
// retreats), cleared by a removal (D7) or the seat's elimination (G11, D9).
LastSeen lastSeen(const std::vector<Event>& events, int seats, const Geometry& geometry) {
    const auto q = static_cast<std::size_t>(geometry.squareCount());
    LastSeen seen;
    for (auto& squares : seen.when) squares.assign(q, -1);
    Square combat = kNoSquare;
    const auto see = [&](int seat, Square s) {
        if (seat >= 0 && seat < seats && geometry.onBoard(s))
            seen.when[static_cast<std::size_t>(seat)][static_cast<std::size_t>(s)] =
                seen.moves[static_cast<std::size_t>(seat)];
    };
    for (const Event& e : events) {
        switch (e.kind) {
            case EventKind::Moved:
            case EventKind::Withdrew:
                if (e.seat >= 0 && e.seat < seats) ++seen.moves[static_cast<std::size_t>(e.seat)];
                break;
            case EventKind::Combat:
                combat = e.square;
                see(e.seat, e.square);
                break;
            case EventKind::Reveal:
                see(e.seat, combat);
                break;
            case EventKind::Refused:
            case EventKind::Retreat:
                see(e.seat, e.square);
                break;
            case EventKind::Removed:
                if (e.seat >= 0 && e.seat < seats && geometry.onBoard(e.square))
                    seen.when[static_cast<std::size_t>(e.seat)]
                             [static_cast<std::size_t>(e.square)] = -1;
                break;
            case EventKind::Eliminated:
            case EventKind::Disqualified:
                if (e.seat >= 0 && e.seat < seats)
                    seen.when[static_cast<std::size_t>(e.seat)].assign(q, -1);
                break;
            default:
                break;
        }
    }
    return seen;
}

}  // namespace

std::size_t observationSize(const Params& params) {
    return static_cast<std::size_t>(kObservationPlanes * params.boardSize * params.boardSize +
                                    kObservationScalars);
}

std::vector<double> observationTensor(const View& view, const Geometry& geometry) {
    const int q = geometry.squareCount();
    const int seats = view.params.seats;
    const double total = std::max(1, view.params.strengthTotal);
    std::vector<double> out(observationSize(view.params), 0.0);
    const auto at = [&](int plane, Square s) -> double& {
        return out[static_cast<std::size_t>(plane * q + s)];
    };
    // Planes 0-5: the seat's own pieces and zone.
    for (int i = 0; i < kPiecesPerSeat; ++i) {
        const Piece& piece = view.own[i];
        if (!piece.alive) continue;
        at(i, piece.square) = 1.0;
        if (i != kKing) at(4, piece.square) = piece.strength / total;
    }
    for (Square s : geometry.zone(view.seat)) at(5, s) = 1.0;

    // Planes 6-8: the opponents' public sightings.
    const LastSeen seen = lastSeen(view.events, seats, geometry);
    for (int r = 1; r < seats; ++r) {
        const auto seat = static_cast<std::size_t>((view.seat + r) % seats);
        for (int s = 0; s < q; ++s) {
            const int when = seen.when[seat][static_cast<std::size_t>(s)];
            if (when >= 0) at(5 + r, s) = 1.0 / (1 + seen.moves[seat] - when);
        }
    }
    // Plane 9: the pending request.
    if (view.request) {
        if (geometry.onBoard(view.request->from)) at(9, view.request->from) = 1.0;
        for (Square s : view.request->refused)
            if (geometry.onBoard(s)) at(9, s) = 0.5;
    }
    // The scalars.
    std::size_t k = static_cast<std::size_t>(kObservationPlanes * q);
    out[k++] = static_cast<double>(view.round) / view.params.maxRounds;
    for (int r = 0; r < kMaxSeats; ++r) {
        if (r < seats) {
            const int seat = (view.seat + r) % seats;
            out[k] = view.eliminated[static_cast<std::size_t>(seat)] ? 0.0 : 1.0;
        }
        ++k;
    }
    // Points gained are public (G10, D12.5): count the seat's "gained" events.
    std::array<int, kMaxSeats> gained{};
    for (const Event& e : view.events)
        if (e.kind == EventKind::Gained && e.seat >= 0 && e.seat < seats)
            gained[static_cast<std::size_t>(e.seat)] += e.value;
    for (int r = 0; r < kMaxSeats; ++r) {
        if (r < seats) out[k] = gained[static_cast<std::size_t>((view.seat + r) % seats)] / total;
        ++k;
    }
    if (view.request) out[k + static_cast<std::size_t>(view.request->kind)] = 1.0;
    k += 5;
    if (view.request) out[k] = view.request->points / total;
    return out;
}

std::vector<double> observationTensor(const State& state, int seat) {
    return observationTensor(viewOf(state, seat), state.geometry());
}

}  // namespace torneio
