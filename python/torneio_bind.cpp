// The checks of Python's arguments and the conversions the bound classes share (torneio_bind.h).
#include "torneio_bind.h"

#include "torneio/play/resample.h"

namespace torneio_py {

void checkLine(const std::string& text, const char* what) {
    if (text.size() > kMaxLineLength)
        throw py::value_error(std::string(what) + " too long (" + std::to_string(text.size()) +
                              " characters, at most " + std::to_string(kMaxLineLength) + ")");
}

torneio::Params paramsOf(int seats, const std::optional<std::string>& text) {
    if (text) {
        checkLine(*text, "params");
        torneio::Params params = valueOrThrow(torneio::parseParams(*text));
        if (params.seats != seats)
            throw py::value_error("params say seats=" + std::to_string(params.seats) +
                                  " but seats is " + std::to_string(seats));
        return params;
    }
    if (seats < torneio::kMinSeats || seats > torneio::kMaxSeats)
        throw py::value_error("seats must be in " + std::to_string(torneio::kMinSeats) + ".." +
                              std::to_string(torneio::kMaxSeats) + ", got " +
                              std::to_string(seats));
    return valueOrThrow(torneio::validateParams(torneio::defaultParams(seats)));
}

int seatIndex(int seat, int seats) {
    if (seat < 1 || seat > seats)
        throw py::value_error("seat must be in 1.." + std::to_string(seats) + ", got " +
                              std::to_string(seat));
    return seat - 1;
}

int playerIndex(int player, int seats) {
    if (player < 0 || player >= seats)
        throw py::value_error("player must be in 0.." + std::to_string(seats - 1) + ", got " +
                              std::to_string(player));
    return player;
}

void checkParticles(int particles) {
    if (particles < 1 || particles > torneio::play::kMaxSampleParticles)
        throw py::value_error("particles must be in 1.." +
                              std::to_string(torneio::play::kMaxSampleParticles) + ", got " +
                              std::to_string(particles));
}

std::vector<std::string> actionTexts(const std::vector<torneio::Action>& actions,
                                     const torneio::Geometry& geometry) {
    std::vector<std::string> texts;
    texts.reserve(actions.size());
    for (const torneio::Action& a : actions) texts.push_back(torneio::formatAction(a, geometry));
    return texts;
}

std::vector<std::tuple<int, std::string, int>> piecesOf(const torneio::OwnPieces& own,
                                                        const torneio::Geometry& geometry) {
    std::vector<std::tuple<int, std::string, int>> pieces;
    for (int i = 0; i < torneio::kPiecesPerSeat; ++i) {
        const torneio::Piece& p = own[i];
        if (p.alive) pieces.emplace_back(i, geometry.name(p.square), p.strength);
    }
    return pieces;
}

OutcomeInfo describe(const torneio::Outcome& outcome) {
    OutcomeInfo info;
    info.kind = outcome.kind == torneio::OutcomeKind::Win    ? "win"
                : outcome.kind == torneio::OutcomeKind::Draw ? "draw"
                                                             : "ongoing";
    for (int s = 0; s < torneio::kMaxSeats; ++s)
        if (outcome.seats & (1u << s)) info.seats.push_back(s + 1);
    info.round = outcome.kind == torneio::OutcomeKind::Ongoing ? 0 : outcome.round;
    return info;
}

}  // namespace torneio_py
