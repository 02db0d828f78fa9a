#include "lobby_room.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <tuple>

#include "common/logging.h"
#include "common/seed.h"
#include "common/text.h"
#include "web/accounts/accounts.h"
#include "web/messages/messages.h"

namespace web::server {

using messages::checkFields;
using messages::errorMessage;
using messages::messageType;
using messages::parseMessage;
using messages::Say;
using messages::stringField;

// LobbyTab: one tab of /ws/lobby. It holds its number in the room; everything it offers lives in
// the room and goes when the tab goes.
class LobbyTab : public Tab {
  public:
    LobbyTab(std::shared_ptr<LobbyRoom> room, std::uint64_t number,
             const std::shared_ptr<Peer>& peer)
        : room_(std::move(room)), number_(number), peer_(peer) {}
    ~LobbyTab() override { room_->leave(number_); }

    void onMessage(std::string_view text) override {
        const auto message = parseMessage(text);
        if (!message) return send({errorMessage(message.error())});
        const auto type = messageType(message.value());
        if (!type) return send({errorMessage(type.error())});
        const auto out = room_->handle(number_, message.value(), type.value());
        if (!out.empty()) send(out);
    }

    void send(const std::vector<Json>& messages) const {
        if (auto peer = peer_.lock()) peer->send(messages);
    }
    void sendText(const std::shared_ptr<const std::string>& text) const {
        if (auto peer = peer_.lock()) peer->sendText(text);
    }

  private:
    std::shared_ptr<LobbyRoom> room_;
    std::uint64_t number_;
    std::weak_ptr<Peer> peer_;
};

namespace {

std::optional<lasca_tables::DuelClock> duelClock(const lobby::SeekParams& params) {
    if (!params.clock) return std::nullopt;
    return lasca_tables::DuelClock{params.time, params.increment};
}

Json ratingJson(const common::Rating& rating) {
    return {{"rating", static_cast<int>(std::lround(rating.rating))},
            {"provisional", common::provisional(rating)}};
}

// A refusal of what only a program gets wrong (the page never sends it): its English detail.
Say refused(std::string detail) {
    return Say{"server.error.refused", {{"detail", std::move(detail)}}};
}

std::string ratingText(const std::optional<Person>& person, const lobby::Viewer& viewer,
                       const std::string& category) {
    return person ? ratingJson(viewer.ratingIn(category)).dump() : std::string();
}

// A new offer's row: a random id, its kind, its maker and what it asks.
store::StoredSeek newOffer(std::string kind, const std::optional<Person>& maker,
                           const std::string& address, const Json& params) {
    store::StoredSeek row;
    row.id = common::randomHex(8);
    row.kind = std::move(kind);
    row.makerAccount = maker ? maker->id : 0;
    row.makerName = maker ? maker->name : "";
    row.params = params.dump();
    row.address = address;
    return row;
}

std::optional<Person> personOf(std::int64_t account, const std::string& name) {
    if (account <= 0) return std::nullopt;
    return Person{account, name};
}

// The words of a reason to decline a challenge (lobby::kDeclineReasons, lichess's).
Say declineSay(std::string_view reason) {
    if (reason == "later") return Say{"server.lobby.decline.later"};
    if (reason == "tooFast") return Say{"server.lobby.decline.tooFast"};
    if (reason == "tooSlow") return Say{"server.lobby.decline.tooSlow"};
    if (reason == "timeControl") return Say{"server.lobby.decline.timeControl"};
    if (reason == "rated") return Say{"server.lobby.decline.rated"};
    if (reason == "casual") return Say{"server.lobby.decline.casual"};
    return Say{"server.lobby.decline.generic"};
}

}  // namespace

LobbyRoom::LobbyRoom(boost::asio::any_io_executor executor, store::Store& store,
                     std::shared_ptr<DuelRoom> duels, TorneioMaker makeTorneio, int torneioLevels,
                     Publish publish)
    : store_(store),
      duels_(std::move(duels)),
      makeTorneio_(std::move(makeTorneio)),
      torneioLevels_(torneioLevels),
      publish_(std::move(publish)),
      home_(store.homeName()),
      peopleTimer_(std::move(executor)) {
    // What this instance's earlier life had in the lobby goes (no tab of it is left); the
    // other instances are told to read the lobby again.
    if (const auto cleared = store_.clearSeeks(); !cleared)
        common::logger().error("web: emptying the seeks failed: {}", cleared.error());
    else if (publish_)
        (void)publish_("reload");
    reload();
}

std::shared_ptr<Tab> LobbyRoom::open(const std::shared_ptr<Peer>& peer) {
    const std::uint64_t number = nextTab_++;
    auto tab = std::make_shared<LobbyTab>(shared_from_this(), number, peer);
    Member member;
    member.tab = tab;
    member.person = peer->person();
    member.address = peer->address();
    if (member.person) {
        member.viewer.account = member.person->id;
        if (const auto kept = store_.ratingsOf(member.person->id); kept)
            for (const auto& r : kept.value()) member.viewer.ratings[r.category] = r.rating;
        const auto key = accounts::nameKey(member.person->name);
        const auto entered =
            store_.enterLobby(static_cast<std::int64_t>(number), member.person->id,
                              member.person->name, key ? key.value() : member.person->name);
        if (!entered) common::logger().error("web: entering the lobby: {}", entered.error());
    }
    tabs_.emplace(number, std::move(member));
    peer->send({hello(number)});
    peopleChanged();
    return tab;
}

void LobbyRoom::peopleChanged() {
    if (peopleTimerSet_) return;
    peopleTimerSet_ = true;
    peopleTimer_.expires_after(kPeopleEvery);
    peopleTimer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
        auto self = weak.lock();
        if (ec || !self) return;
        self->peopleTimerSet_ = false;
        const std::size_t people = self->countPeople();
        if (self->publish_) self->peopleChanged();
        if (people == self->peopleTold_) return;
        self->peopleTold_ = people;
        self->sendToAll({{"type", "lobby.people"}, {"people", people}});
    });
}

std::size_t LobbyRoom::countPeople() {
    if (!publish_) return tabs_.size();
    const auto all = store_.countLobby(static_cast<std::int64_t>(tabs_.size()));
    if (!all) {
        common::logger().error("web: {}", all.error());
        return tabs_.size() + elsewhere_;
    }
    const auto total = static_cast<std::size_t>(std::max<std::int64_t>(all.value(), 0));
    elsewhere_ = total > tabs_.size() ? total - tabs_.size() : 0;
    return total;
}

bool LobbyRoom::sitsAt(const Entry& entry, std::uint64_t tab) const {
    return std::any_of(entry.row.sitters.begin(), entry.row.sitters.end(),
                       [&](const store::StoredSitter& s) {
                           return s.home == home_ && s.tab == static_cast<std::int64_t>(tab);
                       });
}

Json LobbyRoom::seekJson(const Entry& seek, std::uint64_t viewer) const {
    Json j = lobby::seekJson(seek.seek);
    j["id"] = seek.row.id;
    const bool account = seek.row.makerAccount > 0;
    j["maker"] = account ? Json(seek.row.makerName) : Json(nullptr);
    if (account && !seek.row.makerRating.empty())
        j["makerRating"] = Json::parse(seek.row.makerRating, nullptr, false);
    j["mine"] = isMine(seek.row, viewer);
    return j;
}

Json LobbyRoom::offerJson(const Entry& offer, std::uint64_t viewer) const {
    Json j = lobby::torneioJson(offer.torneio);
    j["id"] = offer.row.id;
    Json people = Json::array();
    for (const auto& s : offer.row.sitters)
        people.push_back(s.account > 0 ? Json(s.name) : Json(nullptr));
    j["sitting"] = people;
    j["free"] = offer.torneio.people - static_cast<int>(offer.row.sitters.size());
    j["mine"] = isMine(offer.row, viewer);
    j["seated"] = sitsAt(offer, viewer);
    return j;
}

Json LobbyRoom::challengeJson(const Entry& challenge, std::uint64_t viewer) const {
    Json j = lobby::seekJson(challenge.seek);
    j["id"] = challenge.row.id;
    j["from"] = challenge.row.makerName;
    j["to"] = challenge.row.targetName;
    j["mine"] = isMine(challenge.row, viewer);
    return j;
}

Json LobbyRoom::hello(std::uint64_t tab) const {
    const Member& me = tabs_.at(tab);
    Json you;
    you["name"] = me.person ? Json(me.person->name) : Json(nullptr);
    you["guest"] = !me.person;
    Json ratings = Json::object();
    for (const auto& [category, rating] : me.viewer.ratings) ratings[category] = ratingJson(rating);
    you["ratings"] = ratings;
    // Offers oldest first, as made.
    std::vector<const Entry*> ordered;
    for (const auto& [id, entry] : offers_) ordered.push_back(&entry);
    std::sort(ordered.begin(), ordered.end(), [](const Entry* a, const Entry* b) {
        return std::tie(a->row.created, a->row.id) < std::tie(b->row.created, b->row.id);
    });
    Json seeks = Json::array();
    Json offers = Json::array();
    Json challenges = Json::array();
    for (const Entry* e : ordered) {
        if (e->row.kind == "lasca" && (isMine(e->row, tab) || lobby::maySee(e->seek, me.viewer)))
            seeks.push_back(seekJson(*e, tab));
        else if (e->row.kind == "torneio" && lobby::maySit(e->torneio, me.viewer))
            offers.push_back(offerJson(*e, tab));
        else if (e->row.kind == "challenge" && me.person &&
                 (e->row.target == me.person->id || isMine(e->row, tab)))
            challenges.push_back(challengeJson(*e, tab));
    }
    Json games = Json::array();
    for (const auto& [id, game] : games_) games.push_back(game);
    Json reasons = Json::array();
    for (const auto& r : lobby::kDeclineReasons) {
        Json reason = {{"reason", r.key}};
        reason.update(messages::said(declineSay(r.key)));
        reasons.push_back(std::move(reason));
    }
    return {{"type", "lobby.hello"},
            {"you", you},
            {"seeks", seeks},
            {"offers", offers},
            {"challenges", challenges},
            {"games", games},
            {"people", tabs_.size() + elsewhere_},
            {"reasons", reasons}};
}

void LobbyRoom::sendTo(std::uint64_t tab, const std::vector<Json>& messages) const {
    const auto it = tabs_.find(tab);
    if (it == tabs_.end()) return;
    if (const auto t = it->second.tab.lock()) t->send(messages);
}

// The message is written as text once for every tab.
void LobbyRoom::sendToAll(const Json& message) const {
    const auto text = std::make_shared<const std::string>(
        message.dump(-1, ' ', false, Json::error_handler_t::replace));
    for (const auto& [number, member] : tabs_)
        if (const auto t = member.tab.lock()) t->sendText(text);
}

// The maker's tab is sent its own copy ("mine"); every other tab that may see the seek one text
// made once.
void LobbyRoom::sendSeek(const Entry& seek) const {
    const auto others = std::make_shared<const std::string>(
        Json{{"type", "lobby.seek"}, {"seek", seekJson(seek, 0)}}.dump());
    for (const auto& [number, member] : tabs_) {
        const auto t = member.tab.lock();
        if (!t) continue;
        if (isMine(seek.row, number))
            t->send({{{"type", "lobby.seek"}, {"seek", seekJson(seek, number)}}});
        else if (lobby::maySee(seek.seek, member.viewer))
            t->sendText(others);
    }
}

// Like sendSeek: the people sitting at the table get their own copy, the others one text.
void LobbyRoom::sendOffer(const Entry& offer) const {
    const auto others = std::make_shared<const std::string>(
        Json{{"type", "lobby.offer"}, {"offer", offerJson(offer, 0)}}.dump());
    for (const auto& [number, member] : tabs_) {
        const auto t = member.tab.lock();
        if (!t || !lobby::maySit(offer.torneio, member.viewer)) continue;
        if (sitsAt(offer, number))
            t->send({{{"type", "lobby.offer"}, {"offer", offerJson(offer, number)}}});
        else
            t->sendText(others);
    }
}

void LobbyRoom::sendChallenge(const Entry& challenge) const {
    for (const auto& [number, member] : tabs_)
        if (isMine(challenge.row, number) ||
            (member.person && member.person->id == challenge.row.target))
            sendTo(number, {{{"type", "lobby.challenge"},
                             {"challenge", challengeJson(challenge, number)}}});
}

int LobbyRoom::offersFrom(const std::string& address) const {
    int n = 0;
    for (const auto& [id, entry] : offers_)
        n += entry.row.kind != "challenge" && entry.row.address == address ? 1 : 0;
    return n;
}

std::size_t LobbyRoom::offerCount() const {
    return static_cast<std::size_t>(
        std::count_if(offers_.begin(), offers_.end(),
                      [](const auto& e) { return e.second.row.kind != "challenge"; }));
}

std::vector<Json> LobbyRoom::handle(std::uint64_t tab, const Json& m, const std::string& type) {
    std::optional<Say> error;
    if (type == "seek.create" || type == "torneio.open" || type == "challenge.create") {
        const double now =
            std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
                .count();
        if (!tabs_.at(tab).offers.allow(now))
            return {errorMessage(Say{"server.lobby.tooManyOffers"})};
    }
    if (type == "seek.create")
        error = createSeek(tab, m);
    else if (type == "seek.cancel")
        error = cancelSeek(tab, m);
    else if (type == "seek.accept")
        error = acceptSeek(tab, m);
    else if (type == "challenge.create")
        error = createChallenge(tab, m);
    else if (type == "challenge.accept" || type == "challenge.decline" ||
             type == "challenge.cancel")
        error = answerChallenge(tab, m, type);
    else if (type == "torneio.open")
        error = openOffer(tab, m);
    else if (type == "torneio.sit" || type == "torneio.stand")
        error = sit(tab, m, type == "torneio.sit");
    else
        error = refused("unknown message type '" + common::printable(type) + "'");
    if (error) return {errorMessage(*error)};
    return {};
}

void LobbyRoom::publish(const std::string& event) {
    if (publish_ && publish_(event)) return;
    heard(event);
}

std::optional<Say> LobbyRoom::keep(std::uint64_t tab, store::StoredSeek row,
                                   const std::string& token) {
    row.tab = static_cast<std::int64_t>(tab);
    row.created = nowMilliseconds();
    if (const auto saved = store_.addSeek(row); !saved) {
        common::logger().error("web: keeping an offer failed: {}", saved.error());
        return Say{"server.lobby.notKept"};
    }
    row.home = home_;
    for (auto& sitter : row.sitters) sitter.home = home_;
    const std::string id = row.id;
    // Shown here at once: another instance may take the offer before this one hears its event
    // (then reads no row).
    keepEntry(row);
    mine_[id] = Mine{std::move(row), {{tab, 1, token}}};
    publish("offer " + id);
    return std::nullopt;
}

void LobbyRoom::withdraw(const std::string& id, const std::string& why) {
    const auto taken = store_.takeSeek(id);
    if (!taken) common::logger().error("web: withdrawing an offer: {}", taken.error());
    if (taken && taken.value()) publish("gone " + id + " " + why);
    mine_.erase(id);
}

// {"type":"seek.create","clock":null|{"time","increment"},"rated":b,"range":null|[lo,hi]}
std::optional<Say> LobbyRoom::createSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"clock", "rated", "range"})) return refused(*e);
    const auto params = lobby::readSeek(m);
    if (!params) return refused(params.error());
    const Member& me = tabs_.at(tab);
    if ((params.value().rated || params.value().range) && !me.person)
        return Say{"server.lobby.signInToSeek"};
    const auto mine = std::count_if(mine_.begin(), mine_.end(), [&](const auto& kept) {
        return kept.second.row.kind == "lasca" && kept.second.seats.front().tab == tab;
    });
    if (mine >= kMaxSeeksPerTab) return Say{"server.lobby.seekLimit", {{"count", kMaxSeeksPerTab}}};
    if (offersFrom(me.address) >= kMaxOffersPerAddress)
        return Say{"server.lobby.addressLimit", {{"count", kMaxOffersPerAddress}}};
    if (offerCount() >= kMaxOffers) return Say{"server.lobby.full"};
    const std::string token = common::randomHex(16);
    store::StoredSeek row =
        newOffer("lasca", me.person, me.address, lobby::seekJson(params.value()));
    row.makerRating = ratingText(me.person, me.viewer, lobby::category(params.value()));
    row.tokenHash = common::hashSecret(token);
    return keep(tab, std::move(row), token);
}

std::optional<Say> LobbyRoom::cancelSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"seek"})) return refused(*e);
    const auto id = stringField(m, "seek", 64);
    if (!id) return refused(id.error());
    const auto it = mine_.find(id.value());
    if (it == mine_.end() || it->second.row.kind != "lasca" || it->second.seats.front().tab != tab)
        return Say{"server.lobby.notYourSeek"};
    withdraw(id.value(), "cancelled");
    return std::nullopt;
}

std::optional<Say> LobbyRoom::acceptSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"seek"})) return refused(*e);
    const auto id = stringField(m, "seek", 64);
    if (!id) return refused(id.error());
    const auto it = offers_.find(id.value());
    if (it == offers_.end() || it->second.row.kind != "lasca") return Say{"server.lobby.seekGone"};
    const Member& me = tabs_.at(tab);
    const Entry& seek = it->second;
    if (isMine(seek.row, tab)) return Say{"server.lobby.ownSeek"};
    if (me.person && seek.row.makerAccount == me.person->id) return Say{"server.lobby.ownSeek"};
    if (!lobby::maySee(seek.seek, me.viewer))
        return me.person ? Say{"server.lobby.outsideRange"} : Say{"server.lobby.signInToAccept"};
    const lobby::SeekParams params = seek.seek;
    // The store decides who took it: of two accepting at once, one removes the row.
    const auto taken = store_.takeSeek(id.value());
    if (!taken) {
        common::logger().error("web: taking a seek failed: {}", taken.error());
        return Say{"server.lobby.seekGone"};
    }
    if (!taken.value()) return Say{"server.lobby.seekGone"};
    return startDuel(*taken.value(), tab, params);
}

std::optional<Say> LobbyRoom::startDuel(const store::StoredSeek& taken, std::uint64_t taker,
                                        const lobby::SeekParams& params) {
    const auto takerIt = tabs_.find(taker);
    if (takerIt == tabs_.end()) return Say{"server.lobby.otherLeft"};
    const bool makerWhite = lobby::makerPlaysWhite();
    const auto maker = personOf(taken.makerAccount, taken.makerName);
    const auto& takerPerson = takerIt->second.person;
    const std::string takerToken = common::randomHex(16);
    const std::string takerHash = common::hashSecret(takerToken);
    const auto& white = makerWhite ? maker : takerPerson;
    const auto& black = makerWhite ? takerPerson : maker;
    const auto made = duels_->createPublic(
        duelClock(params), params.rated, white, black,
        {makerWhite ? taken.tokenHash : takerHash, makerWhite ? takerHash : taken.tokenHash});
    if (!made) {
        common::logger().error("web: a lobby game was not made: {}", made.error());
        publish("gone " + taken.id + " failed");
        return Say{"server.lobby.gameNotMade"};
    }
    const auto& table = made.value();
    Json game = lobby::seekJson(params);
    game["kind"] = "lasca";
    game["table"] = table.id;
    game["white"] = white ? Json(white->name) : Json(nullptr);
    game["black"] = black ? Json(black->name) : Json(nullptr);
    game["watch"] = "/?table=" + table.id + "&token=" + table.tokens[2];
    auto& mine = mine_[taken.id];
    mine.row = taken;
    mine.seats.push_back({taker, 2, takerToken});
    publish("started " + taken.id + " " + table.id + " " + (makerWhite ? "1,2" : "2,1"));
    const auto listed = store_.addLobbyGame({table.id, game.dump()}, kMaxGamesListed);
    if (listed && listed.value()) publish("game " + table.id);
    return std::nullopt;
}

void LobbyRoom::gameEnded(const std::string& tableId) {
    const auto removed = store_.removeLobbyGame(tableId);
    if (removed && removed.value()) publish("ended " + tableId);
}

// {"type":"challenge.create","to":NAME,"clock":...,"rated":b}: to a signed-in person whose
// lobby is open (on any instance).
std::optional<Say> LobbyRoom::createChallenge(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"to", "clock", "rated"})) return refused(*e);
    const Member& me = tabs_.at(tab);
    if (!me.person) return Say{"server.lobby.signInToChallenge"};
    const auto to = stringField(m, "to", 64);
    if (!to) return refused(to.error());
    Json seekFields = m;
    seekFields.erase("to");
    const auto params = lobby::readSeek(seekFields);
    if (!params) return refused(params.error());
    const auto mine = std::count_if(mine_.begin(), mine_.end(), [&](const auto& c) {
        return c.second.row.kind == "challenge" && c.second.seats.front().tab == tab;
    });
    if (mine >= kMaxChallengesPerTab)
        return Say{"server.lobby.challengeLimit", {{"count", kMaxChallengesPerTab}}};
    // Names are matched by their key (web/accounts: the lower-case form), as the accounts are.
    std::optional<store::LobbyPerson> challenged;
    if (const auto key = accounts::nameKey(to.value())) {
        const auto found = store_.lobbyPerson(key.value());
        if (!found) common::logger().error("web: finding a person: {}", found.error());
        if (found) challenged = found.value();
    }
    if (!challenged)
        return Say{"server.lobby.notInLobby", {{"name", common::printable(to.value())}}};
    if (challenged->account == me.person->id) return Say{"server.lobby.challengeSelf"};
    const std::string token = common::randomHex(16);
    store::StoredSeek row =
        newOffer("challenge", me.person, me.address, lobby::seekJson(params.value()));
    row.tokenHash = common::hashSecret(token);
    row.target = challenged->account;
    row.targetName = challenged->name;
    return keep(tab, std::move(row), token);
}

// challenge.accept / challenge.decline (with a reason) by the challenged; challenge.cancel by
// the challenger.
std::optional<Say> LobbyRoom::answerChallenge(std::uint64_t tab, const Json& m,
                                              const std::string& type) {
    const bool decline = type == "challenge.decline";
    if (auto e = decline ? checkFields(m, {"challenge", "reason"}) : checkFields(m, {"challenge"}))
        return refused(*e);
    const auto id = stringField(m, "challenge", 64);
    if (!id) return refused(id.error());
    const auto it = offers_.find(id.value());
    const Member& me = tabs_.at(tab);
    if (it == offers_.end() || it->second.row.kind != "challenge")
        return Say{"server.lobby.challengeGone"};
    const Entry c = it->second;
    if (type == "challenge.cancel") {
        if (!isMine(c.row, tab)) return Say{"server.lobby.notYourChallenge"};
        withdraw(c.row.id, "cancelled");
        return std::nullopt;
    }
    if (!me.person || me.person->id != c.row.target) return Say{"server.lobby.challengeNotYours"};
    if (decline) {
        std::string key = "generic";
        if (m.contains("reason")) {
            const auto reason = stringField(m, "reason", 32);
            if (!reason) return refused(reason.error());
            key = reason.value();
        }
        const auto* reason = lobby::declineReason(key);
        if (!reason) return refused("unknown reason '" + common::printable(key) + "'");
        withdraw(c.row.id, "declined " + std::string(reason->key));
        return std::nullopt;
    }
    const auto taken = store_.takeSeek(c.row.id);
    if (!taken || !taken.value()) return Say{"server.lobby.challengeGone"};
    return startDuel(*taken.value(), tab, c.seek);
}

// {"type":"torneio.open","seats":2-4,"people":2-seats,"level":L,"rounds":N,"rated":b}: the
// maker sits first.
std::optional<Say> LobbyRoom::openOffer(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"seats", "people", "level", "rounds", "rated"}))
        return refused(*e);
    const auto params = lobby::readTorneio(m, torneioLevels_);
    if (!params) return refused(params.error());
    const Member& me = tabs_.at(tab);
    if (!lobby::maySit(params.value(), me.viewer)) return Say{"server.lobby.signInToOpenRated"};
    for (const auto& [id, mine] : mine_)
        if (mine.row.kind == "torneio" && mine.seats.front().tab == tab &&
            mine.seats.front().place == 1)
            return Say{"server.lobby.offerOpen"};
    if (offersFrom(me.address) >= kMaxOffersPerAddress)
        return Say{"server.lobby.addressLimit", {{"count", kMaxOffersPerAddress}}};
    if (offerCount() >= kMaxOffers) return Say{"server.lobby.full"};
    const std::string token = common::randomHex(16);
    store::StoredSeek row =
        newOffer("torneio", me.person, me.address, lobby::torneioJson(params.value()));
    row.sitters.push_back({1, home_, static_cast<std::int64_t>(tab), row.makerAccount,
                           row.makerName, common::hashSecret(token)});
    return keep(tab, std::move(row), token);
}

// torneio.sit / torneio.stand {"offer":ID}: the maker standing up withdraws the offer; the last
// person to sit starts the table.
std::optional<Say> LobbyRoom::sit(std::uint64_t tab, const Json& m, bool sitting) {
    if (auto e = checkFields(m, {"offer"})) return refused(*e);
    const auto id = stringField(m, "offer", 64);
    if (!id) return refused(id.error());
    const auto it = offers_.find(id.value());
    if (it == offers_.end() || it->second.row.kind != "torneio")
        return Say{"server.lobby.offerGone"};
    const Entry offer = it->second;
    const Member& me = tabs_.at(tab);
    auto mine = mine_.find(offer.row.id);
    const auto seat = [&]() -> MySeat* {
        if (mine == mine_.end()) return nullptr;
        for (auto& s : mine->second.seats)
            if (s.tab == tab) return &s;
        return nullptr;
    }();
    if (!sitting) {
        if (!seat) return Say{"server.lobby.notSitting"};
        if (seat->place == 1) {
            withdraw(offer.row.id, "cancelled");
            return std::nullopt;
        }
        const auto stood = store_.standUp(offer.row.id, static_cast<std::int64_t>(tab));
        std::erase_if(mine->second.seats, [&](const MySeat& s) { return s.tab == tab; });
        if (mine->second.seats.empty()) mine_.erase(mine);
        if (stood && stood.value()) publish("offer " + offer.row.id);
        return std::nullopt;
    }
    if (seat) return Say{"server.lobby.sitting"};
    if (!lobby::maySit(offer.torneio, me.viewer)) return Say{"server.lobby.signInToSit"};
    if (me.person)
        for (const auto& s : offer.row.sitters)
            if (s.account == me.person->id) return Say{"server.lobby.sittingElsewhere"};
    const std::string token = common::randomHex(16);
    const store::StoredSitter sitter{0,
                                     home_,
                                     static_cast<std::int64_t>(tab),
                                     me.person ? me.person->id : 0,
                                     me.person ? me.person->name : "",
                                     common::hashSecret(token)};
    const auto sat = store_.sitDown(offer.row.id, sitter, offer.torneio.people);
    if (!sat) common::logger().error("web: sitting at an offer: {}", sat.error());
    if (!sat || sat.value().place == 0) return Say{"server.lobby.offerGone"};
    auto& kept = mine_[offer.row.id];
    kept.row = offer.row;
    kept.seats.push_back({tab, sat.value().place, token});
    if (sat.value().sitting >= offer.torneio.people) return startTorneio(offer.row.id);
    publish("offer " + offer.row.id);
    return std::nullopt;
}

std::optional<Say> LobbyRoom::startTorneio(const std::string& offerId) {
    const auto taken = store_.takeSeek(offerId);
    if (!taken || !taken.value()) return Say{"server.lobby.offerGone"};
    const store::StoredSeek& offer = *taken.value();
    const auto params =
        lobby::readTorneio(Json::parse(offer.params, nullptr, false), torneioLevels_);
    if (!params) {
        publish("gone " + offerId + " failed");
        return std::nullopt;
    }
    // The people sitting (in the order they sat; one who stood up at the last moment leaves an
    // AI seat), then the AI seats.
    std::vector<torneio_tables::TorneioSeatChoice> seats;
    std::vector<std::optional<Person>> persons;
    std::vector<std::string> hashes;
    std::string places;
    for (const auto& s : offer.sitters) {
        seats.push_back({"person", 0});
        persons.push_back(personOf(s.account, s.name));
        hashes.push_back(s.tokenHash);
        places += (places.empty() ? "" : ",") + std::to_string(s.place);
    }
    while (static_cast<int>(seats.size()) < params.value().seats)
        seats.push_back({"ai", params.value().level});
    const auto made = makeTorneio_
                          ? makeTorneio_(seats, params.value().rounds, persons,
                                         params.value().rated, offer.address, hashes)
                          : common::Result<MadeTorneioTable>(common::makeError("no Torneio room"));
    if (!made) {
        common::logger().error("web: a Torneio table was not made: {}", made.error());
        publish("gone " + offerId + " failed");
        return std::nullopt;
    }
    // Listed to watch: each seat's kind and its person's name (null for a guest).
    Json game = lobby::torneioJson(params.value());
    game["kind"] = "torneio";
    game["table"] = made.value().id;
    game["watch"] = "/torneio?watch=" + made.value().id;
    Json listedSeats = Json::array();
    for (std::size_t i = 0; i < seats.size(); ++i) {
        Json seat = {{"seat", i + 1}, {"kind", seats[i].kind}};
        if (seats[i].kind == "ai") seat["level"] = seats[i].level;
        if (i < persons.size())
            seat["player"] = persons[i] ? Json(persons[i]->name) : Json(nullptr);
        listedSeats.push_back(seat);
    }
    game["seats"] = listedSeats;
    publish("started " + offerId + " " + made.value().id + " " + places);
    const auto listed = store_.addLobbyGame({made.value().id, game.dump()}, kMaxGamesListed);
    if (listed && listed.value()) publish("game " + made.value().id);
    return std::nullopt;
}

// A tab closed: what it offered goes, it stands up from the tables it sat at, and the
// challenges it sent go; when it was its person's last lobby tab anywhere, so do the
// challenges sent to that person.
void LobbyRoom::leave(std::uint64_t tab) {
    const auto me = tabs_.find(tab);
    if (me == tabs_.end()) return;
    const auto person = me->second.person;
    tabs_.erase(me);
    peopleChanged();
    if (person) (void)store_.leaveLobby(static_cast<std::int64_t>(tab));
    std::vector<std::string> made;
    std::vector<std::string> satAt;
    for (const auto& [id, mine] : mine_)
        for (const auto& seat : mine.seats)
            if (seat.tab == tab) (seat.place == 1 ? made : satAt).push_back(id);
    for (const auto& id : made) withdraw(id, "left");
    for (const auto& id : satAt) {
        const auto stood = store_.standUp(id, static_cast<std::int64_t>(tab));
        auto& seats = mine_[id].seats;
        std::erase_if(seats, [&](const MySeat& s) { return s.tab == tab; });
        if (seats.empty()) mine_.erase(id);
        if (stood && stood.value()) publish("offer " + id);
    }
    if (!person) return;
    const auto still = store_.inLobby(person->id);
    if (!still || still.value()) return;
    std::vector<std::string> challenges;
    for (const auto& [id, entry] : offers_)
        if (entry.row.kind == "challenge" && entry.row.target == person->id)
            challenges.push_back(id);
    for (const auto& id : challenges) withdraw(id, "left");
}

// ---- Events: what every instance does when it hears one.

void LobbyRoom::heard(const std::string& event) {
    std::istringstream words(event);
    std::string verb, id, a, b;
    words >> verb >> id >> a >> b;
    if (verb == "offer")
        offerChanged(id);
    else if (verb == "gone")
        offerGone(id, a, b);
    else if (verb == "started")
        started(id, a, b);
    else if (verb == "game")
        gameListed(id);
    else if (verb == "ended")
        gameUnlisted(id);
    else if (verb == "reload")
        reload();
    else
        common::logger().warn("web: an unknown lobby event: {}", common::printable(event));
}

void LobbyRoom::keepEntry(const store::StoredSeek& row) {
    const auto old = offers_.find(row.id);
    if (old != offers_.end() && old->second.row == row) return;
    Entry entry;
    entry.row = row;
    const Json params = Json::parse(row.params, nullptr, false);
    if (row.kind == "torneio") {
        const auto read = lobby::readTorneio(params, torneioLevels_);
        if (!read) return;
        entry.torneio = read.value();
    } else {
        const auto read = lobby::readSeek(params);
        if (!read) return;
        entry.seek = read.value();
    }
    const Entry& kept = offers_[row.id] = std::move(entry);
    if (row.kind == "lasca")
        sendSeek(kept);
    else if (row.kind == "torneio")
        sendOffer(kept);
    else
        sendChallenge(kept);
}

void LobbyRoom::offerChanged(const std::string& id) {
    const auto row = store_.seek(id);
    if (!row) {
        common::logger().error("web: reading an offer: {}", row.error());
        return;
    }
    if (row.value()) keepEntry(*row.value());  // none: it went since
}

void LobbyRoom::tellGone(const Entry& entry, const std::string& why, const std::string& reason) {
    const std::string& id = entry.row.id;
    if (entry.row.kind == "lasca") {
        sendToAll({{"type", "lobby.seekGone"}, {"seek", id}});
        return;
    }
    if (entry.row.kind == "torneio") {
        sendToAll({{"type", "lobby.offerGone"}, {"offer", id}});
        return;
    }
    Json toChallenger = {{"reason", why}};
    if (why == "declined") {
        toChallenger = {{"declined", true}, {"by", entry.row.targetName}, {"reason", reason}};
        toChallenger.update(messages::said(declineSay(reason)));
    } else if (why == "started") {
        toChallenger = {{"accepted", true}, {"by", entry.row.targetName}};
    }
    for (const auto& [number, member] : tabs_) {
        if (isMine(entry.row, number)) {
            Json gone = {{"type", "lobby.challengeGone"}, {"challenge", id}};
            gone.update(toChallenger);
            sendTo(number, {gone});
        } else if (member.person && member.person->id == entry.row.target) {
            sendTo(number, {{{"type", "lobby.challengeGone"}, {"challenge", id}}});
        }
    }
}

std::optional<LobbyRoom::Entry> LobbyRoom::entryOf(const std::string& id) const {
    if (const auto it = offers_.find(id); it != offers_.end()) return it->second;
    if (const auto mine = mine_.find(id); mine != mine_.end())
        return Entry{mine->second.row, {}, {}};
    return std::nullopt;
}

void LobbyRoom::offerGone(const std::string& id, const std::string& why,
                          const std::string& reason) {
    const auto entry = entryOf(id);
    // This instance's tabs at an offer whose table could not be made are told.
    if (const auto mine = mine_.find(id); mine != mine_.end() && why == "failed")
        for (const auto& seat : mine->second.seats)
            sendTo(seat.tab, {errorMessage(Say{mine->second.row.kind == "torneio"
                                                   ? "server.lobby.torneioNotMade"
                                                   : "server.lobby.gameNotMade"})});
    mine_.erase(id);
    offers_.erase(id);
    if (entry) tellGone(*entry, why, reason);
}

// "started ID TABLE PLACES": the places of the offer's people in seat order (for a Lasca
// table, White's first); each instance tells its own tabs their seats.
void LobbyRoom::started(const std::string& id, const std::string& table,
                        const std::string& places) {
    const auto entry = entryOf(id);
    if (!entry) return;
    std::vector<int> order;
    std::istringstream list(places);
    for (std::string place; std::getline(list, place, ',');)
        order.push_back(std::atoi(place.c_str()));
    const std::string& kind = entry->row.kind;
    // A challenge's people see it answered before their seats.
    if (kind == "challenge") tellGone(*entry, "started", "");
    if (const auto mine = mine_.find(id); mine != mine_.end()) {
        for (const auto& seat : mine->second.seats) {
            const auto at = std::find(order.begin(), order.end(), seat.place);
            if (at == order.end()) continue;
            const auto index = static_cast<std::size_t>(at - order.begin());
            Json start = {{"type", "lobby.start"}, {"table", table}, {"token", seat.token}};
            if (kind == "torneio") {
                start["game"] = "torneio";
                start["seat"] = index + 1;
                start["url"] = "/torneio?table=" + table + "&token=" + seat.token;
            } else {
                start["game"] = "lasca";
                start["colour"] = index == 0 ? "white" : "black";
                start["url"] = "/?table=" + table + "&token=" + seat.token;
            }
            sendTo(seat.tab, {start});
        }
    }
    mine_.erase(id);
    // The others see it leave the lists it was in here.
    if (offers_.erase(id) > 0 && kind != "challenge") tellGone(*entry, "started", "");
}

void LobbyRoom::gameListed(const std::string& table) {
    const auto row = store_.lobbyGame(table);
    if (!row || !row.value()) return;
    Json game = Json::parse(row.value()->game, nullptr, false);
    if (game.is_discarded()) return;
    games_[table] = game;
    sendToAll({{"type", "lobby.game"}, {"game", game}});
}

void LobbyRoom::gameUnlisted(const std::string& table) {
    if (games_.erase(table) == 0) return;
    sendToAll({{"type", "lobby.gameGone"}, {"table", table}});
}

void LobbyRoom::reload() {
    const auto rows = store_.seeks();
    const auto games = store_.lobbyGames();
    if (!rows || !games) {
        common::logger().error("web: reading the lobby: {}", !rows ? rows.error() : games.error());
        return;
    }
    std::set<std::string> ids;
    for (const auto& row : rows.value()) ids.insert(row.id);
    // An offer gone from the store leaves the tabs' lists; this instance's seats at it stay
    // until their tabs close, since a "started" for it may still come.
    std::vector<std::string> gone;
    for (const auto& [id, entry] : offers_)
        if (!ids.contains(id)) gone.push_back(id);
    for (const auto& id : gone) {
        const Entry entry = std::move(offers_.at(id));
        offers_.erase(id);
        tellGone(entry, "left", "");
    }
    for (const auto& row : rows.value()) keepEntry(row);
    std::set<std::string> tables;
    for (const auto& game : games.value()) tables.insert(game.table);
    std::vector<std::string> unlisted;
    for (const auto& [table, game] : games_)
        if (!tables.contains(table)) unlisted.push_back(table);
    for (const auto& table : unlisted) gameUnlisted(table);
    for (const auto& game : games.value())
        if (!games_.contains(game.table)) gameListed(game.table);
}

void LobbyRoom::dropLost() {
    const auto dropped = store_.dropLostLobbies();
    if (!dropped) common::logger().error("web: dropping lost offers: {}", dropped.error());
    if (dropped && dropped.value()) publish("reload");
}

}  // namespace web::server
