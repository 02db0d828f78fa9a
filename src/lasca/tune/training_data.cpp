#include "lasca/tune/training_data.h"

#include <bit>
#include <cstring>
#include <string>

namespace lasca::tune {

namespace {

void putU16(std::vector<unsigned char>& out, std::uint16_t v) {
    out.push_back(static_cast<unsigned char>(v & 0xFF));
    out.push_back(static_cast<unsigned char>(v >> 8));
}

void putU32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xFF));
}

// ByteReader: little-endian values from a byte span, in order (the caller checks the length).
struct ByteReader {
    std::span<const unsigned char> bytes;
    std::size_t at = 0;
    std::uint16_t u16() {
        const auto v = static_cast<std::uint16_t>(bytes[at] | (bytes[at + 1] << 8));
        at += 2;
        return v;
    }
    std::uint32_t u32() {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(bytes[at++]) << (8 * i);
        return v;
    }
    float f32() { return std::bit_cast<float>(u32()); }
};

// One perspective's active inputs in the record's slots; false when there are too many.
bool fillSlots(const Position& pos, Color perspective,
               std::array<std::uint16_t, kTrainingSlots>& slots) {
    const eval::nnue::FeatureList features = eval::nnue::activeFeatures(pos, perspective);
    if (features.size > kTrainingSlots) return false;
    slots.fill(kNoFeature);
    for (int i = 0; i < features.size; ++i)
        slots[static_cast<std::size_t>(i)] = features.index[static_cast<std::size_t>(i)];
    return true;
}

}  // namespace

common::Result<TrainingRecord> trainingRecord(const DataLine& line) {
    auto pos = Position::fromLfen(line.lfen);
    if (!pos) return common::makeError("bad LFEN: " + pos.error());
    const Color mover = pos.value().sideToMove();
    TrainingRecord record;
    record.score = static_cast<float>(line.score);
    record.result = static_cast<float>(mover == Color::White ? line.result : 1.0 - line.result);
    record.classic = static_cast<float>(eval::evaluate(pos.value(), eval::tunedWeights()));
    if (!fillSlots(pos.value(), mover, record.mover) ||
        !fillSlots(pos.value(), ~mover, record.other))
        return common::makeError("more than " + std::to_string(kTrainingSlots) +
                                 " active inputs in " + line.lfen);
    return record;
}

void appendTrainingHeader(std::vector<unsigned char>& out, std::uint32_t count) {
    out.insert(out.end(), kTrainingMagic, kTrainingMagic + 8);
    putU32(out, count);
    putU32(out, kTrainingSlots);
    putU32(out, eval::nnue::inputFingerprint());
}

void appendTrainingRecord(std::vector<unsigned char>& out, const TrainingRecord& record) {
    putU32(out, std::bit_cast<std::uint32_t>(record.score));
    putU32(out, std::bit_cast<std::uint32_t>(record.result));
    putU32(out, std::bit_cast<std::uint32_t>(record.classic));
    for (std::uint16_t f : record.mover) putU16(out, f);
    for (std::uint16_t f : record.other) putU16(out, f);
}

common::Result<std::vector<TrainingRecord>> parseTrainingData(
    std::span<const unsigned char> bytes) {
    if (bytes.size() < kTrainingHeaderBytes || std::memcmp(bytes.data(), kTrainingMagic, 8) != 0)
        return common::makeError("not a Lasca training file (no LASCADS3 header)");
    ByteReader in{bytes, 8};
    const std::uint32_t count = in.u32();
    const std::uint32_t slots = in.u32();
    if (slots != kTrainingSlots)
        return common::makeError("training file has " + std::to_string(slots) +
                                 " slots per perspective; expected " +
                                 std::to_string(kTrainingSlots));
    if (in.u32() != eval::nnue::inputFingerprint())
        return common::makeError("training file made for other inputs (input fingerprint)");
    if (bytes.size() != kTrainingHeaderBytes + count * kTrainingRecordBytes)
        return common::makeError("training file is " + std::to_string(bytes.size()) +
                                 " bytes; its header announces " + std::to_string(count) +
                                 " records");
    std::vector<TrainingRecord> records(count);
    for (TrainingRecord& r : records) {
        r.score = in.f32();
        r.result = in.f32();
        r.classic = in.f32();
        for (auto& f : r.mover) f = in.u16();
        for (auto& f : r.other) f = in.u16();
    }
    return records;
}

}  // namespace lasca::tune
