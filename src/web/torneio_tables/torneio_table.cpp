// TorneioTable (torneio_table.h): a table's making, restoring, keeping and tokens. Its thread is
// torneio_table_play.cpp's; its person seats are web_seat.cpp's (their JSON view
// web_seat_view.cpp's), the seats of a restored table's replay replay_seat.cpp's, its watchers'
// view public_view.cpp's.
#include "web/torneio_tables/torneio_table.h"

#include <algorithm>
#include <utility>

#include "common/seed.h"
#include "common/text.h"
#include "torneio/play/ai/ai_options.h"
#include "torneio/play/player.h"

namespace web::torneio_tables {

using store::StoredTorneioTable;

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::create(
    const std::vector<TorneioSeatChoice>& seats, int rounds, std::uint64_t seed,
    TorneioTableHooks hooks) {
    if (seats.size() < 2 || seats.size() > 4) return common::makeError("seats: 2 to 4 seats");
    auto params = torneio::defaultParams(static_cast<int>(seats.size()));
    params.maxRounds = rounds;
    auto table = make(seats, params, seed, std::move(hooks));
    if (!table) return table;
    table.value()->id_ = common::randomHex(6);
    for (std::size_t s = 0; s < seats.size(); ++s) {
        if (seats[s].kind != "person") continue;
        table.value()->newTokens_[s] = common::randomHex(16);
        table.value()->tokenHashes_[s] = common::hashSecret(table.value()->newTokens_[s]);
    }
    return table;
}

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::restore(const StoredTorneioTable& kept,
                                                                    TorneioTableHooks hooks) {
    const auto params = torneio::parseParams(kept.params);
    if (!params) return common::makeError("table " + kept.id + ": " + params.error());
    if (static_cast<int>(kept.seats.size()) != params.value().seats)
        return common::makeError("table " + kept.id + ": the seats do not match its parameters");
    std::vector<TorneioSeatChoice> choices;
    for (const auto& seat : kept.seats) choices.push_back({seat.kind, seat.level});
    auto table = make(choices, params.value(), kept.seed, std::move(hooks));
    if (!table) return common::makeError("table " + kept.id + ": " + table.error());
    for (std::size_t s = 0; s < kept.seats.size(); ++s) {
        const bool person = kept.seats[s].kind == "person";
        if (person != !kept.seats[s].tokenHash.empty())
            return common::makeError("table " + kept.id + ": seat " + std::to_string(s + 1) +
                                     " has no token");
        table.value()->tokenHashes_[s] = kept.seats[s].tokenHash;
    }
    std::vector<SeatAccount> accounts;
    for (const auto& seat : kept.seats) accounts.push_back({seat.account, seat.name});
    const auto bound = table.value()->bindAccounts(accounts, kept.rated);
    if (!bound) return common::makeError("table " + kept.id + ": " + bound.error());
    for (const auto& decision : kept.decisions)
        if (decision.seat < 0 || decision.seat >= params.value().seats)
            return common::makeError("table " + kept.id + ": a decision of no seat");
    table.value()->id_ = kept.id;
    table.value()->replay_ = kept.decisions;
    table.value()->replaying_->store(!kept.decisions.empty());
    table.value()->endKept_ = !kept.result.empty();
    return table;
}

common::Result<std::shared_ptr<TorneioTable>> TorneioTable::make(
    const std::vector<TorneioSeatChoice>& seats, const torneio::Params& params, std::uint64_t seed,
    TorneioTableHooks hooks) {
    if (seats.size() < 2 || seats.size() > 4) return common::makeError("seats: 2 to 4 seats");
    const auto valid = torneio::validateParams(params);
    if (!valid) return common::makeError(valid.error());
    std::shared_ptr<TorneioTable> table(new TorneioTable());
    table->choices_ = seats;
    table->accounts_.resize(seats.size());
    table->params_ = valid.value();
    table->seed_ = seed;
    table->hooks_ = std::move(hooks);
    table->public_ = std::make_unique<PublicRecord>(table->params_);
    for (std::size_t s = 0; s < seats.size(); ++s) {
        const auto& choice = seats[s];
        const int seat = static_cast<int>(s);
        table->newTokens_.emplace_back();
        table->tokenHashes_.emplace_back();
        table->aiSeats_.push_back(nullptr);
        if (choice.kind == "person") {
            auto changed = table->hooks_.seatChanged;
            table->webSeats_.push_back(std::make_shared<WebSeat>([changed, seat] {
                if (changed) changed(seat);
            }));
            continue;
        }
        table->webSeats_.push_back(nullptr);
        if (!torneio::play::makePlayer(choice.kind))
            return common::makeError("seat " + std::to_string(s + 1) + ": unknown player kind '" +
                                     common::printable(choice.kind) + "'");
        if (choice.level < 0 ||
            choice.level >= static_cast<int>(std::size(torneio::play::kAiLevels)))
            return common::makeError("seat " + std::to_string(s + 1) + ": level out of range");
    }
    return table;
}

StoredTorneioTable TorneioTable::stored() const {
    StoredTorneioTable kept;
    kept.id = id_;
    kept.params = torneio::formatParams(params_);
    kept.seed = seed_;
    kept.rated = rated_;
    for (std::size_t s = 0; s < choices_.size(); ++s)
        kept.seats.push_back({choices_[s].kind, choices_[s].level, tokenHashes_[s], accounts_[s].id,
                              accounts_[s].name});
    return kept;
}

common::Result<bool> TorneioTable::bindAccounts(const std::vector<SeatAccount>& bySeat,
                                                bool rated) {
    if (bySeat.size() != choices_.size())
        return common::makeError("accounts: one per seat (" + std::to_string(choices_.size()) +
                                 ")");
    std::vector<std::int64_t> held;
    for (std::size_t s = 0; s < bySeat.size(); ++s) {
        const bool person = choices_[s].kind == "person";
        const std::string seat = "seat " + std::to_string(s + 1);
        if (!person && bySeat[s].id != 0)
            return common::makeError(seat + " is not a person's and has no account");
        if (person && bySeat[s].id == 0 && rated)
            return common::makeError(seat + ": every person at a rated table needs an account");
        if (bySeat[s].id == 0) continue;
        if (std::find(held.begin(), held.end(), bySeat[s].id) != held.end())
            return common::makeError(seat + ": one account holds two seats");
        held.push_back(bySeat[s].id);
    }
    if (rated && held.size() < 2) return common::makeError("a rated table needs two people");
    accounts_ = bySeat;
    rated_ = rated;
    return true;
}

void TorneioTable::start() {
    thread_ = std::thread([this] { play(); });
}

TorneioTable::~TorneioTable() {
    stop_->store(true);  // first: the game's end by closed seats is not its end by the rules
    for (const auto& seat : webSeats_)
        if (seat) seat->close();
    if (thread_.joinable()) thread_.join();
    if (hooks_.closed) hooks_.closed();
}
void TorneioTable::giveTokenHashes(const std::vector<std::string>& hashes) {
    for (std::size_t s = 0; s < hashes.size() && s < tokenHashes_.size(); ++s) {
        if (hashes[s].empty() || tokenHashes_[s].empty()) continue;  // AI seats have none
        tokenHashes_[s] = hashes[s];
        if (s < newTokens_.size()) newTokens_[s].clear();
    }
}

std::vector<std::string> TorneioTable::takeTokens() {
    return std::exchange(newTokens_, {});
}

std::optional<int> TorneioTable::seatOfToken(std::string_view token) const {
    const std::string hash = common::hashSecret(token);
    for (std::size_t s = 0; s < tokenHashes_.size(); ++s)
        if (!tokenHashes_[s].empty() && common::sameSecret(tokenHashes_[s], hash))
            return static_cast<int>(s);
    return std::nullopt;
}

Json TorneioTable::seatsJson() const {
    Json seats = Json::array();
    for (std::size_t s = 0; s < choices_.size(); ++s) {
        Json seat = {{"seat", s + 1}, {"kind", choices_[s].kind}};
        if (choices_[s].kind == "ai") seat["level"] = choices_[s].level;
        if (accounts_[s].id != 0) seat["player"] = accounts_[s].name;
        seats.push_back(seat);
    }
    return seats;
}

bool TorneioTable::finished() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

bool TorneioTable::waitFinished(std::chrono::steady_clock::time_point deadline) const {
    std::unique_lock lock(mutex_);
    return finishedChanged_.wait_until(lock, deadline, [this] { return finished_; });
}

std::optional<torneio::Record> TorneioTable::record() const {
    std::lock_guard lock(mutex_);
    return record_;
}

Json TorneioTable::publicView(std::size_t from, int resets) const {
    const auto snapshot = public_->snapshot();
    if (resets != snapshot.resets) from = 0;
    auto view = publicViewJson(params_, seatsJson(), snapshot.events, from);
    if (!view) return {{"type", "error"}, {"message", view.error()}};
    Json j = {{"type", "torneio.watchView"},
              {"table", id_},
              {"rated", rated_},
              {"resets", snapshot.resets}};
    j.update(view.value());
    return j;
}

void TorneioTable::aiSeatClosed(int seat, torneio::Fault fault) {
    if (stop_->load() || public_->outOrOver(seat)) return;
    if (public_->disqualified(seat, fault) && hooks_.publicChanged) hooks_.publicChanged();
}

}  // namespace web::torneio_tables
