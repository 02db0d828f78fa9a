#include "lasca/eval/nnue.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lasca::eval::nnue {

// ---- Inputs ------------------------------------------------------------------------------------

namespace {

constexpr int kSecondOffset = 4;
constexpr int kThirdOffset = 8;
constexpr int kMakeUpOffset = 12;
constexpr ColumnBits kBlackBits = 0x5555555555555555ULL;

// Square s as the perspective colour sees it: Black's board is turned round.
constexpr int orient(Square s, Color perspective) {
    return perspective == Color::White ? s : kSquares - 1 - s;
}

// Ours/theirs x soldier/officer: 0 our soldier, 1 our officer, 2 their soldier, 3 their officer.
constexpr int relativeKind(Piece p, Color perspective) {
    return (colorOf(p) == perspective ? 0 : 2) + (isOfficer(p) ? 1 : 0);
}

Piece pieceOf(ColumnBits bits, int depthFromTop) {
    return static_cast<Piece>((bits >> (2 * depthFromTop)) & 3);
}

}  // namespace

void columnFeatures(Square s, ColumnBits bits, int height, Color perspective, FeatureList& out) {
    if (height <= 0) return;
    const int base = orient(s, perspective) * kFeaturesPerSquare;
    const Piece top = pieceOf(bits, 0);
    out.push(base + relativeKind(top, perspective));
    if (height >= 2) out.push(base + kSecondOffset + relativeKind(pieceOf(bits, 1), perspective));
    if (height >= 3) out.push(base + kThirdOffset + relativeKind(pieceOf(bits, 2), perspective));
    const ColumnBits used = (ColumnBits{1} << (2 * height)) - 1;
    const int black = std::popcount(bits & used & kBlackBits);
    const int own = colorOf(top) == Color::Black ? black : height - black;
    const int other = height - own;
    const int ours = colorOf(top) == perspective ? 0 : 1;
    out.push(base + kMakeUpOffset + ours * 16 + (std::min(own, 4) - 1) * 4 + std::min(other, 3));
}

int mirroredFeature(int feature) {
    const int square = feature / kFeaturesPerSquare;
    const int offset = feature % kFeaturesPerSquare;
    // Kinds (offsets below kMakeUpOffset): bit 1 is ours/theirs. Make-up: bit 4 is ours/theirs.
    const int turned =
        offset < kMakeUpOffset ? (offset ^ 2) : kMakeUpOffset + ((offset - kMakeUpOffset) ^ 16);
    return (kSquares - 1 - square) * kFeaturesPerSquare + turned;
}

namespace {

void mirrorInPlace(FeatureList& list) {
    for (int k = 0; k < list.size; ++k) {
        auto& f = list.index[static_cast<std::size_t>(k)];
        f = static_cast<std::uint16_t>(mirroredFeature(f));
    }
}

}  // namespace

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
// "avx512" (AVX-512BW rows, AVX2 dot product), "avx2" and "plain" (portable C++, which the
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

// Kernels: one path's inner loops.
struct Kernels {
    const char* name;
    // `next` = `previous` - the rows `removed` + the rows `added` (next may be previous).
    void (*applyRows)(const Network& net, const Row& previous, const FeatureList& removed,
                      const FeatureList& added, Row& next);
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

constexpr Kernels kPlain{"plain", plainApplyRows, plainOutputSum};

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

// Also the AVX-512 path's output: the output is a small share of the time, and GCC 12's 512-bit
// reductions trip -Wuninitialized.
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

constexpr Kernels kAvx2{"avx2", avx2ApplyRows, avx2OutputSum};
constexpr Kernels kAvx512{"avx512", avx512ApplyRows, avx2OutputSum};

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
    // The changed inputs are found once, from White's side; Black's are the same inputs
    // mirrored (mirroredFeature), which costs less than describing the columns again.
    FeatureList removed, added;
    for (int i = 0; i < changes.size; ++i) {
        const ColumnChange& c = changes.squares[static_cast<std::size_t>(i)];
        if (c.before == c.after && c.heightBefore == c.heightAfter) continue;
        columnFeatures(c.square, c.before, c.heightBefore, Color::White, removed);
        columnFeatures(c.square, c.after, c.heightAfter, Color::White, added);
    }
    const auto white = static_cast<std::size_t>(index(Color::White));
    const auto black = static_cast<std::size_t>(index(Color::Black));
    const Kernels& k = kernels();
    k.applyRows(net, previous.values[white], removed, added, next.values[white]);
    mirrorInPlace(removed);
    mirrorInPlace(added);
    k.applyRows(net, previous.values[black], removed, added, next.values[black]);
}

Score evaluate(const Network& net, const Accumulator& acc, Color sideToMove) {
    const std::int32_t sum =
        kernels().outputSum(acc.values[static_cast<std::size_t>(index(sideToMove))],
                            acc.values[static_cast<std::size_t>(index(~sideToMove))],
                            net.outputWeights.data()) +
        net.outputBias;
    const std::int64_t centi = static_cast<std::int64_t>(sum) * 100 / (kQuantA * kQuantB);
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
