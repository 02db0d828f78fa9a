#include "web/lasca_tables/duel.h"

#include <algorithm>

#include "common/seed.h"
#include "lasca/core/notation.h"
#include "lasca/core/pdn.h"
#include "lasca_table_internal.h"

namespace web::lasca_tables {

using store::StoredDuel;

namespace {

std::size_t colourIndex(lasca::Color c) {
    return c == lasca::Color::White ? 0 : 1;
}

std::optional<lasca::Color> colourOfSeat(DuelSeat seat) {
    if (seat == DuelSeat::White) return lasca::Color::White;
    if (seat == DuelSeat::Black) return lasca::Color::Black;
    return std::nullopt;
}

std::string colourText(lasca::Color c) {
    return std::string(lasca::colorName(c));
}

}  // namespace

const char* duelSeatName(DuelSeat seat) {
    switch (seat) {
        case DuelSeat::White:
            return "white";
        case DuelSeat::Black:
            return "black";
        case DuelSeat::Watch:
            break;
    }
    return "watch";
}

common::Result<LascaDuel> LascaDuel::create(const std::string& id,
                                            const std::optional<DuelClock>& clock,
                                            std::int64_t nowMs, bool rated) {
    if (rated && !clock) return common::makeError("a rated table needs a clock");
    if (clock && (clock->time < kMinDuelTime || clock->time > kMaxDuelTime))
        return common::makeError("clock time: 1000 to 86400000 ms");
    if (clock && (clock->increment < 0 || clock->increment > kMaxDuelIncrement))
        return common::makeError("clock increment: 0 to 3600000 ms");
    LascaDuel duel;
    duel.id_ = id;
    duel.clock_ = clock;
    if (clock) duel.remaining_[0] = duel.remaining_[1] = clock->time;
    for (auto& hash : duel.hashes_) {
        duel.newTokens_.push_back(common::randomHex(16));
        hash = common::hashSecret(duel.newTokens_.back());
    }
    duel.runningSince_ = nowMs;
    duel.created_ = nowMs;
    duel.rated_ = rated;
    return duel;
}

common::Result<LascaDuel> LascaDuel::restore(const StoredDuel& kept, std::int64_t nowMs) {
    auto start = lasca::Position::fromLfen(kept.startLfen);
    if (!start) return common::makeError("table " + kept.id + ": " + start.error());
    LascaDuel duel;
    duel.id_ = kept.id;
    duel.game_ = lasca::Game(start.value());
    for (const auto& text : kept.moves) {
        auto move = duel.game_.playText(text);
        if (!move) return common::makeError("table " + kept.id + ": " + move.error());
        duel.moves_.push_back(lasca::formatMove(move.value()));
    }
    if (kept.clockTime > 0) duel.clock_ = DuelClock{kept.clockTime, kept.clockIncrement};
    duel.remaining_[0] = kept.whiteMs;
    duel.remaining_[1] = kept.blackMs;
    // The side to move is charged from when its turn began, the time the server was down
    // included; a table kept without that time runs from now.
    duel.runningSince_ = kept.turnStarted > 0 ? std::min(kept.turnStarted, nowMs) : nowMs;
    if (kept.drawOffer == "white") duel.drawOffer_ = lasca::Color::White;
    if (kept.drawOffer == "black") duel.drawOffer_ = lasca::Color::Black;
    duel.result_ = kept.result;
    duel.rule_ = kept.rule;
    duel.hashes_[0] = kept.whiteHash;
    duel.hashes_[1] = kept.blackHash;
    duel.hashes_[2] = kept.watchHash;
    duel.created_ = kept.created;
    duel.rated_ = kept.rated;
    duel.accounts_[0] = {kept.whiteAccount, kept.whiteName};
    duel.accounts_[1] = {kept.blackAccount, kept.blackName};
    if (duel.rated_ && !duel.clock_)
        return common::makeError("table " + kept.id + ": rated without a clock");
    if (kept.result != "*" && kept.result != "2-0" && kept.result != "0-2" && kept.result != "1-1")
        return common::makeError("table " + kept.id + ": bad result");
    return duel;
}

std::vector<std::string> LascaDuel::takeTokens() {
    return std::exchange(newTokens_, {});
}

void LascaDuel::giveTokenHash(DuelSeat seat, std::string hash) {
    const auto s = static_cast<std::size_t>(seat);
    hashes_[s] = std::move(hash);
    if (s < newTokens_.size()) newTokens_[s].clear();
}

std::optional<DuelSeat> LascaDuel::seatOfToken(std::string_view token) const {
    const std::string hash = common::hashSecret(token);
    std::optional<DuelSeat> found;
    for (int s = 0; s < 3; ++s)  // every comparison made: no early exit on a match
        if (common::sameSecret(hashes_[s], hash)) found = static_cast<DuelSeat>(s);
    return found;
}

std::optional<lasca::Color> LascaDuel::running() const {
    if (!clock_ || over() || moves_.empty()) return std::nullopt;
    return game_.current().sideToMove();
}

std::int64_t LascaDuel::remaining(lasca::Color colour, std::int64_t nowMs) const {
    const std::int64_t left = remaining_[colourIndex(colour)];
    if (running() == colour) return std::max<std::int64_t>(0, left - elapsed(nowMs));
    return left;
}

std::int64_t LascaDuel::elapsed(std::int64_t nowMs) const {
    return std::max<std::int64_t>(0, nowMs - runningSince_);  // a clock set back gives nothing
}

std::optional<std::int64_t> LascaDuel::untilFlag(std::int64_t nowMs) const {
    const auto side = running();
    if (!side) return std::nullopt;
    return remaining(*side, nowMs);
}

bool LascaDuel::checkTime(std::int64_t nowMs) {
    const auto side = running();
    if (!side || remaining(*side, nowMs) > 0) return false;
    remaining_[colourIndex(*side)] = 0;
    endGame(*side == lasca::Color::White ? "0-2" : "2-0", "time");
    return true;
}

void LascaDuel::endGame(std::string result, std::string rule) {
    result_ = std::move(result);
    rule_ = std::move(rule);
    drawOffer_.reset();
}

void LascaDuel::checkRules() {
    const auto status = game_.status(lasca::DrawRules{});
    if (status.over())
        endGame(lasca::pdnResult(status.outcome), lasca::terminationRule(status.termination));
}

std::optional<messages::Say> LascaDuel::move(DuelSeat seat, std::string_view text,
                                             std::int64_t nowMs) {
    const auto colour = colourOfSeat(seat);
    if (!colour) return Say{"server.duel.watcherMove"};
    checkTime(nowMs);
    if (over()) return Say{"server.lasca.gameOver"};
    const lasca::Color side = game_.current().sideToMove();
    if (*colour != side) return Say{"server.duel.notYourTurn"};
    auto move = game_.playText(text);
    if (!move) return moveRefusal(game_.current(), text);
    moves_.push_back(lasca::formatMove(move.value()));
    if (clock_) {
        auto& left = remaining_[colourIndex(side)];
        if (moves_.size() > 1) left -= elapsed(nowMs);  // White's first move is free
        left += clock_->increment;
    }
    runningSince_ = nowMs;
    if (drawOffer_ && *drawOffer_ != side) drawOffer_.reset();  // a move declines an offer
    checkRules();
    return std::nullopt;
}

std::optional<messages::Say> LascaDuel::resign(DuelSeat seat, std::int64_t nowMs) {
    const auto colour = colourOfSeat(seat);
    if (!colour) return Say{"server.duel.watcherResign"};
    checkTime(nowMs);
    if (over()) return Say{"server.lasca.gameOver"};
    stopClock(nowMs);
    endGame(*colour == lasca::Color::White ? "0-2" : "2-0", "resign");
    return std::nullopt;
}

std::optional<messages::Say> LascaDuel::draw(DuelSeat seat, bool offer, std::int64_t nowMs) {
    const auto colour = colourOfSeat(seat);
    if (!colour) return Say{"server.duel.watcherDraw"};
    checkTime(nowMs);
    if (over()) return Say{"server.lasca.gameOver"};
    if (!offer) {
        if (!drawOffer_) return Say{"server.duel.noDrawOffer"};
        drawOffer_.reset();
        return std::nullopt;
    }
    if (drawOffer_ && *drawOffer_ != *colour) {
        stopClock(nowMs);
        endGame("1-1", "agreement");
        return std::nullopt;
    }
    if (drawOffer_) return Say{"server.duel.drawOffered"};
    drawOffer_ = *colour;
    return std::nullopt;
}

void LascaDuel::stopClock(std::int64_t nowMs) {
    if (const auto side = running()) {
        remaining_[colourIndex(*side)] = remaining(*side, nowMs);
        runningSince_ = nowMs;
    }
}

nlohmann::json LascaDuel::clockJson(std::int64_t nowMs) const {
    if (!clock_) return nullptr;
    const auto side = running();
    return {{"white", remaining(lasca::Color::White, nowMs)},
            {"black", remaining(lasca::Color::Black, nowMs)},
            {"running", side ? nlohmann::json(colourText(*side)) : nlohmann::json(nullptr)},
            {"time", clock_->time},
            {"increment", clock_->increment}};
}

StoredDuel LascaDuel::stored(std::int64_t nowMs) const {
    StoredDuel kept;
    kept.id = id_;
    kept.startLfen = game_.start().toLfen();
    kept.moves = moves_;
    kept.whiteHash = hashes_[0];
    kept.blackHash = hashes_[1];
    kept.watchHash = hashes_[2];
    if (clock_) {
        kept.clockTime = clock_->time;
        kept.clockIncrement = clock_->increment;
    }
    kept.whiteMs = remaining_[0];
    kept.blackMs = remaining_[1];
    kept.turnStarted = running() ? runningSince_ : 0;
    kept.drawOffer = drawOffer_ ? colourText(*drawOffer_) : "";
    kept.result = result_;
    kept.rule = rule_;
    kept.created = created_;
    kept.updated = nowMs;
    kept.rated = rated_;
    kept.whiteAccount = accounts_[0].id;
    kept.whiteName = accounts_[0].name;
    kept.blackAccount = accounts_[1].id;
    kept.blackName = accounts_[1].name;
    return kept;
}

}  // namespace web::lasca_tables
