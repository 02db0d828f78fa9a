// EnginePool: a fixed number of engine processes (workers) serving every Lasca table's
// searches from one queue. A table gets a PoolChannel (an EngineChannel) that queues its
// EngineRequests and hands the chosen worker's lines back to the table. The pool is the only
// thing that writes the protocol to a worker (`uci`, `setoption`, `isready`, `ucinewgame`,
// `position`, `go`, `stop`), and it reads a worker's lines through the core's reply parser
// (lasca/engine/replies.h): info lines are passed on, the `bestmove` ends the request.
//
// Scheduling, on the pool's one thread (the server's):
//   - moves first: a request for a move (EnginePurpose::Move, the engine's move in a game) is
//     dispatched before any analysis or annotation, whatever their age; within a class, first
//     come first served, so every table gets its turn;
//   - a table has at most one search on a worker: its next request waits until the previous
//     one has ended (its `bestmove` came), so its `bestmove` lines arrive in the order of its
//     requests, as from an engine of its own;
//   - an endless analysis (nodes 0: `go infinite`) holds a worker only while nobody waits: a queued
//   move
//     stops it at once, a queued analysis after kAnalysisSlice; the stopped analysis goes back
//     to the end of the queue (its `bestmove` is not passed on: to the table it is still
//     running, and resumes from depth 1 when its turn comes again);
//   - a request queued for longer than kBusyNotice tells its table how many requests are ahead
//     of it (PoolClient::onBusy), again whenever that number changes;
//   - each request starts from a clear table (`ucinewgame`): a search's result depends on its
//     position, its game and its node budget only, never on which worker served it before.
// A worker that dies is replaced by a new process at once; the table whose search it ran is
// told its engine closed (it asks again through a new channel, and counts the failure: a
// position that kills every engine is given up by the table, not retried forever). A worker
// that cannot be started fails the request the same way.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "web/lasca_tables/engine_link.h"

namespace web::lasca_tables {

inline constexpr std::chrono::milliseconds kBusyNotice{1500};
inline constexpr std::chrono::milliseconds kAnalysisSlice{4000};
inline constexpr int kMaxPoolSize = 256;
// Each worker's transposition table (`Hash`), cleared before every request.
inline constexpr int kPoolHashMb = 16;

// Where a table's channel reports back, on the pool's thread. The pool never calls these from
// inside a call: each goes through the pool's `post` (the server's executor), in order, and is
// dropped if the channel is gone by then; a table may write to its channel from within them.
//   onLine    a line of the engine's answer to this table's search
//   onClosed  the engine closed while searching for this table (or none could be started):
//             the table drops its channel, as for a process of its own that died
//   onBusy    the table's search waits: `ahead` requests will be served before it
struct PoolClient {
    std::function<void(std::string line)> onLine;
    std::function<void()> onClosed;
    std::function<void(int ahead)> onBusy;
};

// What makes worker `index` (a process): its lines and its end are handed to the pool
// through workerLine / workerClosed on the pool's thread, with the generation given here so
// that a replaced worker's late lines are told apart.
using WorkerFactory = std::function<common::Result<std::unique_ptr<EngineWorker>>(
    int index, std::uint64_t generation)>;
using PoolClock = std::function<std::chrono::steady_clock::time_point()>;
// Runs a function later on the pool's thread, in the order given (the server: net::post).
using PoolPost = std::function<void(std::function<void()>)>;

// PoolStats: for the load script and the log.
struct PoolStats {
    int workers = 0;             // processes running
    int busy = 0;                // workers searching
    int queued = 0;              // requests waiting
    std::int64_t served = 0;     // searches ended (bestmove passed on)
    std::int64_t restarts = 0;   // workers that died and were replaced
    std::int64_t preempted = 0;  // analyses stopped to make room
};

// EnginePool
//   size_      the most workers at once
//   workers_   one slot per worker: its channel (empty until first needed), generation, the
//              request it serves
//   queue_     requests waiting, in arrival order (dispatch picks moves first)
//   clients_   per connected channel id: its PoolClient and its request (queued or running)
class EnginePool {
  public:
    EnginePool(int size, int hashMb, WorkerFactory factory, PoolPost post, PoolClock clock = {});
    ~EnginePool();
    EnginePool(const EnginePool&) = delete;
    EnginePool& operator=(const EnginePool&) = delete;

    // A channel for one table. The pool must outlive its channels.
    std::unique_ptr<EngineChannel> connect(PoolClient client);

    // Worker events (the factory's process hands them over on the pool's thread).
    void workerLine(int index, std::uint64_t generation, std::string_view line);
    void workerClosed(int index, std::uint64_t generation);
    // Called about once a second: busy notices and analysis slices.
    void tick();

    PoolStats stats() const;
    int size() const { return size_; }
    // Lines every worker is sent once when it starts, after `uci` and its Hash (for example
    // `setoption name EgtbPath value DIR`); for workers started from now on.
    void setWorkerSetup(std::vector<std::string> lines) { setup_ = std::move(lines); }

  private:
    friend class PoolChannel;
    struct Request {
        std::uint64_t client = 0;
        EngineRequest search;
        std::chrono::steady_clock::time_point queuedAt{};
        int lastAhead = -1;  // the last busy notice sent (-1: none)
    };
    struct Worker {
        std::unique_ptr<EngineWorker> channel;
        std::uint64_t generation = 0;
        std::optional<Request> request;
        bool stopping = false;   // `stop` sent for the running request
        bool preempted = false;  // stopped to make room: requeue it, drop its bestmove
        bool orphaned = false;   // its table left: drop its lines
        int multiPv = 1;         // the MultiPV option last sent to it
        std::chrono::steady_clock::time_point startedAt{};
    };
    struct Client {
        std::uint64_t id = 0;
        PoolClient callbacks;
        int worker = -1;  // the worker running its request, -1: none
    };

    // From PoolChannel.
    bool clientSearch(std::uint64_t id, const EngineRequest& request);
    void clientStop(std::uint64_t id);
    void disconnect(std::uint64_t id);

    Client* findClient(std::uint64_t id);
    void dispatch();
    bool startWorker(int index);
    bool runOn(int index, Request request);
    void preemptFor(bool move);
    void failClient(std::uint64_t id);
    int aheadOf(std::size_t queueIndex) const;

    int size_;
    int hashMb_;
    std::vector<std::string> setup_;
    WorkerFactory factory_;
    PoolClock clock_;
    std::shared_ptr<bool> alive_;  // false once the pool is gone: posted calls then do nothing
    std::vector<Worker> workers_;
    std::deque<Request> queue_;
    std::vector<Client> clients_;
    std::uint64_t nextClient_ = 1;
    std::uint64_t nextGeneration_ = 1;
    PoolStats counters_;
    PoolPost post_;
    // Hands a line, a close or a busy notice to client `id` later (post_), if it is still there.
    void tellLine(std::uint64_t id, std::string line);
    void tellClosed(std::uint64_t id);
    void tellBusy(std::uint64_t id, int ahead);
};

}  // namespace web::lasca_tables
