// EngineProcess: the real `lasca` binary as a child process, for protocol tests.
//
// The child's standard input and output are pipes owned by this object; its standard error goes
// to /dev/null. Lines are written with send() and read back with a timeout (poll()), so a test
// never hangs on a silent engine. Every line read is kept in transcript() and also in a
// process-wide record (takeRecordedLines()) so that a test fixture can check all replies against
// the reply grammar. The destructor kills the child (SIGKILL) if it is still running.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lasca::test {

using Millis = std::chrono::milliseconds;

class EngineProcess {
  public:
    // Starts `binary` with `args` (argv[0] is the binary path). Throws std::runtime_error when
    // the process cannot be started.
    explicit EngineProcess(const std::string& binary, const std::vector<std::string>& args = {});
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Writes `line` followed by '\n'. Returns false when the engine's input is closed.
    bool send(std::string_view line);
    // Writes the bytes as they are (no line end added). While writing, replies are read into
    // the buffer so that a long write cannot deadlock against a full output pipe.
    bool sendRaw(std::string_view bytes);
    // Closes the engine's standard input (end of input).
    void closeStdin();

    // The next reply line (without '\n'), or nothing on timeout or end of output.
    std::optional<std::string> readLine(Millis timeout);
    // Reads lines until one starts with `prefix` (that line included, last) or until the timeout
    // or the end of output; `found` (when given) tells which.
    std::vector<std::string> readUntil(std::string_view prefix, Millis timeout,
                                       bool* found = nullptr);
    // Reads every line that arrives within `duration` (for checking that nothing arrives).
    std::vector<std::string> readFor(Millis duration);
    // Reads until the engine closes its output or the timeout passes.
    std::vector<std::string> readToEnd(Millis timeout, bool* ended = nullptr);
    // True once the engine closed its standard output.
    bool outputClosed() const { return outputClosed_; }

    // The exit code once the process ended within `timeout`; -1 - signal number when it was
    // killed by a signal; nothing when it is still running.
    std::optional<int> exitCode(Millis timeout);
    pid_t pid() const { return pid_; }

    // Every line read from this process so far, in order.
    const std::vector<std::string>& transcript() const { return transcript_; }

    // Every line read by any EngineProcess since the last call (the record is then cleared).
    static std::vector<std::string> takeRecordedLines();

  private:
    // Reads what is available within `timeout` into buffer_; false on timeout or end of output.
    bool fill(Millis timeout);
    std::optional<std::string> popLine();
    void reap(int status);

    pid_t pid_ = -1;
    int toChild_ = -1;    // the child's standard input (write end)
    int fromChild_ = -1;  // the child's standard output (read end)
    bool outputClosed_ = false;
    std::optional<int> exitCode_;
    std::string buffer_;  // bytes read but not yet split into lines
    std::vector<std::string> transcript_;
};

}  // namespace lasca::test
