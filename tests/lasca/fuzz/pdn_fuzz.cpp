// libFuzzer harness: the PDN reader (readPdnEntries, the PdnReader behind it) on arbitrary text.
// Properties: it never crashes or throws; a game that cannot be read gets a non-empty error;
// every game read, written again (writePdn) and read back is the same game: the tags as
// written (exportTags: the Seven Tag Roster first), moves, comments, glyphs, variations
// (nested) and result; replayPdn of a read game either fails with
// a non-empty error or ends in a position whose LFEN reads back.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "lasca/core/pdn.h"
#include "lasca/core/position.h"

namespace {

bool sameLine(const lasca::PdnLine& a, const lasca::PdnLine& b);

bool sameVariations(const std::vector<lasca::PdnVariation>& a,
                    const std::vector<lasca::PdnVariation>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].at != b[i].at || !sameLine(a[i].line, b[i].line)) return false;
    return true;
}

bool sameLine(const lasca::PdnLine& a, const lasca::PdnLine& b) {
    return a.moves == b.moves && a.comments == b.comments && a.comment == b.comment &&
           a.nags == b.nags && sameVariations(a.variations, b.variations);
}

// Whether `again`, `game` written and read back, is the game written.
bool sameGame(const lasca::PdnGame& again, const lasca::PdnGame& game) {
    return again.tags == lasca::exportTags(game) && again.moves == game.moves &&
           again.result == game.result && again.comment == game.comment &&
           again.comments == game.comments && again.nags == game.nags &&
           sameVariations(again.variations, game.variations);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    for (const lasca::PdnEntry& entry : lasca::readPdnEntries(in)) {
        if (entry.line < 1) std::abort();
        if (!entry.game) {
            if (entry.game.error().empty()) std::abort();
            continue;
        }
        const lasca::PdnGame& game = entry.game.value();
        const std::string written = lasca::writePdn(game);
        std::istringstream again(written);
        const auto reread = lasca::readPdn(again);
        if (!reread || reread.value().size() != 1 || !sameGame(reread.value()[0], game))
            std::abort();
        if (lasca::writePdn(reread.value()[0]) != written) std::abort();
        const auto replayed = lasca::replayPdn(game, lasca::DrawRules{});
        if (!replayed) {
            if (replayed.error().empty()) std::abort();
        } else if (!lasca::Position::fromLfen(replayed.value())) {
            std::abort();
        }
    }
    return 0;
}
