// Seeds that keep secrets: the seeds of a game with hidden information (Torneio) are handed to
// programs that must not learn one another's. A seat's seed is therefore derived with a one-way
// keyed function (keyed BLAKE2b, libsodium's crypto_generichash) from the game's seed, and a
// game's seed from the match's: from any number of derived seeds nothing about the key or about
// the seeds derived for other purposes or indices can be computed, short of trying every key
// (2^64 for a seed drawn from the operating system; a small operator-given seed is guessable by
// trying small numbers, which is why matches between programs use a drawn one).
// common::mixSeed (random.h) stays for streams inside one program (threads, decisions), where
// nobody else sees the numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace common {

// Keyed BLAKE2b with an 8-byte output (not a longer digest cut) over (purpose, 0x00, index as 8
// bytes little-endian), read little-endian, the key being `key` (8 bytes, little-endian, padded
// with zeros to libsodium's 16-byte minimum). The same on every platform and run.
std::uint64_t deriveSeed(std::uint64_t key, std::string_view purpose, std::uint64_t index);

// A seed drawn from the operating system's random source (getrandom, through libsodium).
std::uint64_t systemSeed();

// `bytes` bytes from the operating system's random source as lowercase hex: ids and secret
// tokens (a table's id, a seat's link).
std::string randomHex(std::size_t bytes);

// A secret (a seat's token) as it is kept: BLAKE2b-256 of it, as 64 hex digits; the secret itself
// cannot be computed from it.
std::string hashSecret(std::string_view secret);
// Whether two kept hashes are equal, in time that does not depend on where they differ.
bool sameSecret(std::string_view a, std::string_view b);

}  // namespace common
