// fake_engine MODE [N]: a misbehaving engine for the referee tests. It speaks just enough of
// the protocol (uci/ugi, isready, position, go, quit) and plays random legal moves, except:
//   legal          always legal moves
//   illegal        from its N-th `go` (default 1): a well-formed move that is not legal
//   garbage        from its N-th `go`: `bestmove @@garbage@@`
//   empty          from its N-th `go`: a bare `bestmove`
//   exit           at its N-th `go`: exits without answering (a crash)
//   hang           from its N-th `go`: never answers
//   slow           from its N-th `go`: answers after 1.5 s
//   nostart        never answers `uci`/`ugi`
//   want-movetime  from its N-th `go`: an illegal move unless the `go` is `go movetime ...`
//   want-nodes     from its N-th `go`: an illegal move unless the `go` is `go nodes ...`
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "lasca/core/game.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"

namespace {

lasca::Position readPosition(std::istringstream& in) {
    std::string word, lfen;
    in >> word;
    if (word == "startpos") {
        lfen = std::string(lasca::kStartLfen);
        in >> word;
    } else {
        while (in >> word && word != "moves") lfen += (lfen.empty() ? "" : " ") + word;
    }
    lasca::Game game(lasca::Position::fromLfen(lfen).value());
    while (in >> word) game.playText(word);
    return game.current();
}

std::string randomMove(const lasca::Position& pos, std::mt19937& rng) {
    lasca::MoveList legal;
    lasca::generateMoves(pos, legal);
    if (legal.empty()) return "0000";
    return lasca::formatMove(legal[rng() % legal.size()]);
}

// A well-formed move that is certainly not legal: a step from an empty square.
std::string illegalMove(const lasca::Position& pos) {
    for (lasca::Square s = 0; s < lasca::kSquares; ++s)
        for (int d = 0; d < lasca::kDirections; ++d) {
            const lasca::Square to = lasca::neighbour(s, d);
            if (to != lasca::kNoSquare && !(pos.occupied() & lasca::bit(s)))
                return lasca::squareName(s) + "-" + lasca::squareName(to);
        }
    return "a1-b2";
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "legal";
    const int from = argc > 2 ? std::atoi(argv[2]) : 1;
    std::mt19937 rng(7);
    lasca::Position pos = lasca::Position::startPosition();
    int gos = 0;
    for (std::string line; std::getline(std::cin, line);) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if ((cmd == "uci" || cmd == "ugi") && mode != "nostart") {
            std::cout << "id name fake " << mode << "\n" << cmd << "ok" << std::endl;
        } else if (cmd == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (cmd == "position") {
            pos = readPosition(in);
        } else if (cmd == "go") {
            const bool misbehave = ++gos >= from;
            if (misbehave && mode == "exit") return 3;
            if (misbehave && mode == "hang") continue;
            if (misbehave && mode == "slow")
                std::this_thread::sleep_for(std::chrono::milliseconds(1500));
            std::string move = randomMove(pos, rng);
            std::string limit;
            in >> limit;
            if (misbehave &&
                (mode == "illegal" || (mode == "want-movetime" && limit != "movetime") ||
                 (mode == "want-nodes" && limit != "nodes")))
                move = illegalMove(pos);
            if (misbehave && mode == "garbage") move = "@@garbage@@";
            std::cout << "info depth 1 score cp 0 pv " << move << "\n";
            std::cout << (misbehave && mode == "empty" ? std::string("bestmove")
                                                       : "bestmove " + move)
                      << std::endl;
        } else if (cmd == "quit") {
            return 0;
        }
    }
    return 0;
}
