#include <iostream>
#include <string>

#include "lasca/notation.h"
#include "lasca/perft.h"

int main(int argc, char** argv) {
    int depth = argc > 1 ? std::stoi(argv[1]) : 5;
    std::string fen = argc > 2 ? argv[2] : std::string(lasca::kStartLfen);
    auto pos = lasca::Position::fromLfen(fen);
    if (!pos) { std::cout << pos.error() << "\n"; return 1; }
    std::uint64_t total = 0;
    for (auto& l : lasca::divide(pos.value(), depth)) {
        std::cout << lasca::formatMove(l.move) << ": " << l.nodes << "\n";
        total += l.nodes;
    }
    std::cout << "Nodes searched: " << total << "\n";
}
