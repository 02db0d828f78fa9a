// libFuzzer harness: the readers of the project's data files. The first byte picks the reader;
// the rest is the file:
//   0  network file, as is (eval::nnue::parseNetwork)
//   1  network file with a valid header and the rest of the input, repeated, as its weights:
//      it must read, and every SIMD path and the incremental update give the same scores
//   2  endgame table file, as is (egtb::parseTable)
//   3  the real 2-piece table with the input's (offset, byte) pairs written over it and its
//      checksum made right again, so that the checks behind the checksum are reached
//   4  openings file (match::readOpenings)
//   5  training data of the learned evaluation (tune::parseTrainingData)
//   6  text data lines: datagen's, the tuner's positions, test suites' (EPD-like) lines
//   7  SPSA parameter file (tune::parseSpsaParams)
// Properties: nothing crashes or throws; an error has a text; what reads writes back to the same
// bytes (network, table, training data) or text that reads the same (data lines, positions);
// every position read is valid.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "lasca/analysis/suite.h"
#include "lasca/core/movegen.h"
#include "lasca/core/position.h"
#include "lasca/egtb/egtb.h"
#include "lasca/eval/nnue.h"
#include "lasca/match/openings.h"
#include "lasca/tune/datagen.h"
#include "lasca/tune/spsa.h"
#include "lasca/tune/training_data.h"
#include "lasca/tune/tuner.h"

namespace {

namespace nnue = lasca::eval::nnue;
namespace egtb = lasca::egtb;

template <class T>
bool failed(const common::Result<T>& result) {
    if (result) return false;
    if (result.error().empty()) std::abort();
    return true;
}

// The start position and a few plies from it chosen by the input.
std::vector<lasca::Position> positions(std::span<const std::uint8_t> steer) {
    std::vector<lasca::Position> out{lasca::Position::startPosition()};
    for (std::size_t i = 0; i < steer.size() && i < 12; ++i) {
        lasca::MoveList list;
        lasca::generateMoves(out.back(), list);
        if (list.empty()) break;
        lasca::Position next = out.back();
        lasca::Undo undo{};
        next.make(list[steer[i] % list.size()], undo);
        out.push_back(next);
    }
    return out;
}

void checkNetwork(const nnue::Network& net, std::span<const std::uint8_t> steer) {
    const auto list = positions(steer);
    std::vector<lasca::Score> first;
    for (const std::string& path : nnue::supportedSimd()) {
        if (!nnue::useSimd(path)) std::abort();
        std::vector<lasca::Score> scores;
        nnue::Accumulator acc;
        nnue::refreshAccumulator(net, list[0], acc);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const lasca::Score score = nnue::evaluate(net, list[i]);
            if (score <= -lasca::kMateBound || score >= lasca::kMateBound) std::abort();
            if (nnue::evaluate(net, acc, list[i].sideToMove()) != score) std::abort();
            scores.push_back(score);
            if (i + 1 == list.size()) break;
            // The move from list[i] to list[i + 1], applied incrementally.
            lasca::MoveList moves;
            lasca::generateMoves(list[i], moves);
            for (const lasca::Move& m : moves) {
                lasca::Position p = list[i];
                lasca::Undo undo{};
                nnue::ChangedColumns changes;
                changes.recordBefore(p, m);
                p.make(m, undo);
                if (!(p == list[i + 1])) continue;
                changes.recordAfter(p);
                nnue::Accumulator next;
                nnue::updateAccumulator(net, acc, changes, next);
                nnue::Accumulator fresh;
                nnue::refreshAccumulator(net, p, fresh);
                if (!(next == fresh)) std::abort();
                acc = next;
                break;
            }
        }
        if (first.empty()) first = scores;
        if (scores != first) std::abort();  // every path gives the same scores
    }
    (void)nnue::useSimd(nnue::supportedSimd().front());
}

void rawNetwork(std::span<const std::uint8_t> bytes) {
    const auto net = nnue::parseNetwork(bytes);
    if (failed(net)) return;
    const auto written = nnue::serializeNetwork(*net.value());
    if (!std::equal(written.begin(), written.end(), bytes.begin(), bytes.end())) std::abort();
    checkNetwork(*net.value(), bytes.last(std::min<std::size_t>(bytes.size(), 8)));
}

void madeNetwork(std::span<const std::uint8_t> input) {
    if (input.empty()) return;
    // A valid header (that of the embedded network) followed by the input, repeated.
    const auto embedded = nnue::embeddedNetworkBytes();
    constexpr std::size_t kHeader = 8 + 4 + 4 + 4;
    std::vector<unsigned char> bytes(embedded.begin(), embedded.begin() + kHeader);
    bytes[6] = (input[0] & 1) ? 'R' : 'N';  // "LASCANR3" or "LASCANN3"
    for (std::size_t i = 0; bytes.size() < embedded.size(); ++i)
        bytes.push_back(input[i % input.size()]);
    const auto net = nnue::parseNetwork(bytes);
    if (!net || net.value()->residual != ((input[0] & 1) != 0)) std::abort();
    if (nnue::serializeNetwork(*net.value()) != bytes) std::abort();
    checkNetwork(*net.value(), input);
}

void checkTable(const egtb::Table& table, std::span<const std::uint8_t> bytes) {
    const auto written = egtb::tableBytes(table);
    if (!written ||
        !std::equal(written.value().begin(), written.value().end(), bytes.begin(), bytes.end()))
        std::abort();
    egtb::Tablebase base;
    base.add(table);
    for (const lasca::Position& p : positions(bytes.first(std::min<std::size_t>(bytes.size(), 8))))
        (void)base.probe(p);
}

void rawTable(std::span<const std::uint8_t> bytes) {
    const auto table = egtb::parseTable(bytes, "fuzz");
    if (failed(table)) return;
    checkTable(table.value(), bytes);
}

std::uint64_t fnv1a(std::span<const std::uint8_t> data) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const std::uint8_t b : data) {
        h ^= b;
        h *= 0x100000001b3ULL;
    }
    return h;
}

void mutatedTable(std::span<const std::uint8_t> input) {
    static const std::vector<std::uint8_t> real = [] {
        auto table = egtb::generate(2, 1);
        if (!table) std::abort();
        return egtb::tableBytes(table.value()).value();
    }();
    std::vector<std::uint8_t> bytes = real;
    // (offset low, offset high, byte) triples; an offset past the end grows the file.
    for (std::size_t i = 0; i + 3 <= input.size(); i += 3) {
        const std::size_t at = input[i] | static_cast<std::size_t>(input[i + 1]) << 8;
        if (at >= bytes.size()) bytes.resize(std::min<std::size_t>(at + 1, real.size() + 64));
        if (at < bytes.size()) bytes[at] = input[i + 2];
    }
    if (input.size() % 3 == 1) bytes.resize(bytes.size() / 2);
    if (bytes.size() >= 8) {
        const std::uint64_t sum = fnv1a(std::span(bytes).first(bytes.size() - 8));
        for (int b = 0; b < 8; ++b)
            bytes[bytes.size() - 8 + static_cast<std::size_t>(b)] =
                static_cast<std::uint8_t>(sum >> (8 * b));
    }
    rawTable(bytes);
}

void openings(std::string_view text) {
    std::istringstream in{std::string(text)};
    const auto read = lasca::match::readOpenings(in);
    if (failed(read)) return;
    for (const std::string& lfen : read.value())
        if (!lasca::Position::fromLfen(lfen)) std::abort();
}

void trainingData(std::span<const std::uint8_t> bytes) {
    const auto records = lasca::tune::parseTrainingData(bytes);
    if (failed(records)) return;
    std::vector<unsigned char> written;
    lasca::tune::appendTrainingHeader(written, static_cast<std::uint32_t>(records.value().size()));
    for (const auto& r : records.value()) lasca::tune::appendTrainingRecord(written, r);
    if (!std::equal(written.begin(), written.end(), bytes.begin(), bytes.end())) std::abort();
}

void textLines(std::string_view text) {
    int number = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        if (const auto data = lasca::tune::parseDataLine(line); !failed(data)) {
            if (!lasca::Position::fromLfen(data.value().lfen)) std::abort();
            std::string written = lasca::tune::formatDataLine(data.value());
            if (!written.empty() && written.back() == '\n') written.pop_back();
            const auto again = lasca::tune::parseDataLine(written);
            if (!again || again.value().lfen != data.value().lfen ||
                again.value().score != data.value().score ||
                again.value().result != data.value().result)
                std::abort();
        }
        if (const auto pos = lasca::tune::parsePosition(line); !failed(pos)) {
            if (!lasca::Position::fromLfen(pos.value().lfen)) std::abort();
            const auto again = lasca::tune::parsePosition(lasca::tune::formatPosition(pos.value()));
            if (!again || again.value().lfen != pos.value().lfen ||
                again.value().result != pos.value().result)
                std::abort();
        }
        if (!lasca::analysis::isSuiteComment(line)) {
            const auto entry = lasca::analysis::parseSuiteLine(line, number);
            if (!failed(entry)) {
                if (entry.value().line != number || !entry.value().position.validate().empty())
                    std::abort();
                lasca::MoveList legal;
                lasca::generateMoves(entry.value().position, legal);
                for (const lasca::Move& m : entry.value().best)
                    if (!legal.contains(m)) std::abort();
                for (const lasca::Move& m : entry.value().avoid)
                    if (!legal.contains(m)) std::abort();
            }
        }
    }
}

void spsaParams(std::string_view text) {
    const auto params = lasca::tune::parseSpsaParams(text);
    if (failed(params)) return;
    if (params.value().empty()) std::abort();
    for (const auto& p : params.value())
        if (!lasca::tune::checkSpsaParam(p)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::span<const std::uint8_t> rest(data + 1, size - 1);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 8) {
        case 0:
            rawNetwork(rest);
            break;
        case 1:
            madeNetwork(rest);
            break;
        case 2:
            rawTable(rest);
            break;
        case 3:
            mutatedTable(rest);
            break;
        case 4:
            openings(text);
            break;
        case 5:
            trainingData(rest);
            break;
        case 6:
            textLines(text);
            break;
        default:
            spsaParams(text);
            break;
    }
    return 0;
}
