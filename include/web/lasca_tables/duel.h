// A Lasca table for two people: each colour played from its own private link (a
// random token), a third link to watch; an optional clock (time + increment) kept by the
// server; resignation, draw by agreement, and the rules' own endings (R9, T1, T2) from the rules
// core. Pure: no I/O, no threads; time comes in as milliseconds from the caller (since the Unix
// epoch in the server, so that a kept turn's start means the same after a restart; a virtual
// clock in tests), so the same calls give the same game. The server keeps a duel in its store
// (StoredDuel) and tells every tab of the table after each change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "lasca/core/game.h"
#include "web/messages/messages.h"
#include "web/store/store.h"

namespace web::lasca_tables {

enum class DuelSeat { White, Black, Watch };
const char* duelSeatName(DuelSeat seat);  // "white", "black", "watch"

// DuelClock: the time control, milliseconds: each side starts with `time`, gets `increment`
// after each of its moves. Limits: time 1 s .. 24 h, increment 0 .. 1 h.
// DuelAccount: the signed-in account that holds a seat (id 0 and name "": none).
struct DuelAccount {
    std::int64_t id = 0;
    std::string name;
};

struct DuelClock {
    std::int64_t time = 0;
    std::int64_t increment = 0;
};
inline constexpr std::int64_t kMinDuelTime = 1000;
inline constexpr std::int64_t kMaxDuelTime = 24LL * 3600 * 1000;
inline constexpr std::int64_t kMaxDuelIncrement = 3600LL * 1000;

// LascaDuel
//   game_       the moves, through the rules core (its status gives R9, T1, T2)
//   remaining_  per colour (White, Black) the time left when its clock last stopped; the side to
//               move's clock runs from runningSince_ once the first move was made (no time runs
//               before White's first move)
//   drawOffer_  the colour that offered a draw, if any (the other's offer agrees to it)
//   result_, rule_   "*" while it goes on; a result by "time", "resign", "agreement" or the
//               rules ("R9", "T1", "T2")
//   rated_      whether the game is rated (then it has a clock)
//   accounts_   per colour the account that holds the seat (id 0: none)
class LascaDuel {
  public:
    // A new duel from the start position; the tokens are drawn from the operating system and
    // handed out once by takeTokens (only their hashes are kept).
    // A rated duel needs a clock (an error without one).
    static common::Result<LascaDuel> create(const std::string& id,
                                            const std::optional<DuelClock>& clock,
                                            std::int64_t nowMs, bool rated = false);
    // A kept duel again (its moves replayed through the rules core); its running clock, if any,
    // is charged from when the turn began (kept.turnStarted, the time the server was down
    // included: a crash refunds nothing), or runs from now for a duel kept without it. Errors:
    // a kept duel that is not sound.
    static common::Result<LascaDuel> restore(const store::StoredDuel& kept, std::int64_t nowMs);

    // White's, Black's and the watchers' tokens, once.
    std::vector<std::string> takeTokens();
    // Gives a seat the token whose hash is `hash` (made elsewhere: the lobby's instance of the
    // seat's person) instead of its own, which is then handed out as "".
    void giveTokenHash(DuelSeat seat, std::string hash);
    std::optional<DuelSeat> seatOfToken(std::string_view token) const;

    // The moves of the people: nothing when done, else what the person is told (and no change):
    // a watcher, the side not to move, the game over (a flag that fell is noticed first), an
    // illegal move.
    std::optional<messages::Say> move(DuelSeat seat, std::string_view text, std::int64_t nowMs);
    std::optional<messages::Say> resign(DuelSeat seat, std::int64_t nowMs);
    // offer true: offers a draw, or agrees to the other's offer (a draw by agreement); false:
    // withdraws one's own offer or declines the other's.
    std::optional<messages::Say> draw(DuelSeat seat, bool offer, std::int64_t nowMs);
    // Notices a flag that fell: true when the game ended now (the side to move lost on time).
    bool checkTime(std::int64_t nowMs);
    // Milliseconds until the running clock's flag falls, if a clock runs.
    std::optional<std::int64_t> untilFlag(std::int64_t nowMs) const;

    const std::string& id() const { return id_; }
    const lasca::Game& game() const { return game_; }
    std::vector<std::string> moveTexts() const { return moves_; }
    bool over() const { return result_ != "*"; }
    const std::string& result() const { return result_; }
    const std::string& rule() const { return rule_; }
    // {"white":ms,"black":ms,"running":"white"|"black"|null,"time":ms,"increment":ms} or null.
    nlohmann::json clockJson(std::int64_t nowMs) const;
    std::int64_t remaining(lasca::Color colour, std::int64_t nowMs) const;
    std::optional<lasca::Color> running() const;
    std::optional<lasca::Color> drawOffer() const { return drawOffer_; }
    const std::optional<DuelClock>& clock() const { return clock_; }
    bool rated() const { return rated_; }
    // The account holding a player's seat (White or Black), and the seat given to one.
    const DuelAccount& account(lasca::Color colour) const {
        return accounts_[colour == lasca::Color::White ? 0 : 1];
    }
    void setAccount(lasca::Color colour, DuelAccount account) {
        accounts_[colour == lasca::Color::White ? 0 : 1] = std::move(account);
    }
    // The duel as the store keeps it: the time each side had left when its clock last stopped,
    // and when the running one started.
    store::StoredDuel stored(std::int64_t nowMs) const;

  private:
    LascaDuel() = default;
    void endGame(std::string result, std::string rule);
    void checkRules();
    void stopClock(std::int64_t nowMs);
    std::int64_t elapsed(std::int64_t nowMs) const;  // since the running clock started

    std::string id_;
    lasca::Game game_;
    std::vector<std::string> moves_;
    std::optional<DuelClock> clock_;
    std::int64_t remaining_[2] = {0, 0};
    std::int64_t runningSince_ = 0;
    std::optional<lasca::Color> drawOffer_;
    std::string result_ = "*";
    std::string rule_;
    std::string hashes_[3];
    std::vector<std::string> newTokens_;
    std::int64_t created_ = 0;
    bool rated_ = false;
    DuelAccount accounts_[2];
};

}  // namespace web::lasca_tables
