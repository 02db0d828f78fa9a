// Terminal play end to end: a real `torneio-referee` with a human seat runs on a pseudo-terminal
// (forkpty), as when a person starts it, against a `random` player program. The test answers
// every prompt as a person would (the first listed option or `random`), types one bad line and
// checks it is explained and asked again, and waits for the game's end message and the report.
// Nothing depends on the machine's speed: the test waits for each prompt, with a generous hang
// guard, and never checks a time.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::seconds kHangGuard{120};  // per wait; a hang guard, not a measure

// PtyProgram: a program whose stdin, stdout and stderr are a pseudo-terminal.
//   master_   our end of the terminal; output_ everything the program wrote (with the echo of
//             what was typed); pid_ the program, -1 once reaped; status_ its exit status
class PtyProgram {
  public:
    explicit PtyProgram(const std::vector<std::string>& argv) {
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        pid_ = ::forkpty(&master_, nullptr, nullptr, nullptr);
        if (pid_ == 0) {
            ::execv(args[0], args.data());
            ::_exit(127);
        }
    }
    ~PtyProgram() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (master_ >= 0) ::close(master_);
    }
    PtyProgram(const PtyProgram&) = delete;
    PtyProgram& operator=(const PtyProgram&) = delete;

    bool started() const { return pid_ > 0 && master_ >= 0; }
    const std::string& output() const { return output_; }
    bool ended() const { return ended_; }

    // Reads until `done(output)` holds or the terminal closes; false after the hang guard.
    bool waitUntil(const std::function<bool(const std::string&)>& done) {
        const auto deadline = Clock::now() + kHangGuard;
        while (!done(output_)) {
            if (ended_) return false;
            if (Clock::now() > deadline) return false;
            readSome(std::chrono::milliseconds(200));
        }
        return true;
    }
    // Reads until the program closes the terminal (it ended).
    bool waitForEnd() {
        return waitUntil([this](const std::string&) { return ended_; }) || ended_;
    }

    void type(const std::string& line) {
        const std::string text = line + "\n";
        ASSERT_EQ(::write(master_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    }

    // The exit code once the program ended (waits for it), -1 if it did not exit normally.
    int exitCode() {
        if (pid_ <= 0) return status_;
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return status_;
    }

  private:
    void readSome(std::chrono::milliseconds wait) {
        pollfd fd{master_, POLLIN, 0};
        if (::poll(&fd, 1, static_cast<int>(wait.count())) <= 0) return;
        char buffer[4096];
        const ssize_t n = ::read(master_, buffer, sizeof buffer);
        if (n <= 0) {
            ended_ = true;  // EIO: every end of the terminal's other side is closed
            return;
        }
        output_.append(buffer, static_cast<std::size_t>(n));
    }

    int master_ = -1;
    pid_t pid_ = -1;
    int status_ = -1;
    std::string output_;
    bool ended_ = false;
};

// The prompt waiting at the end of the output ("setup", "turn 12", "order", ...), if any: the
// text after the last line end, when it is a prompt marker.
std::optional<std::string> promptAtEnd(const std::string& output, std::size_t from) {
    if (output.size() <= from) return std::nullopt;
    const std::size_t lineStart = output.find_last_of('\n');
    const std::string tail = output.substr(lineStart == std::string::npos ? 0 : lineStart + 1);
    static const std::regex marker("(setup|turn [0-9]+|order|withdraw|reward)> ");
    std::smatch match;
    if (!std::regex_match(tail, match, marker)) return std::nullopt;
    return match[1].str();
}

std::vector<std::string> refereeArgs(const std::string& rounds) {
    return {TORNEIO_REFEREE,
            "--player",
            "name=me,human",
            "--player",
            std::string("name=r,cmd=") + TORNEIO_PLAYER + ",option.Player=random",
            "--params",
            "rounds=" + rounds,
            "--log-dir",
            ""};
}

// Waits for the next prompt after `from` (or the end); returns it, or "" at the end.
std::string nextPrompt(PtyProgram& program, std::size_t from) {
    std::optional<std::string> prompt;
    const bool got = program.waitUntil([&](const std::string& out) {
        prompt = promptAtEnd(out, from);
        return prompt.has_value();
    });
    return got && prompt ? *prompt : "";
}

TEST(TerminalPlay, APersonPlaysAWholeGameOnAPseudoTerminal) {
    PtyProgram referee(refereeArgs("30"));
    ASSERT_TRUE(referee.started());
    ASSERT_EQ(nextPrompt(referee, 0), "setup") << referee.output();
    EXPECT_NE(referee.output().find("[1] king"), std::string::npos);

    // a bad line is explained and the same question asked again
    std::size_t mark = referee.output().size();
    referee.type("fly me to the moon");
    ASSERT_EQ(nextPrompt(referee, mark + 1), "setup") << referee.output().substr(mark);
    EXPECT_NE(referee.output().find("Not understood: 'fly me to the moon'", mark),
              std::string::npos);

    // then every prompt is answered: the first listed option or `random`, in turn
    mark = referee.output().size();
    referee.type("1");
    int answers = 0;
    for (; answers < 5000; ++answers) {
        const std::string prompt = nextPrompt(referee, mark + 1);
        if (prompt.empty()) break;  // the game ended (or the hang guard)
        mark = referee.output().size();
        referee.type(answers % 2 == 0 ? "random" : "1");
    }
    ASSERT_TRUE(referee.waitForEnd()) << referee.output().substr(mark);
    EXPECT_EQ(referee.exitCode(), 0);
    const std::string& out = referee.output();
    EXPECT_GT(answers, 10);
    EXPECT_NE(out.find("Game over"), std::string::npos) << out.substr(mark);
    EXPECT_NE(out.find("Results of 1 games"), std::string::npos) << out.substr(mark);
    EXPECT_EQ(out.find("games 1/1"), std::string::npos);  // no progress line with a person
    EXPECT_NE(out.find("Your pieces:  K king"), std::string::npos);
}

TEST(TerminalPlay, QuitEndsTheGameCleanly) {
    PtyProgram referee(refereeArgs("200"));
    ASSERT_TRUE(referee.started());
    ASSERT_EQ(nextPrompt(referee, 0), "setup") << referee.output();
    std::size_t mark = referee.output().size();
    referee.type("random");
    ASSERT_EQ(nextPrompt(referee, mark + 1), "turn 1") << referee.output().substr(mark);
    mark = referee.output().size();
    referee.type("help");
    ASSERT_EQ(nextPrompt(referee, mark + 1), "turn 1");
    EXPECT_NE(referee.output().find("combat d4", mark), std::string::npos);
    referee.type("quit");
    ASSERT_TRUE(referee.waitForEnd()) << referee.output().substr(mark);
    EXPECT_EQ(referee.exitCode(), 0);
    const std::string& out = referee.output();
    EXPECT_NE(out.find("You quit", mark), std::string::npos);
    // called what it is in the log: the person left (not a crash)
    EXPECT_NE(out.find("disqualified, left: the person left the game", mark), std::string::npos)
        << out.substr(mark);
    // the report: the person's seat lost with a fault, the program won
    EXPECT_TRUE(std::regex_search(out, std::regex("me +1 +0 +0 +1 +1 "))) << out.substr(mark);
    EXPECT_TRUE(std::regex_search(out, std::regex("r +1 +1 +0 +0 +0 "))) << out.substr(mark);
}

int runQuietly(const std::string& arguments) {
    const int status =
        std::system((std::string(TORNEIO_REFEREE) + " " + arguments + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(TerminalPlay, OneHumanSeatInASingleGame) {
    const std::string program = std::string("name=r,cmd=") + TORNEIO_PLAYER;
    EXPECT_EQ(runQuietly("--player name=a,human --player name=b,human --log-dir ''"), 2);
    EXPECT_EQ(runQuietly("--player name=a,human --player " + program + " --games 2 --log-dir ''"),
              2);
    EXPECT_EQ(runQuietly("--player name=a,human --seats 3 --log-dir ''"), 2);
}

}  // namespace
