#include "lobby_room.h"

#include <algorithm>
#include <cmath>

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
                     std::shared_ptr<DuelRoom> duels, TorneioMaker makeTorneio, int torneioLevels)
    : store_(store),
      duels_(std::move(duels)),
      makeTorneio_(std::move(makeTorneio)),
      torneioLevels_(torneioLevels),
      peopleTimer_(std::move(executor)) {
    if (const auto cleared = store_.clearSeeks(); !cleared)
        common::logger().error("web: emptying the seeks failed: {}", cleared.error());
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
        if (self->tabs_.size() == self->peopleTold_) return;
        self->peopleTold_ = self->tabs_.size();
        self->sendToAll({{"type", "lobby.people"}, {"people", self->peopleTold_}});
    });
}

std::string LobbyRoom::nameOf(std::uint64_t tab) const {
    const auto it = tabs_.find(tab);
    return it != tabs_.end() && it->second.person ? it->second.person->name : std::string();
}

Json LobbyRoom::seekJson(const Seek& seek, std::uint64_t viewer) const {
    Json j = lobby::seekJson(seek.params);
    j["id"] = seek.id;
    const auto it = tabs_.find(seek.maker);
    const bool account = it != tabs_.end() && it->second.person;
    j["maker"] = account ? Json(it->second.person->name) : Json(nullptr);
    if (account)
        j["makerRating"] = ratingJson(it->second.viewer.ratingIn(lobby::category(seek.params)));
    j["mine"] = seek.maker == viewer;
    return j;
}

Json LobbyRoom::offerJson(const Offer& offer, std::uint64_t viewer) const {
    Json j = lobby::torneioJson(offer.params);
    j["id"] = offer.id;
    Json people = Json::array();
    bool seated = false;
    for (const auto& s : offer.sitters) {
        people.push_back(s.person ? Json(s.person->name) : Json(nullptr));
        seated = seated || s.tab == viewer;
    }
    j["sitting"] = people;
    j["free"] = offer.params.people - static_cast<int>(offer.sitters.size());
    j["mine"] = !offer.sitters.empty() && offer.sitters.front().tab == viewer;
    j["seated"] = seated;
    return j;
}

Json LobbyRoom::challengeJson(const Challenge& challenge, std::uint64_t viewer) const {
    Json j = lobby::seekJson(challenge.params);
    j["id"] = challenge.id;
    j["from"] = challenge.challenger.name;
    j["to"] = challenge.challenged.name;
    j["mine"] = challenge.from == viewer;
    return j;
}

Json LobbyRoom::gameJson(const Game& game) {
    if (game.torneio) {
        Json j = lobby::torneioJson(game.torneioParams);
        j["kind"] = "torneio";
        j["table"] = game.table;
        j["seats"] = game.seats;
        j["watch"] = "/torneio?watch=" + game.table;
        return j;
    }
    Json j = lobby::seekJson(game.params);
    j["kind"] = "lasca";
    j["table"] = game.table;
    j["white"] = game.white.empty() ? Json(nullptr) : Json(game.white);
    j["black"] = game.black.empty() ? Json(nullptr) : Json(game.black);
    j["watch"] = "/?table=" + game.table + "&token=" + game.watch;
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
    Json seeks = Json::array();
    for (const auto& seek : seeks_)
        if (seek.maker == tab || lobby::maySee(seek.params, me.viewer))
            seeks.push_back(seekJson(seek, tab));
    Json offers = Json::array();
    for (const auto& [id, offer] : offers_)
        if (lobby::maySit(offer.params, me.viewer)) offers.push_back(offerJson(offer, tab));
    Json challenges = Json::array();
    for (const auto& [id, c] : challenges_)
        if (me.person && (c.challenged.id == me.person->id || c.from == tab))
            challenges.push_back(challengeJson(c, tab));
    Json games = Json::array();
    for (const auto& [id, game] : games_) games.push_back(gameJson(game));
    Json reasons = Json::array();
    for (const auto& r : lobby::kDeclineReasons) {
        Json reason = {{"reason", r.key}};
        reason.update(messages::said(declineSay(r.key)));
        reasons.push_back(std::move(reason));
    }
    return {{"type", "lobby.hello"},    {"you", you},
            {"seeks", seeks},           {"offers", offers},
            {"challenges", challenges}, {"games", games},
            {"people", tabs_.size()},   {"reasons", reasons}};
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
void LobbyRoom::sendSeek(const Seek& seek) const {
    const auto others = std::make_shared<const std::string>(
        Json{{"type", "lobby.seek"}, {"seek", seekJson(seek, 0)}}.dump());
    for (const auto& [number, member] : tabs_) {
        const auto t = member.tab.lock();
        if (!t) continue;
        if (number == seek.maker)
            t->send({{{"type", "lobby.seek"}, {"seek", seekJson(seek, number)}}});
        else if (lobby::maySee(seek.params, member.viewer))
            t->sendText(others);
    }
}

// Like sendSeek: the people sitting at the table get their own copy, the others one text.
void LobbyRoom::sendOffer(const Offer& offer) const {
    const auto others = std::make_shared<const std::string>(
        Json{{"type", "lobby.offer"}, {"offer", offerJson(offer, 0)}}.dump());
    for (const auto& [number, member] : tabs_) {
        const auto t = member.tab.lock();
        if (!t || !lobby::maySit(offer.params, member.viewer)) continue;
        const bool sits = std::any_of(offer.sitters.begin(), offer.sitters.end(),
                                      [&](const Sitter& s) { return s.tab == number; });
        if (sits)
            t->send({{{"type", "lobby.offer"}, {"offer", offerJson(offer, number)}}});
        else
            t->sendText(others);
    }
}

int LobbyRoom::offersFrom(const std::string& address) const {
    int n = 0;
    for (const auto& seek : seeks_) {
        const auto it = tabs_.find(seek.maker);
        n += it != tabs_.end() && it->second.address == address ? 1 : 0;
    }
    for (const auto& [id, offer] : offers_) {
        const auto it = tabs_.find(offer.sitters.front().tab);
        n += it != tabs_.end() && it->second.address == address ? 1 : 0;
    }
    return n;
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

// {"type":"seek.create","clock":null|{"time","increment"},"rated":b,"range":null|[lo,hi]}
std::optional<Say> LobbyRoom::createSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"clock", "rated", "range"})) return refused(*e);
    const auto params = lobby::readSeek(m);
    if (!params) return refused(params.error());
    const Member& me = tabs_.at(tab);
    if ((params.value().rated || params.value().range) && !me.person)
        return Say{"server.lobby.signInToSeek"};
    const auto mine =
        std::count_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.maker == tab; });
    if (mine >= kMaxSeeksPerTab) return Say{"server.lobby.seekLimit", {{"count", kMaxSeeksPerTab}}};
    if (offersFrom(me.address) >= kMaxOffersPerAddress)
        return Say{"server.lobby.addressLimit", {{"count", kMaxOffersPerAddress}}};
    if (offerCount() >= kMaxOffers) return Say{"server.lobby.full"};
    Seek seek{common::randomHex(8), tab, params.value()};
    store::StoredSeek kept{seek.id,
                           "lasca",
                           me.person ? me.person->id : 0,
                           me.person ? me.person->name : "",
                           lobby::seekJson(seek.params).dump(),
                           nowMilliseconds()};
    if (const auto saved = store_.addSeek(kept); !saved) {
        common::logger().error("web: keeping a seek failed: {}", saved.error());
        return Say{"server.lobby.notKept"};
    }
    seeks_.push_back(seek);
    sendSeek(seeks_.back());
    return std::nullopt;
}

void LobbyRoom::removeSeek(std::string id) {  // a copy: the seek holding it goes
    std::erase_if(seeks_, [&](const Seek& s) { return s.id == id; });
    sendToAll({{"type", "lobby.seekGone"}, {"seek", id}});
}

std::optional<Say> LobbyRoom::cancelSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"seek"})) return refused(*e);
    const auto id = stringField(m, "seek", 64);
    if (!id) return refused(id.error());
    const auto it = std::find_if(seeks_.begin(), seeks_.end(),
                                 [&](const Seek& s) { return s.id == id.value(); });
    if (it == seeks_.end() || it->maker != tab) return Say{"server.lobby.notYourSeek"};
    (void)store_.takeSeek(id.value());
    removeSeek(id.value());
    return std::nullopt;
}

std::optional<Say> LobbyRoom::acceptSeek(std::uint64_t tab, const Json& m) {
    if (auto e = checkFields(m, {"seek"})) return refused(*e);
    const auto id = stringField(m, "seek", 64);
    if (!id) return refused(id.error());
    const auto it = std::find_if(seeks_.begin(), seeks_.end(),
                                 [&](const Seek& s) { return s.id == id.value(); });
    if (it == seeks_.end()) return Say{"server.lobby.seekGone"};
    const Member& me = tabs_.at(tab);
    if (it->maker == tab) return Say{"server.lobby.ownSeek"};
    const auto maker = tabs_.find(it->maker);
    if (maker == tabs_.end()) return Say{"server.lobby.seekGone"};
    if (me.person && maker->second.person && me.person->id == maker->second.person->id)
        return Say{"server.lobby.ownSeek"};
    if (!lobby::maySee(it->params, me.viewer))
        return me.person ? Say{"server.lobby.outsideRange"} : Say{"server.lobby.signInToAccept"};
    // The store decides who took it: of two accepting at once, one removes the row.
    const auto taken = store_.takeSeek(id.value());
    if (!taken) {
        common::logger().error("web: taking a seek failed: {}", taken.error());
        return Say{"server.lobby.seekGone"};
    }
    if (!taken.value()) return Say{"server.lobby.seekGone"};
    // The two players are told first; then everyone that the seek went.
    const Seek seek = *it;
    seeks_.erase(it);
    const auto started = startDuel(seek.maker, tab, seek.params);
    sendToAll({{"type", "lobby.seekGone"}, {"seek", seek.id}});
    return started;
}

std::optional<Say> LobbyRoom::startDuel(std::uint64_t maker, std::uint64_t taker,
                                        const lobby::SeekParams& params) {
    const auto makerIt = tabs_.find(maker);
    const auto takerIt = tabs_.find(taker);
    if (makerIt == tabs_.end() || takerIt == tabs_.end()) return Say{"server.lobby.otherLeft"};
    const bool makerWhite = lobby::makerPlaysWhite();
    const auto& white = makerWhite ? makerIt->second : takerIt->second;
    const auto& black = makerWhite ? takerIt->second : makerIt->second;
    const auto made =
        duels_->createPublic(duelClock(params), params.rated, white.person, black.person);
    if (!made) {
        common::logger().error("web: a lobby game was not made: {}", made.error());
        return Say{"server.lobby.gameNotMade"};
    }
    const auto& table = made.value();
    Game game{table.id,
              white.person ? white.person->name : "",
              black.person ? black.person->name : "",
              params,
              table.tokens[2],
              false,
              Json::array(),
              {}};
    const auto start = [&](std::uint64_t tab, bool asWhite) {
        const std::string token = table.tokens[asWhite ? 0 : 1];
        sendTo(tab, {{{"type", "lobby.start"},
                      {"game", "lasca"},
                      {"table", table.id},
                      {"token", token},
                      {"colour", asWhite ? "white" : "black"},
                      {"url", "/?table=" + table.id + "&token=" + token}}});
    };
    start(maker, makerWhite);
    start(taker, !makerWhite);
    if (games_.size() < kMaxGamesListed) {
        games_[table.id] = game;
        sendToAll({{"type", "lobby.game"}, {"game", gameJson(game)}});
    }
    return std::nullopt;
}

void LobbyRoom::gameEnded(const std::string& tableId) {
    if (games_.erase(tableId) == 0) return;
    sendToAll({{"type", "lobby.gameGone"}, {"table", tableId}});
}

// {"type":"challenge.create","to":NAME,"clock":...,"rated":b}: to a signed-in person whose
// lobby is open.
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
    const auto mine = std::count_if(challenges_.begin(), challenges_.end(),
                                    [&](const auto& c) { return c.second.from == tab; });
    if (mine >= kMaxChallengesPerTab)
        return Say{"server.lobby.challengeLimit", {{"count", kMaxChallengesPerTab}}};
    std::optional<Person> challenged;
    // Names are matched by their key (web/accounts: the lower-case form), as the accounts are.
    if (const auto key = accounts::nameKey(to.value()))
        for (const auto& [number, member] : tabs_) {
            if (!member.person) continue;
            const auto theirs = accounts::nameKey(member.person->name);
            if (theirs && theirs.value() == key.value()) challenged = member.person;
        }
    if (!challenged)
        return Say{"server.lobby.notInLobby", {{"name", common::printable(to.value())}}};
    if (challenged->id == me.person->id) return Say{"server.lobby.challengeSelf"};
    Challenge challenge{common::randomHex(8), tab, *me.person, *challenged, params.value()};
    const auto& kept = challenges_.emplace(challenge.id, challenge).first->second;
    for (const auto& [number, member] : tabs_)
        if (number == tab || (member.person && member.person->id == challenged->id))
            sendTo(number,
                   {{{"type", "lobby.challenge"}, {"challenge", challengeJson(kept, number)}}});
    return std::nullopt;
}

// Tells both sides' tabs the challenge is gone; the challenger's with `toChallenger`'s fields.
void LobbyRoom::removeChallenge(std::string id, const Json& toChallenger) {
    const auto it = challenges_.find(id);
    if (it == challenges_.end()) return;
    const Challenge c = it->second;
    challenges_.erase(it);
    for (const auto& [number, member] : tabs_) {
        if (number == c.from) {
            Json gone = {{"type", "lobby.challengeGone"}, {"challenge", id}};
            gone.update(toChallenger);
            sendTo(number, {gone});
        } else if (member.person && member.person->id == c.challenged.id) {
            sendTo(number, {{{"type", "lobby.challengeGone"}, {"challenge", id}}});
        }
    }
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
    const auto it = challenges_.find(id.value());
    const Member& me = tabs_.at(tab);
    if (it == challenges_.end()) return Say{"server.lobby.challengeGone"};
    const Challenge c = it->second;
    if (type == "challenge.cancel") {
        if (c.from != tab) return Say{"server.lobby.notYourChallenge"};
        removeChallenge(c.id, Json::object({{"reason", "cancelled"}}));
        return std::nullopt;
    }
    if (!me.person || me.person->id != c.challenged.id)
        return Say{"server.lobby.challengeNotYours"};
    if (decline) {
        std::string key = "generic";
        if (m.contains("reason")) {
            const auto reason = stringField(m, "reason", 32);
            if (!reason) return refused(reason.error());
            key = reason.value();
        }
        const auto* reason = lobby::declineReason(key);
        if (!reason) return refused("unknown reason '" + common::printable(key) + "'");
        Json declined = {{"declined", true}, {"by", c.challenged.name}, {"reason", reason->key}};
        declined.update(messages::said(declineSay(reason->key)));
        removeChallenge(c.id, declined);
        return std::nullopt;
    }
    removeChallenge(c.id, {{"accepted", true}, {"by", c.challenged.name}});
    return startDuel(c.from, tab, c.params);
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
    for (const auto& [id, offer] : offers_)
        if (offer.sitters.front().tab == tab) return Say{"server.lobby.offerOpen"};
    if (offersFrom(me.address) >= kMaxOffersPerAddress)
        return Say{"server.lobby.addressLimit", {{"count", kMaxOffersPerAddress}}};
    if (offerCount() >= kMaxOffers) return Say{"server.lobby.full"};
    Offer offer{common::randomHex(8), params.value(), {{tab, me.person}}};
    store::StoredSeek kept{offer.id,
                           "torneio",
                           me.person ? me.person->id : 0,
                           me.person ? me.person->name : "",
                           lobby::torneioJson(offer.params).dump(),
                           nowMilliseconds()};
    if (const auto saved = store_.addSeek(kept); !saved) {
        common::logger().error("web: keeping a Torneio offer failed: {}", saved.error());
        return Say{"server.lobby.notKept"};
    }
    const auto& added = offers_.emplace(offer.id, offer).first->second;
    sendOffer(added);
    return std::nullopt;
}

void LobbyRoom::removeOffer(std::string id) {  // a copy: the offer holding it goes
    offers_.erase(id);
    (void)store_.takeSeek(id);
    sendToAll({{"type", "lobby.offerGone"}, {"offer", id}});
}

// torneio.sit / torneio.stand {"offer":ID}: the maker standing up withdraws the offer; the last
// person to sit starts the table.
std::optional<Say> LobbyRoom::sit(std::uint64_t tab, const Json& m, bool sitting) {
    if (auto e = checkFields(m, {"offer"})) return refused(*e);
    const auto id = stringField(m, "offer", 64);
    if (!id) return refused(id.error());
    const auto it = offers_.find(id.value());
    if (it == offers_.end()) return Say{"server.lobby.offerGone"};
    Offer& offer = it->second;
    const Member& me = tabs_.at(tab);
    const auto seated = std::find_if(offer.sitters.begin(), offer.sitters.end(),
                                     [&](const Sitter& s) { return s.tab == tab; });
    if (!sitting) {
        if (seated == offer.sitters.end()) return Say{"server.lobby.notSitting"};
        if (seated == offer.sitters.begin()) {
            removeOffer(offer.id);
            return std::nullopt;
        }
        offer.sitters.erase(seated);
    } else {
        if (seated != offer.sitters.end()) return Say{"server.lobby.sitting"};
        if (!lobby::maySit(offer.params, me.viewer)) return Say{"server.lobby.signInToSit"};
        if (me.person)
            for (const auto& s : offer.sitters)
                if (s.person && s.person->id == me.person->id)
                    return Say{"server.lobby.sittingElsewhere"};
        offer.sitters.push_back({tab, me.person});
        if (static_cast<int>(offer.sitters.size()) == offer.params.people)
            return startTorneio(offer.id);
    }
    sendOffer(offer);
    return std::nullopt;
}

std::optional<Say> LobbyRoom::startTorneio(const std::string& offerId) {
    const Offer offer = offers_.at(offerId);
    std::vector<torneio_tables::TorneioSeatChoice> seats;
    std::vector<std::optional<Person>> persons;
    for (const auto& s : offer.sitters) {
        seats.push_back({"person", 0});
        persons.push_back(s.person);
    }
    for (int i = offer.params.people; i < offer.params.seats; ++i)
        seats.push_back({"ai", offer.params.level});
    const auto makerIt = tabs_.find(offer.sitters.front().tab);
    const std::string address = makerIt == tabs_.end() ? "" : makerIt->second.address;
    const auto made =
        makeTorneio_
            ? makeTorneio_(seats, offer.params.rounds, persons, offer.params.rated, address)
            : common::Result<MadeTorneioTable>(common::makeError("no Torneio room"));
    // The people at the table are told first; then everyone that the offer went.
    offers_.erase(offer.id);
    (void)store_.takeSeek(offer.id);
    const Json gone = {{"type", "lobby.offerGone"}, {"offer", offer.id}};
    if (!made) {
        common::logger().error("web: a Torneio table was not made: {}", made.error());
        sendToAll(gone);
        for (const auto& s : offer.sitters)
            sendTo(s.tab, {errorMessage(Say{"server.lobby.torneioNotMade"})});
        return std::nullopt;
    }
    // Listed to watch: each seat's kind and its person's name (null for a guest).
    Game game;
    game.table = made.value().id;
    game.torneio = true;
    game.torneioParams = offer.params;
    for (std::size_t i = 0; i < seats.size(); ++i) {
        Json seat = {{"seat", i + 1}, {"kind", seats[i].kind}};
        if (seats[i].kind == "ai") seat["level"] = seats[i].level;
        if (i < persons.size())
            seat["player"] = persons[i] ? Json(persons[i]->name) : Json(nullptr);
        game.seats.push_back(seat);
    }
    for (std::size_t i = 0; i < offer.sitters.size(); ++i) {
        const std::string& token = made.value().tokens.at(i);
        sendTo(offer.sitters[i].tab,
               {{{"type", "lobby.start"},
                 {"game", "torneio"},
                 {"table", made.value().id},
                 {"token", token},
                 {"seat", i + 1},
                 {"url", "/torneio?table=" + made.value().id + "&token=" + token}}});
    }
    sendToAll(gone);
    if (games_.size() < kMaxGamesListed) {
        games_[game.table] = game;
        sendToAll({{"type", "lobby.game"}, {"game", gameJson(game)}});
    }
    return std::nullopt;
}

// A tab closed: what it offered goes, it stands up from the tables it sat at, and the
// challenges it sent go.
void LobbyRoom::leave(std::uint64_t tab) {
    const auto me = tabs_.find(tab);
    if (me == tabs_.end()) return;
    tabs_.erase(me);
    peopleChanged();
    std::vector<std::string> seeks;
    for (const auto& s : seeks_)
        if (s.maker == tab) seeks.push_back(s.id);
    for (const auto& id : seeks) {
        (void)store_.takeSeek(id);
        removeSeek(id);
    }
    std::vector<std::string> offers;
    for (auto& [id, offer] : offers_) {
        if (offer.sitters.front().tab == tab) {
            offers.push_back(id);
        } else if (std::erase_if(offer.sitters, [&](const Sitter& s) { return s.tab == tab; })) {
            sendOffer(offer);
        }
    }
    for (const auto& id : offers) removeOffer(id);
    std::vector<std::string> challenges;
    for (const auto& [id, c] : challenges_) {
        // The challenged's last lobby tab closing withdraws a challenge too.
        bool challengedHere = false;
        for (const auto& [number, member] : tabs_)
            challengedHere =
                challengedHere || (member.person && member.person->id == c.challenged.id);
        if (c.from == tab || !challengedHere) challenges.push_back(id);
    }
    for (const auto& id : challenges) removeChallenge(id, Json::object({{"reason", "left"}}));
}

}  // namespace web::server
