// The command-line plumbing the scripted analysis commands share (analyse_command.cpp,
// diagram_command.cpp, find_wins_command.cpp): option readers that throw common::UsageError,
// logging, the ordered run of jobs on threads, the analysers of a run.
#pragma once

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/jobs.h"
#include "lasca/analysis/analyser.h"
#include "lasca/eval/nnue.h"

namespace lasca::analysis {

namespace po = boost::program_options;
using common::UsageError;

inline constexpr std::int64_t kDefaultNodes = 100000;
inline constexpr std::int64_t kMaxNodes = std::int64_t{1} << 50;
inline constexpr std::int64_t kMaxMoveTime = 1000000000;
inline constexpr std::int64_t kMaxJobs = 256;
inline constexpr std::int64_t kMaxHashMb = 32768;

// A whole-number option in [low, high], or `fallback` when it is not given.
std::int64_t numberOption(const po::variables_map& vm, const std::string& name, std::int64_t low,
                          std::int64_t high, std::int64_t fallback);
int intOption(const po::variables_map& vm, const std::string& name, int low, int high,
              int fallback);

// A string option, shown as `--name NAME` in the help.
po::typed_value<std::string>* textValue(const char* name);

// Long options only, never abbreviated; with `shortOptions` false, an argument starting with
// '-' is not an option either (an LFEN board may start with "-,").
po::variables_map parseCommandLine(int argc, char** argv, const po::options_description& options,
                                   const po::positional_options_description& positional,
                                   bool shortOptions = true);

// Logs go to stderr (common::initLogging), never to stdout, which carries the output.
void startLogging();

// Stopwatch: seconds since it was made.
class Stopwatch {
  public:
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// InOrder: hands the records of a job run to `emit` in job order, whichever order the workers
// finish them in. Once emit returns false (enough), later records are dropped and the run is
// told to stop. Records carry `int index`, 0, 1, 2, ... in job order.
template <class Record>
class InOrder {
  public:
    explicit InOrder(std::function<bool(const Record&)> emit) : emit_(std::move(emit)) {}

    bool add(const Record& record) {
        pending_.emplace(record.index, record);
        while (!stopped_ && !pending_.empty() && pending_.begin()->first == next_) {
            stopped_ = !emit_(pending_.begin()->second);
            pending_.erase(pending_.begin());
            ++next_;
        }
        return !stopped_;
    }

  private:
    std::function<bool(const Record&)> emit_;
    std::map<int, Record> pending_;
    int next_ = 0;
    bool stopped_ = false;
};

// Runs the jobs on `concurrency` threads (each with its own worker from makeWorker) and hands
// each record to `emit` in job order (common::runJobs).
template <class Job, class Record, class MakeWorker>
void runInOrder(const std::vector<Job>& jobs, int concurrency, const MakeWorker& makeWorker,
                std::function<bool(const Record&)> emit) {
    InOrder<Record> order(std::move(emit));
    const common::RecordCallback<Record> onRecord =
        [&order](const Record& r, const std::vector<Record>&) { return order.add(r); };
    common::runJobs(jobs, std::vector<Record>{}, concurrency, makeWorker, onRecord);
}

// "12.3/s" and the time left, for the progress line.
std::string rateAndEta(double elapsed, std::size_t done, std::size_t total);

// --eval E (nnue, classic or a network file) sets the evaluation the searches use; without it
// `network` keeps its default (the engine's, AnalysisSettings).
void readEvalOption(const po::variables_map& vm,
                    std::shared_ptr<const eval::nnue::Network>& network);

inline constexpr const char* kEvalHelp =
    "evaluation: nnue (the default: the embedded network), classic, or a network file";

std::unique_ptr<Analyser> makeAnalyser(const AnalysisSettings& settings);

// The threads of a run: as many as --jobs, but no more than there is work for.
int threadCount(int jobs, std::size_t work);

// One analyser per job thread (thread ids from 1), all made before the run starts, so that a
// hash the machine cannot give is a command-line error and never an exception in a worker.
std::vector<std::unique_ptr<Analyser>> makeAnalysers(const AnalysisSettings& settings, int threads);

// "lasca: game 3 (line 45): <what>; skipped", on stderr.
void reportSkipped(const std::string& what, int number, int line, const std::string& error);

}  // namespace lasca::analysis
