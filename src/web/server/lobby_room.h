// The lobby (/lobby, WebSocket /ws/lobby): where people who do not know each other meet. Each
// tab of the lobby sees, live, the open seeks it may accept (web/lobby/lobby.h: a guest only the
// casual ones without a rating range), the Torneio offers gathering people, the challenges sent
// to its account, and the running public games with their watch links. Accepting a seek (or a
// challenge) makes a public two-person table through the DuelRoom and sends both tabs, at once,
// `lobby.start` with their seat's link; a Torneio offer becomes a table through the TorneioRoom
// when its last person sits, every person told the same way, and is listed to watch (by its
// table id: a public Torneio table shows anyone its public events, torneio_room.h).
//
// An offer lasts as long as its maker's tab: when the tab closes, its seeks, its Torneio offers,
// its seat at others' offers and the challenges it sent go, and every tab is told. Seeks are kept
// in the store (Store::addSeek; taken with Store::takeSeek, so that of two tabs accepting one seek
// at once one gets the table and the other is told the seek is gone); the store's seeks are
// emptied when the server starts.
//
// Limits: kMaxSeeksPerTab seeks and one Torneio offer per tab, kMaxOffersPerAddress offers of
// every kind from one address, kMaxChallengesPerTab challenges waiting, kMaxOffers in all, and
// offers made by one tab at most kOfferBurst at once, then one each 5 s.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange
#include <vector>

#include <boost/asio.hpp>

#include "duel_room.h"
#include "room.h"
#include "web/lobby/lobby.h"
#include "web/server/server.h"
#include "web/store/store.h"
#include "web/torneio_tables/torneio_table.h"

namespace web::server {

class LobbyTab;

// TorneioMaker: makes a Torneio table for a full offer: the seats (person seats first, in the
// order people sat), rounds, each person seat's account (nothing for a guest), rated, and the
// maker's address; the table's id and each seat's token ("" for an AI seat).
struct MadeTorneioTable {
    std::string id;
    std::vector<std::string> tokens;
};
using TorneioMaker = std::function<common::Result<MadeTorneioTable>(
    const std::vector<torneio_tables::TorneioSeatChoice>& seats, int rounds,
    const std::vector<std::optional<Person>>& persons, bool rated, const std::string& address)>;

// LobbyRoom
//   tabs_       every lobby tab by its number, with what it is (a guest or an account, its
//               ratings as read when it opened)
//   seeks_      open Lasca seeks by id, in the order made
//   offers_     open Torneio offers by id: the people sitting, the maker first
//   challenges_ challenges waiting for an answer, by id
//   games_      the public two-person tables the lobby started that still run, by table id
//   peopleTimer_, peopleTold_   the next time the tabs may be told the count, and the count told
class LobbyRoom : public Room, public std::enable_shared_from_this<LobbyRoom> {
  public:
    static constexpr int kMaxSeeksPerTab = 3;
    static constexpr int kMaxChallengesPerTab = 3;
    static constexpr int kMaxOffersPerAddress = 20;
    static constexpr std::size_t kMaxOffers = 1000;
    static constexpr std::size_t kMaxGamesListed = 100;
    // Offers made by one tab (seeks, Torneio tables, challenges): kOfferBurst at once, then one
    // each 1 / kOffersPerSecond seconds; each is broadcast to every tab, so that one tab making
    // and cancelling offers costs the others little.
    static constexpr double kOfferBurst = 10;
    static constexpr double kOffersPerSecond = 0.2;

    // How often, at most, the tabs are told how many are in the lobby.
    static constexpr std::chrono::seconds kPeopleEvery{5};

    LobbyRoom(boost::asio::any_io_executor executor, store::Store& store,
              std::shared_ptr<DuelRoom> duels, TorneioMaker makeTorneio, int torneioLevels);
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;
    // A public table the lobby started (two-person or Torneio) has ended, or is no longer
    // running on the server: it leaves the list of games to watch.
    void gameEnded(const std::string& tableId);
    // How many tabs the lobby has (for tests and /health).
    std::size_t people() const { return tabs_.size(); }
    // Stops the timer of the people count (the server stops).
    void stop() { peopleTimer_.cancel(); }

  private:
    friend class LobbyTab;
    struct Member {
        std::weak_ptr<LobbyTab> tab;
        std::optional<Person> person;
        lobby::Viewer viewer;
        std::string address;
        RateLimiter offers{kOffersPerSecond, kOfferBurst};
    };
    struct Seek {
        std::string id;
        std::uint64_t maker = 0;
        lobby::SeekParams params;
    };
    struct Sitter {
        std::uint64_t tab = 0;
        std::optional<Person> person;
    };
    struct Offer {
        std::string id;
        lobby::TorneioParams params;
        std::vector<Sitter> sitters;  // the maker first
    };
    struct Challenge {
        std::string id;
        std::uint64_t from = 0;
        Person challenger;
        Person challenged;
        lobby::SeekParams params;
    };
    // A running public game: a two-person Lasca table (white, black, params, its watch token)
    // or a Torneio table (its seats as torneio.json's "seats" list, its offer's params; watched
    // by the table's id, /torneio?watch=<id>).
    struct Game {
        std::string table;
        std::string white;
        std::string black;
        lobby::SeekParams params;
        std::string watch;
        bool torneio = false;
        Json seats = Json::array();
        lobby::TorneioParams torneioParams;
    };

    std::vector<Json> handle(std::uint64_t tab, const Json& m, const std::string& type);
    void leave(std::uint64_t tab);
    std::optional<messages::Say> createSeek(std::uint64_t tab, const Json& m);
    std::optional<messages::Say> cancelSeek(std::uint64_t tab, const Json& m);
    std::optional<messages::Say> acceptSeek(std::uint64_t tab, const Json& m);
    std::optional<messages::Say> createChallenge(std::uint64_t tab, const Json& m);
    std::optional<messages::Say> answerChallenge(std::uint64_t tab, const Json& m,
                                                 const std::string& type);
    std::optional<messages::Say> openOffer(std::uint64_t tab, const Json& m);
    std::optional<messages::Say> sit(std::uint64_t tab, const Json& m, bool sitting);
    // Starts a two-person table between the maker of an offer and the one who took it.
    std::optional<messages::Say> startDuel(std::uint64_t maker, std::uint64_t taker,
                                           const lobby::SeekParams& params);
    std::optional<messages::Say> startTorneio(const std::string& offerId);
    void removeSeek(std::string id);
    void removeOffer(std::string id);
    void removeChallenge(std::string id, const Json& toChallenger);

    Json hello(std::uint64_t tab) const;
    Json seekJson(const Seek& seek, std::uint64_t viewer) const;
    Json offerJson(const Offer& offer, std::uint64_t viewer) const;
    Json challengeJson(const Challenge& challenge, std::uint64_t viewer) const;
    static Json gameJson(const Game& game);
    std::string nameOf(std::uint64_t tab) const;
    int offersFrom(const std::string& address) const;
    std::size_t offerCount() const { return seeks_.size() + offers_.size(); }
    void sendTo(std::uint64_t tab, const std::vector<Json>& messages) const;
    void sendToAll(const Json& message) const;
    // A seek's news goes to the tabs that may see it (and its maker's).
    void sendSeek(const Seek& seek) const;
    // An offer's news goes to the tabs that may sit at it.
    void sendOffer(const Offer& offer) const;
    // Tells every tab how many are in the lobby when it changed since last told: at most once
    // every kPeopleEvery, so that people coming and going cost each tab a message per period,
    // not one per arrival.
    void peopleChanged();

    store::Store& store_;
    std::shared_ptr<DuelRoom> duels_;
    TorneioMaker makeTorneio_;
    int torneioLevels_;
    std::uint64_t nextTab_ = 1;
    std::map<std::uint64_t, Member> tabs_;
    std::vector<Seek> seeks_;
    std::map<std::string, Offer> offers_;
    std::map<std::string, Challenge> challenges_;
    std::map<std::string, Game> games_;
    boost::asio::steady_timer peopleTimer_;
    bool peopleTimerSet_ = false;
    std::size_t peopleTold_ = 0;
};

}  // namespace web::server
