// ChildProcess: a program run as a child with its standard input and output on pipes and its
// standard error appended to a log file. Lines are read and written with a deadline (poll; our
// end of the input pipe is non-blocking), so the runner never blocks on a silent or hung child,
// nor on one that stops reading its input. Thread-safe to create from several threads: the
// pipes are opened close-on-exec and the child is started with posix_spawn (fork + exec).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace common {

using SteadyClock = std::chrono::steady_clock;

// ReadStatus: what readLine() found before its deadline.
enum class ReadStatus { Line, Timeout, Closed };

// WriteStatus: what became of write()'s bytes by its deadline.
//   Written  the child's input pipe took them all
//   Timeout  the pipe stayed full until the deadline (the child does not read its input)
//   Closed   the child's input is closed (it ended, or an earlier write timed out)
enum class WriteStatus { Written, Timeout, Closed };

// What readLine does when the child closes its input while bytes written to it are still
// unread (their answer can never come):
//   Wait    nothing: the output's end, a line or the deadline decides (a program that read its
//           input to the end may still answer after closing it)
//   Closed  Closed at once, when no whole line is waiting
enum class UnreadInput { Wait, Closed };

// ChildProcess
//   pid_       the child's process id, -1 once it has been reaped
//   in_, out_  our ends of the child's stdin (write) and stdout (read) pipes, -1 when closed
//   buffer_    bytes read from stdout that do not yet form a whole line
// The destructor kills (SIGKILL) and reaps the child if it is still running.
class ChildProcess {
  public:
    // Starts `path` with `args` (argv[0] is path). stderrLog: file the child's standard error
    // is appended to ("" = /dev/null).
    static Result<std::unique_ptr<ChildProcess>> start(const std::string& path,
                                                       const std::vector<std::string>& args,
                                                       const std::string& stderrLog);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // readLine gives at most this many bytes as one line: a longer line comes cut in pieces.
    static constexpr std::size_t kLongestLine = std::size_t{1} << 20;

    // Writes the bytes as they are (several lines at once, each with its '\n'), waiting at
    // most until `deadline` for the child to take them (a deadline already past: what the pipe
    // takes at once). When they are not all taken by then, the child's input is closed for
    // good: the child sees its input end after the part it took, and every later write is
    // Closed (a line cut in two is never completed by a later write).
    WriteStatus write(std::string_view data, SteadyClock::time_point deadline);
    WriteStatus writeLine(std::string_view line, SteadyClock::time_point deadline);
    // The next whole line, or Timeout at `deadline`, or Closed once the child's output ended
    // (or, with UnreadInput::Closed, once it closed its input leaving bytes unread). Bytes after
    // the output's last line end are no line (the protocols ask for lines): they are dropped and
    // the output is Closed.
    ReadStatus readLine(std::string& line, SteadyClock::time_point deadline,
                        UnreadInput unread = UnreadInput::Wait);

    // Exit status once the child ended (waiting at most `wait`): the exit code, or
    // -signal when killed by a signal; nothing while it still runs.
    std::optional<int> wait(std::chrono::milliseconds wait);
    void kill();  // SIGKILL and reap
    pid_t pid() const { return pid_; }

  private:
    ChildProcess(pid_t pid, int in, int out) : pid_(pid), in_(in), out_(out) {}
    bool takeBufferedLine(std::string& line);

    pid_t pid_;
    int in_;
    int out_;
    std::string buffer_;
    std::optional<int> status_;
};

}  // namespace common
