// The `torneio` player program's side of the Torneio player protocol (protocol.md, "The Torneio
// player protocol"), without I/O: a PlayerSession takes one line from the referee and returns
// the lines to answer, so that the same code runs behind stdin/stdout (runPlayerLoop, the
// `torneio` program) and in-process (the referee's in-process seat, tests).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/options.h"
#include "torneio/play/knowledge.h"
#include "torneio/play/player.h"

namespace torneio::play {

inline constexpr const char* kPlayerProgramName = "Torneio";
inline constexpr const char* kPlayerVersion = "0.1.0";
inline constexpr const char* kPlayerAuthor = "the lasca developers";
inline constexpr std::size_t kMaxInputLine = 1 << 20;  // longer lines are an error (1 MiB)
inline constexpr std::int64_t kMaxSeedOption = 2147483647;

// PlayerSession
//   options_    Player (combo of playerKinds()) and Seed, declared once; `torneio` lists them
//   player_     the player of the current game, made at `newgame` from the Player option
//   knowledge_    the seat's knowledge of the current game, from the event lines it received
//   setUpAsked_   a `request setup` came in this game (its `event setup` may only follow one)
//               (knowledge.h); empty before the first `newgame`
//   quit_       set by `quit`
// Bad input (an unknown command, a malformed line, an event or request that does not fit the
// game) gives one `info string error: ...` line and changes nothing.
class PlayerSession {
  public:
    PlayerSession();
    // The reply lines to one input line (without its line end): none, one or several.
    std::vector<std::string> handle(std::string_view line);
    bool quit() const { return quit_; }
    common::Options& options() { return options_; }
    const std::optional<Knowledge>& knowledge() const { return knowledge_; }

  private:
    std::vector<std::string> identify() const;
    std::optional<std::string> setOption(std::string_view line);
    std::optional<std::string> newGame(const std::vector<std::string_view>& tokens);
    std::optional<std::string> event(std::string_view line);
    std::string request(std::string_view line);

    common::Options options_;
    std::unique_ptr<Player> player_;
    std::optional<Knowledge> knowledge_;
    bool setUpAsked_ = false;
    bool quit_ = false;
};

// The protocol loop: reads lines from `in` until `quit` or the end of the input, writes every
// reply to `out` at once (flushed), logs both at debug level. Returns the exit code (0).
int runPlayerLoop(std::istream& in, std::ostream& out);

}  // namespace torneio::play
