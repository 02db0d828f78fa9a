// The engine behind a Lasca table: the search a table asks for (EngineRequest) and the channel
// it asks through, and the `lasca` program run as a child process (a worker of the EnginePool)
// whose output lines are handed to a callback from a reader thread. Tests put fakes behind
// both interfaces.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/process.h"
#include "common/result.h"

namespace web::lasca_tables {

// EngineRequest: one search a table asks of the engine.
//   purpose    the engine's move in a game, the analysis of the position shown, or a position of
//              the whole-game annotation: a shared engine (EnginePool) serves moves first
//   startLfen, moves   the position: the game's start and the moves played from it
//   nodes      the node budget (`go nodes N`); 0 searches until stopped (`go infinite`)
//   multiPv    how many lines (1..kMaxMultiPv of the table)
enum class EnginePurpose : std::uint8_t { Move, Analysis, Annotation };

struct EngineRequest {
    EnginePurpose purpose = EnginePurpose::Analysis;
    std::string startLfen;
    std::vector<std::string> moves;
    std::int64_t nodes = 0;
    int multiPv = 1;

    bool infinite() const { return nodes == 0; }
    bool forMove() const { return purpose == EnginePurpose::Move; }
};

// The protocol lines that put a request to an engine whose MultiPV is already set:
// `position fen <lfen> [moves ...]` and `go nodes N` or `go infinite` (protocol.md).
std::string positionCommand(const EngineRequest& request);
std::string goCommand(const EngineRequest& request);

// EngineChannel: a table's engine. The table asks for searches and stops them; whoever serves
// the channel writes the protocol (the EnginePool, which sets its workers up itself). The
// engine's lines come back to the table through LascaTable::onEngineLine, called by whoever
// owns the channel: a search's info lines and exactly one `bestmove` per search, in order.
class EngineChannel {
  public:
    virtual ~EngineChannel() = default;
    // Asks for one search (after the one before it has answered). False when the engine is
    // gone.
    virtual bool search(const EngineRequest& request) = 0;
    // Ends the running or waiting search early: its `bestmove` still comes.
    virtual void stop() = 0;
};

// Makes the engine of one table when the table first needs it (lazily: a table that only shows
// positions asks for none). An error names why there is none.
using EngineFactory = std::function<common::Result<std::unique_ptr<EngineChannel>>()>;

// EngineWorker: an engine process as the pool speaks to it, one protocol line at a time (lines
// without their end). False when the engine is gone (its input closed, or it did not take the
// line in time).
class EngineWorker {
  public:
    virtual ~EngineWorker() = default;
    virtual bool send(std::string_view line) = 0;
};

// ProcessEngine: the engine program as a child process.
//   process_  the child; its stdout is read by reader_ only, its stdin written by send only
//   reader_   reads lines with a short deadline and hands each to onLine; at the end of the
//             child's output it calls onClosed once and stops
//   stopping_ set by the destructor, which then writes `quit`, joins the reader and kills the
//             child if it has not ended
// onLine and onClosed run on the reader thread: they must hand the line over to the pool.s
// own thread (the server posts it to its executor, into EnginePool::workerLine).
class ProcessEngine : public EngineWorker {
  public:
    using LineHandler = std::function<void(std::string line)>;
    using ClosedHandler = std::function<void()>;

    // Starts `path` (no arguments, standard error discarded) and the reader thread.
    static common::Result<std::unique_ptr<ProcessEngine>> start(const std::string& path,
                                                                LineHandler onLine,
                                                                ClosedHandler onClosed);
    ~ProcessEngine() override;
    ProcessEngine(const ProcessEngine&) = delete;
    ProcessEngine& operator=(const ProcessEngine&) = delete;

    bool send(std::string_view line) override;

  private:
    ProcessEngine(std::unique_ptr<common::ChildProcess> process, LineHandler onLine,
                  ClosedHandler onClosed);
    void readLines();

    std::unique_ptr<common::ChildProcess> process_;
    LineHandler onLine_;
    ClosedHandler onClosed_;
    std::atomic<bool> stopping_{false};
    std::thread reader_;
};

}  // namespace web::lasca_tables
