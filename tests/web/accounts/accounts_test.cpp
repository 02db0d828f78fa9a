// Accounts without I/O (include/web/accounts/accounts.h): the name rule and its key, the
// password rule, Argon2id hashes made and checked, session tokens and the cookie.
#include "web/accounts/accounts.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace web::accounts {
namespace {

TEST(Names, TheRuleAndTheKey) {
    for (const std::string name : {"ab", "Ana", "joao_99", "x-y", "ABCDEFGHIJKLMNOPQRST"}) {
        const auto key = nameKey(name);
        ASSERT_TRUE(key.ok()) << name;
    }
    EXPECT_EQ(nameKey("Ana_Maria-7").value(), "ana_maria-7");
    EXPECT_EQ(nameKey("ANA").value(), nameKey("ana").value());
    for (const std::string& name :
         std::vector<std::string>{"", "a", "ABCDEFGHIJKLMNOPQRSTU", "ana maria", "<b>x</b>",
                                  "x'; drop table accounts;--", "jo\xc3\xa3o", "a.b", "a@b", "a/b",
                                  std::string("a\0b", 3), "\"ab\""}) {
        const auto key = nameKey(name);
        ASSERT_FALSE(key.ok()) << name;
        EXPECT_NE(key.error().find("2 to 20"), std::string::npos);
    }
    // A deleted account's games name it "deleted-<id>": the name stays its own.
    for (const std::string name : {"deleted-5", "Deleted-12", "DELETED-x"}) {
        const auto key = nameKey(name);
        ASSERT_FALSE(key.ok()) << name;
        EXPECT_NE(key.error().find("deleted accounts"), std::string::npos);
    }
    EXPECT_TRUE(nameKey("deleted").ok());
    EXPECT_TRUE(nameKey("undeleted-5").ok());
}

TEST(Passwords, TheRule) {
    EXPECT_FALSE(passwordError("12345678"));
    EXPECT_FALSE(passwordError(std::string(256, 'x')));
    EXPECT_FALSE(passwordError("pass word \xc3\xa3"));
    EXPECT_TRUE(passwordError("1234567"));
    EXPECT_TRUE(passwordError(""));
    EXPECT_TRUE(passwordError(std::string(257, 'x')));
}

TEST(Passwords, HashedWithArgon2idAndChecked) {
    const auto hash = hashPassword("correct horse");
    ASSERT_TRUE(hash.ok()) << hash.error();
    EXPECT_EQ(hash.value().rfind("$argon2id$v=19$m=65536,t=2,p=1$", 0), 0u) << hash.value();
    EXPECT_TRUE(verifyPassword(hash.value(), "correct horse"));
    EXPECT_FALSE(verifyPassword(hash.value(), "correct horsf"));
    EXPECT_FALSE(verifyPassword(hash.value(), ""));
    // Salted: the same password hashes differently each time, and both verify.
    const auto again = hashPassword("correct horse");
    ASSERT_TRUE(again.ok());
    EXPECT_NE(again.value(), hash.value());
    EXPECT_TRUE(verifyPassword(again.value(), "correct horse"));
    EXPECT_FALSE(verifyPassword("", "correct horse"));
    EXPECT_FALSE(verifyPassword("not a hash", "correct horse"));
}

TEST(Passwords, TheDummyHashIsFixedAndMatchesNothingTyped) {
    const std::string& dummy = dummyHash();
    EXPECT_EQ(dummy.rfind("$argon2id$", 0), 0u);
    EXPECT_EQ(&dummyHash(), &dummy);
    EXPECT_FALSE(verifyPassword(dummy, "12345678"));
}

TEST(Sessions, TokensAreRandomAndKeptHashed) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        const auto made = newSessionToken();
        EXPECT_EQ(made.token.size(), kTokenLength);
        EXPECT_TRUE(wellFormedToken(made.token)) << made.token;
        EXPECT_EQ(made.hash, tokenHash(made.token));
        EXPECT_EQ(made.hash.size(), 64u);
        EXPECT_EQ(made.hash.find(made.token), std::string::npos);
        EXPECT_TRUE(seen.insert(made.token).second);
    }
    EXPECT_FALSE(wellFormedToken(""));
    EXPECT_FALSE(wellFormedToken(std::string(42, 'a')));
    EXPECT_FALSE(wellFormedToken(std::string(42, 'a') + "="));
    EXPECT_FALSE(wellFormedToken(std::string(42, 'a') + "+"));
}

TEST(Sessions, TheCookie) {
    const std::string token(kTokenLength, 'A');
    EXPECT_EQ(sessionCookie(token, false),
              "lasca_session=" + token + "; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000");
    EXPECT_EQ(
        sessionCookie(token, true),
        "lasca_session=" + token + "; HttpOnly; SameSite=Lax; Path=/; Max-Age=2592000; Secure");
    EXPECT_EQ(endedSessionCookie(false),
              "lasca_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0");
    EXPECT_EQ(tokenFromCookies("lasca_session=" + token), token);
    EXPECT_EQ(tokenFromCookies("a=1; lasca_session=" + token + "; b=2"), token);
    EXPECT_EQ(tokenFromCookies("lasca_session=bad; lasca_session=" + token), token);
    EXPECT_FALSE(tokenFromCookies(""));
    EXPECT_FALSE(tokenFromCookies("lasca_session="));
    EXPECT_FALSE(tokenFromCookies("xlasca_session=" + token));
    EXPECT_FALSE(tokenFromCookies("lasca_session=" + token + "x"));
}

}  // namespace
}  // namespace web::accounts
