// The worker pool every match runner of the project plays its games with (lasca-match,
// torneio-referee), and the resume rule: a job whose index a finished record already carries is
// not played again. Jobs and records are the runner's own types; each carries `int index`.
#pragma once

#include <algorithm>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace common {

// Called (from a worker thread, one call at a time) after each job with its record and every
// record finished so far; return false to stop: jobs under way finish, no new one starts.
template <class Record>
using RecordCallback = std::function<bool(const Record&, const std::vector<Record>&)>;

// The jobs whose index no record of `done` carries, in their order.
template <class Job, class Record>
std::vector<Job> pendingJobs(const std::vector<Job>& jobs, const std::vector<Record>& done) {
    std::set<int> played;
    for (const auto& r : done) played.insert(r.index);
    std::vector<Job> pending;
    for (const auto& job : jobs)
        if (!played.count(job.index)) pending.push_back(job);
    return pending;
}

// JobQueue: what the worker threads share, guarded by mutex.
//   jobs      the jobs to play, handed out in order; next is the first not handed out
//   stopped   set when the callback asked to stop
//   records   every finished record (those of a resumed run first)
template <class Job, class Record>
struct JobQueue {
    std::mutex mutex;
    std::vector<Job> jobs;
    std::size_t next = 0;
    bool stopped = false;
    std::vector<Record> records;

    bool take(Job& job) {
        std::lock_guard lock(mutex);
        if (stopped || next >= jobs.size()) return false;
        job = jobs[next++];
        return true;
    }

    void finish(Record record, const RecordCallback<Record>& onRecord) {
        std::lock_guard lock(mutex);
        records.push_back(std::move(record));
        if (onRecord && !onRecord(records.back(), records)) stopped = true;
    }
};

// Plays the jobs not in `done` on min(concurrency, pending jobs) threads (at least one).
// makeWorker(threadId), ids from 1, runs once on each thread and returns that thread's player:
// a callable Record(const Job&) that keeps the thread's own resources (engine processes) from
// one job to the next. Returns every record, `done` included, sorted by index.
template <class Job, class Record, class MakeWorker>
std::vector<Record> runJobs(const std::vector<Job>& jobs, std::vector<Record> done, int concurrency,
                            const MakeWorker& makeWorker, const RecordCallback<Record>& onRecord) {
    JobQueue<Job, Record> queue;
    queue.jobs = pendingJobs(jobs, done);
    queue.records = std::move(done);
    const int threads =
        std::clamp(concurrency, 1, std::max(1, static_cast<int>(queue.jobs.size())));
    auto work = [&](int id) {
        auto play = makeWorker(id);
        Job job;
        while (queue.take(job)) queue.finish(play(job), onRecord);
    };
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(work, i + 1);
    for (auto& t : pool) t.join();
    std::sort(queue.records.begin(), queue.records.end(),
              [](const Record& a, const Record& b) { return a.index < b.index; });
    return std::move(queue.records);
}

}  // namespace common
