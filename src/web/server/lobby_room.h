// The lobby (/lobby, WebSocket /ws/lobby): where people who do not know each other meet. Each
// tab of the lobby sees, live, the open seeks it may accept (web/lobby/lobby.h: a guest only the
// casual ones without a rating range), the Torneio offers gathering people, the challenges sent
// to its account, and the running public games with their watch links. Accepting a seek (or a
// challenge) makes a public two-person table through the DuelRoom and sends both tabs, at once,
// `lobby.start` with their seat's link; a Torneio offer becomes a table through the TorneioRoom
// when its last person sits, every person told the same way, and is listed to watch (by its
// table id: a public Torneio table shows anyone its public events, torneio_room.h).
//
// The lobby lives in the store, so that every instance on one database shows the same one
// (Store: seeks, lobby_sitters, lobby_people, lobby_games). Each instance's room holds only its
// own tabs and a copy of the store's offers and games. A change is written to the store, then
// published as an event naming ids only ("offer ID", "gone ID WHY [REASON]", "started ID TABLE
// PLACES", "game TABLE", "ended TABLE", "reload"; protocol.md "Several instances"): with several
// instances on the bus (LISTEN/NOTIFY, channel lasca_lobby), every instance, this one too, hears
// it and reads the rows again; alone, the room hears it at once. No seat token crosses: each
// person's instance makes that person's seat token when the person makes an offer, sits at one
// or accepts one, keeps it for the tab, and stores only its hash, which the table made from
// the offer gives the seat; the instance that makes the table publishes "started" with the
// places in seat order, and each instance tells its own tabs their seats. Of two accepting one
// seek at once, the one whose DELETE removes its row makes the table (Store::takeSeek); seats
// at a Torneio offer are taken in one transaction (Store::sitDown).
//
// An offer lasts as long as its maker's tab: when the tab closes, its seeks, its Torneio offers,
// its seat at others' offers and the challenges it sent go, and every tab is told; so do a
// challenged person's challenges when the person's last lobby tab anywhere closes. What the tabs
// of an instance that stopped renewing its leases had in the lobby is dropped by the others
// (dropLost); an instance starting empties what its own earlier life had there.
//
// Limits: kMaxSeeksPerTab seeks and one Torneio offer per tab, kMaxOffersPerAddress offers of
// every kind from one address (every instance's counted), kMaxChallengesPerTab challenges
// waiting, kMaxOffers in all, and offers made by one tab at most kOfferBurst at once, then one
// each 5 s.
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
// order people sat), rounds, each person seat's account (nothing for a guest), rated, the
// maker's address and each person seat's token hash (made by the person's instance); the
// table's id and each seat's token ("" for an AI seat and a seat given its hash).
struct MadeTorneioTable {
    std::string id;
    std::vector<std::string> tokens;
};
using TorneioMaker = std::function<common::Result<MadeTorneioTable>(
    const std::vector<torneio_tables::TorneioSeatChoice>& seats, int rounds,
    const std::vector<std::optional<Person>>& persons, bool rated, const std::string& address,
    const std::vector<std::string>& tokenHashes)>;

// LobbyRoom
//   tabs_       this instance's lobby tabs by number, with what each is (a guest or an account,
//               its ratings as read when it opened)
//   offers_     every open offer (seeks, Torneio offers, challenges) by id, as the store last
//               gave it
//   mine_       the offers this instance's tabs made or sit at, with their seats' tokens
//   games_      the public games listed to watch, by table id (the lobby's JSON of each)
//   publish_    sends an event on the bus; false when there is none (one server: heard here)
//   peopleTimer_, peopleTold_   the next time the tabs may be told the count, and the count told
//   elsewhere_  the other instances' lobby tabs when last counted
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

    // publish: sends an event to every instance's lobby (this one's too) and says whether it
    // went; none, or false: the event is heard here at once.
    using Publish = std::function<bool(const std::string& event)>;
    LobbyRoom(boost::asio::any_io_executor executor, store::Store& store,
              std::shared_ptr<DuelRoom> duels, TorneioMaker makeTorneio, int torneioLevels,
              Publish publish = {});
    std::shared_ptr<Tab> open(const std::shared_ptr<Peer>& peer) override;
    // A public table the lobby started (two-person or Torneio) has ended, or is no longer
    // running on the server: it leaves the list of games to watch, on every instance.
    void gameEnded(const std::string& tableId);
    // An event of the lobby (this instance's or another's, from the bus).
    void heard(const std::string& event);
    // The offers and games read again from the store, the tabs told what changed (the bus's
    // link came back after events may have been missed).
    void reload();
    // What the tabs of instances that stopped renewing had in the lobby leaves it (called with
    // each renewal of this instance's leases).
    void dropLost();
    // How many tabs the lobby has here (for tests and /health).
    std::size_t people() const { return tabs_.size(); }
    // How many tabs the lobby has on every instance: this instance's count kept in the store and
    // every living instance's added (alone: this one's). The people timer's work, every
    // kPeopleEvery with several instances.
    std::size_t countPeople();
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
    // An open offer as the store keeps it, with its parameters read: `seek` for a seek or a
    // challenge, `torneio` for a Torneio offer.
    struct Entry {
        store::StoredSeek row;
        lobby::SeekParams seek;
        lobby::TorneioParams torneio;
    };
    // A seat this instance's tab holds at an offer: the maker's (place 1) or a sitter's, its
    // token (the table made from the offer gives the seat its hash).
    struct MySeat {
        std::uint64_t tab = 0;
        int place = 0;
        std::string token;
    };
    struct Mine {
        store::StoredSeek row;
        std::vector<MySeat> seats;
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
    // Keeps a new offer made by `tab` (its maker's seat and token kept here) and publishes it.
    std::optional<messages::Say> keep(std::uint64_t tab, store::StoredSeek row,
                                      const std::string& token);
    // Starts a two-person table between the maker of a taken seek or challenge and `taker`.
    std::optional<messages::Say> startDuel(const store::StoredSeek& taken, std::uint64_t taker,
                                           const lobby::SeekParams& params);
    // Starts the Torneio table of a full offer (taken from the store here).
    std::optional<messages::Say> startTorneio(const std::string& offerId);
    // Takes an offer from the store and, when this call took it, publishes why it went.
    void withdraw(const std::string& id, const std::string& why);
    void publish(const std::string& event);

    // What the events do here.
    void offerChanged(const std::string& id);
    void offerGone(const std::string& id, const std::string& why, const std::string& reason);
    void started(const std::string& id, const std::string& table, const std::string& places);
    void gameListed(const std::string& table);
    void gameUnlisted(const std::string& table);
    // Keeps the store's row of an offer here and tells the tabs (nothing when unchanged).
    void keepEntry(const store::StoredSeek& row);
    // An offer as this instance knows it: its copy of the store's row, else the row its own
    // tabs' seats were taken with (the copy may not have come yet).
    std::optional<Entry> entryOf(const std::string& id) const;
    // The tabs told an offer went (why: cancelled, left, declined, failed, started).
    void tellGone(const Entry& entry, const std::string& why, const std::string& reason);

    bool isMine(const store::StoredSeek& row, std::uint64_t tab) const {
        return row.home == home_ && row.tab == static_cast<std::int64_t>(tab);
    }
    bool sitsAt(const Entry& entry, std::uint64_t tab) const;
    Json hello(std::uint64_t tab) const;
    Json seekJson(const Entry& seek, std::uint64_t viewer) const;
    Json offerJson(const Entry& offer, std::uint64_t viewer) const;
    Json challengeJson(const Entry& challenge, std::uint64_t viewer) const;
    int offersFrom(const std::string& address) const;
    std::size_t offerCount() const;
    void sendTo(std::uint64_t tab, const std::vector<Json>& messages) const;
    void sendToAll(const Json& message) const;
    // A seek's news goes to the tabs that may see it (and its maker's).
    void sendSeek(const Entry& seek) const;
    // An offer's news goes to the tabs that may sit at it.
    void sendOffer(const Entry& offer) const;
    // A challenge's news goes to its challenger's and its challenged person's tabs.
    void sendChallenge(const Entry& challenge) const;
    // Tells every tab how many are in the lobby when it changed since last told: at most once
    // every kPeopleEvery, so that people coming and going cost each tab a message per period,
    // not one per arrival; with several instances, every kPeopleEvery from the first tab on
    // (the others' tabs come and go unseen here).
    void peopleChanged();

    store::Store& store_;
    std::shared_ptr<DuelRoom> duels_;
    TorneioMaker makeTorneio_;
    int torneioLevels_;
    Publish publish_;
    std::string home_;
    std::uint64_t nextTab_ = 1;
    std::map<std::uint64_t, Member> tabs_;
    std::map<std::string, Entry> offers_;
    std::map<std::string, Mine> mine_;
    std::map<std::string, Json> games_;
    boost::asio::steady_timer peopleTimer_;
    bool peopleTimerSet_ = false;
    std::size_t peopleTold_ = 0;
    std::size_t elsewhere_ = 0;
};

}  // namespace web::server
