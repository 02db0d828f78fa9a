// The accounts' HTTP endpoints (protocol.md, "Accounts (HTTP)"): POST /api/signup, /api/signin,
// /api/signout, /api/password, /api/account/delete, /api/account/lang (the account's language),
// GET and POST /api/account/progress (the lessons of /learn it completed), and GET /api/me;
// JSON in and out; and GET
// /api/account/games, the signed-in account's games as one PDN file to download. Every
// POST must carry an Origin the server answers for (403 otherwise: no page of another site
// changes anything). The password checks are limited per address and per account name, the
// sign-ups per address (ServerConfig). The slow work (Argon2id, the store) runs on a small
// pool of threads of its own, never on the server's one thread; a bounded number of requests
// wait for it (503 beyond).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http.hpp>

#include "web/server/access.h"
#include "web/server/server.h"
#include "web/store/store.h"

namespace web::server {

// AccountApi
//   pool_      the threads that hash, check and store (kThreads)
//   pending_   requests handed to the pool and not yet answered (at most kMaxPending)
//   limits_    the attempt limits (under limitsMutex_): password checks by address and by name,
//              sign-ups by address
class AccountApi {
  public:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;
    using Response = boost::beast::http::response<boost::beast::http::string_body>;
    // Called once with the answer, on one of the pool's threads (or at once, on the caller's).
    using Reply = std::function<void(std::shared_ptr<Response>)>;

    static constexpr int kThreads = 2;
    static constexpr int kMaxPending = 64;

    AccountApi(const ServerConfig& config, store::Store& store, HostPolicy hosts);
    ~AccountApi();
    AccountApi(const AccountApi&) = delete;
    AccountApi& operator=(const AccountApi&) = delete;

    // Whether a request target is one of these endpoints' ("/api/...").
    static bool handles(std::string_view target);
    // Answers `request` from `address` (the key of the limits per address) through `reply`.
    void handle(Request request, const std::string& address, Reply reply);
    // Waits for the requests handed to the pool (at the server's end).
    void stop();

  private:
    std::shared_ptr<Response> signUp(const Request& request, const std::string& address);
    std::shared_ptr<Response> signIn(const Request& request, const std::string& address);
    std::shared_ptr<Response> signOut(const Request& request);
    std::shared_ptr<Response> me(const Request& request);
    // GET /api/account/games (PDN), or /api/account/torneio (the Torneio records) with `torneio`.
    std::shared_ptr<Response> accountGames(const Request& request, bool torneio);
    std::shared_ptr<Response> changePassword(const Request& request, const std::string& address);
    std::shared_ptr<Response> deleteAccount(const Request& request, const std::string& address);
    std::shared_ptr<Response> setLanguage(const Request& request);
    // GET (`write` false) or POST /api/account/progress.
    std::shared_ptr<Response> progress(const Request& request, bool write);
    // 0 when a password check for `nameKey` from `address` may go on, else the seconds to wait.
    int passwordCheckWait(const std::string& address, const std::string& nameKey);
    double now() const;

    ServerConfig config_;
    store::Store& store_;
    HostPolicy hosts_;
    boost::asio::thread_pool pool_{kThreads};
    std::atomic<int> pending_{0};
    std::mutex limitsMutex_;
    AttemptLimits signInsByAddress_;
    AttemptLimits signInsByName_;
    AttemptLimits signUpsByAddress_;
};

}  // namespace web::server
