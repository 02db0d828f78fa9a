#include "duel_room.h"

#include <algorithm>
#include <array>
#include <chrono>

#include "common/logging.h"
#include "common/seed.h"
#include "web/lobby/lobby.h"
#include "web/messages/messages.h"
#include "web/ratings/ratings.h"

namespace web::server {

using lasca_tables::DuelClock;
using lasca_tables::DuelSeat;
using lasca_tables::LascaDuel;
using lasca_tables::LascaTable;
using messages::boolField;
using messages::checkFields;
using messages::errorMessage;
using messages::intField;
using messages::Say;
using messages::stringField;

namespace {

// The duels' clock: milliseconds since the Unix epoch, so that a kept turn's start still means
// the same after a restart (a clock set back charges nothing, LascaDuel).
std::int64_t duelNow() {
    return nowMilliseconds();
}

// A duel's clock as the ratings read it (whole seconds).
ratings::Clock ratingClock(const DuelClock& clock) {
    return {static_cast<std::uint32_t>(clock.time / 1000),
            static_cast<std::uint32_t>(clock.increment / 1000)};
}

// The category a rated duel is rated in: its clock's speed ("blitz", ...).
std::string ratedCategory(const LascaDuel& duel) {
    std::optional<ratings::Clock> clock;
    if (duel.clock()) clock = ratingClock(*duel.clock());
    return std::string(ratings::categoryName(clock));
}

// The new ratings of a finished rated game (docs/ratings.md): each player's rating before it
// (the start rating for a first game) first grown by the days since that player's last rated
// game in the category (common::withTimeAway), then the game rated as its own rating period
// (web::ratings::afterGame).
store::RateGame rateGame(const store::StoredDuel& kept) {
    return
        [result = kept.result, at = kept.updated](const std::optional<store::StoredRating>& white,
                                                  const std::optional<store::StoredRating>& black)
            -> common::Result<std::array<common::Rating, 2>> {
            const auto before = [&](const std::optional<store::StoredRating>& r) {
                return r ? ratings::ratingBefore(r->rating, r->lastGame, at)
                         : ratings::ratingBefore(std::nullopt, 0, at);
            };
            const auto w = before(white);
            if (!w) return common::makeError(w.error());
            const auto b = before(black);
            if (!b) return common::makeError(b.error());
            const double score = result == "2-0" ? 1.0 : result == "0-2" ? 0.0 : 0.5;
            const auto after = ratings::afterGame(w.value(), b.value(), score);
            if (!after) return common::makeError(after.error());
            return std::array<common::Rating, 2>{after.value()[0], after.value()[1]};
        };
}

}  // namespace

DuelRoom::DuelRoom(boost::asio::any_io_executor executor, store::Store& store, int maxTables,
                   int maxPerAddress)
    : executor_(std::move(executor)),
      store_(store),
      maxTables_(maxTables),
      maxPerAddress_(maxPerAddress) {
}

int DuelRoom::madeFrom(const std::string& address) const {
    return static_cast<int>(std::count_if(duels_.begin(), duels_.end(), [&](const auto& d) {
        return !d.second.maker.empty() && d.second.maker == address;
    }));
}

DuelRoom::Entry* DuelRoom::find(const std::string& id) {
    const auto it = duels_.find(id);
    return it == duels_.end() ? nullptr : &it->second;
}

void DuelRoom::letGo(const std::string& id) {
    const auto it = duels_.find(id);
    if (it == duels_.end()) return;
    auto watchers = std::move(it->second.watchers);
    duels_.erase(it);  // its timer cancelled with it
    for (const auto& w : watchers)
        if (auto tab = w.tab.lock()) tab->tableMoved();
}

std::vector<Json> DuelRoom::create(const Json& m, const std::string& keepId,
                                   const std::string& address,
                                   const std::optional<Person>& person) {
    if (auto e = checkFields(m, {"clock", "rated"})) return {errorMessage(*e)};
    bool rated = false;
    if (m.contains("rated")) {
        const auto flag = boolField(m, "rated");
        if (!flag) return {errorMessage(flag.error())};
        rated = flag.value();
    }
    const auto read = lobby::readClock(m);
    if (!read) return {errorMessage(read.error())};
    const std::optional<DuelClock>& clock = read.value();
    if (rated && !person) return {errorMessage(Say{"server.duel.signInToMakeRated"})};
    if (rated && !(clock && ratings::ratedSpeed(ratingClock(*clock))))
        return {errorMessage(Say{"server.duel.ratedNeedsClock"})};
    sweep(keepId, false);
    if (madeFrom(address) >= maxPerAddress_) sweep(keepId, true, &address);
    if (madeFrom(address) >= maxPerAddress_)
        return {errorMessage(Say{"server.duel.addressLimit", {{"count", maxPerAddress_}}})};
    if (duels_.size() >= static_cast<std::size_t>(maxTables_)) sweep(keepId, true);
    if (duels_.size() >= static_cast<std::size_t>(maxTables_))
        return {errorMessage(Say{"server.duel.tooManyTables"})};
    auto duel = LascaDuel::create(common::randomHex(8), clock, duelNow(), rated);
    if (!duel) return {errorMessage(duel.error())};
    const auto tokens = duel.value().takeTokens();
    const std::string id = duel.value().id();
    auto& entry = duels_[id];
    entry.duel = std::make_unique<LascaDuel>(std::move(duel).value());
    entry.timer = std::make_unique<boost::asio::steady_timer>(executor_);
    entry.maker = address;
    std::vector<Json> out;
    if (const auto error = save(entry)) out.push_back(errorMessage(*error));
    out.push_back({{"type", "lasca.created"},
                   {"table", id},
                   {"seats", Json::array({{{"colour", "white"}, {"token", tokens[0]}},
                                          {{"colour", "black"}, {"token", tokens[1]}}})},
                   {"watch", tokens[2]},
                   {"rated", rated}});
    return out;
}

common::Result<DuelRoom::MadeDuel> DuelRoom::createPublic(
    const std::optional<DuelClock>& clock, bool rated, const std::optional<Person>& white,
    const std::optional<Person>& black, const std::array<std::string, 2>& seatHashes) {
    if (rated && !(white && black)) return common::makeError("a rated table needs two accounts");
    sweep("", false);
    if (duels_.size() >= static_cast<std::size_t>(maxTables_)) sweep("", true);
    if (duels_.size() >= static_cast<std::size_t>(maxTables_))
        return common::makeError("too many two-person tables: try again later");
    auto duel = LascaDuel::create(common::randomHex(8), clock, duelNow(), rated);
    if (!duel) return common::makeError(duel.error());
    if (!seatHashes[0].empty()) duel.value().giveTokenHash(DuelSeat::White, seatHashes[0]);
    if (!seatHashes[1].empty()) duel.value().giveTokenHash(DuelSeat::Black, seatHashes[1]);
    MadeDuel made;
    const auto tokens = duel.value().takeTokens();
    made.id = duel.value().id();
    for (std::size_t i = 0; i < made.tokens.size(); ++i) made.tokens[i] = tokens[i];
    if (white) duel.value().setAccount(lasca::Color::White, {white->id, white->name});
    if (black) duel.value().setAccount(lasca::Color::Black, {black->id, black->name});
    auto& entry = duels_[made.id];
    entry.duel = std::make_unique<LascaDuel>(std::move(duel).value());
    entry.timer = std::make_unique<boost::asio::steady_timer>(executor_);
    entry.publicWatch = made.tokens[2];
    if (const auto error = save(entry)) {
        duels_.erase(made.id);
        return common::makeError(messages::english(*error));
    }
    return made;
}

std::vector<Json> DuelRoom::join(const Json& m, const std::weak_ptr<DuelWatcher>& watcher,
                                 DuelBinding& binding, LascaTable& view,
                                 const std::optional<Person>& person) {
    if (auto e = checkFields(m, {"table", "token"})) return {errorMessage(*e)};
    const auto id = stringField(m, "table", 64);
    if (!id) return {errorMessage(id.error())};
    const auto token = stringField(m, "token", 64);
    if (!token) return {errorMessage(token.error())};
    auto it = duels_.find(id.value());
    const auto key = store::homeKey("duel", id.value());
    if (it != duels_.end() && !store_.holds(key)) {  // another instance took it meanwhile
        letGo(id.value());
        it = duels_.end();
    }
    if (it == duels_.end()) {
        sweep(binding.id, false);
        if (duels_.size() >= static_cast<std::size_t>(maxTables_)) sweep(binding.id, true);
        if (duels_.size() >= static_cast<std::size_t>(maxTables_))
            return {errorMessage(Say{"server.duel.tooManyTables"})};
        // Several instances: taken from a home that stopped, or the tab is sent to the living
        // home; then read under the lease.
        const auto home = store_.takeTable(key);
        if (!home) {
            common::logger().error("web: taking table {} failed: {}", id.value(), home.error());
            return {errorMessage(Say{"server.duel.cannotLoad"})};
        }
        if (!home.value().found) return {errorMessage(Say{"server.duel.noTable"})};
        if (!home.value().here) return {messages::movedMessage(home.value().home)};
        const auto kept = store_.loadDuel(id.value());
        if (!kept) {
            common::logger().error("web: loading table {} failed: {}", id.value(), kept.error());
            return {errorMessage(Say{"server.duel.cannotLoad"})};
        }
        if (!kept.value()) return {errorMessage(Say{"server.duel.noTable"})};
        auto duel = LascaDuel::restore(*kept.value(), duelNow());
        if (!duel) {
            common::logger().error("web: table {} is unreadable: {}", id.value(), duel.error());
            return {errorMessage(Say{"server.duel.cannotLoad"})};
        }
        if (!duel.value().seatOfToken(token.value()))
            return {errorMessage(Say{"server.duel.noSeat"})};
        Entry entry;
        entry.duel = std::make_unique<LascaDuel>(std::move(duel).value());
        entry.timer = std::make_unique<boost::asio::steady_timer>(executor_);
        entry.storedMoves = kept.value()->moves.size();
        entry.endKept = kept.value()->result != "*";
        entry.publicWatch = kept.value()->publicWatch;
        // A flag that fell while the table was away ends the game now, before anyone sees it.
        const bool flagFell = entry.duel->checkTime(duelNow());
        it = duels_.emplace(id.value(), std::move(entry)).first;
        if (flagFell) save(it->second);
        armTimer(id.value());
    }
    const auto seat = it->second.duel->seatOfToken(token.value());
    if (!seat) return {errorMessage(Say{"server.duel.noSeat"})};
    // A player's seat of a rated table: its account's, taken by the first one to open it.
    bool claimed = false;
    LascaDuel& duel = *it->second.duel;
    if (duel.rated() && *seat != DuelSeat::Watch) {
        const auto colour = *seat == DuelSeat::White ? lasca::Color::White : lasca::Color::Black;
        const auto other =
            colour == lasca::Color::White ? lasca::Color::Black : lasca::Color::White;
        const auto& holder = duel.account(colour);
        if (!person) return {errorMessage(Say{"server.duel.signInToPlayRated"})};
        if (holder.id != 0 && holder.id != person->id)
            return {errorMessage(Say{"server.duel.seatTaken"})};
        if (holder.id == 0) {
            if (duel.account(other).id == person->id)
                return {errorMessage(Say{"server.duel.otherSeatYours"})};
            duel.setAccount(colour, {person->id, person->name});
            claimed = true;
        }
    }
    const auto self = watcher.lock();
    if (!binding.id.empty() && binding.id != id.value()) {  // the table it showed before
        if (Entry* before = find(binding.id))
            std::erase_if(before->watchers, [&](const Watcher& w) {
                const auto tab = w.tab.lock();
                return !tab || tab == self;
            });
    }
    binding.id = id.value();
    binding.seat = *seat;
    binding.copyId = common::randomHex(8);
    // The newest window holds a player's seat: one that held it before is told and let go.
    auto& watchers = it->second.watchers;
    std::vector<std::shared_ptr<DuelWatcher>> taken;
    std::erase_if(watchers, [&](const Watcher& w) {
        const auto tab = w.tab.lock();
        if (!tab || tab == self) return true;
        if (*seat == DuelSeat::Watch || w.seat != *seat) return false;
        taken.push_back(tab);
        return true;
    });
    watchers.push_back({watcher, *seat});
    for (const auto& tab : taken) tab->seatTakenElsewhere();
    if (claimed) {  // kept, and the other tabs shown the player's name
        const auto error = save(it->second);
        for (const auto& w : it->second.watchers)
            if (auto tab = w.tab.lock(); tab && tab != self) tab->duelChanged(error);
    }
    return this->view(binding, view, true);
}

// A bound tab's messages: moves, resign and draw go to the duel; looking (view, preview,
// export) to the tab's own copy of the game; everything that would change the game otherwise
// is refused. Analysis only once the game is over.
std::vector<Json> DuelRoom::handle(const Json& m, const std::string& type,
                                   const DuelBinding& binding, LascaTable& view) {
    Entry* entry = find(binding.id);
    if (!entry) return {errorMessage(Say{"server.duel.gone"})};
    LascaDuel& duel = *entry->duel;
    std::optional<Say> refusal;
    if (duel.rated() && (type == "move" || type == "resign" || type == "draw") &&
        (duel.account(lasca::Color::White).id == 0 || duel.account(lasca::Color::Black).id == 0))
        return {errorMessage(Say{"server.duel.ratedNotStarted"})};
    if (type == "move") {
        if (auto e = checkFields(m, {"ply", "move"})) return {errorMessage(*e)};
        const auto ply = intField(m, "ply", 0, lasca_tables::kMaxGamePlies);
        if (!ply) return {errorMessage(ply.error())};
        const auto text = stringField(m, "move", 64);
        if (!text) return {errorMessage(text.error())};
        if (static_cast<std::size_t>(ply.value()) != duel.moveTexts().size())
            return {errorMessage(Say{"server.duel.moveAtEnd"})};
        refusal = duel.move(binding.seat, text.value(), duelNow());
    } else if (type == "resign") {
        if (auto e = checkFields(m, {})) return {errorMessage(*e)};
        refusal = duel.resign(binding.seat, duelNow());
    } else if (type == "draw") {
        if (auto e = checkFields(m, {"offer"})) return {errorMessage(*e)};
        const auto offer = boolField(m, "offer");
        if (!offer) return {errorMessage(offer.error())};
        refusal = duel.draw(binding.seat, offer.value(), duelNow());
    } else if (type == "view" || type == "preview" || type == "pdn.export" ||
               (type == "analyse" && duel.over())) {
        return decorate(binding, view.handle(m));
    } else {
        return {errorMessage(type == "analyse" ? Say{"server.duel.noAnalysisYet"}
                                               : Say{"server.duel.tableTab"})};
    }
    if (refusal) return {errorMessage(*refusal)};
    changed(binding.id);
    return {};
}

// Keeps the duel (before anyone is told): its row, and the moves the store does not hold yet;
// a rated game's end with both players' new ratings in the same transaction. An error line when
// saving failed.
std::optional<Say> DuelRoom::save(Entry& entry) {
    auto kept = entry.duel->stored(duelNow());
    kept.publicWatch = entry.publicWatch;
    const auto now = nowMilliseconds();
    kept.created = kept.created ? kept.created : now;
    kept.updated = now;
    store::MoveRowsChange moves;
    moves.from = std::min(entry.storedMoves, kept.moves.size());
    moves.added.assign(kept.moves.begin() + static_cast<std::ptrdiff_t>(moves.from),
                       kept.moves.end());
    const bool rate = kept.rated && kept.result != "*" && !entry.endKept;
    const auto saved =
        rate ? store_.finishRatedDuel(kept, moves, ratedCategory(*entry.duel), rateGame(kept))
             : store_.saveDuel(kept, moves);
    if (!saved) {
        common::logger().error("web: saving failed: {}", saved.error());
        return Say{"server.error.saveFailed"};
    }
    entry.storedMoves = kept.moves.size();
    entry.endKept = kept.result != "*";
    return std::nullopt;
}

// After a change: kept, its clock re-armed, every tab of it shown the new state.
void DuelRoom::changed(const std::string& id) {
    Entry* entry = find(id);
    if (!entry) return;
    const bool ended = !entry->endKept && entry->duel->over();
    const auto error = save(*entry);
    armTimer(id);
    for (const auto& w : entry->watchers)
        if (auto watcher = w.tab.lock()) watcher->duelChanged(error);
    if (ended && !entry->publicWatch.empty() && publicEnded_) publicEnded_(id);
}

// Wakes the server when the running clock's flag falls (the handler holds no owner of the room,
// so that a stopped server frees it).
void DuelRoom::armTimer(const std::string& id) {
    Entry* entry = find(id);
    if (!entry) return;
    const auto until = entry->duel->untilFlag(duelNow());
    entry->timer->cancel();
    if (!until) return;
    entry->timer->expires_after(std::chrono::milliseconds(*until + 1));
    entry->timer->async_wait([weak = weak_from_this(), id](boost::system::error_code ec) {
        auto room = weak.lock();
        if (ec || !room) return;
        Entry* found = room->find(id);
        if (!found) return;
        if (found->duel->checkTime(duelNow()))
            room->changed(id);
        else
            room->armTimer(id);  // woke early: wait again
    });
}

// Drops the duels nobody shows (they stay in the store and come back when a link joins them,
// duel_room.h): those whose clock does not run, and with `running` those whose clock runs too;
// only those made from `maker` when it is given. keepId is the asking tab's own table.
void DuelRoom::sweep(const std::string& keepId, bool running, const std::string* maker) {
    for (auto it = duels_.begin(); it != duels_.end();) {
        const bool watched = std::any_of(it->second.watchers.begin(), it->second.watchers.end(),
                                         [](const auto& w) { return !w.tab.expired(); });
        const bool drop = !watched && it->first != keepId &&
                          (running || !it->second.duel->running()) &&
                          (!maker || it->second.maker == *maker);
        if (drop)
            it = duels_.erase(it);
        else
            ++it;
    }
}

// The tab's copy of the duel's game (people both sides, the view at the end unless the tab
// looks at an earlier position), and its state.
std::vector<Json> DuelRoom::view(const DuelBinding& binding, LascaTable& view, bool joined) {
    Entry* entry = find(binding.id);
    if (!entry) return {errorMessage(Say{"server.duel.gone"})};
    const LascaDuel& duel = *entry->duel;
    store::StoredLascaGame game;
    game.id = binding.copyId;  // not the table's id, which every link of it holds
    game.startLfen = duel.game().start().toLfen();
    game.moves = duel.moveTexts();
    game.engine = "none";
    const int ply = view.viewPly();
    const bool atEnd = ply == static_cast<int>(view.moves().size());
    auto restored = view.restore(game);
    if (!restored) return {errorMessage(restored.error())};
    view.markUnsaved();  // a copy the store does not hold under this id
    if (!joined && !atEnd) return decorate(binding, view.handle({{"type", "view"}, {"ply", ply}}));
    return decorate(binding, std::move(restored).value());
}

// Adds the duel's facts to every state: the table, this tab's seat, the clock, the draw offer,
// and its end (time, resignation, agreement) over the rules' status; a seat that cannot move at
// the shown position gets no legal moves.
std::vector<Json> DuelRoom::decorate(const DuelBinding& binding, std::vector<Json> replies) {
    Entry* entry = find(binding.id);
    if (!entry) return replies;
    const LascaDuel& duel = *entry->duel;
    const auto now = duelNow();
    for (auto& r : replies) {
        if (r.value("type", "") != "state") continue;
        r["table"] = binding.id;
        r["seat"] = lasca_tables::duelSeatName(binding.seat);
        r["clock"] = duel.clockJson(now);
        r["drawOffer"] = duel.drawOffer() ? Json(std::string(lasca::colorName(*duel.drawOffer())))
                                          : Json(nullptr);
        r.erase("gameId");
        r["rated"] = duel.rated();
        const auto name = [&](lasca::Color colour) {
            const auto& account = duel.account(colour);
            return account.id == 0 ? Json(nullptr) : Json(account.name);
        };
        r["players"] = {{"white", name(lasca::Color::White)}, {"black", name(lasca::Color::Black)}};
        if (duel.over()) {
            const bool whiteLost = duel.result() == "0-2";
            std::optional<Say> end;
            if (duel.rule() == "time")
                end =
                    whiteLost ? Say{"server.duel.end.whiteTime"} : Say{"server.duel.end.blackTime"};
            else if (duel.rule() == "resign")
                end = whiteLost ? Say{"server.duel.end.whiteResigned"}
                                : Say{"server.duel.end.blackResigned"};
            else if (duel.rule() == "agreement")
                end = Say{"server.duel.end.agreement"};
            Json status = {{"over", true}, {"result", duel.result()}, {"rule", duel.rule()}};
            if (end)
                status.update(messages::said(*end));
            else  // a rules' ending (R9, T1, T2): its words as the game's copy says them
                for (const char* field : {"key", "params", "text"})
                    if (r["status"].contains(field)) status[field] = r["status"][field];
            r["status"] = std::move(status);
        }
        const bool mine = (binding.seat == DuelSeat::White && r["sideToMove"] == "white") ||
                          (binding.seat == DuelSeat::Black && r["sideToMove"] == "black");
        if (duel.over() || !mine || r["ply"] != r["moves"].size()) r["legal"] = Json::array();
    }
    return replies;
}

}  // namespace web::server
