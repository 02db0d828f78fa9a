// A libFuzzer harness without libFuzzer: runs LLVMFuzzerTestOneInput once on each file named on
// the command line, and on every regular file of each folder named (in name order), as libFuzzer
// replays a corpus. The sanitizer build links it into every harness (LASCA_FUZZ_SEEDS) and ctest
// runs each over its seed corpus: a harness that no longer builds, or a seed that fails one of
// its checks or a sanitizer's, fails the test. Exit 0 after at least one input, 1 without any
// (a corpus folder gone or empty), 2 for a path that cannot be read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool replay(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    int inputs = 0;
    for (int i = 1; i < argc; ++i) {
        const fs::path path = argv[i];
        std::error_code error;
        std::vector<fs::path> files;
        if (fs::is_directory(path, error)) {
            for (const auto& entry : fs::directory_iterator(path, error))
                if (entry.is_regular_file(error)) files.push_back(entry.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(path);
        }
        if (error) {
            std::fprintf(stderr, "fuzz replay: cannot read %s\n", path.c_str());
            return 2;
        }
        for (const auto& file : files) {
            if (!replay(file)) {
                std::fprintf(stderr, "fuzz replay: cannot read %s\n", file.c_str());
                return 2;
            }
            ++inputs;
        }
    }
    std::printf("fuzz replay: %d inputs, every one passed\n", inputs);
    return inputs > 0 ? 0 : 1;
}
