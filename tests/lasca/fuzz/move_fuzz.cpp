// libFuzzer harness: the move reader. The first bytes steer a short game from the start
// position (each byte picks one legal move); the rest is read as a move in the position
// reached. Properties: a move that parses is one of the legal moves and formats back to text
// that parses to the same move; a move that does not parse gets a non-empty error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/position.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t plies = data[0] % 40;
    std::size_t at = 1;
    lasca::Position pos = lasca::Position::startPosition();
    for (std::size_t ply = 0; ply < plies && at < size; ++ply, ++at) {
        lasca::MoveList list;
        lasca::generateMoves(pos, list);
        if (list.empty()) break;
        lasca::Undo undo{};
        pos.make(list[data[at] % list.size()], undo);
    }
    const std::string_view text(reinterpret_cast<const char*>(data + at), size - at);
    const auto move = lasca::parseMove(pos, text);
    if (!move) {
        if (move.error().empty()) std::abort();
        return 0;
    }
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    if (!legal.contains(move.value())) std::abort();
    const auto again = lasca::parseMove(pos, lasca::formatMove(move.value()));
    if (!again || !(again.value() == move.value())) std::abort();
    return 0;
}
