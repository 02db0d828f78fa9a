// The text protocol (see protocol.md): UCI and UGI dialects on one loop. The only module that
// writes to stdout.
#pragma once

#include <atomic>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lasca/engine.h"

namespace lasca {

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

// Protocol: parses command lines and drives the Engine.
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

    void identify(Dialect dialect);
    void setOption(const Tokens& t);
    void position(const Tokens& t);
    void go(const Tokens& t);
    void query(const Tokens& t);
    void perft(int depth);
    void display();
    void showEvaluation();
    void bench(const Tokens& t);
    void help();
    void error(const std::string& message);
    bool refuseWhileSearching(std::string_view command);

    std::string formatInfo(const SearchInfo& info) const;
    std::string formatBestMove(const Move& best, const Move& ponder) const;

    Output& out_;
    std::atomic<Dialect> dialect_{Dialect::Uci};  // read by the search thread for bestmove
    Engine engine_;
};

}  // namespace lasca
