// Seats: the referee's end of each player's connection. Every seat speaks the Torneio player
// protocol (protocol.md) as lines, whatever is behind it, so the referee has one code path for
// all kinds and every kind is judged alike:
//   Program    a player program run as a child process, lines on its stdin/stdout (ChildSeat)
//   InProcess  the `torneio` program's own PlayerSession run inside the referee (InProcessSeat):
//              the same lines without a process, for tests and benchmarks
//   Human      a person at the terminal (human_seat.h): shows the seat's game, built from the
//              lines the referee sends it (newgame, events, requests), on the referee's stdout
//              and returns what the person types on its stdin as the reply (answering
//              `torneio` and `isready` itself); no time limit. `--player name=me,human`.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/process.h"
#include "common/result.h"

namespace torneio::referee {

enum class SeatKind { Program, InProcess, Human };

// SeatSpec: one player of a game or match, as `--player` gives it (common::ProgramSpec plus the
// kind): `PATH`, or `name=N,cmd=PATH,arg=A,option.X=Y`, with `inprocess` or `human` for those
// kinds.
//   name     shown in reports and records (default: the program's file name; "inprocess" and
//            "human" for those kinds)
//   path     the program (Program only); args its command-line arguments
//   options  sent as `setoption name X value Y` after the handshake, in order (every kind)
struct SeatSpec {
    std::string name;
    SeatKind kind = SeatKind::Program;
    std::string path;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> options;
};

// Errors: a malformed spec, a program kind without a program, a kind with a program.
common::Result<SeatSpec> parseSeatSpec(std::string_view text);

// Seat: one player's line connection. Lines have no line end. Not thread-safe: one referee
// thread uses a seat at a time.
class Seat {
  public:
    virtual ~Seat() = default;
    // Sends one line; false when the player is known to be gone (its input closed) or stuck
    // (below). A seat may hold lines back and pass them on together: at the latest when receive
    // is called, and at flush.
    virtual bool send(std::string_view line) = 0;
    // Passes on every line held back; false when the player is gone or stuck.
    virtual bool flush() { return open(); }
    // How long a send or flush may wait for the player to take its lines (a program whose
    // input pipe stays full because it stopped reading); the referee sets it (the handshake:
    // Limits::start; a game: Limits::decision). A seat that does not take them in time is stuck
    // for good: its input is closed, and send, flush and receive fail.
    virtual void limitWrites(std::chrono::milliseconds wait) { (void)wait; }
    // After send or flush returned false, or receive Timeout: true when the player did not take
    // its lines in time, false when its input is closed (or its reply did not come).
    virtual bool stuck() const { return false; }
    // The next line from the player (after a flush), waiting until `deadline` at most. A flush
    // that fails makes it Closed (Timeout for a stuck seat), and so does a program that closes
    // its input leaving lines unread, as soon as it does.
    virtual common::ReadStatus receive(std::string& line,
                                       common::SteadyClock::time_point deadline) = 0;
    // Ends the connection without blocking: `quit` if the player takes it at once, a short
    // grace period, then the player is stopped for good. send then fails and receive returns
    // Closed.
    virtual void close() = 0;
    virtual bool open() const = 0;
    // After receive returned Closed: true when a person left (a Human seat whose person quit or
    // whose input ended), false when a program's output closed (a crash).
    virtual bool personLeft() const { return false; }
};

// Opens a seat of the spec's kind; no line is exchanged yet (the referee does the handshake).
// stderrLog: the file a program's standard error is appended to ("": discarded).
// Errors: a program that cannot be started. A Human seat uses std::cin and std::cout.
common::Result<std::unique_ptr<Seat>> openSeat(const SeatSpec& spec, const std::string& stderrLog);

}  // namespace torneio::referee
