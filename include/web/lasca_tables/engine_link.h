// The engine behind a Lasca table: an interface the table writes protocol lines to, and the
// real one, the `lasca` program run as a child process whose output lines are handed to a
// callback from a reader thread. Tests put a fake behind the same interface.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "common/process.h"
#include "common/result.h"

namespace web::lasca_tables {

// EngineChannel: where a table writes the engine's commands (lines without their end): only a
// search's `setoption name MultiPV`, `position`, `go` and `stop`; whoever runs the process sets
// it up (`uci`, `Hash`, `isready`, `ucinewgame`: the EnginePool). The engine's replies come back
// to the table through LascaTable::onEngineLine, called by whoever owns the channel.
enum class EnginePriority : std::uint8_t { Move, Analysis };

class EngineChannel {
  public:
    virtual ~EngineChannel() = default;
    // False when the engine is gone (its input closed, or it did not take the line in time).
    virtual bool send(std::string_view line) = 0;
    // What the next `go` is for: an engine shared by many tables (EnginePool) serves moves
    // before analysis; an engine of one's own ignores it.
    virtual void setPriority(EnginePriority) {}
};

// Makes the engine of one table when the table first needs it (lazily: a table that only shows
// positions asks for none). An error names why there is none.
using EngineFactory = std::function<common::Result<std::unique_ptr<EngineChannel>>()>;

// ProcessEngine: the engine program as a child process.
//   process_  the child; its stdout is read by reader_ only, its stdin written by send only
//   reader_   reads lines with a short deadline and hands each to onLine; at the end of the
//             child's output it calls onClosed once and stops
//   stopping_ set by the destructor, which then writes `quit`, joins the reader and kills the
//             child if it has not ended
// onLine and onClosed run on the reader thread: they must hand the line over to the table's
// own thread (the server posts it to the WebSocket session's executor).
class ProcessEngine : public EngineChannel {
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
