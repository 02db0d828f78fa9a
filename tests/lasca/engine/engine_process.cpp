#include "lasca/engine/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace lasca::test {

namespace {

using Clock = std::chrono::steady_clock;

std::mutex recordMutex;
std::vector<std::string> recordedLines;

int remainingMs(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left);
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error(what + ": " + std::strerror(errno));
}

}  // namespace

EngineProcess::EngineProcess(const std::string& binary, const std::vector<std::string>& args) {
    // A write to an engine that has already exited must fail with EPIPE, not kill the test.
    ::signal(SIGPIPE, SIG_IGN);

    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) fail("pipe2");
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]);
        ::close(in[1]);
        fail("pipe2");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);

    std::vector<std::string> argvText;
    argvText.push_back(binary);
    argvText.insert(argvText.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argvText) argv.push_back(a.data());
    argv.push_back(nullptr);

    const int rc = ::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    toChild_ = in[1];
    fromChild_ = out[0];
    if (rc != 0) {
        closeFd(toChild_);
        closeFd(fromChild_);
        pid_ = -1;
        errno = rc;
        fail("posix_spawn " + binary);
    }
}

EngineProcess::~EngineProcess() {
    closeFd(toChild_);
    if (pid_ > 0 && !exitCode_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    closeFd(fromChild_);
}

bool EngineProcess::send(std::string_view line) {
    std::string text(line);
    text += '\n';
    return sendRaw(text);
}

bool EngineProcess::sendRaw(std::string_view bytes) {
    while (!bytes.empty()) {
        if (toChild_ < 0) return false;
        pollfd fds[2] = {{toChild_, POLLOUT, 0}, {fromChild_, POLLIN, 0}};
        const nfds_t count = fromChild_ >= 0 && !outputClosed_ ? 2 : 1;
        const int ready = ::poll(fds, count, 10'000);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;  // the engine neither reads nor writes for 10 s
        if (count == 2 && (fds[1].revents & (POLLIN | POLLHUP)) != 0) fill(Millis(0));
        if ((fds[0].revents & (POLLERR | POLLHUP)) != 0) return false;
        if ((fds[0].revents & POLLOUT) == 0) continue;
        const ssize_t n = ::write(toChild_, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void EngineProcess::closeStdin() {
    closeFd(toChild_);
}

bool EngineProcess::fill(Millis timeout) {
    if (outputClosed_) return false;
    pollfd fd{fromChild_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(timeout.count()));
    if (ready <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::read(fromChild_, chunk, sizeof chunk);
    if (n < 0) return errno == EINTR;
    if (n == 0) {
        outputClosed_ = true;
        return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

std::optional<std::string> EngineProcess::popLine() {
    std::size_t end = buffer_.find('\n');
    std::size_t skip = 1;
    if (end == std::string::npos) {
        // A last line without '\n' is still a reply (the grammar check will flag it).
        if (!outputClosed_ || buffer_.empty()) return std::nullopt;
        end = buffer_.size();
        skip = 0;
    }
    std::string line = buffer_.substr(0, end);
    buffer_.erase(0, end + skip);
    transcript_.push_back(line);
    {
        std::lock_guard lock(recordMutex);
        recordedLines.push_back(line);
    }
    return line;
}

std::optional<std::string> EngineProcess::readLine(Millis timeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
        if (auto line = popLine()) return line;
        if (outputClosed_) return std::nullopt;
        const int left = remainingMs(deadline);
        if (!fill(Millis(left)) && left == 0) return popLine();
    }
}

std::vector<std::string> EngineProcess::readUntil(std::string_view prefix, Millis timeout,
                                                  bool* found) {
    const auto deadline = Clock::now() + timeout;
    std::vector<std::string> lines;
    if (found) *found = false;
    while (auto line = readLine(Millis(remainingMs(deadline)))) {
        lines.push_back(*line);
        if (line->starts_with(prefix)) {
            if (found) *found = true;
            break;
        }
    }
    return lines;
}

std::vector<std::string> EngineProcess::readFor(Millis duration) {
    const auto deadline = Clock::now() + duration;
    std::vector<std::string> lines;
    while (auto line = readLine(Millis(remainingMs(deadline)))) lines.push_back(*line);
    return lines;
}

std::vector<std::string> EngineProcess::readToEnd(Millis timeout, bool* ended) {
    std::vector<std::string> lines = readFor(timeout);
    if (ended) *ended = outputClosed_ && buffer_.empty();
    return lines;
}

void EngineProcess::reap(int status) {
    if (WIFEXITED(status))
        exitCode_ = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        exitCode_ = -1 - WTERMSIG(status);
    else
        exitCode_ = -1000;
}

std::optional<int> EngineProcess::exitCode(Millis timeout) {
    if (exitCode_ || pid_ <= 0) return exitCode_;
    const auto deadline = Clock::now() + timeout;
    while (true) {
        // Keep draining the output so that the engine cannot block on a full pipe.
        if (!outputClosed_) fill(Millis(0));
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            reap(status);
            return exitCode_;
        }
        if (r < 0 && errno != EINTR) return std::nullopt;
        if (Clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(Millis(2));
    }
}

std::vector<std::string> EngineProcess::takeRecordedLines() {
    std::lock_guard lock(recordMutex);
    std::vector<std::string> lines;
    lines.swap(recordedLines);
    return lines;
}

}  // namespace lasca::test
