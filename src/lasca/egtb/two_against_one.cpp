// The set "two columns against one": its index and its solver. A move there stays in the set,
// reaches one column a side (looked up in that table) or ends the game (docs/egtb.md).
#include <algorithm>
#include <thread>

#include "lasca/core/movegen.h"
#include "lasca/egtb/egtb.h"
#include "two_columns.h"

namespace lasca::egtb {

namespace {

constexpr std::size_t kSquareCount = kSquares;

struct TrioSquares {
    Color side = Color::White;
    Square low = 0;
    Square high = 0;
    Square lone = 0;
};

TrioSquares trioSquares(std::size_t within) {
    constexpr std::size_t perSide = kSquareCount * kSquareCount * kSquareCount;
    return {within < perSide ? Color::White : Color::Black,
            static_cast<Square>(within / (kSquareCount * kSquareCount) % kSquareCount),
            static_cast<Square>(within / kSquareCount % kSquareCount),
            static_cast<Square>(within % kSquareCount)};
}

bool trioFits(const TrioClass& cls, const TrioSquares& at) {
    return at.low < at.high && at.lone != at.low && at.lone != at.high &&
           detail::commanderFits(cls.low, at.low) && detail::commanderFits(cls.high, at.high) &&
           detail::commanderFits(cls.lone, at.lone);
}

Color ownerOf(const ColumnContent& c) {
    return colorOf(static_cast<Piece>(c.bits & 3));
}

}  // namespace

TrioLayout::TrioLayout(int pieces) : pieces_(pieces) {
    for (Color pair : {Color::White, Color::Black})
        for (int low = 1; low <= pieces - 2; ++low)
            for (int high = 1; low + high <= pieces - 1; ++high) {
                const int lone = pieces - low - high;
                const std::size_t count =
                    contentCount(low) * contentCount(high) * contentCount(lone);
                groups_.push_back({pair, low, high, lone, classCount_, count});
                classCount_ += count;
            }
}

TrioClass TrioLayout::classAt(std::size_t c) const {
    const auto g = std::find_if(groups_.begin(), groups_.end(),
                                [c](const Group& group) { return c < group.first + group.count; });
    const std::size_t rest = c - g->first;
    const std::size_t highCount = contentCount(g->high);
    const std::size_t loneCount = contentCount(g->lone);
    return {g->pair, contentAt(g->pair, g->low, rest / (highCount * loneCount)),
            contentAt(g->pair, g->high, rest / loneCount % highCount),
            contentAt(~g->pair, g->lone, rest % loneCount)};
}

std::optional<std::size_t> TrioLayout::classOf(const TrioClass& cls) const {
    if (cls.low.height < 1 || cls.high.height < 1 || cls.lone.height < 1) return std::nullopt;
    if (ownerOf(cls.low) != cls.pair || ownerOf(cls.high) != cls.pair ||
        ownerOf(cls.lone) != ~cls.pair)
        return std::nullopt;
    const auto g = std::find_if(groups_.begin(), groups_.end(), [&](const Group& group) {
        return group.pair == cls.pair && group.low == cls.low.height &&
               group.high == cls.high.height && group.lone == cls.lone.height;
    });
    if (g == groups_.end()) return std::nullopt;
    const auto low = contentIndex(cls.low);
    const auto high = contentIndex(cls.high);
    const auto lone = contentIndex(cls.lone);
    if (!low || !high || !lone) return std::nullopt;
    return g->first + (*low * contentCount(g->high) + *high) * contentCount(g->lone) + *lone;
}

std::optional<std::size_t> TrioLayout::slotOf(const Position& pos) const {
    if (popcount(pos.occupied()) != 3) return std::nullopt;
    const Bitboard white = pos.commandedBy(Color::White);
    const Bitboard black = pos.commandedBy(Color::Black);
    const Color pair = popcount(white) == 2 ? Color::White : Color::Black;
    const Bitboard pairColumns = pair == Color::White ? white : black;
    if (popcount(pairColumns) != 2) return std::nullopt;
    const Square low = lowestSquare(pairColumns);
    const Square high = lowestSquare(pairColumns & ~bit(low));
    const Square lone = lowestSquare(pair == Color::White ? black : white);
    const auto content = [&](Square s) { return ColumnContent{pos.column(s), pos.height(s)}; };
    const auto c = classOf({pair, content(low), content(high), content(lone)});
    if (!c) return std::nullopt;
    return *c * kTrioSlotsPerClass +
           static_cast<std::size_t>(index(pos.sideToMove())) * (kTrioSlotsPerClass / 2) +
           (static_cast<std::size_t>(low) * kSquareCount + static_cast<std::size_t>(high)) *
               kSquareCount +
           static_cast<std::size_t>(lone);
}

bool TrioLayout::fits(const TrioClass& cls, std::size_t within) {
    return trioFits(cls, trioSquares(within));
}

bool TrioLayout::isPosition(std::size_t slot) const {
    return slot < slotCount() &&
           fits(classAt(slot / kTrioSlotsPerClass), slot % kTrioSlotsPerClass);
}

std::optional<Position> TrioLayout::positionAt(std::size_t slot) const {
    if (slot >= slotCount()) return std::nullopt;
    const TrioClass cls = classAt(slot / kTrioSlotsPerClass);
    const TrioSquares at = trioSquares(slot % kTrioSlotsPerClass);
    if (!trioFits(cls, at)) return std::nullopt;
    Position pos;
    pos.setColumn(at.low, cls.low.bits, cls.low.height);
    pos.setColumn(at.high, cls.high.bits, cls.high.height);
    pos.setColumn(at.lone, cls.lone.bits, cls.lone.height);
    pos.setSideToMove(at.side);
    return pos;
}

namespace {

// A successor as the solver keeps it: a slot of the set, or (kFixed set) the value of a
// position outside it, known already (a one-column-a-side table value, or 1 when the side to
// move there has no column: a loss in 0).
constexpr std::uint32_t kFixed = 0x80000000U;

// The move graph of the set: the successors of slot s are next[first[s] .. first[s + 1]).
struct MoveGraph {
    std::vector<std::uint64_t> first;
    std::vector<std::uint32_t> next;
};

// The successors of every position of slots [begin, end): appended to `graph` (whose `first`
// holds one entry per slot of the range, relative to its own `next`). An error names a
// successor outside the set and the 1v1 table.
common::Result<bool> addMoves(const TrioLayout& layout, const Layout& small,
                              const Table& smallTable, std::size_t begin, std::size_t end,
                              MoveGraph& graph) {
    MoveList list;
    for (std::size_t slot = begin; slot < end; ++slot) {
        graph.first.push_back(graph.next.size());
        const auto pos = layout.positionAt(slot);
        if (!pos) continue;
        Position p = *pos;
        list.clear();
        generateMoves(p, list);
        for (const Move& m : list) {
            Undo undo{};
            p.make(m, undo);
            if (p.commandedBy(p.sideToMove()) == 0) {
                graph.next.push_back(kFixed | 1U);
            } else if (popcount(p.occupied()) == 2) {
                const auto s = small.slotOf(p);
                if (!s) return common::makeError("a capture leaves the sets: " + p.toLfen());
                graph.next.push_back(kFixed | smallTable.values[*s]);
            } else {
                const auto s = layout.slotOf(p);
                if (!s) return common::makeError("a move leaves the set: " + p.toLfen());
                graph.next.push_back(static_cast<std::uint32_t>(*s));
            }
            p.unmake(m, undo);
        }
    }
    return true;
}

}  // namespace

common::Result<Table> generateTrio(int pieces, const Table& oneAgainstOne, int jobs) {
    if (pieces < kMinTrioPieces || pieces > kMaxTrioPieces)
        return common::makeError("pieces must be in " + std::to_string(kMinTrioPieces) + ".." +
                                 std::to_string(kMaxTrioPieces) + " for two columns against one");
    const Layout small(pieces);
    if (oneAgainstOne.family != Family::OneAgainstOne || oneAgainstOne.pieces != pieces ||
        oneAgainstOne.values.size() != small.slotCount())
        return common::makeError("two against one needs the one-column-a-side table of " +
                                 std::to_string(pieces) + " pieces");
    jobs = std::clamp(jobs, 1, 64);
    const TrioLayout layout(pieces);
    const std::size_t slots = layout.slotCount();

    // The move graph, built in `jobs` contiguous ranges of classes and joined in order.
    const std::size_t classesPerJob =
        (layout.classCount() + static_cast<std::size_t>(jobs) - 1) / static_cast<std::size_t>(jobs);
    std::vector<MoveGraph> parts(static_cast<std::size_t>(jobs));
    std::vector<common::Result<bool>> done(static_cast<std::size_t>(jobs), true);
    {
        const auto work = [&](std::size_t job) {
            const std::size_t begin = std::min(slots, job * classesPerJob * kTrioSlotsPerClass);
            const std::size_t end = std::min(slots, (job + 1) * classesPerJob * kTrioSlotsPerClass);
            done[job] = addMoves(layout, small, oneAgainstOne, begin, end, parts[job]);
        };
        std::vector<std::thread> threads;
        for (std::size_t j = 1; j < parts.size(); ++j) threads.emplace_back(work, j);
        work(0);
        for (auto& t : threads) t.join();
    }
    for (const auto& d : done)
        if (!d) return common::makeError(d.error());
    MoveGraph graph;
    graph.first.reserve(slots + 1);
    for (MoveGraph& part : parts) {
        const std::uint64_t base = graph.next.size();
        for (std::uint64_t f : part.first) graph.first.push_back(base + f);
        graph.next.insert(graph.next.end(), part.next.begin(), part.next.end());
        part = {};
    }
    graph.first.push_back(graph.next.size());

    Table table{pieces, std::vector<std::uint8_t>(slots, kDrawValue), Family::TwoAgainstOne};
    std::vector<std::uint8_t>& values = table.values;
    int longestFixed = 0;  // the longest distance of a position outside the set, in plies
    for (std::size_t c = 0; c < layout.classCount(); ++c) {
        const TrioClass cls = layout.classAt(c);
        for (std::size_t within = 0; within < kTrioSlotsPerClass; ++within)
            if (!TrioLayout::fits(cls, within))
                values[c * kTrioSlotsPerClass + within] = kNotPosition;
    }
    for (std::uint32_t n : graph.next)
        if ((n & kFixed) != 0) longestFixed = std::max(longestFixed, decodeValue(n & 0xff).plies);

    // Sweep d (values: d + 1 for d plies) as for one column a side, with the positions outside
    // the set known from the start: an odd d finds the wins in d (a move to a loss in d - 1),
    // an even d the losses in d (every move to a win, the longest in d - 1: a win outside the
    // set may be longer than the sweeps so far, so the longest is checked). Once d is past the
    // longest distance outside the set, a sweep that finds nothing ends them: the rest draw.
    const std::size_t perJob =
        (slots + static_cast<std::size_t>(jobs) - 1) / static_cast<std::size_t>(jobs);
    for (int d = 0;; ++d) {
        const auto target = static_cast<std::uint8_t>(std::min(d, 255));
        std::vector<std::vector<std::size_t>> found(static_cast<std::size_t>(jobs));
        const auto work = [&](std::size_t job) {
            const std::size_t end = std::min(slots, (job + 1) * perJob);
            for (std::size_t slot = job * perJob; slot < end; ++slot) {
                if (values[slot] != kDrawValue) continue;
                const std::uint64_t from = graph.first[slot], to = graph.first[slot + 1];
                bool solved = false;
                if (d == 0) {
                    solved = from == to;
                } else if (d % 2 == 1) {
                    for (std::uint64_t i = from; i < to && !solved; ++i) {
                        const std::uint32_t n = graph.next[i];
                        solved = ((n & kFixed) != 0 ? (n & 0xff) : values[n]) == target;
                    }
                } else {
                    std::uint8_t longest = 0;
                    bool allWins = from != to;
                    for (std::uint64_t i = from; i < to && allWins; ++i) {
                        const std::uint32_t n = graph.next[i];
                        const std::uint8_t v = (n & kFixed) != 0 ? (n & 0xff) : values[n];
                        allWins = v != kDrawValue && v != kNotPosition && v % 2 == 0;
                        longest = std::max(longest, v);
                    }
                    solved = allWins && longest == target;
                }
                if (solved) found[job].push_back(slot);
            }
        };
        std::vector<std::thread> threads;
        for (std::size_t j = 1; j < found.size(); ++j) threads.emplace_back(work, j);
        work(0);
        for (auto& t : threads) t.join();
        std::size_t count = 0;
        for (const auto& f : found) count += f.size();
        if (count == 0 && d > 0 && d > longestFixed + 1) break;
        if (count > 0 && d > kMaxDistance)
            return common::makeError("a distance exceeds " + std::to_string(kMaxDistance) +
                                     " plies");
        for (const auto& f : found)
            for (std::size_t slot : f) values[slot] = static_cast<std::uint8_t>(d + 1);
    }
    return table;
}

}  // namespace lasca::egtb
