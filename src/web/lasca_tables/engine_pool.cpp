#include "web/lasca_tables/engine_pool.h"

#include <algorithm>
#include <utility>

#include "lasca/engine/replies.h"

namespace web::lasca_tables {

// PoolChannel: one table's view of the pool. It holds only the client's id (the pool keeps the
// client's state); it must not outlive the pool.
class PoolChannel : public EngineChannel {
  public:
    PoolChannel(EnginePool& pool, std::uint64_t id) : pool_(pool), id_(id) {}
    ~PoolChannel() override { pool_.disconnect(id_); }
    PoolChannel(const PoolChannel&) = delete;
    PoolChannel& operator=(const PoolChannel&) = delete;
    bool search(const EngineRequest& request) override { return pool_.clientSearch(id_, request); }
    void stop() override { pool_.clientStop(id_); }

  private:
    EnginePool& pool_;
    std::uint64_t id_;
};

EnginePool::EnginePool(int size, int hashMb, WorkerFactory factory, PoolPost post, PoolClock clock)
    : size_(std::clamp(size, 1, kMaxPoolSize)),
      hashMb_(hashMb),
      factory_(std::move(factory)),
      clock_(clock ? std::move(clock) : PoolClock([] { return std::chrono::steady_clock::now(); })),
      alive_(std::make_shared<bool>(true)),
      workers_(static_cast<std::size_t>(size_)),
      post_(std::move(post)) {
}

EnginePool::~EnginePool() {
    *alive_ = false;
}

std::unique_ptr<EngineChannel> EnginePool::connect(PoolClient client) {
    Client c;
    c.id = nextClient_++;
    c.callbacks = std::move(client);
    clients_.push_back(std::move(c));
    return std::make_unique<PoolChannel>(*this, clients_.back().id);
}

EnginePool::Client* EnginePool::findClient(std::uint64_t id) {
    const auto it = std::find_if(clients_.begin(), clients_.end(),
                                 [id](const Client& c) { return c.id == id; });
    return it == clients_.end() ? nullptr : &*it;
}

void EnginePool::tellLine(std::uint64_t id, std::string line) {
    post_([this, alive = alive_, id, line = std::move(line)] {
        if (!*alive) return;
        if (auto* c = findClient(id); c && c->callbacks.onLine) c->callbacks.onLine(line);
    });
}

void EnginePool::tellClosed(std::uint64_t id) {
    post_([this, alive = alive_, id] {
        if (!*alive) return;
        if (auto* c = findClient(id); c && c->callbacks.onClosed) c->callbacks.onClosed();
    });
}

void EnginePool::tellBusy(std::uint64_t id, int ahead) {
    post_([this, alive = alive_, id, ahead] {
        if (!*alive) return;
        if (auto* c = findClient(id); c && c->callbacks.onBusy) c->callbacks.onBusy(ahead);
    });
}

bool EnginePool::clientSearch(std::uint64_t id, const EngineRequest& search) {
    if (!findClient(id)) return false;
    Request r;
    r.client = id;
    r.search = search;
    r.queuedAt = clock_();
    queue_.push_back(std::move(r));
    dispatch();
    return true;
}

// A waiting request ends at once (its bestmove says no move); a running one is stopped.
void EnginePool::clientStop(std::uint64_t id) {
    Client* c = findClient(id);
    if (!c) return;
    const auto it = std::find_if(queue_.begin(), queue_.end(),
                                 [id](const Request& r) { return r.client == id; });
    if (it != queue_.end()) {
        queue_.erase(it);
        tellLine(id, "bestmove 0000");
    } else if (c->worker >= 0) {
        Worker& w = workers_[static_cast<std::size_t>(c->worker)];
        if (!w.stopping) {
            w.stopping = true;
            w.preempted = false;
            if (w.channel) w.channel->send("stop");
        }
    }
}

// The table dropped its channel: its waiting request goes, its running search is stopped and
// its lines dropped until the worker is free again.
void EnginePool::disconnect(std::uint64_t id) {
    std::erase_if(queue_, [id](const Request& r) { return r.client == id; });
    if (Client* c = findClient(id); c && c->worker >= 0) {
        Worker& w = workers_[static_cast<std::size_t>(c->worker)];
        w.orphaned = true;
        w.preempted = false;
        if (!w.stopping && w.channel) w.channel->send("stop");
        w.stopping = true;
    }
    std::erase_if(clients_, [id](const Client& c) { return c.id == id; });
    dispatch();
}

bool EnginePool::startWorker(int index) {
    Worker& w = workers_[static_cast<std::size_t>(index)];
    w.channel.reset();
    w.generation = nextGeneration_++;
    auto channel = factory_(index, w.generation);
    if (!channel) return false;
    w.channel = std::move(channel).value();
    w.multiPv = 1;
    w.channel->send("uci");
    w.channel->send("setoption name Hash value " + std::to_string(hashMb_));
    for (const std::string& line : setup_) w.channel->send(line);
    w.channel->send("isready");
    return true;
}

// Starts `request` on worker `index` (free, its process started if need be). False, with the
// client told its engine closed, when no process could be started.
bool EnginePool::runOn(int index, Request request) {
    Worker& w = workers_[static_cast<std::size_t>(index)];
    if (!w.channel && !startWorker(index)) {
        failClient(request.client);
        return false;
    }
    if (request.search.multiPv != w.multiPv) {
        w.channel->send("setoption name MultiPV value " + std::to_string(request.search.multiPv));
        w.multiPv = request.search.multiPv;
    }
    const bool sent = w.channel->send("ucinewgame") &&
                      w.channel->send(positionCommand(request.search)) &&
                      w.channel->send(goCommand(request.search));
    if (Client* c = findClient(request.client)) c->worker = index;
    if (request.lastAhead > 0) tellBusy(request.client, 0);
    w.request = std::move(request);
    w.stopping = false;
    w.preempted = false;
    w.orphaned = false;
    w.startedAt = clock_();
    if (!sent) {
        // The process did not take the lines: it is dropped now (its reader's late report of
        // the end finds no channel and is ignored); the next request starts a new one.
        ++counters_.restarts;
        const std::uint64_t id = w.request->client;
        w.request.reset();
        w.channel.reset();
        failClient(id);
        return false;
    }
    return true;
}

void EnginePool::failClient(std::uint64_t id) {
    std::erase_if(queue_, [id](const Request& r) { return r.client == id; });
    if (Client* c = findClient(id)) c->worker = -1;
    tellClosed(id);
}

// Serves the queue: a free worker takes the first waiting move, else the first waiting
// request of any kind, skipping requests whose table still has a search running.
void EnginePool::dispatch() {
    for (;;) {
        int free = -1;
        for (int i = 0; i < size_; ++i)
            if (!workers_[static_cast<std::size_t>(i)].request) {
                free = i;
                break;
            }
        auto ready = [this](const Request& r) {
            const Client* c = findClient(r.client);
            return c && c->worker < 0;
        };
        auto pick = std::find_if(queue_.begin(), queue_.end(),
                                 [&](const Request& r) { return r.search.forMove() && ready(r); });
        if (pick == queue_.end()) pick = std::find_if(queue_.begin(), queue_.end(), ready);
        if (pick == queue_.end()) return;
        if (free < 0) {
            preemptFor(pick->search.forMove());
            return;
        }
        Request request = std::move(*pick);
        queue_.erase(pick);
        runOn(free, std::move(request));
    }
}

// Every worker is busy and `move` (a move, or else an analysis) waits: an endless analysis that
// has run long enough is stopped (a move does not wait for the slice). One at a time: the
// freed worker serves the queue when its bestmove comes.
void EnginePool::preemptFor(bool move) {
    const auto now = clock_();
    int chosen = -1;
    for (int i = 0; i < size_; ++i) {
        const Worker& w = workers_[static_cast<std::size_t>(i)];
        if (w.stopping) return;  // a worker is already on its way to free
        if (!w.request || !w.request->search.infinite()) continue;
        if (!move && now - w.startedAt < kAnalysisSlice) continue;
        if (chosen < 0 || w.startedAt < workers_[static_cast<std::size_t>(chosen)].startedAt)
            chosen = i;
    }
    if (chosen < 0) return;
    Worker& w = workers_[static_cast<std::size_t>(chosen)];
    w.stopping = true;
    w.preempted = true;
    ++counters_.preempted;
    w.channel->send("stop");
}

void EnginePool::workerLine(int index, std::uint64_t generation, std::string_view line) {
    if (index < 0 || index >= size_) return;
    Worker& w = workers_[static_cast<std::size_t>(index)];
    if (w.generation != generation || !w.request) return;
    const std::uint64_t id = w.request->client;
    if (!lasca::engine::parseBestMove(line)) {
        if (!w.orphaned && (lasca::engine::parseInfo(line) || lasca::engine::parseInfoString(line)))
            tellLine(id, std::string(line));
        return;
    }
    Request done = std::move(*w.request);
    w.request.reset();
    const bool preempted = w.preempted;
    const bool orphaned = w.orphaned;
    w.stopping = w.preempted = w.orphaned = false;
    if (Client* c = findClient(id)) c->worker = -1;
    if (preempted && !orphaned && findClient(id)) {
        // Back to the end of the queue; the table never sees this bestmove.
        done.queuedAt = clock_();
        done.lastAhead = -1;
        queue_.push_back(std::move(done));
    } else if (!orphaned) {
        ++counters_.served;
        tellLine(id, std::string(line));
    }
    dispatch();
}

void EnginePool::workerClosed(int index, std::uint64_t generation) {
    if (index < 0 || index >= size_) return;
    Worker& w = workers_[static_cast<std::size_t>(index)];
    if (w.generation != generation || !w.channel) return;
    ++counters_.restarts;
    w.channel.reset();
    if (w.request) {
        const std::uint64_t id = w.request->client;
        const bool orphaned = w.orphaned;
        w.request.reset();
        w.stopping = w.preempted = w.orphaned = false;
        if (!orphaned) failClient(id);
    }
    startWorker(index);  // on failure the slot stays empty: the next request tries again
    dispatch();
}

// How many requests dispatch serves before queue_[queueIndex]: every waiting move before it
// (all of them if it is not a move), and the earlier ones of its class.
int EnginePool::aheadOf(std::size_t queueIndex) const {
    const Request& r = queue_[queueIndex];
    int ahead = 0;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
        if (i == queueIndex) continue;
        const Request& o = queue_[i];
        const bool move = o.search.forMove();
        if (move == r.search.forMove() ? i < queueIndex : move) ++ahead;
    }
    return ahead + 1;  // the search running before it frees a worker
}

void EnginePool::tick() {
    const auto now = clock_();
    for (std::size_t i = 0; i < queue_.size(); ++i) {
        Request& r = queue_[i];
        if (now - r.queuedAt < kBusyNotice) continue;
        const int ahead = aheadOf(i);
        if (ahead == r.lastAhead) continue;
        r.lastAhead = ahead;
        tellBusy(r.client, ahead);
    }
    if (!queue_.empty()) dispatch();
}

PoolStats EnginePool::stats() const {
    PoolStats s = counters_;
    for (const Worker& w : workers_) {
        if (w.channel) ++s.workers;
        if (w.request) ++s.busy;
    }
    s.queued = static_cast<int>(queue_.size());
    return s;
}

}  // namespace web::lasca_tables
