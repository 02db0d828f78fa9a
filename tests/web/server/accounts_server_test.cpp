// The accounts' endpoints against the real lasca-web (protocol.md, "Accounts (HTTP)") and the
// attacks of issue 55 on them: a session used after sign-out, guessed and stale tokens, names
// that differ by case or carry markup or SQL, a wrong password many times (the limit reached and
// said, while another address is served), a sign-up flood from one address, every POST from a
// foreign Origin or none (refused, nothing changed), a new password ending the other sessions,
// a deleted account freeing its name; the account's language (kept, sent back as the lasca_lang
// cookie at sign-in, the next page in it) and its lessons of /learn. Limits are set small on the
// command line and reached by count, with a wait far longer than any test: nothing depends on the
// machine's speed.
#include <gtest/gtest.h>

#include <boost/beast/http.hpp>
#include <optional>
#include <string>
#include <vector>

#include "live_server.h"
#include "test_directory.h"
#include "web/accounts/accounts.h"

namespace web::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using common::test::testDirectory;
using test::Json;
using test::Server;
using tcp = net::ip::tcp;

using test::exchange;
using test::post;
using test::Reply;
using test::Sent;

// The name /api/me gives for `token` (null: signed out).
Json me(const std::string& port, const std::string& token, const std::string& from = "127.0.0.1") {
    const auto reply = exchange(port, http::verb::get, "/api/me", "", {"", token, from});
    EXPECT_EQ(reply.status, 200);
    return reply.body.is_object() ? reply.body["name"] : Json("no answer");
}

Reply signUp(const std::string& port, const std::string& name, const std::string& password,
             const std::string& from = "127.0.0.1") {
    return post(port, "/api/signup", {{"name", name}, {"password", password}}, {"own", "", from});
}

Reply signIn(const std::string& port, const std::string& name, const std::string& password,
             const std::string& from = "127.0.0.1") {
    return post(port, "/api/signin", {{"name", name}, {"password", password}}, {"own", "", from});
}

std::optional<Server> start(const std::vector<std::string>& extra = {}) {
    return Server::start((testDirectory() / "web.db").string(), 0, extra);
}

TEST(Accounts, SignUpSignInAndOut) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    EXPECT_EQ(me(port, ""), nullptr);
    const auto made = signUp(port, "Ana_7", "correct horse");
    ASSERT_EQ(made.status, 200) << made.body;
    EXPECT_EQ(made.body["name"], "Ana_7");
    const auto first = made.token();
    EXPECT_EQ(first.size(), 43u);
    EXPECT_EQ(made.setCookie,
              "lasca_session=" + first + "; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000");
    EXPECT_EQ(me(port, first), "Ana_7");
    // Signed in again, as the name was typed in another case: the name as it was made.
    const auto in = signIn(port, "ANA_7", "correct horse");
    ASSERT_EQ(in.status, 200) << in.body;
    EXPECT_EQ(in.body["name"], "Ana_7");
    const auto second = in.token();
    EXPECT_NE(second, first);
    EXPECT_EQ(me(port, second), "Ana_7");
    // Signed out: the old cookie names nobody, and is ended in the browser; the other stays.
    const auto out = post(port, "/api/signout", Json::object(), {"own", first});
    EXPECT_EQ(out.status, 200);
    EXPECT_EQ(out.body["name"], nullptr);
    EXPECT_EQ(out.setCookie, "lasca_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0");
    EXPECT_EQ(me(port, first), nullptr);
    EXPECT_EQ(me(port, second), "Ana_7");
    const auto stale = exchange(port, http::verb::get, "/api/me", "", {"", first});
    EXPECT_EQ(stale.setCookie, "lasca_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0");
    // Kept across a restart.
    server.reset();
    server = start();
    ASSERT_TRUE(server);
    EXPECT_EQ(me(server->port, second), "Ana_7");
    EXPECT_EQ(me(server->port, first), nullptr);
}

TEST(Accounts, SecureCookiesBehindTls) {
    auto server = start({"--secure-cookies"});
    ASSERT_TRUE(server);
    const auto made = signUp(server->port, "ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    EXPECT_EQ(made.setCookie, "lasca_session=" + made.token() +
                                  "; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000; Secure");
}

TEST(Accounts, GuessedAndStaleTokensNameNobody) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto made = signUp(port, "ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    const auto token = made.token();
    // Guessed: of a token's form, one character changed, of no token's form at all, or the
    // hash the store keeps (a copy of the database opens no session).
    std::string changed = token;
    changed[10] = changed[10] == 'A' ? 'B' : 'A';
    for (const std::string& guess : {std::string(43, 'A'), changed, token.substr(1), token + "A",
                                     std::string("' OR 1=1--"), accounts::tokenHash(token)}) {
        EXPECT_EQ(me(port, guess), nullptr) << guess;
    }
    EXPECT_EQ(me(port, token), "ana");
    // Stale: its account deleted.
    const auto deleted =
        post(port, "/api/account/delete", {{"password", "correct horse"}}, {"own", token});
    ASSERT_EQ(deleted.status, 200) << deleted.body;
    EXPECT_EQ(me(port, token), nullptr);
    // A request that needs a session is refused without one.
    const auto change = post(port, "/api/password", {{"old", "correct horse"}, {"new", "12345678"}},
                             {"own", token});
    EXPECT_EQ(change.status, 401);
    EXPECT_EQ(change.body["error"], "not signed in");
}

TEST(Accounts, NamesFollowTheRule) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    ASSERT_EQ(signUp(port, "Ana", "correct horse").status, 200);
    for (const std::string& name : std::vector<std::string>{"ana", "ANA", "aNa"}) {
        const auto again = signUp(port, name, "another one", "127.0.0.2");
        EXPECT_EQ(again.status, 409) << name;
        EXPECT_EQ(again.body["error"], "that name is taken");
        EXPECT_TRUE(again.setCookie.empty());
    }
    for (const std::string& name : std::vector<std::string>{
             "<b>x</b>", "x'; drop table accounts;--", "a", std::string(21, 'a'), "ana maria",
             "<script>alert(1)</script>", "jo\xc3\xa3o"}) {
        const auto refused = signUp(port, name, "correct horse", "127.0.0.3");
        EXPECT_EQ(refused.status, 400) << name;
        EXPECT_NE(refused.body["error"].get<std::string>().find("2 to 20"), std::string::npos);
    }
    EXPECT_EQ(signUp(port, "ok", "short", "127.0.0.4").status, 400);
    EXPECT_EQ(signUp(port, "ok", std::string(257, 'p'), "127.0.0.4").status, 400);
    EXPECT_EQ(post(port, "/api/signup", "not an object", {"own", "", "127.0.0.4"}).status, 400);
    EXPECT_EQ(exchange(port, http::verb::post, "/api/signup", "{", {"own", "", "127.0.0.4"}).status,
              400);
    // The accounts are still there.
    EXPECT_EQ(signIn(port, "ana", "correct horse").status, 200);
}

TEST(Accounts, AWrongPasswordManyTimesReachesTheLimit) {
    auto server = start({"--signin-tries", "3", "--signin-wait", "3600"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    ASSERT_EQ(signUp(port, "ana", "correct horse", "127.0.0.10").status, 200);
    ASSERT_EQ(signUp(port, "bob", "battery staple", "127.0.0.10").status, 200);
    ASSERT_EQ(signUp(port, "carol", "correct horse", "127.0.0.10").status, 200);
    // An unknown name and a wrong password: the same answer.
    const auto unknown = signIn(port, "nobody", "correct horse", "127.0.0.2");
    const auto wrong = signIn(port, "ana", "wrong horse", "127.0.0.2");
    EXPECT_EQ(unknown.status, 401);
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(unknown.body, wrong.body);
    EXPECT_EQ(wrong.body["error"], "wrong name or password");
    EXPECT_EQ(signIn(port, "ana", "wrong horse 2", "127.0.0.2").status, 401);
    // The fourth try from that address is limited, and says for how long; the right password
    // too.
    for (const std::string& password : std::vector<std::string>{"wrong horse 3", "correct horse"}) {
        const auto limited = signIn(port, "ana", password, "127.0.0.2");
        EXPECT_EQ(limited.status, 429);
        EXPECT_TRUE(limited.setCookie.empty());
        const int wait = limited.body.value("retryAfter", 0);
        EXPECT_GT(wait, 3000);
        EXPECT_LE(wait, 3600);
        EXPECT_EQ(limited.retryAfter, std::to_string(wait));
        EXPECT_EQ(limited.body["error"],
                  "too many sign-in attempts: try again in " + std::to_string(wait) + " s");
    }
    // Another address is served, for another name.
    EXPECT_EQ(signIn(port, "bob", "battery staple", "127.0.0.3").status, 200);
    // One name tried from many addresses: limited by the name, the unknown ones too.
    for (const auto& [name, status] :
         std::vector<std::pair<std::string, int>>{{"carol", 401}, {"nobody2", 401}}) {
        for (int i = 0; i < 3; ++i)
            EXPECT_EQ(signIn(port, name, "wrong", "127.0.1." + std::to_string(i + 1)).status,
                      status);
        const auto limited = signIn(port, name, "correct horse", "127.0.1.9");
        EXPECT_EQ(limited.status, 429) << name;
    }
    EXPECT_EQ(signIn(port, "bob", "battery staple", "127.0.0.4").status, 200);
}

TEST(Accounts, ASignUpFloodFromOneAddressIsLimited) {
    auto server = start({"--signups-per-address", "3"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(signUp(port, "flood" + std::to_string(i), "correct horse", "127.0.0.5").status,
                  200);
    const auto limited = signUp(port, "flood3", "correct horse", "127.0.0.5");
    EXPECT_EQ(limited.status, 429);
    EXPECT_GT(limited.body.value("retryAfter", 0), 0);
    EXPECT_NE(limited.body["error"].get<std::string>().find("too many accounts"),
              std::string::npos);
    // Not made: the name is free for another address, which is served.
    EXPECT_EQ(signUp(port, "flood3", "correct horse", "127.0.0.6").status, 200);
}

TEST(Accounts, AForeignOriginOrNoneChangesNothing) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto made = signUp(port, "ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    const auto token = made.token();
    for (const std::string& origin :
         {std::string(""), std::string("http://evil.example"), std::string("null"),
          "http://127.0.0.1:" + port + ".evil.example", "https://127.0.0.1:" + port}) {
        const Sent foreign{origin, token};
        const auto refused = [&](const std::string& target, const Json& body) {
            const auto reply = post(port, target, body, foreign);
            EXPECT_EQ(reply.status, 403) << target << " from '" << origin << "'";
            EXPECT_TRUE(reply.setCookie.empty());
        };
        refused("/api/signup", {{"name", "mallory"}, {"password", "correct horse"}});
        refused("/api/signin", {{"name", "ana"}, {"password", "correct horse"}});
        refused("/api/signout", Json::object());
        refused("/api/password", {{"old", "correct horse"}, {"new", "evil password"}});
        refused("/api/account/delete", {{"password", "correct horse"}});
    }
    // Nothing changed: signed in still, the old password still the one, no account made.
    EXPECT_EQ(me(port, token), "ana");
    EXPECT_EQ(signIn(port, "ana", "evil password").status, 401);
    EXPECT_EQ(signIn(port, "ana", "correct horse").status, 200);
    EXPECT_EQ(signIn(port, "mallory", "correct horse").status, 401);
    // A GET to a POST endpoint does nothing either.
    EXPECT_EQ(exchange(port, http::verb::get, "/api/signout", "", {"own", token}).status, 405);
    EXPECT_EQ(me(port, token), "ana");
}

TEST(Accounts, ANewPasswordEndsTheOtherSessions) {
    auto server = start({"--signin-tries", "20"});
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto made = signUp(port, "ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    const auto here = made.token();
    const auto there = signIn(port, "ana", "correct horse").token();
    ASSERT_FALSE(there.empty());
    const auto wrongOld =
        post(port, "/api/password", {{"old", "nope nope"}, {"new", "new horse 1"}}, {"own", here});
    EXPECT_EQ(wrongOld.status, 401);
    EXPECT_EQ(me(port, there), "ana");
    const auto changed = post(port, "/api/password",
                              {{"old", "correct horse"}, {"new", "new horse 1"}}, {"own", here});
    ASSERT_EQ(changed.status, 200) << changed.body;
    EXPECT_EQ(me(port, here), "ana");
    EXPECT_EQ(me(port, there), nullptr);
    EXPECT_EQ(signIn(port, "ana", "correct horse").status, 401);
    EXPECT_EQ(signIn(port, "ana", "new horse 1").status, 200);
}

TEST(Accounts, ADeletedAccountFreesItsName) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto made = signUp(port, "Ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    const auto token = made.token();
    const auto other = signIn(port, "ana", "correct horse").token();
    EXPECT_EQ(post(port, "/api/account/delete", {{"password", "wrong one"}}, {"own", token}).status,
              401);
    EXPECT_EQ(me(port, token), "Ana");
    const auto deleted =
        post(port, "/api/account/delete", {{"password", "correct horse"}}, {"own", token});
    ASSERT_EQ(deleted.status, 200) << deleted.body;
    EXPECT_EQ(deleted.body["name"], nullptr);
    EXPECT_EQ(deleted.setCookie, "lasca_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0");
    EXPECT_EQ(me(port, token), nullptr);
    EXPECT_EQ(me(port, other), nullptr);
    EXPECT_EQ(signIn(port, "ana", "correct horse").status, 401);
    const auto again = signUp(port, "aNA", "other horse");
    ASSERT_EQ(again.status, 200);
    EXPECT_EQ(me(port, again.token()), "aNA");
}

TEST(Accounts, GuestsAreServedAsBefore) {
    auto server = start();
    ASSERT_TRUE(server);
    test::Tab tab(server->port);
    EXPECT_EQ(tab.readState()["type"], "state");
    EXPECT_EQ(exchange(server->port, http::verb::get, "/api/nothing", "", {}).status, 404);
}

// ---- the account's language and lessons ----------------------------------------------------

// One request carrying `cookieHeader` as it is ("" for none), from the server's own origin.
test::Reply withCookies(const std::string& port, http::verb method, const std::string& target,
                        const std::string& body, const std::string& cookieHeader) {
    test::Sent sent;
    sent.cookieHeader = cookieHeader;
    return exchange(port, method, target, body, sent);
}

const std::string kPortugueseCookie = "lasca_lang=pt-BR; Path=/; Max-Age=31536000; SameSite=Lax";

TEST(AccountSettings, TheLanguageIsKeptAndSentBackAtSignIn) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto made = signUp(port, "ana", "correct horse");
    ASSERT_EQ(made.status, 200);
    const auto token = made.token();
    // A guest has no account to keep it in.
    EXPECT_EQ(post(port, "/api/account/lang", {{"lang", "pt-BR"}}).status, 401);
    // Only a language the pages speak, as they write it.
    for (const auto& bad : {Json("fr"), Json("pt"), Json(""), Json(3), Json(nullptr)}) {
        const auto refused = post(port, "/api/account/lang", {{"lang", bad}}, {"own", token});
        EXPECT_EQ(refused.status, 400) << bad;
        EXPECT_TRUE(refused.setCookie.empty());
    }
    const auto meBefore = exchange(port, http::verb::get, "/api/me", "", {"", token});
    EXPECT_FALSE(meBefore.body.contains("lang")) << meBefore.text;
    // Signed in without a language: only the session's cookie.
    const auto plain = withCookies(port, http::verb::post, "/api/signin",
                                   R"({"name": "ana", "password": "correct horse"})", "");
    ASSERT_EQ(plain.status, 200) << plain.body;
    ASSERT_EQ(plain.setCookies.size(), 1u);
    // Chosen: kept, and this browser's cookie set with it.
    const auto chosen = post(port, "/api/account/lang", {{"lang", "pt-BR"}}, {"own", token});
    ASSERT_EQ(chosen.status, 200) << chosen.text;
    EXPECT_EQ(chosen.body["lang"], "pt-BR");
    EXPECT_EQ(chosen.setCookie, kPortugueseCookie);
    EXPECT_EQ(exchange(port, http::verb::get, "/api/me", "", {"", token}).body["lang"], "pt-BR");
    // Another browser signing in gets the account's language with its session.
    const auto in = withCookies(port, http::verb::post, "/api/signin",
                                R"({"name": "ana", "password": "correct horse"})", "");
    ASSERT_EQ(in.status, 200) << in.body;
    ASSERT_EQ(in.setCookies.size(), 2u);
    EXPECT_EQ(in.setCookies[0].rfind("lasca_session=", 0), 0u);
    EXPECT_EQ(in.setCookies[1], kPortugueseCookie);
    // The next page it asks for, with the cookies it was given, comes in the account's language
    // (whatever its Accept-Language, which this request does not send).
    const std::string session = in.setCookies[0].substr(0, in.setCookies[0].find(';'));
    const std::string lang = in.setCookies[1].substr(0, in.setCookies[1].find(';'));
    const auto games = withCookies(port, http::verb::get, "/games", "", session + "; " + lang);
    ASSERT_EQ(games.status, 200);
    EXPECT_NE(games.text.find("<html lang=\"pt-BR\">"), std::string::npos);
    EXPECT_NE(games.text.find("Nenhuma partida ainda."), std::string::npos) << games.text;
    const auto player = withCookies(port, http::verb::get, "/@/ana", "", session + "; " + lang);
    ASSERT_EQ(player.status, 200);
    EXPECT_NE(player.text.find("<html lang=\"pt-BR\">"), std::string::npos);
    EXPECT_NE(player.text.find("membro desde"), std::string::npos);
    // Without the cookie the same page is English.
    const auto english = withCookies(port, http::verb::get, "/games", "", session);
    EXPECT_NE(english.text.find("<html lang=\"en\">"), std::string::npos);
    EXPECT_NE(english.text.find("No games yet."), std::string::npos);
    // Back to English: kept as well.
    ASSERT_EQ(post(port, "/api/account/lang", {{"lang", "en"}}, {"own", token}).status, 200);
    EXPECT_EQ(exchange(port, http::verb::get, "/api/me", "", {"", token}).body["lang"], "en");
}

TEST(AccountSettings, LessonsAreKeptForTheAccountOnly) {
    auto server = start();
    ASSERT_TRUE(server);
    const auto& port = server->port;
    const auto token = signUp(port, "ana", "correct horse").token();
    ASSERT_FALSE(token.empty());
    const Json lessons = {{"learn", {"first-move", "capture-2", "first-move"}}};
    EXPECT_EQ(post(port, "/api/account/progress", lessons).status, 401);
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/progress", "", {}).status, 401);
    const auto none = exchange(port, http::verb::get, "/api/account/progress", "", {"", token});
    ASSERT_EQ(none.status, 200);
    EXPECT_EQ(none.body, (Json{{"learn", Json::array()}}));
    const auto kept = post(port, "/api/account/progress", lessons, {"own", token});
    ASSERT_EQ(kept.status, 200) << kept.text;
    EXPECT_EQ(kept.body["learn"], (Json{"first-move", "capture-2"})) << "each id once";
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/progress", "", {"", token}).body,
              (Json{{"learn", {"first-move", "capture-2"}}}));
    // Bad values change nothing.
    Json tooMany = Json::array();
    for (int i = 0; i < 65; ++i) tooMany.push_back("l" + std::to_string(i));
    for (const Json& bad :
         {Json{{"learn", "first-move"}}, Json{{"learn", Json::array({"Capital"})}},
          Json{{"learn", Json::array({""})}}, Json{{"learn", Json::array({std::string(33, 'a')})}},
          Json{{"learn", Json::array({"a,b"})}}, Json{{"learn", Json::array({1})}},
          Json{{"learn", tooMany}}, Json::array(), Json{{"other", 1}}}) {
        EXPECT_EQ(post(port, "/api/account/progress", bad, {"own", token}).status, 400) << bad;
    }
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/progress", "", {"", token})
                  .body["learn"]
                  .size(),
              2u);
    // The most it keeps: 64 ids, the longest 32 characters.
    Json most = Json::array();
    for (int i = 0; i < 63; ++i) most.push_back("lesson-" + std::to_string(i));
    most.push_back(std::string(31, 'z') + "9");
    const auto full = post(port, "/api/account/progress", {{"learn", most}}, {"own", token});
    ASSERT_EQ(full.status, 200) << full.text;
    EXPECT_EQ(full.body["learn"], most);
    // A foreign origin writes nothing; a GET from anywhere changes nothing either.
    EXPECT_EQ(post(port, "/api/account/progress", {{"learn", Json::array()}},
                   {"http://evil.example", token})
                  .status,
              403);
    EXPECT_EQ(
        post(port, "/api/account/lang", {{"lang", "pt-BR"}}, {"http://evil.example", token}).status,
        403);
    EXPECT_FALSE(exchange(port, http::verb::get, "/api/me", "", {"", token}).body.contains("lang"));
    EXPECT_EQ(exchange(port, http::verb::get, "/api/account/lang", "", {"own", token}).status, 405);
    // Kept across a restart.
    server.reset();
    server = start();
    ASSERT_TRUE(server);
    EXPECT_EQ(exchange(server->port, http::verb::get, "/api/account/progress", "", {"", token})
                  .body["learn"],
              most);
}

}  // namespace
}  // namespace web::server
