// The solver: retrograde analysis by sweeps over the whole set, one distance a sweep.
#include <algorithm>
#include <thread>

#include "lasca/egtb/egtb.h"
#include "two_columns.h"

namespace lasca::egtb {

namespace {

// Classes are dealt to the threads in blocks of this many, round robin.
constexpr std::size_t kClassBlock = 16;

// Runs body(cls, contents, slot, side, ws, bs, found) over every slot of the set that is a
// position and still unsolved (value 0), on `jobs` threads, and returns the slots body accepted
// (returned true for), in ascending order: the result does not depend on `jobs`.
template <class Body>
std::vector<std::size_t> sweep(const Layout& layout, const std::vector<std::uint8_t>& values,
                               int jobs, const Body& body) {
    const std::size_t blocks = (layout.classCount() + kClassBlock - 1) / kClassBlock;
    std::vector<std::vector<std::size_t>> found(static_cast<std::size_t>(jobs));
    const auto work = [&](std::size_t job) {
        for (std::size_t block = job; block < blocks; block += static_cast<std::size_t>(jobs)) {
            const std::size_t end = std::min(layout.classCount(), (block + 1) * kClassBlock);
            for (std::size_t c = block * kClassBlock; c < end; ++c) {
                const TableClass contents = layout.classAt(c);
                for (std::size_t within = 0; within < kSlotsPerClass; ++within) {
                    const std::size_t slot = c * kSlotsPerClass + within;
                    if (values[slot] != kDrawValue) continue;
                    const detail::SlotSquares at = detail::slotSquares(within);
                    if (body(c, contents, at.side, at.white, at.black)) found[job].push_back(slot);
                }
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t j = 1; j < static_cast<std::size_t>(jobs); ++j) threads.emplace_back(work, j);
    work(0);
    for (auto& t : threads) t.join();
    std::vector<std::size_t> all;
    for (const auto& f : found) all.insert(all.end(), f.begin(), f.end());
    std::sort(all.begin(), all.end());
    return all;
}

}  // namespace

common::Result<Table> generate(int pieces, int jobs) {
    if (pieces < kMinPieces || pieces > kMaxPieces)
        return common::makeError("pieces must be in " + std::to_string(kMinPieces) + ".." +
                                 std::to_string(kMaxPieces));
    jobs = std::clamp(jobs, 1, 64);
    const Layout layout(pieces);
    Table table{pieces, std::vector<std::uint8_t>(layout.slotCount(), kDrawValue)};
    std::vector<std::uint8_t>& values = table.values;

    // Slots that are not positions.
    for (std::size_t c = 0; c < layout.classCount(); ++c) {
        const TableClass contents = layout.classAt(c);
        for (std::size_t within = 0; within < kSlotsPerClass; ++within) {
            const detail::SlotSquares at = detail::slotSquares(within);
            if (!detail::isPosition(contents, at.white, at.black))
                values[c * kSlotsPerClass + within] = kNotPosition;
        }
    }

    // Sweep 0: no move is a loss in 0 plies (R9). Sweep d: an odd d finds the wins in d plies
    // (a move to a loss in d - 1, or a capture of the opponent's last column when d = 1); an
    // even d finds the losses in d plies (every move goes to a win, all of them found by now,
    // so the longest is d - 1). Once a sweep after the first finds nothing, no later one can
    // (sweep 1 also finds the captures of a last column, so it may find wins after an empty
    // sweep 0): the rest draw.
    for (int d = 0;; ++d) {
        const auto lossBefore = static_cast<std::uint8_t>(d);  // value of a loss in d - 1
        const auto body = [&](std::size_t c, const TableClass& contents, Color side, Square ws,
                              Square bs) {
            if (d == 0) {
                return detail::forEachSuccessor(layout, c, contents, side, ws, bs,
                                                [](std::size_t) {}) == 0;
            }
            bool win = false;
            bool allWins = true;
            detail::forEachSuccessor(layout, c, contents, side, ws, bs, [&](std::size_t next) {
                const std::uint8_t v = next == detail::kGameOver ? 1 : values[next];
                if (v == lossBefore) win = true;
                if (v == kDrawValue || v % 2 == 1) allWins = false;
            });
            return d % 2 == 1 ? win : allWins;
        };
        const std::vector<std::size_t> solved = sweep(layout, values, jobs, body);
        if (solved.empty() && d > 0) break;
        if (d > kMaxDistance)
            return common::makeError("a distance exceeds " + std::to_string(kMaxDistance) +
                                     " plies");
        for (std::size_t slot : solved) values[slot] = static_cast<std::uint8_t>(d + 1);
    }
    return table;
}

TableStats statsOf(const Table& table) {
    TableStats s;
    for (std::uint8_t v : table.values) {
        if (v == kNotPosition) continue;
        ++s.positions;
        const Probe p = decodeValue(v);
        if (p.wdl == Wdl::Win) ++s.wins;
        if (p.wdl == Wdl::Draw) ++s.draws;
        if (p.wdl == Wdl::Loss) ++s.losses;
        s.maxPlies = std::max(s.maxPlies, p.plies);
    }
    return s;
}

}  // namespace lasca::egtb
