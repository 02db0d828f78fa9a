// Torneio at one table of the web page: 2-4 seats, each a person (a browser tab holding the
// seat's private link) or an AI (the `torneio` player kinds, run in-process). The referee's own
// game loop (torneio/referee/game.h) runs the game on a thread of the table; a person's seat is
// one more referee Seat (WebSeat) whose view is built from the lines the referee sends that seat
// and nothing else (torneio::person::SeatView, as for the terminal seat), so a page can only show
// what the seat may know (D8).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/random.h"
#include "torneio/person/seat_view.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/referee/seat.h"
#include "torneio/rules/record.h"
#include "web/messages/messages.h"
#include "web/store/store.h"
#include "web/torneio_tables/public_view.h"

namespace web::torneio_tables {

using Json = nlohmann::json;

// WebSeat: a person's seat as the referee sees it. The referee thread calls send and receive;
// the server's thread calls submit and view. All state is behind mutex_.
//   game_      the seat's game built from its `newgame` and event lines (SeatView)
//   lines_     every line the referee sent the seat, in order (the protocol view)
//   pending_   the request waiting for the person's reply, with its line
//   replies_   lines the seat answers by itself (torneiook, readyok) and the person's reply
//   changed_   called (on the referee thread) after each change, to tell the page
// A person has no time limit: receive waits for the reply whatever its deadline (the referee's
// deadline is a hang guard for programs), until the seat is closed.
class WebSeat : public torneio::referee::Seat {
  public:
    explicit WebSeat(std::function<void()> changed) : changed_(std::move(changed)) {}

    bool send(std::string_view line) override;
    common::ReadStatus receive(std::string& line,
                               common::SteadyClock::time_point deadline) override;
    void close() override;
    bool open() const override;

    // The person's reply: an action line of the protocol (`move 1 f3`, `setup king ...`), or
    // `random` for a random legal reply. A refusal (and no change) when no decision is pending or
    // the action is not legal for the seat's pieces: why, as a server.torneio.refused.* key
    // (web_seat_words.h).
    std::optional<messages::Say> submit(std::string_view text);
    // A request the seat already answered (a restored table's replay): its line is taken as
    // sent, and the kept reply is given at once, so the request is never shown as pending. An
    // error (and no change) when the reply is not legal for the request.
    std::optional<std::string> sendAnswered(std::string_view requestLine, std::string_view reply);

    // The seat's view for its page: everything but the lines and log entries before the given
    // counts (a page keeps what it received).
    Json view(std::size_t linesFrom, std::size_t logFrom) const;
    std::size_t lineCount() const;

  private:
    Json choicesJson() const;

    mutable std::mutex mutex_;
    std::condition_variable replied_;
    std::optional<torneio::person::SeatView> game_;
    std::vector<std::string> lines_;
    std::optional<torneio::Request> pending_;
    std::string pendingLine_;
    std::deque<std::string> replies_;
    common::Random random_;
    bool closed_ = false;
    std::function<void()> changed_;
};

// TorneioSeatChoice: who plays a seat. kind: "person", or a player kind of playerKinds()
// ("random", "heuristic", "ai"); level: for `ai`, an index into torneio::play::kAiLevels.
struct TorneioSeatChoice {
    std::string kind = "person";
    int level = 1;
};

// SeatAccount: the account a person seat is bound to: its id (0: none, so whoever holds the
// seat's link may open it) and its name.
struct SeatAccount {
    std::int64_t id = 0;
    std::string name;
};

// TorneioTableHooks: what a table tells the server, each called on the table's own thread.
//   seatChanged(seat)       a person seat's view changed (seat 0-based)
//   decided(n, decision)    decision number n (0-based) was accepted; called before any event it
//                           caused goes out, so that what a seat is told is kept; returns false
//                           when keeping it failed (the game goes on in memory)
//   ended(result, record)   the game ended by the rules (not by the table closing): its result
//                           ("win 2", "draw 1 3") and full record; called before any seat is
//                           sent an event of the end, so that a page shown the end has it kept
//   replayed()              a restored table's replay is done: every kept decision was given
//                           again and play waits for a new one (or the game is over), so each
//                           seat's view is whole again
//   publicChanged()         the public events grew (or were replaced: publicView's resets), so
//                           a watcher's view changed; called before the seats are sent them
//   closed()                the table is closed (destroyed), its game's thread ended: called
//                           on the thread that closes it, whether the game ended or not
// Decisions and the end replayed by TorneioTable::restore are not reported again (but their
// public events are: a restored table's watchers see the game from its start).
struct TorneioTableHooks {
    std::function<void(int seat)> seatChanged;
    std::function<bool(std::size_t index, const store::StoredTorneioDecision& decision)> decided;
    std::function<void(const std::string& result, const torneio::Record& record)> ended;
    std::function<void()> replayed;
    std::function<void()> publicChanged;
    std::function<void()> closed;
};

// TorneioTable: one game.
//   id_            the table's id
//   tokenHashes_   each person seat's token as common::hashSecret keeps it ("" for AI seats): a
//                  page proves it holds a seat with the token of its private link; the tokens
//                  themselves (128 random bits from the system) are in newTokens_ until taken
//   webSeats_      the person seats (nullptr for AI seats), aiSeats_ the in-process players
//   thread_        runs the handshakes and the referee's playGame; ends with the game or when
//                  the table is closed (every WebSeat closed)
//   replay_        restored tables: the decisions already kept, which the seats give again
//                  (ReplaySeat) while the referee replays the game from its start; decisions_
//                  counts the decisions accepted, replayed ones included
//   accounts_      per seat the account it is bound to (id 0 for none; always 0 for AI seats)
//   rated_         whether the game is rated: then every person seat has an account, two at
//                  least, all different (bindAccounts)
//   record_        the full record once the game ended (for tests: what was hidden from whom)
//   finished_      the game's thread is done (finishedChanged_ is notified when it is set)
//   public_        the game's public events, kept by the table's thread from the decisions the
//                  referee accepts (public_view.h): what a watcher is shown, and all of it
//                  (no seat's view is ever read for it)
class TorneioTable {
  public:
    // Checks the choices (2-4 seats, known kinds, levels); rounds is the D11 round limit.
    static common::Result<std::shared_ptr<TorneioTable>> create(
        const std::vector<TorneioSeatChoice>& seats, int rounds, std::uint64_t seed,
        TorneioTableHooks hooks);
    // A kept table (Store) made again: the same id, seats, token hashes and seed; start() then
    // replays its game through the referee from the start: every seat, person or AI, receives
    // again every line it had (its own view only, as the referee builds it) and gives back its
    // kept decisions, so that each person's view and pending request, and each AI's knowledge,
    // are what they were; play goes on after the last kept decision. Errors: a kept table that
    // is not sound (parameters, kinds, levels, seats).
    static common::Result<std::shared_ptr<TorneioTable>> restore(
        const store::StoredTorneioTable& kept, TorneioTableHooks hooks);
    // The table as the store keeps it at creation: no decisions, no result (its seats' accounts
    // and rated flag included).
    store::StoredTorneioTable stored() const;
    // Binds the person seats to accounts (by seat; id 0 for none; AI seats must have none) and
    // says whether the game is rated; before start(). Errors: a count that is not the seats', an
    // AI seat with an account, one account at two seats; for a rated game, a person seat without
    // an account or fewer than two accounts.
    common::Result<bool> bindAccounts(const std::vector<SeatAccount>& bySeat, bool rated);
    const SeatAccount& account(int seat) const { return accounts_[static_cast<std::size_t>(seat)]; }
    bool rated() const { return rated_; }
    ~TorneioTable();
    TorneioTable(const TorneioTable&) = delete;
    TorneioTable& operator=(const TorneioTable&) = delete;

    void start();  // starts the game thread
    // A restored table still replaying its kept decisions: a seat's view is not whole yet.
    bool replaying() const { return replaying_->load(); }
    const std::string& id() const { return id_; }
    int seats() const { return static_cast<int>(choices_.size()); }
    // The seat (0-based) whose token this is, or nothing (compared as hashes, in constant time).
    std::optional<int> seatOfToken(std::string_view token) const;
    // The person seats' tokens, by seat ("" for an AI seat), once: the table keeps only their
    // hashes afterwards, so that nothing it holds or stores gives a token away.
    std::vector<std::string> takeTokens();
    // Gives person seats the tokens whose hashes these are, in seat order ("" keeps a seat's
    // own; made elsewhere: the lobby's instances of the seats' people); a seat given its hash
    // hands out "" as its token. Before the table is first kept.
    void giveTokenHashes(const std::vector<std::string>& hashes);
    WebSeat* webSeat(int seat) const { return webSeats_[static_cast<std::size_t>(seat)].get(); }
    Json seatsJson() const;
    bool finished() const;
    // Waits until finished() or the deadline; whether the game's thread has finished.
    bool waitFinished(std::chrono::steady_clock::time_point deadline) const;
    std::optional<torneio::Record> record() const;
    // A watcher's view (public_view.h, publicViewJson): {"type":"torneio.watchView","table",
    // "rated","resets",...} with the public event lines from index `from` on, or from the
    // first when `resets` is not the table's count of replaced lists (the field "resets").
    Json publicView(std::size_t from, int resets) const;

  private:
    TorneioTable() = default;
    static common::Result<std::shared_ptr<TorneioTable>> make(
        const std::vector<TorneioSeatChoice>& seats, const torneio::Params& params,
        std::uint64_t seed, TorneioTableHooks hooks);
    void play();
    // The referee closed AI seat `seat` (it disqualified it, or dropped it once out): unless it
    // is out already, the public events record its disqualification for `fault`.
    void aiSeatClosed(int seat, torneio::Fault fault);

    std::string id_;
    std::vector<TorneioSeatChoice> choices_;
    std::vector<SeatAccount> accounts_;
    bool rated_ = false;
    std::vector<std::string> tokenHashes_;
    std::vector<std::string> newTokens_;
    std::vector<std::shared_ptr<WebSeat>> webSeats_;
    std::vector<std::unique_ptr<torneio::referee::Seat>> aiSeats_;
    torneio::Params params_;
    std::uint64_t seed_ = 0;
    TorneioTableHooks hooks_;
    std::vector<store::StoredTorneioDecision> replay_;
    std::shared_ptr<std::atomic<bool>> replaying_ = std::make_shared<std::atomic<bool>>(false);
    bool endKept_ = false;
    std::size_t decisions_ = 0;
    mutable std::mutex mutex_;
    mutable std::condition_variable finishedChanged_;
    std::optional<torneio::Record> record_;
    bool finished_ = false;
    std::unique_ptr<PublicRecord> public_;
    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
    std::thread thread_;
};

}  // namespace web::torneio_tables
