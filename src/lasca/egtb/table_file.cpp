// The table files (docs/egtb.md): header, class index, payload and checksum, little-endian.
#include <algorithm>
#include <fstream>
#include <iterator>

#include "lasca/egtb/egtb.h"
#include "two_columns.h"

namespace lasca::egtb {

namespace {

constexpr char kMagic[8] = {'L', 'A', 'S', 'C', 'A', 'T', 'B', '1'};
constexpr std::uint32_t kVersion = 1;
// magic, version, pieces, class count, slots per class, payload offset
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8 + 8;
// white bits, black bits, white height, black height
constexpr std::size_t kClassEntryBytes = 8 + 8 + 4 + 4;
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

std::uint64_t get(const std::vector<std::uint8_t>& in, std::size_t at, int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value |= std::uint64_t{in[at + static_cast<std::size_t>(i)]} << (8 * i);
    return value;
}

// The layout of each piece count, made once: probing in the search allocates nothing.
const Layout& layoutOf(int pieces) {
    static const std::vector<Layout> layouts = [] {
        std::vector<Layout> all;
        for (int n = 0; n <= kMaxPieces; ++n) all.emplace_back(std::max(n, kMinPieces));
        return all;
    }();
    return layouts[static_cast<std::size_t>(pieces)];
}

std::size_t payloadOffset(const Layout& layout) {
    return kHeaderBytes + layout.classCount() * kClassEntryBytes;
}

}  // namespace

std::string tableFileName(int pieces) {
    return "lasca-1v1-" + std::to_string(pieces) + ".egtb";
}

common::Result<std::size_t> writeTable(const std::filesystem::path& path, const Table& table) {
    if (table.pieces < kMinPieces || table.pieces > kMaxPieces)
        return common::makeError(path.string() + ": no table of " + std::to_string(table.pieces) +
                                 " pieces");
    const Layout layout(table.pieces);
    if (table.values.size() != layout.slotCount())
        return common::makeError(path.string() + ": the table's size does not fit its layout");
    std::vector<std::uint8_t> bytes(std::begin(kMagic), std::end(kMagic));
    put(bytes, kVersion, 4);
    put(bytes, static_cast<std::uint64_t>(table.pieces), 4);
    put(bytes, layout.classCount(), 8);
    put(bytes, kSlotsPerClass, 8);
    put(bytes, payloadOffset(layout), 8);
    for (std::size_t c = 0; c < layout.classCount(); ++c) {
        const TableClass cls = layout.classAt(c);
        put(bytes, cls.white.bits, 8);
        put(bytes, cls.black.bits, 8);
        put(bytes, static_cast<std::uint64_t>(cls.white.height), 4);
        put(bytes, static_cast<std::uint64_t>(cls.black.height), 4);
    }
    bytes.insert(bytes.end(), table.values.begin(), table.values.end());
    put(bytes, fnv1a(bytes.data(), bytes.size()), 8);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return common::makeError(path.string() + ": cannot write");
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return common::makeError(path.string() + ": write failed");
    return bytes.size();
}

common::Result<Table> readTable(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in) return common::makeError(name + ": cannot open");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    if (in.bad()) return common::makeError(name + ": read failed");
    if (bytes.size() < kHeaderBytes)
        return common::makeError(name + ": truncated (" + std::to_string(bytes.size()) +
                                 " bytes, shorter than the header)");
    if (!std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin()))
        return common::makeError(name + ": not a Lasca table (bad magic)");
    if (get(bytes, 8, 4) != kVersion)
        return common::makeError(name + ": version " + std::to_string(get(bytes, 8, 4)) +
                                 ", expected " + std::to_string(kVersion));
    const std::uint64_t pieces = get(bytes, 12, 4);
    if (pieces < kMinPieces || pieces > kMaxPieces)
        return common::makeError(name + ": piece count " + std::to_string(pieces) +
                                 " out of range");
    const Layout layout(static_cast<int>(pieces));
    if (get(bytes, 16, 8) != layout.classCount() || get(bytes, 24, 8) != kSlotsPerClass ||
        get(bytes, 32, 8) != payloadOffset(layout))
        return common::makeError(name + ": header counts do not match " + std::to_string(pieces) +
                                 " pieces");
    const std::size_t expected = payloadOffset(layout) + layout.slotCount() + kChecksumBytes;
    if (bytes.size() != expected)
        return common::makeError(
            name + ": " + (bytes.size() < expected ? "truncated" : "trailing bytes") + " (" +
            std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + ")");
    const std::uint64_t stored = get(bytes, expected - kChecksumBytes, 8);
    const std::uint64_t computed = fnv1a(bytes.data(), expected - kChecksumBytes);
    if (stored != computed)
        return common::makeError(name + ": checksum mismatch (the file is corrupted)");
    for (std::size_t c = 0; c < layout.classCount(); ++c) {
        const std::size_t at = kHeaderBytes + c * kClassEntryBytes;
        const TableClass cls{{get(bytes, at, 8), static_cast<int>(get(bytes, at + 16, 4))},
                             {get(bytes, at + 8, 8), static_cast<int>(get(bytes, at + 20, 4))}};
        if (!(cls == layout.classAt(c)))
            return common::makeError(name + ": class index entry " + std::to_string(c) +
                                     " does not match the layout");
    }
    Table table{static_cast<int>(pieces),
                std::vector<std::uint8_t>(
                    bytes.begin() + static_cast<std::ptrdiff_t>(payloadOffset(layout)),
                    bytes.end() - static_cast<std::ptrdiff_t>(kChecksumBytes))};
    // Every value must fit its slot: 255 exactly where the slot is not a position.
    for (std::size_t c = 0; c < layout.classCount(); ++c) {
        const TableClass cls = layout.classAt(c);
        for (std::size_t within = 0; within < kSlotsPerClass; ++within) {
            const detail::SlotSquares at = detail::slotSquares(within);
            const bool position = detail::isPosition(cls, at.white, at.black);
            if (position != (table.values[c * kSlotsPerClass + within] != kNotPosition))
                return common::makeError(name + ": value at slot " +
                                         std::to_string(c * kSlotsPerClass + within) +
                                         " does not fit the layout");
        }
    }
    return table;
}

common::Result<Tablebase> Tablebase::open(const std::filesystem::path& folder) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        return common::makeError(folder.string() + ": not a folder");
    Tablebase tb;
    for (int n = kMinPieces; n <= kMaxPieces; ++n) {
        const std::filesystem::path file = folder / tableFileName(n);
        if (!std::filesystem::exists(file, ec)) continue;
        auto table = readTable(file);
        if (!table) return common::makeError(table.error());
        tb.add(std::move(table).value());
    }
    return tb;
}

void Tablebase::add(Table table) {
    // A table whose size does not fit its piece count (not one of generate or readTable) is
    // not added: probing it could read beyond its values.
    const int pieces = table.pieces;
    if (pieces < kMinPieces || pieces > kMaxPieces) return;
    if (table.values.size() != layoutOf(pieces).slotCount()) return;
    tables_[pieces] = std::move(table);
}

std::vector<int> Tablebase::pieceCounts() const {
    std::vector<int> counts;
    for (const auto& [n, table] : tables_) counts.push_back(n);
    return counts;
}

std::optional<Probe> Tablebase::probe(const Position& pos) const {
    if (popcount(pos.occupied()) != 2) return std::nullopt;
    const int pieces = pos.pieceCount(Color::White) + pos.pieceCount(Color::Black);
    const auto it = tables_.find(pieces);
    if (it == tables_.end()) return std::nullopt;
    const auto slot = layoutOf(pieces).slotOf(pos);
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

}  // namespace lasca::egtb
