// Engine: one engine program driven through the project's protocol (UCI or UGI dialect) as a
// child process, with a watchdog on every reply the runner waits for.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/process.h"
#include "common/result.h"
#include "lasca/engine/replies.h"

namespace lasca::match {

enum class Dialect { Uci, Ugi };

// EngineSpec: how to start and configure one engine.
//   name      shown in reports and PDN (default: the file name of path)
//   path      the program; args its command-line arguments
//   options   sent as `setoption name <first> value <second>` after the handshake, in order
//   dialect   `uci` or `ugi` handshake (and the matching new-game command and go names)
//   movetimeMs, nodes  this engine's own limit per move instead of the match's time control
//             (time or node odds, e.g. an engine at 10 ms against another at 50 ms); 0: none,
//             at most one of them set
struct EngineSpec {
    std::string name;
    std::string path;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> options;
    Dialect dialect = Dialect::Uci;
    std::int64_t movetimeMs = 0;
    std::int64_t nodes = 0;
};

// EngineLimits: whether the text of an engine may carry the engine's own limit per move
// (lasca-match's movetime=/nodes=); lasca-tune spsa sets the limit for the whole run.
enum class EngineLimits { Allowed, Refused };

// Parses an engine as the command lines give it: "PATH", or
// "name=N,cmd=PATH,arg=A,proto=uci|ugi,movetime=MS,nodes=N,option.Hash=32"
// (common::parseProgramSpec; movetime= and nodes= only when limits are Allowed, each a whole
// number in 1..10^12 and at most one of them). An error names the text; a spec without cmd is
// an error.
common::Result<EngineSpec> parseEngineSpec(const std::string& text, EngineLimits limits);

// Timeouts: how long the runner waits for each kind of reply before it declares the engine
// hung; the lines before a reply wait as long at most for the engine to take them. The move
// time-out is derived from the time control (see TimeControl).
struct Timeouts {
    std::chrono::milliseconds startup{10000};  // from start to uciok/ugiok
    std::chrono::milliseconds isready{5000};   // from isready to readyok
};

// MoveReply: the outcome of asking for one move.
//   status   Ok (move holds the bestmove token), Timeout (no bestmove before the deadline),
//            Crashed (the engine's output closed), Garbled (a bestmove line without a move)
//   elapsed  time from sending `go` to reading `bestmove`
enum class ReplyStatus { Ok, Timeout, Crashed, Garbled };
struct MoveReply {
    ReplyStatus status = ReplyStatus::Ok;
    std::string move;
    std::chrono::milliseconds elapsed{0};
};

// EngineListing: what an engine says between `uci` (or `ugi`) and `uciok` (`ugiok`).
//   status   Line once uciok came; Closed when the engine's output ended before it, Timeout
//            when the deadline passed first
//   options  the `option` lines of the listing, in order (engine::parseOption)
struct EngineListing {
    common::ReadStatus status = common::ReadStatus::Line;
    std::vector<engine::OptionReply> options;
};

// The first half of the handshake, for every program that starts an engine (Engine::start,
// lasca-tune spsa's check of the engine's options): sends `uci` (`ugi`) and reads the listing
// up to the line whose first word is `uciok` (`ugiok`), all before `deadline`.
EngineListing readListing(common::ChildProcess& process, Dialect dialect,
                          common::SteadyClock::time_point deadline);

// Engine: a started engine. alive() turns false once the engine failed a watchdog or its
// process ended; such an engine must be restarted (start again) before the next game.
class Engine {
  public:
    // Starts the process, performs the handshake and sets the options, then checks isready.
    static common::Result<std::unique_ptr<Engine>> start(const EngineSpec& spec,
                                                         const Timeouts& timeouts,
                                                         const std::string& stderrLog);
    ~Engine();

    const EngineSpec& spec() const { return spec_; }
    bool alive() const { return alive_; }

    // ucinewgame/uginewgame followed by isready; false when readyok did not come in time.
    bool newGame();
    // Sends `positionCommand`, then `isready` (waiting for readyok and dropping every line
    // before it), then `goCommand`, and waits for `bestmove` until `deadline`
    // (measured from the moment `go` is written).
    MoveReply requestMove(const std::string& positionCommand, const std::string& goCommand,
                          std::chrono::milliseconds deadline);
    void quit();  // `quit`, a short grace period, then SIGKILL

  private:
    Engine(EngineSpec spec, Timeouts timeouts, std::unique_ptr<common::ChildProcess> process)
        : spec_(std::move(spec)), timeouts_(timeouts), process_(std::move(process)) {}
    common::Result<bool> handshake();
    // Writes one line, waiting at most `wait` for the engine to take it; false when it did not
    // (its input is then closed: common::ChildProcess::write).
    bool send(std::string_view line, std::chrono::milliseconds wait);
    bool waitFor(const std::string& token, std::chrono::milliseconds timeout);

    EngineSpec spec_;
    Timeouts timeouts_;
    std::unique_ptr<common::ChildProcess> process_;
    bool alive_ = true;
};

}  // namespace lasca::match
