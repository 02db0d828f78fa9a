// A hostile Torneio player for the referee tests: it plays like the random player (the real
// PlayerSession, Player random) until its Nth request, then misbehaves once in the way its first
// argument names:
//   garbage    answers the request with a line that is no action
//   illegal    answers with a well-formed action that is not a legal reply
//   longline   answers with a line of 100,000 bytes
//   hugeline   answers with a line of 3,000,000 bytes (longer than a child's line reader keeps)
//   outofturn  answers correctly, then writes an action line at the next event (unasked)
//   hang       stops answering (reads and ignores everything)
//   crash      exits with code 3 instead of answering
//   fragment   writes 3 bytes of a line ("com"), no line end, and exits
//   unended    writes its reply without the line end and exits
//   extraready answers correctly, then writes a second `readyok`
//   closeinput closes its input, answers correctly and keeps its output open (sleeps)
//   closeunread  answers correctly, waits until the referee's next lines arrive, then closes its
//              input without reading them and keeps its output open (sleeps)
// and in modes that need no trigger:
//   afterend   plays, and writes a stray line ("pass") after each game's `event end`
//   exitafterend  plays, and ends (exit code 0) after its first game's `event end`
//   deafwhenout   plays until its seat is eliminated, then stops reading its input (sleeps)
//   polite     never misbehaves (a control)
// usage: torneio_hostile_player MODE [N]   (N: the request that triggers it, default 3)
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

#include "torneio/play/player_session.h"

namespace {

void say(const std::string& line) {
    std::cout << line << '\n' << std::flush;
}

// Sleeps for good (the referee stops the program).
[[noreturn]] void sleepForGood() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// A well-formed action of the wrong kind for the request: never legal (checkAction).
std::string illegalReply(std::string_view request) {
    return request.starts_with("request reward") ? "pass" : "reward 1";
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "polite";
    const int trigger = argc > 2 ? std::atoi(argv[2]) : 3;
    torneio::play::PlayerSession session;
    (void)session.handle("setoption name Player value random");
    int requests = 0;
    bool hanging = false;
    bool owesStrayLine = false;
    std::string mySeat;
    for (std::string line; std::getline(std::cin, line);) {
        if (hanging) continue;
        const bool request = line.starts_with("request");
        if (request) ++requests;
        if (line.starts_with("newgame seat ")) mySeat = line.substr(13, line.find(' ', 13) - 13);
        if (mode == "deafwhenout" && line == "event eliminated " + mySeat) sleepForGood();
        if (line.starts_with("event end")) {
            if (mode == "afterend") say("pass");
            if (mode == "exitafterend") return 0;
        }
        if (line.starts_with("event") && owesStrayLine) {
            say("pass");
            owesStrayLine = false;
        }
        if (request && requests == trigger) {
            if (mode == "garbage") {
                say("xyzzy ### not an action");
                continue;
            }
            if (mode == "illegal") {
                say(illegalReply(line));
                continue;
            }
            if (mode == "longline" || mode == "hugeline") {
                say(std::string(mode == "longline" ? 100000 : 3000000, 'x'));
                continue;
            }
            if (mode == "hang") {
                hanging = true;
                continue;
            }
            if (mode == "crash") return 3;
            if (mode == "fragment") {
                std::cout << "com" << std::flush;
                return 0;
            }
            if (mode == "unended") {
                for (const std::string& reply : session.handle(line)) std::cout << reply;
                std::cout << std::flush;
                return 0;
            }
            if (mode == "extraready" || mode == "closeinput") {
                // The input is closed before the reply goes out: the referee's next lines fail.
                if (mode == "closeinput") ::close(STDIN_FILENO);
                for (const std::string& reply : session.handle(line)) say(reply);
                if (mode == "extraready") {
                    say("readyok");
                    continue;
                }
                sleepForGood();
            }
            if (mode == "closeunread") {
                // The reply goes out; the lines the referee writes next stay in the pipe, unread,
                // when the input is closed: their answer can never come.
                for (const std::string& reply : session.handle(line)) say(reply);
                pollfd input{STDIN_FILENO, POLLIN, 0};
                while (::poll(&input, 1, -1) < 0) {
                }
                ::close(STDIN_FILENO);
                sleepForGood();
            }
            if (mode == "outofturn") owesStrayLine = true;
        }
        for (const std::string& reply : session.handle(line)) say(reply);
        if (session.quit()) return 0;
    }
    return 0;
}
