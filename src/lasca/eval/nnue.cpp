#include "lasca/eval/nnue.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

#if defined(__x86_64__)
// GCC 12 warns of an uninitialised value inside its own _mm512_extracti64x4_epi64 (a false
// positive of the header, GCC bug 105593) when the intrinsic is inlined without LTO.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

namespace lasca::eval::nnue {

// ---- Inputs ------------------------------------------------------------------------------------

namespace {

constexpr int kSecondOffset = 4;
constexpr int kThirdOffset = 8;
constexpr int kMakeUpOffset = 12;
constexpr ColumnBits kBlackBits = 0x5555555555555555ULL;

// Ours/theirs x soldier/officer: 0 our soldier, 1 our officer, 2 their soldier, 3 their officer.
constexpr int relativeKind(Piece p, Color perspective) {
    return (colorOf(p) == perspective ? 0 : 2) + (isOfficer(p) ? 1 : 0);
}

Piece pieceOf(ColumnBits bits, int depthFromTop) {
    return static_cast<Piece>((bits >> (2 * depthFromTop)) & 3);
}

}  // namespace

namespace {

// An input's offset inside its square as the other colour sees it, ours and theirs swapped:
// bit 1 of a kind (offsets below kMakeUpOffset), bit 4 of a make-up's place among the make-ups.
constexpr std::array<std::uint8_t, kFeaturesPerSquare> kTurnedOffset = [] {
    std::array<std::uint8_t, kFeaturesPerSquare> t{};
    for (int o = 0; o < kFeaturesPerSquare; ++o)
        t[static_cast<std::size_t>(o)] = static_cast<std::uint8_t>(
            o < kMakeUpOffset ? (o ^ 2) : kMakeUpOffset + ((o - kMakeUpOffset) ^ 16));
    return t;
}();

int turnedOffset(int offset) {
    return kTurnedOffset[static_cast<std::size_t>(offset)];
}

// Writes the inputs of a column (height >= 1) on square s, in the order of the header
// (commander, second, third, make-up), for White at `white` and, mirrored, for Black at `black`
// (the perspectives kWhite and kBlack ask for), and returns how many (2-4). Without branches
// on the height: the three kinds are always written, the make-up then over the first slot past
// the column's pieces, so up to 4 slots are written even when fewer count (at most one past
// the count). A FeatureList has room for that: a position's columns, or the columns a move
// changes, hold at most 2 x kPiecesPerSide pieces, so at most that many columns and that many
// inputs beyond the commanders (2 x 22 = 44 in all), and kMaxActive is 100.
template <bool kWhite, bool kBlack>
int writeColumn(Square s, ColumnBits bits, int height, std::uint16_t* white, std::uint16_t* black) {
    const int whiteBase = s * kFeaturesPerSquare;
    const int blackBase = (kSquares - 1 - s) * kFeaturesPerSquare;
    constexpr std::array<int, 3> kSlotOffset{0, kSecondOffset, kThirdOffset};
    for (int k = 0; k < 3; ++k) {
        const int kind =
            kSlotOffset[static_cast<std::size_t>(k)] + relativeKind(pieceOf(bits, k), Color::White);
        if constexpr (kWhite) white[k] = static_cast<std::uint16_t>(whiteBase + kind);
        if constexpr (kBlack) black[k] = static_cast<std::uint16_t>(blackBase + (kind ^ 2));
    }
    const Piece top = pieceOf(bits, 0);
    const ColumnBits used = (ColumnBits{1} << (2 * height)) - 1;
    const int blackPieces = std::popcount(bits & used & kBlackBits);
    const int own = colorOf(top) == Color::Black ? blackPieces : height - blackPieces;
    const int other = height - own;
    // The make-up's place among the make-ups for White: ours (0) or theirs (16), own, other.
    const int makeUp =
        (colorOf(top) == Color::White ? 0 : 16) + (std::min(own, 4) - 1) * 4 + std::min(other, 3);
    const int kinds = std::min(height, 3);
    if constexpr (kWhite)
        white[kinds] = static_cast<std::uint16_t>(whiteBase + kMakeUpOffset + makeUp);
    if constexpr (kBlack)
        black[kinds] = static_cast<std::uint16_t>(blackBase + kMakeUpOffset + (makeUp ^ 16));
    return kinds + 1;
}

static_assert(kMaxActive >= 2 * (2 * kPiecesPerSide) + kMaxActivePerColumn,
              "writeColumn writes up to four slots past a list's last input");

// The inputs of a column for both perspectives at once: White's to `white`, Black's (the same
// inputs mirrored, mirroredFeature) to `black`.
void columnFeaturesBoth(Square s, ColumnBits bits, int height, FeatureList& white,
                        FeatureList& black) {
    if (height <= 0) return;
    const int n = writeColumn<true, true>(s, bits, height, white.index.data() + white.size,
                                          black.index.data() + black.size);
    white.size += n;
    black.size += n;
}

}  // namespace

void columnFeatures(Square s, ColumnBits bits, int height, Color perspective, FeatureList& out) {
    if (height <= 0) return;
    std::uint16_t* at = out.index.data() + out.size;
    out.size += perspective == Color::White
                    ? writeColumn<true, false>(s, bits, height, at, nullptr)
                    : writeColumn<false, true>(s, bits, height, nullptr, at);
}

int mirroredFeature(int feature) {
    const int square = feature / kFeaturesPerSquare;
    return (kSquares - 1 - square) * kFeaturesPerSquare +
           turnedOffset(feature % kFeaturesPerSquare);
}

FeatureList activeFeatures(const Position& pos, Color perspective) {
    FeatureList list;
    for (Square s = 0; s < kSquares; ++s)
        columnFeatures(s, pos.column(s), pos.height(s), perspective, list);
    return list;
}

std::uint32_t inputFingerprint() {
    static const std::uint32_t value = [] {
        std::uint32_t hash = 2166136261u;
        const auto mix = [&hash](std::uint32_t v) {
            for (int i = 0; i < 4; ++i) {
                hash ^= (v >> (8 * i)) & 0xFFu;
                hash *= 16777619u;
            }
        };
        mix(kInputs);
        mix(kHidden);
        for (int height = 0; height <= 6; ++height)
            for (ColumnBits bits = 0; bits < (ColumnBits{1} << (2 * height)); ++bits)
                for (Square s = 0; s < kSquares; ++s)
                    for (Color p : {Color::White, Color::Black}) {
                        FeatureList features;
                        columnFeatures(s, bits, height, p, features);
                        mix(static_cast<std::uint32_t>(features.size));
                        for (int k = 0; k < features.size; ++k)
                            mix(features.index[static_cast<std::size_t>(k)]);
                    }
        return hash;
    }();
    return value;
}

// ---- The network file ---------------------------------------------------------------------------

namespace {

constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 4;
constexpr std::size_t kFileBytes = kHeaderBytes + 2 * static_cast<std::size_t>(kInputs) * kHidden +
                                   2 * kHidden + 2 * 2 * kHidden + 4;

// ByteReader: little-endian values from a byte span, in order (the length is checked first).
struct ByteReader {
    std::span<const unsigned char> bytes;
    std::size_t at = 0;
    std::uint32_t u32() {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(bytes[at++]) << (8 * i);
        return v;
    }
    std::int16_t i16() {
        const auto lo = static_cast<std::uint16_t>(bytes[at]);
        const auto hi = static_cast<std::uint16_t>(bytes[at + 1]);
        at += 2;
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(lo | (hi << 8)));
    }
};

void putU32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xFF));
}

void putI16(std::vector<unsigned char>& out, std::int16_t v) {
    const auto u = static_cast<std::uint16_t>(v);
    out.push_back(static_cast<unsigned char>(u & 0xFF));
    out.push_back(static_cast<unsigned char>(u >> 8));
}

}  // namespace

common::Result<std::shared_ptr<const Network>> parseNetwork(std::span<const unsigned char> bytes) {
    constexpr const char* kNotNetwork = "not a Lasca network file (no LASCANN3 or LASCANR3 header)";
    if (bytes.size() < 8) return common::makeError(kNotNetwork);
    if (std::memcmp(bytes.data(), "LASCANN2", 8) == 0 ||
        std::memcmp(bytes.data(), "LASCANR2", 8) == 0)
        return common::makeError(
            "network file of the older format (LASCANN2/LASCANR2, no input fingerprint): "
            "write it again with scripts/nnue/train.py --load FILE --epochs 0 --out NEW "
            "--reference DATA.bin ... (docs/nnue.md)");
    const bool residual = std::memcmp(bytes.data(), kResidualMagic, 8) == 0;
    if (bytes.size() < kHeaderBytes || (!residual && std::memcmp(bytes.data(), kMagic, 8) != 0))
        return common::makeError(kNotNetwork);
    ByteReader in{bytes, 8};
    const std::uint32_t inputs = in.u32();
    const std::uint32_t hidden = in.u32();
    if (inputs != kInputs || hidden != kHidden)
        return common::makeError("network has " + std::to_string(inputs) + " inputs and " +
                                 std::to_string(hidden) + " hidden units; this engine reads " +
                                 std::to_string(kInputs) + " and " + std::to_string(kHidden));
    const std::uint32_t fingerprint = in.u32();
    if (fingerprint != inputFingerprint())
        return common::makeError("network made for other inputs (input fingerprint " +
                                 std::to_string(fingerprint) + "; this engine's is " +
                                 std::to_string(inputFingerprint()) + "): train it again");
    if (bytes.size() != kFileBytes)
        return common::makeError("network file is " + std::to_string(bytes.size()) +
                                 " bytes; expected " + std::to_string(kFileBytes));
    auto net = std::make_shared<Network>();
    net->residual = residual;
    for (auto& w : net->featureWeights) w = in.i16();
    for (auto& b : net->featureBias) b = in.i16();
    for (auto& w : net->outputWeights) w = in.i16();
    net->outputBias = static_cast<std::int32_t>(in.u32());
    return std::shared_ptr<const Network>(std::move(net));
}

common::Result<std::shared_ptr<const Network>> loadNetwork(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return common::makeError("cannot open network file " + path);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                     std::istreambuf_iterator<char>());
    if (bytes.size() > 2 * kFileBytes) return common::makeError("network file too large: " + path);
    auto net = parseNetwork(bytes);
    if (!net) return common::makeError(path + ": " + net.error());
    return net;
}

common::Result<std::shared_ptr<const Network>> networkForEval(const std::string& choice) {
    if (choice == "classic") return std::shared_ptr<const Network>();
    if (choice == "nnue") return defaultNetwork();
    return loadNetwork(choice);
}

std::vector<unsigned char> serializeNetwork(const Network& net) {
    const char* magic = net.residual ? kResidualMagic : kMagic;
    std::vector<unsigned char> out(magic, magic + 8);
    putU32(out, kInputs);
    putU32(out, kHidden);
    putU32(out, inputFingerprint());
    for (auto w : net.featureWeights) putI16(out, w);
    for (auto b : net.featureBias) putI16(out, b);
    for (auto w : net.outputWeights) putI16(out, w);
    putU32(out, static_cast<std::uint32_t>(net.outputBias));
    return out;
}

// ---- Inference ----------------------------------------------------------------------------------
//
// The inner loops (the rows of the first layer, the output's dot product) come in three paths:
// "avx512" (AVX-512BW rows and dot product), "avx2" and "plain" (portable C++, which the
// compiler vectorises for the build's baseline). Every path is compiled into every x86-64 build
// (whatever -march says) and the best one the CPU runs is chosen at the
// first evaluation (__builtin_cpu_supports), so one binary is portable and fast. The SIMD
// functions carry their target (GCC's and clang's `target` attribute): only they may hold
// AVX2 or AVX-512 instructions.

namespace {

using Row = std::array<std::int16_t, kHidden>;

const std::int16_t* weightsOf(const Network& net, int feature) {
    return net.featureWeights.data() + static_cast<std::size_t>(feature) * kHidden;
}

using HalfLists = std::array<FeatureList, 2>;

// applyBoth as two applyRows, one half after the other.
template <auto ApplyRows>
void halfByHalf(const Network& net, const Accumulator& previous, const HalfLists& removed,
                const HalfLists& added, Accumulator& next) {
    for (std::size_t h = 0; h < 2; ++h)
        ApplyRows(net, previous.values[h], removed[h], added[h], next.values[h]);
}

// Kernels: one path's inner loops.
struct Kernels {
    const char* name;
    // `next` = `previous` - the rows `removed` + the rows `added` (next may be previous).
    void (*applyRows)(const Network& net, const Row& previous, const FeatureList& removed,
                      const FeatureList& added, Row& next);
    // Both halves at once: `next.values[h]` = `previous.values[h]` - the rows `removed[h]` + the
    // rows `added[h]` (next may be previous). Each half's lists are the other's mirrored, so
    // removed[0] and removed[1] (and added[0] and added[1]) are as long.
    void (*applyBoth)(const Network& net, const Accumulator& previous, const HalfLists& removed,
                      const HalfLists& added, Accumulator& next);
    // Sum over i of clamp(us[i], 0, kQuantA) * w[i] + clamp(them[i], 0, kQuantA) * w[kHidden + i].
    std::int32_t (*outputSum)(const Row& us, const Row& them, const std::int16_t* w);
};

// ---- plain

void plainApplyRows(const Network& net, const Row& previous, const FeatureList& removed,
                    const FeatureList& added, Row& next) {
    Row r = previous;
    for (int k = 0; k < removed.size; ++k) {
        const std::int16_t* w = weightsOf(net, removed.index[static_cast<std::size_t>(k)]);
        for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::int16_t>(r[i] - w[i]);
    }
    for (int k = 0; k < added.size; ++k) {
        const std::int16_t* w = weightsOf(net, added.index[static_cast<std::size_t>(k)]);
        for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::int16_t>(r[i] + w[i]);
    }
    next = r;
}

std::int32_t plainClippedDot(const Row& acc, const std::int16_t* w) {
    std::int32_t sum = 0;
    for (std::size_t i = 0; i < acc.size(); ++i) sum += std::clamp<int>(acc[i], 0, kQuantA) * w[i];
    return sum;
}

std::int32_t plainOutputSum(const Row& us, const Row& them, const std::int16_t* w) {
    return plainClippedDot(us, w) + plainClippedDot(them, w + kHidden);
}

constexpr Kernels kPlain{"plain", plainApplyRows, halfByHalf<plainApplyRows>, plainOutputSum};

#if defined(__x86_64__)

// ---- avx2

// The sum of the eight 32-bit lanes.
[[gnu::target("avx2")]] inline std::int32_t sumOfLanes(__m256i v) {
    const __m128i half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    const __m128i quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0x4E));
    const __m128i one = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0xB1));
    return _mm_cvtsi128_si32(one);
}

[[gnu::target("avx2")]] inline __m256i clippedDotLanes(const Row& acc, const std::int16_t* w,
                                                       __m256i sum) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i top = _mm256_set1_epi16(kQuantA);
    for (int i = 0; i < kHidden; i += 16) {
        __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i*>(acc.data() + i));
        a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + i));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, v));
    }
    return sum;
}

[[gnu::target("avx2")]] std::int32_t avx2OutputSum(const Row& us, const Row& them,
                                                   const std::int16_t* w) {
    const __m256i sum = clippedDotLanes(us, w, _mm256_setzero_si256());
    return sumOfLanes(clippedDotLanes(them, w + kHidden, sum));
}

// With SIMD the row stays in registers through every change (one load and one store of the
// accumulator per ply): eight AVX2 registers.
[[gnu::target("avx2")]] void avx2ApplyRows(const Network& net, const Row& previous,
                                           const FeatureList& removed, const FeatureList& added,
                                           Row& next) {
    constexpr int kLanes = 16;
    constexpr int kChunks = kHidden / kLanes;
    __m256i r[kChunks];
    for (int c = 0; c < kChunks; ++c)
        r[c] = _mm256_load_si256(reinterpret_cast<const __m256i*>(previous.data() + kLanes * c));
    for (int k = 0; k < removed.size; ++k) {
        const std::int16_t* w = weightsOf(net, removed.index[static_cast<std::size_t>(k)]);
        for (int c = 0; c < kChunks; ++c)
            r[c] = _mm256_sub_epi16(
                r[c], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + kLanes * c)));
    }
    for (int k = 0; k < added.size; ++k) {
        const std::int16_t* w = weightsOf(net, added.index[static_cast<std::size_t>(k)]);
        for (int c = 0; c < kChunks; ++c)
            r[c] = _mm256_add_epi16(
                r[c], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + kLanes * c)));
    }
    for (int c = 0; c < kChunks; ++c)
        _mm256_store_si256(reinterpret_cast<__m256i*>(next.data() + kLanes * c), r[c]);
}

// ---- avx512

// Four AVX-512 registers hold a row.
[[gnu::target("avx512f,avx512bw")]] void avx512ApplyRows(const Network& net, const Row& previous,
                                                         const FeatureList& removed,
                                                         const FeatureList& added, Row& next) {
    constexpr int kLanes = 32;
    constexpr int kChunks = kHidden / kLanes;
    __m512i r[kChunks];
    for (int c = 0; c < kChunks; ++c) r[c] = _mm512_load_si512(previous.data() + kLanes * c);
    for (int k = 0; k < removed.size; ++k) {
        const std::int16_t* w = weightsOf(net, removed.index[static_cast<std::size_t>(k)]);
        for (int c = 0; c < kChunks; ++c)
            r[c] = _mm512_sub_epi16(r[c], _mm512_loadu_si512(w + kLanes * c));
    }
    for (int k = 0; k < added.size; ++k) {
        const std::int16_t* w = weightsOf(net, added.index[static_cast<std::size_t>(k)]);
        for (int c = 0; c < kChunks; ++c)
            r[c] = _mm512_add_epi16(r[c], _mm512_loadu_si512(w + kLanes * c));
    }
    for (int c = 0; c < kChunks; ++c) _mm512_store_si512(next.data() + kLanes * c, r[c]);
}

// Both halves in eight AVX-512 registers: the rows of White's input and of its mirror for
// Black are loaded side by side, which keeps more loads in flight than one half after the other.
[[gnu::target("avx512f,avx512bw")]] void avx512ApplyBoth(const Network& net,
                                                         const Accumulator& previous,
                                                         const HalfLists& removed,
                                                         const HalfLists& added,
                                                         Accumulator& next) {
    constexpr int kLanes = 32;
    constexpr int kChunks = kHidden / kLanes;
    __m512i r[2][kChunks];
    for (std::size_t h = 0; h < 2; ++h)
        for (int c = 0; c < kChunks; ++c)
            r[h][c] = _mm512_load_si512(previous.values[h].data() + kLanes * c);
    for (int k = 0; k < removed[0].size; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const std::int16_t* w0 = weightsOf(net, removed[0].index[at]);
        const std::int16_t* w1 = weightsOf(net, removed[1].index[at]);
        for (int c = 0; c < kChunks; ++c) {
            r[0][c] = _mm512_sub_epi16(r[0][c], _mm512_loadu_si512(w0 + kLanes * c));
            r[1][c] = _mm512_sub_epi16(r[1][c], _mm512_loadu_si512(w1 + kLanes * c));
        }
    }
    for (int k = 0; k < added[0].size; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const std::int16_t* w0 = weightsOf(net, added[0].index[at]);
        const std::int16_t* w1 = weightsOf(net, added[1].index[at]);
        for (int c = 0; c < kChunks; ++c) {
            r[0][c] = _mm512_add_epi16(r[0][c], _mm512_loadu_si512(w0 + kLanes * c));
            r[1][c] = _mm512_add_epi16(r[1][c], _mm512_loadu_si512(w1 + kLanes * c));
        }
    }
    for (std::size_t h = 0; h < 2; ++h)
        for (int c = 0; c < kChunks; ++c)
            _mm512_store_si512(next.values[h].data() + kLanes * c, r[h][c]);
}

// The output in AVX-512 registers, summed by hand (GCC 12's _mm512_reduce_add_epi32 trips
// -Wuninitialized).
[[gnu::target("avx512f,avx512bw")]] std::int32_t avx512OutputSum(const Row& us, const Row& them,
                                                                 const std::int16_t* w) {
    constexpr int kLanes = 32;
    const __m512i zero = _mm512_setzero_si512();
    const __m512i top = _mm512_set1_epi16(kQuantA);
    __m512i sum = _mm512_setzero_si512();
    for (const Row* row : {&us, &them}) {
        for (int i = 0; i < kHidden; i += kLanes) {
            __m512i a = _mm512_load_si512(row->data() + i);
            a = _mm512_min_epi16(_mm512_max_epi16(a, zero), top);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(a, _mm512_loadu_si512(w + i)));
        }
        w += kHidden;
    }
    return sumOfLanes(
        _mm256_add_epi32(_mm512_castsi512_si256(sum), _mm512_extracti64x4_epi64(sum, 1)));
}

constexpr Kernels kAvx2{"avx2", avx2ApplyRows, halfByHalf<avx2ApplyRows>, avx2OutputSum};
constexpr Kernels kAvx512{"avx512", avx512ApplyRows, avx512ApplyBoth, avx512OutputSum};

#endif

// Every path this CPU runs, the best first (the plain one always, last).
std::vector<const Kernels*> supportedKernels() {
    std::vector<const Kernels*> paths;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        paths.push_back(&kAvx512);
    if (__builtin_cpu_supports("avx2")) paths.push_back(&kAvx2);
#endif
    paths.push_back(&kPlain);
    return paths;
}

// The path in use: chosen at the first evaluation (every thread would choose the same one).
std::atomic<const Kernels*> activeKernels{nullptr};

const Kernels& kernels() {
    const Kernels* k = activeKernels.load(std::memory_order_relaxed);
    if (k == nullptr) {
        k = supportedKernels().front();
        activeKernels.store(k, std::memory_order_relaxed);
    }
    return *k;
}

constexpr std::array<Color, 2> kPerspectives{Color::White, Color::Black};

}  // namespace

const char* simdName() {
    return kernels().name;
}

std::vector<std::string> supportedSimd() {
    std::vector<std::string> names;
    for (const Kernels* k : supportedKernels()) names.emplace_back(k->name);
    return names;
}

bool useSimd(std::string_view name) {
    for (const Kernels* k : supportedKernels())
        if (name == k->name) {
            activeKernels.store(k, std::memory_order_relaxed);
            return true;
        }
    return false;
}

void refreshAccumulator(const Network& net, const Position& pos, Accumulator& acc) {
    for (Color p : kPerspectives) {
        Row& row = acc.values[static_cast<std::size_t>(index(p))];
        kernels().applyRows(net, net.featureBias, FeatureList{}, activeFeatures(pos, p), row);
    }
}

void ChangedColumns::recordBefore(const Position& pos, const Move& m) {
    size = 0;
    const auto note = [&](Square s) {
        ColumnChange& c = squares[static_cast<std::size_t>(size++)];
        c.square = s;
        c.before = pos.column(s);
        c.heightBefore = pos.height(s);
    };
    note(m.origin());
    for (int i = 0; i < m.length; ++i) {
        if (m.capture) note(m.jumped(i));
        // A capture may land again on its origin or an earlier landing (a closed path):
        // each square is noted once.
        const Square to = m.landing(i);
        bool seen = false;
        for (int j = 0; j < size; ++j)
            seen = seen || squares[static_cast<std::size_t>(j)].square == to;
        if (!seen) note(to);
    }
}

void ChangedColumns::recordAfter(const Position& pos) {
    for (int i = 0; i < size; ++i) {
        ColumnChange& c = squares[static_cast<std::size_t>(i)];
        c.after = pos.column(c.square);
        c.heightAfter = pos.height(c.square);
    }
}

void updateAccumulator(const Network& net, const Accumulator& previous,
                       const ChangedColumns& changes, Accumulator& next) {
    // The changed inputs of both perspectives are listed together (Black's are White's
    // mirrored), then both halves are brought up to date by one kernel.
    std::array<FeatureList, 2> removed, added;
    const auto white = static_cast<std::size_t>(index(Color::White));
    const auto black = static_cast<std::size_t>(index(Color::Black));
    for (int i = 0; i < changes.size; ++i) {
        const ColumnChange& c = changes.squares[static_cast<std::size_t>(i)];
        if (c.before == c.after && c.heightBefore == c.heightAfter) continue;
        columnFeaturesBoth(c.square, c.before, c.heightBefore, removed[white], removed[black]);
        columnFeaturesBoth(c.square, c.after, c.heightAfter, added[white], added[black]);
    }
    kernels().applyBoth(net, previous, removed, added, next);
}

Score evaluate(const Network& net, const Accumulator& acc, Color sideToMove) {
    // The output sum fits an int32 (kQuantB's note) but not always with the bias added: a
    // network file may hold any bias, so the two are added in 64 bits.
    const std::int64_t sum =
        std::int64_t{kernels().outputSum(acc.values[static_cast<std::size_t>(index(sideToMove))],
                                         acc.values[static_cast<std::size_t>(index(~sideToMove))],
                                         net.outputWeights.data())} +
        net.outputBias;
    const std::int64_t centi = sum * 100 / (kQuantA * kQuantB);
    return static_cast<Score>(std::clamp<std::int64_t>(centi, -(kMateBound - 1), kMateBound - 1));
}

Score evaluate(const Network& net, const Position& pos) {
    Accumulator acc;
    refreshAccumulator(net, pos, acc);
    return evaluate(net, acc, pos.sideToMove());
}

Score staticScore(const Network& net, const Accumulator& acc, const Position& pos,
                  const EvalWeights& weights) {
    const Score own = evaluate(net, acc, pos.sideToMove());
    if (!net.residual) return own;
    const int sum = int{own} + int{lasca::eval::evaluate(pos, weights)};
    return static_cast<Score>(std::clamp(sum, -(kMateBound - 1), kMateBound - 1));
}

Score staticScore(const Network& net, const Position& pos, const EvalWeights& weights) {
    Accumulator acc;
    refreshAccumulator(net, pos, acc);
    return staticScore(net, acc, pos, weights);
}

}  // namespace lasca::eval::nnue
