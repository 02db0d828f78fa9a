// The table files (docs/egtb.md): header, class index, payload and checksum, little-endian.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <span>

#include "lasca/egtb/egtb.h"
#include "two_columns.h"

namespace lasca::egtb {

namespace {

constexpr char kMagic[8] = {'L', 'A', 'S', 'C', 'A', 'T', 'B', '1'};
constexpr char kTrioMagic[8] = {'L', 'A', 'S', 'C', 'A', '2', 'V', '1'};
constexpr std::uint32_t kVersion = 1;
// magic, version, pieces, class count, slots per class, payload offset
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8;
constexpr std::size_t kChecksumBytes = 8;

// FNV-1a, 64 bits.
std::uint64_t fnv1a(const std::uint8_t* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= data[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint64_t get(std::span<const std::uint8_t> in, std::size_t at, int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
    return value;
}

// The layouts of each piece count of a family, made once: probing in the search allocates
// nothing. Counts below the family's least hold its least layout and are never asked for.
template <class L, int kLeast, int kMost>
const L& cachedLayout(int pieces) {
    static const std::vector<L> layouts = [] {
        std::vector<L> all;
        for (int n = 0; n <= kMost; ++n) all.emplace_back(std::max(n, kLeast));
        return all;
    }();
    return layouts[static_cast<std::size_t>(pieces)];
}

const Layout& layoutOf(int pieces) {
    return cachedLayout<Layout, kMinPieces, kMaxPieces>(pieces);
}

const TrioLayout& trioLayoutOf(int pieces) {
    return cachedLayout<TrioLayout, kMinTrioPieces, kMaxTrioPieces>(pieces);
}

// Shape: what a file of one family and piece count holds, and how its class index and its
// positions are laid out (docs/egtb.md, "Files").
//   entryBytes    one class index entry: 1v1 the white and black column bits (8 + 8) and
//                 heights (4 + 4); 2v1 the pair's colour (4), the low, high and lone column
//                 bits (8 each) and heights (4 each)
struct Shape {
    Family family = Family::OneAgainstOne;
    int pieces = 0;
    const char* magic = kMagic;
    std::size_t classCount = 0;
    std::size_t slotsPerClass = 0;
    std::size_t entryBytes = 0;

    std::size_t slotCount() const { return classCount * slotsPerClass; }
    std::size_t payloadOffset() const { return kHeaderBytes + classCount * entryBytes; }
    std::size_t fileBytes() const { return payloadOffset() + slotCount() + kChecksumBytes; }

    void putEntry(std::vector<std::uint8_t>& out, std::size_t c) const {
        if (family == Family::OneAgainstOne) {
            const TableClass cls = layoutOf(pieces).classAt(c);
            put(out, cls.white.bits, 8);
            put(out, cls.black.bits, 8);
            put(out, static_cast<std::uint64_t>(cls.white.height), 4);
            put(out, static_cast<std::uint64_t>(cls.black.height), 4);
        } else {
            const TrioClass cls = trioLayoutOf(pieces).classAt(c);
            put(out, static_cast<std::uint64_t>(index(cls.pair)), 4);
            for (const ColumnContent& col : {cls.low, cls.high, cls.lone}) put(out, col.bits, 8);
            for (const ColumnContent& col : {cls.low, cls.high, cls.lone})
                put(out, static_cast<std::uint64_t>(col.height), 4);
        }
    }

    // Calls fits(slot, isPosition) for every slot, class by class.
    template <class Fits>
    bool everySlot(const Fits& fits) const {
        for (std::size_t c = 0; c < classCount; ++c) {
            if (family == Family::OneAgainstOne) {
                const TableClass cls = layoutOf(pieces).classAt(c);
                for (std::size_t within = 0; within < slotsPerClass; ++within) {
                    const detail::SlotSquares at = detail::slotSquares(within);
                    if (!fits(c * slotsPerClass + within,
                              detail::isPosition(cls, at.white, at.black)))
                        return false;
                }
            } else {
                const TrioClass cls = trioLayoutOf(pieces).classAt(c);
                for (std::size_t within = 0; within < slotsPerClass; ++within)
                    if (!fits(c * slotsPerClass + within, TrioLayout::fits(cls, within)))
                        return false;
            }
        }
        return true;
    }
};

// The shape of a family's table of `pieces`; nothing when the family has no such count.
std::optional<Shape> shapeOf(Family family, std::uint64_t pieces) {
    if (family == Family::OneAgainstOne) {
        if (pieces < kMinPieces || pieces > kMaxPieces) return std::nullopt;
        const int n = static_cast<int>(pieces);
        return Shape{family, n, kMagic, layoutOf(n).classCount(), kSlotsPerClass, 8 + 8 + 4 + 4};
    }
    if (pieces < kMinTrioPieces || pieces > kMaxTrioPieces) return std::nullopt;
    const int n = static_cast<int>(pieces);
    return Shape{family,           n, kTrioMagic, trioLayoutOf(n).classCount(), kTrioSlotsPerClass,
                 4 + 3 * 8 + 3 * 4};
}

}  // namespace

std::string tableFileName(int pieces, Family family) {
    return std::string(family == Family::OneAgainstOne ? "lasca-1v1-" : "lasca-2v1-") +
           std::to_string(pieces) + ".egtb";
}

common::Result<std::vector<std::uint8_t>> tableBytes(const Table& table) {
    const auto shape = shapeOf(table.family, static_cast<std::uint64_t>(std::max(0, table.pieces)));
    if (!shape) return common::makeError("no table of " + std::to_string(table.pieces) + " pieces");
    if (table.values.size() != shape->slotCount())
        return common::makeError("the table's size does not fit its layout");
    std::vector<std::uint8_t> bytes(shape->magic, shape->magic + 8);
    put(bytes, kVersion, 4);
    put(bytes, static_cast<std::uint64_t>(table.pieces), 4);
    put(bytes, shape->classCount, 8);
    put(bytes, shape->slotsPerClass, 8);
    put(bytes, shape->payloadOffset(), 8);
    for (std::size_t c = 0; c < shape->classCount; ++c) shape->putEntry(bytes, c);
    bytes.insert(bytes.end(), table.values.begin(), table.values.end());
    put(bytes, fnv1a(bytes.data(), bytes.size()), 8);
    return bytes;
}

common::Result<std::size_t> writeTable(const std::filesystem::path& path, const Table& table) {
    const auto bytes = tableBytes(table);
    if (!bytes) return common::makeError(path.string() + ": " + bytes.error());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return common::makeError(path.string() + ": cannot write");
    out.write(reinterpret_cast<const char*>(bytes.value().data()),
              static_cast<std::streamsize>(bytes.value().size()));
    out.close();
    if (!out) return common::makeError(path.string() + ": write failed");
    return bytes.value().size();
}

common::Result<Table> readTable(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in) return common::makeError(name + ": cannot open");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    if (in.bad()) return common::makeError(name + ": read failed");
    return parseTable(bytes, name);
}

common::Result<Table> parseTable(std::span<const std::uint8_t> bytes, const std::string& name) {
    if (bytes.size() < kHeaderBytes)
        return common::makeError(name + ": truncated (" + std::to_string(bytes.size()) +
                                 " bytes, shorter than the header)");
    Family family = Family::OneAgainstOne;
    if (std::equal(std::begin(kTrioMagic), std::end(kTrioMagic), bytes.begin()))
        family = Family::TwoAgainstOne;
    else if (!std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin()))
        return common::makeError(name + ": not a Lasca table (bad magic)");
    if (get(bytes, 8, 4) != kVersion)
        return common::makeError(name + ": version " + std::to_string(get(bytes, 8, 4)) +
                                 ", expected " + std::to_string(kVersion));
    const std::uint64_t pieces = get(bytes, 12, 4);
    const auto shape = shapeOf(family, pieces);
    if (!shape)
        return common::makeError(name + ": piece count " + std::to_string(pieces) +
                                 " out of range");
    if (get(bytes, 16, 8) != shape->classCount || get(bytes, 24, 8) != shape->slotsPerClass ||
        get(bytes, 32, 8) != shape->payloadOffset())
        return common::makeError(name + ": header counts do not match " + std::to_string(pieces) +
                                 " pieces");
    const std::size_t expected = shape->fileBytes();
    if (bytes.size() != expected)
        return common::makeError(
            name + ": " + (bytes.size() < expected ? "truncated" : "trailing bytes") + " (" +
            std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + ")");
    const std::uint64_t stored = get(bytes, expected - kChecksumBytes, 8);
    const std::uint64_t computed = fnv1a(bytes.data(), expected - kChecksumBytes);
    if (stored != computed)
        return common::makeError(name + ": checksum mismatch (the file is corrupted)");
    std::vector<std::uint8_t> entry;
    for (std::size_t c = 0; c < shape->classCount; ++c) {
        entry.clear();
        shape->putEntry(entry, c);
        const auto at =
            bytes.begin() + static_cast<std::ptrdiff_t>(kHeaderBytes + c * shape->entryBytes);
        if (!std::equal(entry.begin(), entry.end(), at))
            return common::makeError(name + ": class index entry " + std::to_string(c) +
                                     " does not match the layout");
    }
    Table table{static_cast<int>(pieces),
                std::vector<std::uint8_t>(
                    bytes.begin() + static_cast<std::ptrdiff_t>(shape->payloadOffset()),
                    bytes.end() - static_cast<std::ptrdiff_t>(kChecksumBytes)),
                family};
    // Every value must fit its slot: 255 exactly where the slot is not a position.
    std::size_t bad = 0;
    const bool fits = shape->everySlot([&](std::size_t slot, bool position) {
        bad = slot;
        return position == (table.values[slot] != kNotPosition);
    });
    if (!fits)
        return common::makeError(name + ": value at slot " + std::to_string(bad) +
                                 " does not fit the layout");
    return table;
}

common::Result<Tablebase> Tablebase::open(const std::filesystem::path& folder) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        return common::makeError(folder.string() + ": not a folder");
    Tablebase tb;
    for (Family family : {Family::OneAgainstOne, Family::TwoAgainstOne}) {
        for (int n = kMinPieces; n <= kMaxPieces; ++n) {
            const std::filesystem::path file = folder / tableFileName(n, family);
            if (!std::filesystem::exists(file, ec)) continue;
            auto table = readTable(file);
            if (!table) return common::makeError(table.error());
            if (table.value().family != family || table.value().pieces != n)
                return common::makeError(file.string() + ": not the table its name says");
            tb.add(std::move(table).value());
        }
    }
    return tb;
}

void Tablebase::add(Table table) {
    // A table whose size does not fit its family and piece count (not one of the generators or
    // readTable) is not added: probing it could read beyond its values.
    const auto shape = shapeOf(table.family, static_cast<std::uint64_t>(std::max(0, table.pieces)));
    if (!shape || table.values.size() != shape->slotCount()) return;
    const auto key = std::pair{table.family, table.pieces};
    tables_[key] = std::move(table);
}

std::vector<int> Tablebase::pieceCounts(Family family) const {
    std::vector<int> counts;
    for (const auto& [key, table] : tables_)
        if (key.first == family) counts.push_back(key.second);
    return counts;
}

std::optional<Probe> Tablebase::probe(const Position& pos) const {
    const int columns = popcount(pos.occupied());
    if (columns != 2 && columns != 3) return std::nullopt;
    const int pieces = pos.pieceCount(Color::White) + pos.pieceCount(Color::Black);
    const Family family = columns == 2 ? Family::OneAgainstOne : Family::TwoAgainstOne;
    const auto it = tables_.find({family, pieces});
    if (it == tables_.end()) return std::nullopt;
    const auto slot = family == Family::OneAgainstOne ? layoutOf(pieces).slotOf(pos)
                                                      : trioLayoutOf(pieces).slotOf(pos);
    if (!slot) return std::nullopt;
    return decodeValue(it->second.values[*slot]);
}

std::optional<Wdl> Tablebase::probeWdl(const Position& pos) const {
    const auto p = probe(pos);
    if (!p) return std::nullopt;
    return p->wdl;
}

std::optional<int> Tablebase::probeDistance(const Position& pos) const {
    const auto p = probe(pos);
    if (!p) return std::nullopt;
    return p->plies;
}

std::optional<Probe> Tablebase::probeUnder(const Position& pos, DrawRules rules) const {
    const auto p = probe(pos);
    if (!p || !resultHolds(*p, pos.quietPlies(), rules)) return std::nullopt;
    return p;
}

std::string verdictText(const Probe& probe, Color sideToMove) {
    if (probe.wdl == Wdl::Draw) return "draw";
    const Color winner = probe.wdl == Wdl::Win ? sideToMove : ~sideToMove;
    return std::string(winner == Color::White ? "White" : "Black") + " wins in " +
           std::to_string(probe.plies) + (probe.plies == 1 ? " ply" : " plies");
}

}  // namespace lasca::egtb
