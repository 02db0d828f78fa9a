#include "account_api.h"

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <optional>
#include <utility>  // before Boost.Asio, whose awaitable.hpp uses std::exchange
#include <vector>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "common/logging.h"
#include "http_session.h"
#include "web/accounts/accounts.h"
#include "web/i18n/i18n.h"
#include "web/messages/messages.h"
#include "web/pages/account_games.h"

namespace web::server {

namespace http = boost::beast::http;
using Json = nlohmann::json;
using Response = AccountApi::Response;
using Request = AccountApi::Request;
using messages::Say;

namespace {

constexpr double kSecondsPerHour = 3600;

std::string_view pathOf(std::string_view target) {
    return target.substr(0, target.find_first_of("?#"));
}

std::shared_ptr<Response> json(const Request& request, http::status status, const Json& body) {
    auto response = std::make_shared<Response>(status, request.version());
    addSecurityHeaders(*response);
    response->set(http::field::content_type, "application/json");
    response->set(http::field::cache_control, "no-store");
    response->keep_alive(request.keep_alive());
    response->body() = body.dump() + "\n";
    response->prepare_payload();
    return response;
}

// An error answer's body: {"error": English, "key", "params"} (the page shows the key's text in
// the person's language, i18n.server).
Json errorBody(const Say& say) {
    return {{"error", messages::english(say)}, {"key", say.key}, {"params", say.params}};
}

std::shared_ptr<Response> error(const Request& request, http::status status, const Say& say) {
    return json(request, status, errorBody(say));
}

// A refusal of what only a program gets wrong (the page never sends it): its English detail.
std::shared_ptr<Response> refused(const Request& request, std::string detail) {
    return error(request, http::status::bad_request,
                 Say{"server.error.refused", {{"detail", std::move(detail)}}});
}

// 429 with Retry-After; `say` names the wait in {seconds} (written as Retry-After writes it, no
// digit grouping).
std::shared_ptr<Response> limited(const Request& request, Say say, int seconds) {
    say.params["seconds"] = std::to_string(seconds);
    auto body = errorBody(say);
    body["retryAfter"] = seconds;
    auto response = json(request, http::status::too_many_requests, body);
    response->set(http::field::retry_after, std::to_string(seconds));
    return response;
}

std::shared_ptr<Response> storeFailed(const Request& request, const std::string& why) {
    common::logger().error("web: accounts: {}", why);
    return error(request, http::status::internal_server_error, Say{"server.account.failed"});
}

// What a person is told of a name that is no account's name (accounts::nameKey refused it).
Say badName(std::string_view name) {
    std::string lower(name);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return lower.starts_with(accounts::kDeletedNamePrefix) ? Say{"server.account.nameReserved"}
                                                           : Say{"server.account.badName"};
}

// What a person is told of a password accounts::passwordError refused.
Say badPassword(std::string_view password) {
    return password.size() < accounts::kMinPasswordBytes
               ? Say{"server.account.passwordShort", {{"count", accounts::kMinPasswordBytes}}}
               : Say{"server.account.passwordLong", {{"count", accounts::kMaxPasswordBytes}}};
}

// The string fields `names` of a JSON object body, in order; nothing when the body is not such
// an object (other fields are ignored).
std::optional<std::vector<std::string>> fields(const Request& request,
                                               std::initializer_list<const char*> names) {
    const Json body = Json::parse(request.body(), nullptr, false);
    if (body.is_discarded() || !body.is_object()) return std::nullopt;
    std::vector<std::string> out;
    for (const char* name : names) {
        const auto it = body.find(name);
        if (it == body.end() || !it->is_string()) return std::nullopt;
        out.push_back(it->get<std::string>());
    }
    return out;
}

std::string expected(std::initializer_list<const char*> names) {
    std::string text = "expected a JSON object with the strings";
    for (const char* name : names) text += std::string(" ") + name;
    return text;
}

std::int64_t nowMillis() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The session a request's cookie names. tokenHash: the kept hash ("" without a cookie).
struct SessionFound {
    std::string tokenHash;
    std::optional<store::StoredAccount> account;
};

common::Result<SessionFound> sessionOf(store::Store& store, const Request& request) {
    SessionFound found;
    const auto token = accounts::tokenFromCookies(
        std::string_view(request[http::field::cookie].data(), request[http::field::cookie].size()));
    if (!token) return found;
    found.tokenHash = accounts::tokenHash(*token);
    auto account = store.findSession(found.tokenHash, nowMillis());
    if (!account) return common::makeError(account.error());
    found.account = std::move(account).value();
    return found;
}

// The answer to a sign-in or sign-up of `account`: its name, and the lasca_lang cookie of its
// language when it chose one (the pages then speak it in this browser).
std::shared_ptr<Response> signedIn(const Request& request, const store::StoredAccount& account,
                                   const std::string& sessionCookie) {
    auto response = json(request, http::status::ok, Json{{"name", account.name}});
    response->set(http::field::set_cookie, sessionCookie);
    if (!account.lang.empty())
        response->insert(http::field::set_cookie, i18n::languageCookie(account.lang));
    return response;
}

// A lesson id of /learn: 1 to kLessonIdMost characters of a-z, 0-9 and '-'.
constexpr std::size_t kLessonIdMost = 32;
constexpr std::size_t kLessonsMost = 64;
bool lessonId(const std::string& id) {
    if (id.empty() || id.size() > kLessonIdMost) return false;
    for (const char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

}  // namespace

AccountApi::AccountApi(const ServerConfig& config, store::Store& store, HostPolicy hosts)
    : config_(config),
      store_(store),
      hosts_(std::move(hosts)),
      signInsByAddress_(config.signInTries, config.signInWaitSeconds),
      signInsByName_(config.signInTries, config.signInWaitSeconds),
      signUpsByAddress_(config.signUpsPerAddress, kSecondsPerHour / config.signUpsPerAddress) {
    // The dummy hash is made now, so that the first unknown name costs no more than the others.
    boost::asio::post(pool_, [] { accounts::dummyHash(); });
}

AccountApi::~AccountApi() {
    stop();
}

void AccountApi::stop() {
    pool_.join();
}

bool AccountApi::handles(std::string_view target) {
    // /api/@/<name> is a player's page as JSON (web/pages/player_page.h), not an account's call.
    const auto path = pathOf(target);
    return path.starts_with("/api/") && !path.starts_with("/api/@/");
}

double AccountApi::now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void AccountApi::handle(Request request, const std::string& address, Reply reply) {
    const auto path = pathOf(std::string_view(request.target().data(), request.target().size()));
    // /api/account/progress is read (GET) and written (POST).
    const bool both = path == "/api/account/progress";
    const bool get = path == "/api/me" || path == "/api/account/games" ||
                     path == "/api/account/torneio" ||
                     (both && request.method() == http::verb::get);
    const bool post = path == "/api/signup" || path == "/api/signin" || path == "/api/signout" ||
                      path == "/api/password" || path == "/api/account/delete" ||
                      path == "/api/account/lang" || (both && request.method() != http::verb::get);
    if (!get && !post)
        return reply(error(request, http::status::not_found, Say{"server.account.notFound"}));
    const auto method = get ? http::verb::get : http::verb::post;
    if (request.method() != method) {
        auto response =
            error(request, http::status::method_not_allowed, Say{"server.account.wrongMethod"});
        response->set(http::field::allow, both ? "GET, POST" : get ? "GET" : "POST");
        return reply(response);
    }
    // A page of another site may make a browser POST here with the person's cookie; browsers
    // send Origin with every POST, so one without it, or with another, changes nothing.
    const auto origin = request[http::field::origin];
    if (post &&
        (origin.empty() || !hosts_.originAllowed(std::string_view(origin.data(), origin.size()))))
        return reply(error(request, http::status::forbidden, Say{"server.account.otherSite"}));
    if (pending_.load() >= kMaxPending) {
        auto response =
            error(request, http::status::service_unavailable, Say{"server.account.busy"});
        response->set(http::field::retry_after, "2");
        return reply(response);
    }
    ++pending_;
    boost::asio::post(
        pool_, [this, request = std::move(request), address, reply = std::move(reply)] {
            const auto target =
                pathOf(std::string_view(request.target().data(), request.target().size()));
            std::shared_ptr<Response> response;
            if (target == "/api/me")
                response = me(request);
            else if (target == "/api/account/games" || target == "/api/account/torneio")
                response = accountGames(request, target == "/api/account/torneio");
            else if (target == "/api/signup")
                response = signUp(request, address);
            else if (target == "/api/signin")
                response = signIn(request, address);
            else if (target == "/api/signout")
                response = signOut(request);
            else if (target == "/api/password")
                response = changePassword(request, address);
            else if (target == "/api/account/lang")
                response = setLanguage(request);
            else if (target == "/api/account/progress")
                response = progress(request, request.method() == http::verb::post);
            else
                response = deleteAccount(request, address);
            --pending_;
            reply(response);
        });
}

int AccountApi::passwordCheckWait(const std::string& address, const std::string& nameKey) {
    std::lock_guard lock(limitsMutex_);
    const double at = now();
    if (const int wait = signInsByAddress_.tryNow(address, at)) return wait;
    return nameKey.empty() ? 0 : signInsByName_.tryNow(nameKey, at);
}

std::shared_ptr<Response> AccountApi::signUp(const Request& request, const std::string& address) {
    const auto given = fields(request, {"name", "password"});
    if (!given) return refused(request, expected({"name", "password"}));
    const std::string& name = (*given)[0];
    const std::string& password = (*given)[1];
    const auto key = accounts::nameKey(name);
    if (!key) return error(request, http::status::bad_request, badName(name));
    if (accounts::passwordError(password))
        return error(request, http::status::bad_request, badPassword(password));
    int wait = 0;
    {
        std::lock_guard lock(limitsMutex_);
        wait = signUpsByAddress_.tryNow(address, now());
    }
    if (wait) return limited(request, Say{"server.account.tooManySignUps"}, wait);
    const auto hash = accounts::hashPassword(password);
    if (!hash) return storeFailed(request, hash.error());
    const std::int64_t at = nowMillis();
    const auto created = store_.createAccount(name, key.value(), hash.value(), at);
    if (!created) return storeFailed(request, created.error());
    if (!created.value())
        return error(request, http::status::conflict, Say{"server.account.nameTaken"});
    const auto token = accounts::newSessionToken();
    const auto kept = store_.createSession(
        {token.hash, created.value()->id, at, at + accounts::kSessionSeconds * 1000});
    if (!kept) return storeFailed(request, kept.error());
    return signedIn(request, *created.value(),
                    accounts::sessionCookie(token.token, config_.secureCookies));
}

std::shared_ptr<Response> AccountApi::signIn(const Request& request, const std::string& address) {
    const auto given = fields(request, {"name", "password"});
    if (!given) return refused(request, expected({"name", "password"}));
    const std::string& name = (*given)[0];
    const std::string& password = (*given)[1];
    const auto key = accounts::nameKey(name);
    if (const int wait = passwordCheckWait(address, key ? key.value() : ""))
        return limited(request, Say{"server.account.tooManySignIns"}, wait);
    std::optional<store::StoredAccount> account;
    if (key) {
        auto found = store_.findAccount(key.value());
        if (!found) return storeFailed(request, found.error());
        account = std::move(found).value();
    }
    // An unknown name is checked against a hash nobody's password makes: the same work, the
    // same time and the same answer as a wrong password.
    const bool right =
        accounts::verifyPassword(account ? account->passwordHash : accounts::dummyHash(), password);
    if (!account || !right)
        return error(request, http::status::unauthorized,
                     Say{"server.account.wrongNameOrPassword"});
    const auto token = accounts::newSessionToken();
    const std::int64_t at = nowMillis();
    const auto kept =
        store_.createSession({token.hash, account->id, at, at + accounts::kSessionSeconds * 1000});
    if (!kept) return storeFailed(request, kept.error());
    return signedIn(request, *account, accounts::sessionCookie(token.token, config_.secureCookies));
}

std::shared_ptr<Response> AccountApi::signOut(const Request& request) {
    const auto token = accounts::tokenFromCookies(
        std::string_view(request[http::field::cookie].data(), request[http::field::cookie].size()));
    if (token) {
        const auto deleted = store_.deleteSession(accounts::tokenHash(*token));
        if (!deleted) return storeFailed(request, deleted.error());
    }
    auto response = json(request, http::status::ok, Json{{"name", nullptr}});
    response->set(http::field::set_cookie, accounts::endedSessionCookie(config_.secureCookies));
    return response;
}

std::shared_ptr<Response> AccountApi::me(const Request& request) {
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    Json body{{"name", account ? Json(account->name) : Json(nullptr)}};
    if (account && !account->lang.empty()) body["lang"] = account->lang;
    auto response = json(request, http::status::ok, body);
    // A cookie that names no session (ended, expired, guessed) is ended in the browser too.
    if (!account && !session.value().tokenHash.empty())
        response->set(http::field::set_cookie, accounts::endedSessionCookie(config_.secureCookies));
    return response;
}

std::shared_ptr<Response> AccountApi::accountGames(const Request& request, bool torneio) {
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    if (!account)
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    // Made here, on the accounts' threads: the file may be megabytes (at most
    // pages::kAccountPdnBytes), never built on the server's thread.
    auto file = torneio ? pages::accountTorneioRecords(store_, *account)
                        : pages::accountGamesPdn(store_, *account);
    if (file.status != 200) return storeFailed(request, file.body);
    auto response = std::make_shared<Response>(http::status::ok, request.version());
    addSecurityHeaders(*response);
    response->set(http::field::content_type, file.contentType);
    response->set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : file.headers) response->set(name, value);
    response->keep_alive(request.keep_alive());
    response->body() = std::move(file.body);
    response->prepare_payload();
    return response;
}

std::shared_ptr<Response> AccountApi::changePassword(const Request& request,
                                                     const std::string& address) {
    const auto given = fields(request, {"old", "new"});
    if (!given) return refused(request, expected({"old", "new"}));
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    if (!account)
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    if (accounts::passwordError((*given)[1]))
        return error(request, http::status::bad_request, badPassword((*given)[1]));
    if (const int wait = passwordCheckWait(address, account->nameKey))
        return limited(request, Say{"server.account.tooManyPasswordTries"}, wait);
    if (!accounts::verifyPassword(account->passwordHash, (*given)[0]))
        return error(request, http::status::unauthorized, Say{"server.account.wrongPassword"});
    const auto hash = accounts::hashPassword((*given)[1]);
    if (!hash) return storeFailed(request, hash.error());
    const auto set = store_.setPassword(account->id, hash.value(), session.value().tokenHash);
    if (!set) return storeFailed(request, set.error());
    if (!set.value())
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    return json(request, http::status::ok, Json{{"name", account->name}});
}

std::shared_ptr<Response> AccountApi::deleteAccount(const Request& request,
                                                    const std::string& address) {
    const auto given = fields(request, {"password"});
    if (!given) return refused(request, expected({"password"}));
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    if (!account)
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    if (const int wait = passwordCheckWait(address, account->nameKey))
        return limited(request, Say{"server.account.tooManyPasswordTries"}, wait);
    if (!accounts::verifyPassword(account->passwordHash, (*given)[0]))
        return error(request, http::status::unauthorized, Say{"server.account.wrongPassword"});
    const auto deleted = store_.deleteAccount(account->id);
    if (!deleted) return storeFailed(request, deleted.error());
    auto response = json(request, http::status::ok, Json{{"name", nullptr}});
    response->set(http::field::set_cookie, accounts::endedSessionCookie(config_.secureCookies));
    return response;
}

std::shared_ptr<Response> AccountApi::setLanguage(const Request& request) {
    const auto given = fields(request, {"lang"});
    if (!given) return refused(request, expected({"lang"}));
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    if (!account)
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    // Only a language the pages speak, written as they write it ("pt-BR", not "pt").
    const auto lang = i18n::known((*given)[0]);
    if (!lang || *lang != (*given)[0]) return refused(request, "unknown language: " + (*given)[0]);
    const auto set = store_.setAccountLanguage(account->id, std::string(*lang));
    if (!set) return storeFailed(request, set.error());
    if (!set.value())
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    auto response = json(request, http::status::ok, Json{{"lang", std::string(*lang)}});
    response->set(http::field::set_cookie, i18n::languageCookie(*lang));
    return response;
}

std::shared_ptr<Response> AccountApi::progress(const Request& request, bool write) {
    std::vector<std::string> lessons;
    if (write) {
        const Json body = Json::parse(request.body(), nullptr, false);
        const auto learn = body.is_object() ? body.find("learn") : body.end();
        if (body.is_discarded() || !body.is_object() || learn == body.end() || !learn->is_array())
            return refused(request, "expected a JSON object with the array learn");
        if (learn->size() > kLessonsMost)
            return refused(request, "at most " + std::to_string(kLessonsMost) + " lessons");
        for (const auto& id : *learn) {
            if (!id.is_string() || !lessonId(id.get<std::string>()))
                return refused(request, "a lesson id is 1 to 32 characters of a-z, 0-9 and -");
            // Kept once each, in the order given.
            if (std::find(lessons.begin(), lessons.end(), id.get<std::string>()) == lessons.end())
                lessons.push_back(id.get<std::string>());
        }
    }
    const auto session = sessionOf(store_, request);
    if (!session) return storeFailed(request, session.error());
    const auto& account = session.value().account;
    if (!account)
        return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    if (write) {
        const auto set = store_.setLearnProgress(account->id, lessons);
        if (!set) return storeFailed(request, set.error());
        if (!set.value())
            return error(request, http::status::unauthorized, Say{"server.account.notSignedIn"});
    } else {
        auto kept = store_.learnProgress(account->id);
        if (!kept) return storeFailed(request, kept.error());
        lessons = std::move(kept).value();
    }
    return json(request, http::status::ok, Json{{"learn", lessons}});
}

}  // namespace web::server
