#include "lasca/search/tt.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

namespace lasca::search {

namespace {
constexpr std::uint32_t checkOf(Key key) {
    return static_cast<std::uint32_t>(key >> 32);
}
constexpr std::uint8_t generationOf(const TTEntry& e) {
    return e.genBound & 0xfc;
}

// Three quarters of the machine's physical memory, in MB: a larger table would be allocated
// lazily by the kernel and could get the process killed when cleared, instead of failing.
std::size_t usableMegabytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return TranspositionTable::kMaxMegabytes;
    const auto bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
    return static_cast<std::size_t>(bytes / 4 * 3 / (1024 * 1024));
}
}  // namespace

// A table of 2 MB or more is allocated on 2 MB boundaries, in whole 2 MB, and marked for
// transparent huge pages where the kernel has them (Linux's madvise mode): a probe is a random
// access into megabytes, and with 4 KB pages most probes would miss the TLB as well as the
// cache (about 10% of the search's speed, docs/benchmarks.md). Nothing depends on the kernel
// granting them. An empty pointer when the memory is not there.
TranspositionTable::Buckets TranspositionTable::allocate(std::size_t count) {
    constexpr std::size_t kHugePage = std::size_t{2} * 1024 * 1024;
    const std::size_t bytes = count * sizeof(Bucket);
    if (bytes < kHugePage)
        return Buckets(static_cast<Bucket*>(std::aligned_alloc(alignof(Bucket), bytes)));
    const std::size_t whole = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, whole);
#if defined(MADV_HUGEPAGE)
    if (memory) (void)madvise(memory, whole, MADV_HUGEPAGE);
#endif
    return Buckets(static_cast<Bucket*>(memory));
}

void TranspositionTable::FreeBuckets::operator()(Bucket* buckets) const {
    std::free(buckets);
}

TranspositionTable::TranspositionTable() {
    (void)resize(16);
}

common::Result<std::size_t> TranspositionTable::resize(std::size_t megabytes) {
    if (megabytes < kMinMegabytes || megabytes > kMaxMegabytes)
        return common::makeError("hash size must be between " + std::to_string(kMinMegabytes) +
                                 " and " + std::to_string(kMaxMegabytes) + " MB");
    if (megabytes > usableMegabytes())
        return common::makeError(
            "hash size " + std::to_string(megabytes) + " MB is more than this machine can hold (" +
            std::to_string(usableMegabytes()) + " MB, three quarters of its memory)");
    std::size_t count = 1;
    while (count * 2 * sizeof(Bucket) <= megabytes * 1024 * 1024) count *= 2;
    if (count == bucketCount_) {
        clear();
        return megabytes_;
    }
    Buckets fresh = allocate(count);
    if (!fresh)
        return common::makeError("cannot allocate " + std::to_string(megabytes) + " MB of hash");
    buckets_ = std::move(fresh);
    bucketCount_ = count;
    megabytes_ = megabytes;
    clear();
    return megabytes_;
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(buckets_.get()), 0, bucketCount_ * sizeof(Bucket));
    generation_ = 0;
}

TTHit TranspositionTable::probe(Key key) const {
    const Bucket* bucket = bucketFor(key);
    const std::uint32_t check = checkOf(key);
    for (const TTEntry& e : bucket->entries) {
        if (e.check != check || e.depth == 0) continue;
        return TTHit{true, e.score, e.eval, e.draft(), e.bound(), e.move};
    }
    return {};
}

void TranspositionTable::store(Key key, Score score, Score eval, int depth, Bound bound,
                               std::uint8_t move) {
    Bucket* bucket = bucketFor(key);
    const std::uint32_t check = checkOf(key);
    TTEntry* victim = &bucket->entries[0];
    int victimWorth = 1 << 30;
    for (TTEntry& e : bucket->entries) {
        if (e.depth == 0 || e.check == check) {
            victim = &e;
            break;
        }
        const int age = ((generation_ - generationOf(e)) & 0xfc) / 4;
        const int worth = e.depth - 8 * age;
        if (worth < victimWorth) {
            victimWorth = worth;
            victim = &e;
        }
    }
    // Keep a deeper result for the same position unless the new one is exact or the old stale.
    if (victim->check == check && victim->depth != 0 && bound != Bound::Exact &&
        generationOf(*victim) == generation_ && depth + 1 + 2 < victim->depth) {
        if (victim->move == kNoMoveId) victim->move = move;
        return;
    }
    if (move == kNoMoveId && victim->check == check) move = victim->move;
    victim->check = check;
    victim->score = static_cast<std::int16_t>(score);
    victim->eval = static_cast<std::int16_t>(eval);
    victim->depth = static_cast<std::uint8_t>(std::clamp(depth + 1, 1, 255));
    victim->genBound = static_cast<std::uint8_t>(generation_ | static_cast<std::uint8_t>(bound));
    victim->move = move;
}

int TranspositionTable::hashfull() const {
    const std::size_t sample = std::min<std::size_t>(200, bucketCount_);
    int used = 0;
    for (std::size_t i = 0; i < sample; ++i)
        for (const TTEntry& e : buckets_[i].entries)
            used += e.depth != 0 && generationOf(e) == generation_;
    return static_cast<int>(used * 1000 / static_cast<int>(sample * 5));
}

Score scoreToTT(Score s, int ply) {
    if (s >= kMateBound) return s + ply;
    if (s <= -kMateBound) return s - ply;
    return s;
}

Score scoreFromTT(Score s, int ply) {
    if (s >= kMateBound) return s - ply;
    if (s <= -kMateBound) return s + ply;
    return s;
}

}  // namespace lasca::search
