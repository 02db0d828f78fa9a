#include "lasca/tune/relabel.h"

#include <algorithm>
#include <atomic>
#include <istream>
#include <ostream>
#include <thread>
#include <vector>

namespace lasca::tune {

namespace {

// Lines read and searched at a time per worker: large enough to keep every worker busy, small
// enough that a block's output is written soon.
constexpr std::size_t kBlockLinesPerJob = 256;

// Job: one parsed line of a block and, once searched, its new score.
struct Job {
    DataLine line;
    std::optional<Score> score;
    std::uint64_t nodes = 0;
};

// Worker: a thread's own hash and search, kept over the whole run.
struct Worker {
    search::TranspositionTable tt;
    std::unique_ptr<search::Search> search;
};

// Searches the jobs of a block on the workers' threads; each takes the next unsearched job.
void searchBlock(std::vector<Job>& jobs, std::vector<std::unique_ptr<Worker>>& workers,
                 const RelabelOptions& options) {
    std::atomic<std::size_t> next{0};
    auto work = [&](Worker& w) {
        for (std::size_t i = next++; i < jobs.size(); i = next++) {
            const Position pos = Position::fromLfen(jobs[i].line.lfen).value();
            jobs[i].score = relabelScore(pos, options, w.tt, *w.search, &jobs[i].nodes);
        }
    };
    if (workers.size() == 1 || jobs.size() < 2) {
        work(*workers.front());
        return;
    }
    std::vector<std::thread> pool;
    for (auto& w : workers) pool.emplace_back(work, std::ref(*w));
    for (auto& t : pool) t.join();
}

}  // namespace

LineRange shardLines(std::uint64_t lines, common::Shard shard) {
    const auto count = static_cast<std::uint64_t>(std::max(1, shard.count));
    const auto index = static_cast<std::uint64_t>(std::clamp(shard.index, 0, shard.count - 1));
    const auto boundary = [&](std::uint64_t i) {
        return lines / count * i + lines % count * i / count;
    };
    return {boundary(index), boundary(index + 1)};
}

std::uint64_t countLines(std::istream& in) {
    std::uint64_t lines = 0;
    char buffer[1 << 16];
    char last = '\n';
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        const auto got = static_cast<std::size_t>(in.gcount());
        lines += static_cast<std::uint64_t>(std::count(buffer, buffer + got, '\n'));
        last = buffer[got - 1];
    }
    return lines + (last != '\n' ? 1 : 0);
}

std::optional<Score> relabelScore(const Position& pos, const RelabelOptions& options,
                                  search::TranspositionTable& tt, search::Search& search,
                                  std::uint64_t* nodes) {
    tt.clear();
    search.clear();
    const search::SearchSettings settings = dataSearchSettings(options.rules, options.network);
    search::SearchLimits limits;
    limits.nodes = options.nodes;
    limits.depth = options.depth;
    const search::SearchResult r = search.run(pos, {}, limits, settings);
    if (nodes) *nodes = r.nodes;
    if (search::isMateScore(r.score)) return std::nullopt;
    return r.score;
}

common::Result<RelabelTotals> relabelData(
    std::istream& in, std::ostream& out, const RelabelOptions& options, LineRange range,
    const std::function<void(std::uint64_t, const std::string&)>& onBadLine,
    const std::function<void(const RelabelTotals&)>& onProgress) {
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < std::max(1, options.jobs); ++i) {
        workers.push_back(std::make_unique<Worker>());
        auto resized = workers.back()->tt.resize(options.hashMb);
        if (!resized) return common::makeError(resized.error());
        workers.back()->search = std::make_unique<search::Search>(workers.back()->tt);
    }
    RelabelTotals totals;
    std::string text;
    std::uint64_t number = 0;  // lines read from the start of the file
    while (number < range.first && std::getline(in, text)) ++number;

    const std::size_t blockLines = kBlockLinesPerJob * workers.size();
    std::vector<Job> jobs;
    bool more = true;
    while (more) {
        // Step 1: read and parse a block of lines; bad ones are reported and skipped.
        jobs.clear();
        while (jobs.size() < blockLines) {
            if (number >= range.end || !std::getline(in, text)) {
                more = false;
                break;
            }
            ++number;
            ++totals.lines;
            if (!text.empty() && text.back() == '\r') text.pop_back();
            if (text.empty()) continue;
            auto parsed = parseDataLine(text);
            if (!parsed) {
                ++totals.bad;
                onBadLine(number, parsed.error());
                continue;
            }
            jobs.push_back(Job{std::move(parsed.value()), std::nullopt, 0});
        }
        // Step 2: search them, then write them in the order read.
        searchBlock(jobs, workers, options);
        std::string block;
        for (const Job& job : jobs) {
            totals.nodes += job.nodes;
            if (!job.score) {
                ++totals.mates;
                continue;
            }
            block += formatDataLine(DataLine{job.line.result, *job.score, job.line.lfen});
            ++totals.written;
        }
        out << block;
        if (!out) return common::makeError("write error");
        if (onProgress) onProgress(totals);
    }
    return totals;
}

}  // namespace lasca::tune
