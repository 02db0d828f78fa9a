#include "command_line.h"

#include <fstream>
#include <iostream>

#include "common/progress.h"
#include "lasca/tune/training_data.h"

namespace lasca::tune {

namespace {

// Writes the header for `count` records at the start of a training file.
bool patchRecordCount(std::ofstream& o, std::uint32_t count) {
    std::vector<unsigned char> header;
    tune::appendTrainingHeader(header, count);
    o.seekp(0);
    o.write(reinterpret_cast<const char*>(header.data()),
            static_cast<std::streamsize>(header.size()));
    return static_cast<bool>(o);
}

common::Result<tune::TrainingRecord> recordOfLine(std::string_view line) {
    auto parsed = tune::parseDataLine(line);
    if (!parsed) return common::makeError(parsed.error());
    return tune::trainingRecord(parsed.value());
}

void writeBytes(std::ofstream& o, std::vector<unsigned char>& buffer) {
    o.write(reinterpret_cast<const char*>(buffer.data()),
            static_cast<std::streamsize>(buffer.size()));
    buffer.clear();
}

// Writes the record of every non-empty line of `in` (the file `path`) to `o`, after its header;
// returns the number of records. Errors name the file and line.
common::Result<std::uint32_t> writeRecords(std::istream& in, const std::string& path,
                                           std::ofstream& o) {
    std::uint32_t count = 0;
    std::vector<unsigned char> buffer;
    std::string line;
    for (std::uint64_t number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        auto record = recordOfLine(line);
        if (!record)
            return common::makeError(path + ":" + std::to_string(number) + ": " + record.error());
        if (count == std::numeric_limits<std::uint32_t>::max())
            return common::makeError("more than 2^32 - 1 positions in " + path);
        ++count;
        tune::appendTrainingRecord(buffer, record.value());
        if (buffer.size() >= (std::size_t{1} << 20)) writeBytes(o, buffer);
    }
    writeBytes(o, buffer);
    return count;
}

}  // namespace

// lasca-tune features: the binary training file of datagen's text.
int featuresCommand(const std::vector<std::string>& args) {
    po::options_description desc("lasca-tune features options");
    std::string positionsFile, out;
    desc.add_options()("help,h", "this help")("positions", po::value(&positionsFile)->required(),
                                              "text data file (from datagen)")(
        "out", po::value(&out)->required(), "binary training file to write");
    if (!parseOptions(args, desc, "usage: lasca-tune features --positions FILE --out FILE\n"))
        return 0;
    std::ifstream in(positionsFile);
    if (!in) return fail("cannot read " + positionsFile);
    std::ofstream o(out, std::ios::binary);
    if (!o || !patchRecordCount(o, 0)) return fail("cannot write " + out);

    const auto began = std::chrono::steady_clock::now();
    auto count = writeRecords(in, positionsFile, o);
    if (!count) return fail(count.error());
    if (!o || !patchRecordCount(o, count.value())) return fail("write error on " + out);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    std::cerr << "lasca-tune: " << count.value() << " positions, "
              << tune::kTrainingHeaderBytes + count.value() * tune::kTrainingRecordBytes
              << " bytes in " << common::formatFixed(seconds, 1) << " s; wrote " << out << "\n";
    return 0;
}

}  // namespace lasca::tune
