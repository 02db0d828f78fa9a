// The text protocol (see protocol.md): UCI and UGI dialects on one loop. The only module that
// writes to stdout.
#pragma once

#include <atomic>
#include <deque>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lasca/engine/engine.h"

namespace lasca::engine {

// Output: the single writer of protocol lines. Thread-safe (the search thread reports through
// it); every line is flushed at once and logged at debug level.
class Output {
  public:
    explicit Output(std::ostream& out) : out_(out) {}
    void line(const std::string& text);

  private:
    std::ostream& out_;
    std::mutex mutex_;
};

enum class Dialect { Uci, Ugi };

inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// PositionCommand: what `position startpos|fen <LFEN> [moves <m1> <m2> ...]` asks for: the
// start position, and the moves after it as written (whoever takes the command plays them).
struct PositionCommand {
    Position start;
    std::vector<std::string> moves;
};

// PositionCommandError: why a `position` command was not read; each program words it.
//   NoStart        the word after `position` is neither startpos nor fen; word: that word
//                  (empty when there is none)
//   AfterStartpos  a word other than `moves` follows startpos; word: that word
//   BadLfen        the LFEN does not read; word: Position::fromLfen's error
struct PositionCommandError {
    enum class Kind { NoStart, AfterStartpos, BadLfen } kind;
    std::string word;
};

// Reads the words of a `position` command (tokens[0] is `position`): the LFEN is every word
// between `fen` and the first `moves`, the moves every word after it. Used by the engine's
// loop and by lasca-reference.
std::variant<PositionCommand, PositionCommandError> parsePositionCommand(
    const std::vector<std::string_view>& tokens);

// GoRequest: a `go` command read but not yet run. The root moves of `searchmoves` stay text
// until the go runs: they are read against the position it searches, which commands kept
// while an earlier search ran may still change.
struct GoRequest {
    search::SearchLimits limits;
    std::vector<std::string> searchMoves;
    int perftDepth = 0;  // `go perft N`: no search, a divide
};

// Protocol: parses command lines and drives the Engine. Commands take effect in the order
// they arrive (protocol.md, "Commands while a search runs"):
//   - isready, stop, ponderhit, quit act at once; stop returns once the bestmove is out;
//   - go, bench, ucinewgame end a running search first (stop, wait for its bestmove);
//   - position and setoption arriving while a search runs are kept in pending_, and so is
//     every later command that is not one of the above, until the search has ended; then
//     they run in arrival order, before the next command.
class Protocol {
  public:
    explicit Protocol(Output& out);
    ~Protocol();

    // Handles one line (without its line end). Returns false once `quit` was received.
    bool handle(std::string_view line);
    // End of input or quit: stops any search and waits for its bestmove.
    void finish();

    // The engine behind the protocol, for tests and fuzzing harnesses.
    const Engine& engine() const { return engine_; }

    // Reads lines from `in` until quit or end of input; returns the process exit code.
    static int run(std::istream& in, std::ostream& out);

  private:
    using Tokens = std::vector<std::string_view>;

    void execute(const Tokens& t);  // runs one command on an idle engine (or a reading one)
    void runPending();              // the kept commands, once no search runs
    void endSearch();               // stop the running search and wait for its bestmove
    // The error of a go or bench that cannot run, found before a running search is ended.
    std::optional<std::string> malformedSearchCommand(const Tokens& t) const;
    void identify(Dialect dialect);
    void setOption(const Tokens& t);
    void position(const Tokens& t);
    common::Result<GoRequest> parseGo(const Tokens& t) const;
    void go(const GoRequest& request);
    void query(const Tokens& t);
    void perft(int depth);
    void display();
    void showEvaluation();
    common::Result<int> parseBench(const Tokens& t) const;
    void bench(int depth);
    void help();
    void error(const std::string& message);

    std::string formatInfo(const search::SearchInfo& info) const;
    std::string formatBestMove(const Move& best, const Move& ponder) const;

    Output& out_;
    std::atomic<Dialect> dialect_{Dialect::Uci};  // read by the search thread for bestmove
    Engine engine_;
    std::deque<std::string> pending_;  // lines kept while a search runs, oldest first
};

}  // namespace lasca::engine
