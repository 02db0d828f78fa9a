#include "common/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <thread>

extern char** environ;

namespace common {

namespace {

// A dead child's pipe must not kill the runner: writes then fail with EPIPE instead.
void ignoreSigpipe() {
    static std::once_flag once;
    std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

struct Pipe {
    int read = -1;
    int write = -1;
};

bool openPipe(Pipe& p) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return false;
    p.read = fds[0];
    p.write = fds[1];
    return true;
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

int decodeStatus(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return -WTERMSIG(status);
    return -1;
}

// Spawns the child with stdin/stdout on the pipes; returns the pid or an errno.
Result<pid_t> spawn(const std::string& path, const std::vector<std::string>& args,
                    const std::string& stderrLog, const Pipe& toChild, const Pipe& fromChild) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(path.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toChild.read, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fromChild.write, STDOUT_FILENO);
    const char* log = stderrLog.empty() ? "/dev/null" : stderrLog.c_str();
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return makeError("cannot start '" + path + "': " + std::strerror(rc));
    return pid;
}

}  // namespace

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::string& path,
                                                          const std::vector<std::string>& args,
                                                          const std::string& stderrLog) {
    ignoreSigpipe();
    Pipe toChild, fromChild;
    if (!openPipe(toChild)) return makeError(std::string("pipe: ") + std::strerror(errno));
    if (!openPipe(fromChild)) {
        closeFd(toChild.read);
        closeFd(toChild.write);
        return makeError(std::string("pipe: ") + std::strerror(errno));
    }
    auto pid = spawn(path, args, stderrLog, toChild, fromChild);
    closeFd(toChild.read);
    closeFd(fromChild.write);
    if (!pid) {
        closeFd(toChild.write);
        closeFd(fromChild.read);
        return makeError(pid.error());
    }
    // Only our end is non-blocking: the child's end of the pipe is another open file.
    const int flags = ::fcntl(toChild.write, F_GETFL);
    if (flags < 0 || ::fcntl(toChild.write, F_SETFL, flags | O_NONBLOCK) != 0) {
        const std::string error = std::string("fcntl: ") + std::strerror(errno);
        auto child = std::unique_ptr<ChildProcess>(
            new ChildProcess(pid.value(), toChild.write, fromChild.read));
        child->kill();
        return makeError(error);
    }
    return std::unique_ptr<ChildProcess>(
        new ChildProcess(pid.value(), toChild.write, fromChild.read));
}

ChildProcess::~ChildProcess() {
    kill();
}

WriteStatus ChildProcess::writeLine(std::string_view line, SteadyClock::time_point deadline) {
    std::string data(line);
    data += '\n';
    return write(data, deadline);
}

WriteStatus ChildProcess::write(std::string_view data, SteadyClock::time_point deadline) {
    if (in_ < 0) return WriteStatus::Closed;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(in_, data.data() + done, data.size() - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            closeFd(in_);
            return WriteStatus::Closed;
        }
        // The pipe is full: wait until it takes more, or the deadline.
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        if (left.count() <= 0) {
            closeFd(in_);
            return WriteStatus::Timeout;
        }
        pollfd pfd{in_, POLLOUT, 0};
        if (::poll(&pfd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR) {
            closeFd(in_);
            return WriteStatus::Closed;
        }
    }
    return WriteStatus::Written;
}

bool ChildProcess::takeBufferedLine(std::string& line) {
    const auto nl = buffer_.find('\n');
    if (nl == std::string::npos) {
        if (buffer_.size() < ChildProcess::kLongestLine) return false;
        line = buffer_;
        buffer_.clear();
        return true;
    }
    line = buffer_.substr(0, nl);
    buffer_.erase(0, nl + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

ReadStatus ChildProcess::readLine(std::string& line, SteadyClock::time_point deadline,
                                  UnreadInput unread) {
    // Our end of the child's input, watched for the child closing its end (POLLERR is reported
    // whatever the events asked), until it did so having read everything.
    int watched = unread == UnreadInput::Closed ? in_ : -1;
    for (;;) {
        if (takeBufferedLine(line)) return ReadStatus::Line;
        if (out_ < 0) return ReadStatus::Closed;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        if (left.count() < 0) return ReadStatus::Timeout;
        pollfd pfds[2] = {{out_, POLLIN, 0}, {watched, 0, 0}};
        const int ready = ::poll(pfds, 2, static_cast<int>(left.count()) + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) continue;  // the deadline check above decides
        if (ready > 0 && pfds[0].revents == 0) {
            // Only the input stirred: the child closed its end. Bytes still in the pipe (FIONREAD
            // counts them; the pipe keeps them while our end is open) get no answer.
            int unreadBytes = 0;
            if (::ioctl(in_, FIONREAD, &unreadBytes) == 0 && unreadBytes > 0)
                return ReadStatus::Closed;
            watched = -1;
            continue;
        }
        char chunk[4096];
        const ssize_t n = ::read(out_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            closeFd(out_);
            buffer_.clear();  // no line end: not a line
            return ReadStatus::Closed;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds wait) {
    if (status_) return status_;
    if (pid_ < 0) return std::nullopt;
    const auto deadline = SteadyClock::now() + wait;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            status_ = decodeStatus(status);
            pid_ = -1;
            return status_;
        }
        if (r < 0 && errno != EINTR) {
            pid_ = -1;
            status_ = -1;
            return status_;
        }
        if (SteadyClock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

void ChildProcess::kill() {
    closeFd(in_);
    closeFd(out_);
    if (pid_ < 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = decodeStatus(status);
    pid_ = -1;
}

}  // namespace common
