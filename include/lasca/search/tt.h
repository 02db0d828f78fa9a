// Transposition table: what earlier searches learnt about positions, shared by all threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/result.h"
#include "lasca/core/position.h"
#include "lasca/eval/eval.h"

namespace lasca::search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// TTEntry, 12 bytes:
//   check     upper 32 bits of the position key (the low bits chose the bucket)
//   score     search score, mate scores stored relative to this node (see toTT/fromTT)
//   eval      static evaluation of the position (saves recomputing it)
//   depth     draft of the search that produced the score, +1 so that 0 means empty
//   genBound  generation (6 high bits, the age) and Bound (2 low bits)
//   move      move id: index of the best move in generateMoves order (255 = none); the
//             generator's order is deterministic, so the index names the move, and an index
//             out of range after a key collision is simply ignored
// Entries are read and written without locks by all threads (as in Stockfish and Scan): a torn
// entry can at worst give a wrong hint, which the search treats like a key collision.
struct TTEntry {
    std::uint32_t check;
    std::int16_t score;
    std::int16_t eval;
    std::uint8_t depth;
    std::uint8_t genBound;
    std::uint8_t move;
    std::uint8_t padding;

    Bound bound() const { return static_cast<Bound>(genBound & 3); }
    int draft() const { return depth - 1; }
};
static_assert(sizeof(TTEntry) == 12);

inline constexpr std::uint8_t kNoMoveId = 255;

// What a probe found.
struct TTHit {
    bool found = false;
    Score score = 0;
    Score eval = 0;
    int depth = 0;
    Bound bound = Bound::None;
    std::uint8_t move = kNoMoveId;
};

// TranspositionTable: buckets of 5 entries filling one 64-byte cache line; a key's bucket is
// chosen by its low bits (the bucket count is a power of two). Replacement prefers the same
// position, then an empty slot, then the entry with the least depth, an old generation counting
// as 8 plies less.
class TranspositionTable {
  public:
    static constexpr std::size_t kMinMegabytes = 1;
    static constexpr std::size_t kMaxMegabytes = 65536;

    TranspositionTable();
    // Allocates about `megabytes` (rounded down to a power-of-two bucket count). A size beyond
    // three quarters of the machine's physical memory, or an allocation failure, keeps the
    // previous table and returns an error.
    common::Result<std::size_t> resize(std::size_t megabytes);
    void clear();
    void newSearch() { generation_ = static_cast<std::uint8_t>((generation_ + 4) & 0xfc); }

    TTHit probe(Key key) const;
    void store(Key key, Score score, Score eval, int depth, Bound bound, std::uint8_t move);
    void prefetch(Key key) const { __builtin_prefetch(bucketFor(key)); }

    int hashfull() const;  // permille of sampled entries written by the current search
    std::size_t megabytes() const { return megabytes_; }

  private:
    struct alignas(64) Bucket {
        TTEntry entries[5];
        std::uint32_t padding;
    };
    static_assert(sizeof(Bucket) == 64);

    Bucket* bucketFor(Key key) const { return &buckets_[key & (bucketCount_ - 1)]; }

    // The buckets' memory: see allocate in tt.cpp.
    struct FreeBuckets {
        void operator()(Bucket* buckets) const;
    };
    using Buckets = std::unique_ptr<Bucket[], FreeBuckets>;
    static Buckets allocate(std::size_t count);

    Buckets buckets_;
    std::size_t bucketCount_ = 0;
    std::size_t megabytes_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate scores are stored as distance from the node, read back as distance from the root.
Score scoreToTT(Score s, int ply);
Score scoreFromTT(Score s, int ply);

}  // namespace lasca::search
