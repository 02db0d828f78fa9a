// Accounts without I/O: the rule of a name, the rule of a password, the password's slow hash
// (Argon2id, libsodium's crypto_pwhash_str) and its check, a session's random token, the hash
// it is kept as, and the session cookie written and read. Nothing here touches a socket, a file
// or a clock; the store keeps what these make and the server asks them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace web::accounts {

// A name: 2..20 characters, each an ASCII letter, digit, '_' or '-'. Unique without regard to
// case: its key is its lower-case form ("Ana" and "ANA" are one name).
inline constexpr std::size_t kMinNameLength = 2;
inline constexpr std::size_t kMaxNameLength = 20;
// What a deleted account's name becomes ("deleted-<id>", the store); no name may begin with it.
inline constexpr std::string_view kDeletedNamePrefix = "deleted-";
// A password: 8..256 bytes, any bytes (UTF-8 or not, spaces included).
inline constexpr std::size_t kMinPasswordBytes = 8;
inline constexpr std::size_t kMaxPasswordBytes = 256;

// Argon2id's cost: libsodium's "interactive" limits (crypto_pwhash_OPSLIMIT_INTERACTIVE = 2
// passes, crypto_pwhash_MEMLIMIT_INTERACTIVE = 64 MiB), one hash well under a second on a core
// (docs/benchmarks.md, "Accounts", has the time measured). The limits are written into each hash,
// so a hash made with other limits still verifies.
inline constexpr unsigned long long kHashOpsLimit = 2;
inline constexpr std::size_t kHashMemLimit = std::size_t{64} << 20;

// A session: 32 random bytes from the operating system, sent as 43 characters of base64url
// (no padding), kept only as BLAKE2b-256 of that text in hex (common::hashSecret), valid for
// kSessionSeconds (30 days) from sign-in.
inline constexpr std::size_t kTokenBytes = 32;
inline constexpr std::size_t kTokenLength = 43;
inline constexpr std::int64_t kSessionSeconds = std::int64_t{30} * 24 * 3600;
inline constexpr std::string_view kCookieName = "lasca_session";

// The key of `name` (its lower-case form), or the error to show when it breaks the rule.
common::Result<std::string> nameKey(std::string_view name);

// Nothing when `password` may be used, else the error to show.
std::optional<std::string> passwordError(std::string_view password);

// The Argon2id hash of `password` as crypto_pwhash_str writes it ("$argon2id$v=19$m=65536,t=2,
// p=1$..."), salted with random bytes. Error: the system could not give the memory.
common::Result<std::string> hashPassword(std::string_view password);

// Whether `password` is the one `hash` was made from (false for a hash that is not one).
bool verifyPassword(std::string_view hash, std::string_view password);

// A hash of a random password nobody knows, made once (at the first call) with the same
// limits: checked against when a name is unknown, so that an unknown name and a wrong password
// take the same time.
const std::string& dummyHash();

// A new session token and the hash it is kept as.
struct NewToken {
    std::string token;
    std::string hash;
};
NewToken newSessionToken();

// The hash a token is kept as.
std::string tokenHash(std::string_view token);

// Whether `text` has a token's form (kTokenLength characters of A-Z a-z 0-9 - _).
bool wellFormedToken(std::string_view text);

// The Set-Cookie value that keeps `token` ("lasca_session=<token>; HttpOnly; SameSite=Lax;
// Path=/; Max-Age=2592000", with "; Secure" when `secure`), and the one that ends it
// (the same with an empty value and Max-Age=0).
std::string sessionCookie(std::string_view token, bool secure);
std::string endedSessionCookie(bool secure);

// The session token in a Cookie header ("a=1; lasca_session=<token>; b=2"): the first
// lasca_session value of a token's form, or nothing.
std::optional<std::string> tokenFromCookies(std::string_view cookieHeader);

}  // namespace web::accounts
