#include "web/lasca_tables/engine_link.h"

#include <chrono>
#include <utility>

namespace web::lasca_tables {

namespace {
// How long the reader waits for a line before it looks at stopping_ again.
constexpr std::chrono::milliseconds kReadSlice{100};
// How long the destructor lets the engine end by itself after `quit`.
constexpr std::chrono::milliseconds kQuitGrace{500};
// How long send waits for the engine to take a line (it reads its input even while it
// searches): past it the engine is taken for hung and its input closed.
constexpr std::chrono::milliseconds kWriteWait{2000};
}  // namespace

std::string positionCommand(const EngineRequest& request) {
    std::string line = "position fen " + request.startLfen;
    if (!request.moves.empty()) {
        line += " moves";
        for (const auto& move : request.moves) line += " " + move;
    }
    return line;
}

std::string goCommand(const EngineRequest& request) {
    return request.infinite() ? std::string("go infinite")
                              : "go nodes " + std::to_string(request.nodes);
}

common::Result<std::unique_ptr<ProcessEngine>> ProcessEngine::start(const std::string& path,
                                                                    LineHandler onLine,
                                                                    ClosedHandler onClosed) {
    auto process = common::ChildProcess::start(path, {}, "");
    if (!process) return common::makeError("cannot start the engine: " + process.error());
    return std::unique_ptr<ProcessEngine>(
        new ProcessEngine(std::move(process).value(), std::move(onLine), std::move(onClosed)));
}

ProcessEngine::ProcessEngine(std::unique_ptr<common::ChildProcess> process, LineHandler onLine,
                             ClosedHandler onClosed)
    : process_(std::move(process)), onLine_(std::move(onLine)), onClosed_(std::move(onClosed)) {
    reader_ = std::thread([this] { readLines(); });
}

ProcessEngine::~ProcessEngine() {
    stopping_ = true;
    process_->writeLine("quit", common::SteadyClock::now() + kQuitGrace);
    reader_.join();
    if (!process_->wait(kQuitGrace)) process_->kill();
}

bool ProcessEngine::send(std::string_view line) {
    return process_->writeLine(line, common::SteadyClock::now() + kWriteWait) ==
           common::WriteStatus::Written;
}

void ProcessEngine::readLines() {
    std::string line;
    while (!stopping_) {
        const auto status = process_->readLine(line, common::SteadyClock::now() + kReadSlice);
        if (status == common::ReadStatus::Line) {
            if (!stopping_) onLine_(line);
        } else if (status == common::ReadStatus::Closed) {
            if (!stopping_) onClosed_();
            return;
        }
    }
}

}  // namespace web::lasca_tables
