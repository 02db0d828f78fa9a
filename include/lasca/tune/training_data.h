// The binary training file of the learned evaluation (docs/nnue.md): the text data
// of datagen turned into the network's active inputs (eval::nnue::activeFeatures) for both
// perspectives, so that the trainer (scripts/nnue/train.py) never computes an input itself.
//
// File format (little endian, fixed-size records, read by numpy with a structured dtype):
//   header   8 bytes "LASCADS3", u32 record count, u32 slots (kTrainingSlots), u32 input
//            fingerprint (eval::nnue::inputFingerprint(); the trainer copies it into the network)
//   record   f32 score   the search score, side to move's point of view, centi-soldiers
//            f32 result  the game's result for the SIDE TO MOVE: 1, 0.5 or 0
//            f32 classic the classic evaluation (eval.h, tuned weights), side to move's view:
//                        what a residual network is added to
//            u16 mover[kTrainingSlots]  active inputs of the side to move's perspective
//            u16 other[kTrainingSlots]  active inputs of the other perspective
//            (ascending square order, unused slots kNoFeature)
// Records follow the non-empty lines of the text file they were made from, in order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/result.h"
#include "lasca/eval/nnue.h"
#include "lasca/tune/datagen.h"

namespace lasca::tune {

inline constexpr char kTrainingMagic[9] = "LASCADS3";
inline constexpr int kTrainingSlots = 96;  // 22 columns at most (11 pieces a side) x 4 = 88
inline constexpr std::uint16_t kNoFeature = 0xFFFF;
inline constexpr std::size_t kTrainingHeaderBytes = 8 + 4 + 4 + 4;
inline constexpr std::size_t kTrainingRecordBytes = 4 + 4 + 4 + 2 * 2 * kTrainingSlots;  // 396
static_assert(eval::nnue::kInputs < kNoFeature);

// TrainingRecord: one position as the trainer reads it (fields as in the file format above).
struct TrainingRecord {
    float score = 0;
    float result = 0.5f;
    float classic = 0;
    std::array<std::uint16_t, kTrainingSlots> mover{};
    std::array<std::uint16_t, kTrainingSlots> other{};
};

// The record of a text data line. Errors: the LFEN, or more active inputs than slots.
common::Result<TrainingRecord> trainingRecord(const DataLine& line);

// Appends the header (for `count` records) or one record to `out`.
void appendTrainingHeader(std::vector<unsigned char>& out, std::uint32_t count);
void appendTrainingRecord(std::vector<unsigned char>& out, const TrainingRecord& record);

// Reads a whole training file's bytes; errors name what is wrong (magic, slots, length).
common::Result<std::vector<TrainingRecord>> parseTrainingData(std::span<const unsigned char> bytes);

}  // namespace lasca::tune
