// Terminal play: the prompt for each request (its listed choices), the proposed set-ups, the
// screen, the help, and reading what the person typed (terminal.h). No I/O.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/text.h"
#include "torneio/rules/distance.h"
#include "torneio/person/terminal.h"

namespace torneio::person {

using play::Knowledge;

namespace {

using common::makeError;
using Tokens = std::vector<std::string_view>;

constexpr std::size_t kLogLines = 24;  // the newest events shown on a screen
constexpr std::size_t kChoicesPerLine = 6;

std::string key(std::size_t index) {
    return std::to_string(index + 1);
}

std::string bracket(const std::string& k) {
    return "[" + k + "]";
}

// Choices laid out a few per line: the first line starts with `first`, the others with as many
// blanks.
std::string layOut(const std::vector<std::string>& items, const std::string& first) {
    const std::string rest(first.size(), ' ');
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i % kChoicesPerLine == 0) text += i == 0 ? first : rest;
        text += (i % kChoicesPerLine == 0 ? "" : "  ") + items[i];
        if (i % kChoicesPerLine == kChoicesPerLine - 1 || i + 1 == items.size()) text += "\n";
    }
    return text;
}

std::string pieceLabel(const OwnPieces& own, int piece, const Geometry& g) {
    if (piece == kKing) return "K  on " + g.name(own[kKing].square);
    return "W" + std::to_string(piece) + " on " + g.name(own[piece].square) + " (strength " +
           std::to_string(own[piece].strength) + ")";
}

std::string squaresText(std::span<const Square> squares, const Geometry& g) {
    std::string text;
    for (Square s : squares) {
        if (!text.empty()) text += ' ';
        text += g.name(s);
    }
    return text;
}

// ---- Proposed set-ups --------------------------------------------------------------------------
// (edgeDistance and chebyshev of distance.h measure a square from a side and between squares.)

// A square's place along the seat's own side.
int alongOf(const Geometry& g, int seat, Square s) {
    const Side side = g.side(seat);
    return side == Side::South || side == Side::North ? g.fileOf(s) : g.rankOf(s);
}

// D3: the strength total split by weights, each warrior at least the minimum; the rounding
// remainder goes to the first.
std::array<int, kWarriors> splitStrength(const Params& p, std::array<int, kWarriors> weights) {
    const int free = p.strengthTotal - kWarriors * p.minStrength;
    const int sum = weights[0] + weights[1] + weights[2];
    std::array<int, kWarriors> strengths{};
    int given = 0;
    for (std::size_t i = 0; i < kWarriors; ++i) {
        strengths[i] = p.minStrength + free * weights[i] / sum;
        given += strengths[i];
    }
    strengths[0] += p.strengthTotal - given;
    return strengths;
}

// The zone squares other than the king's, nearest the king first (then front first).
std::vector<Square> nearestTo(const Geometry& g, int seat, Square king) {
    std::vector<Square> others;
    for (Square s : g.zone(seat))
        if (s != king) others.push_back(s);
    std::stable_sort(others.begin(), others.end(), [&](Square a, Square b) {
        const int da = chebyshev(g, a, king), db = chebyshev(g, b, king);
        if (da != db) return da < db;
        return edgeDistance(g, seat, a) > edgeDistance(g, seat, b);
    });
    return others;
}

SetUp makeSetUp(Square king, const std::vector<Square>& warriors,
                const std::array<int, kWarriors>& strengths) {
    SetUp s;
    s.king = king;
    for (std::size_t i = 0; i < kWarriors && i < warriors.size(); ++i) s.warriors[i] = warriors[i];
    s.strengths = strengths;
    return s;
}

// ---- Prompts by request ------------------------------------------------------------------------

Prompt setUpPrompt(const Request& request, const SeatView& game) {
    const Geometry& g = game.geometry();
    const Params& p = g.params();
    Prompt prompt;
    prompt.title = "Set up in secret (G3): the king and 3 warriors on 4 dark squares of your zone.";
    prompt.body = "  Your zone's dark squares (marked o): " + squaresText(g.zone(request.seat), g) +
                  "\n  Strengths (G4, D3): the 3 warriors' add up to " +
                  std::to_string(p.strengthTotal) + ", each at least " +
                  std::to_string(p.minStrength) + "; the king has none.\n";
    prompt.choices = proposedSetUps(g, request.seat);
    for (const Choice& c : prompt.choices)
        prompt.body +=
            "  " + bracket(c.key) + " " + formatSetUp(c.action.setUp, g) + "   " + c.label + "\n";
    prompt.body += "  random: a random set-up\n";
    if (!prompt.choices.empty())
        prompt.body += "  Or type your own, e.g.  " +
                       formatSetUp(prompt.choices.front().action.setUp, g) + "\n";
    prompt.marker = "setup" + std::string(kPromptEnd);
    return prompt;
}

Prompt turnPrompt(const Request& request, const SeatView& game) {
    const Geometry& g = game.geometry();
    const OwnPieces& own = game.knowledge().own();
    Prompt prompt;
    prompt.title = "Your turn (round " + std::to_string(request.round) +
                   "): move a piece, or call a combat on a warrior's square (G6).";
    const auto legal = legalActions(request, own, g);
    std::vector<std::vector<std::string>> movesByPiece(kPiecesPerSeat);
    std::vector<std::string> combats, others;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        const Action& a = legal[i];
        std::string label = formatAction(a, g);
        if (a.kind == ActionKind::Move) {
            movesByPiece[static_cast<std::size_t>(a.piece)].push_back(bracket(key(i)) + " " +
                                                                      g.name(a.square));
        } else if (a.kind == ActionKind::Combat) {
            combats.push_back(bracket(key(i)) + " " + g.name(a.square) + " (W" +
                              std::to_string(own.pieceOn(a.square)) + ")");
            label += " (warrior " + std::to_string(own.pieceOn(a.square)) + ")";
        } else {
            others.push_back(bracket(key(i)) + " pass");
        }
        prompt.choices.push_back(Choice{key(i), a, label});
    }
    prompt.body = "  Moves (G5: a warrior one step any way, the king one or two straight):\n";
    std::size_t width = 0;
    for (int piece = 0; piece < kPiecesPerSeat; ++piece)
        if (own[piece].alive) width = std::max(width, pieceLabel(own, piece, g).size());
    for (int piece = 0; piece < kPiecesPerSeat; ++piece) {
        if (!own[piece].alive) continue;
        const auto& moves = movesByPiece[static_cast<std::size_t>(piece)];
        std::string label = "    " + pieceLabel(own, piece, g);
        label.resize(width + 6, ' ');
        prompt.body += moves.empty() ? label + "blocked\n" : layOut(moves, label);
    }
    if (!combats.empty())
        prompt.body +=
            "  Combats (G7: every opponent piece there is revealed):\n" + layOut(combats, "    ");
    if (!others.empty()) prompt.body += "  Or pass (D10):\n" + layOut(others, "    ");
    prompt.marker = "turn " + std::to_string(request.round) + std::string(kPromptEnd);
    return prompt;
}

Prompt squarePrompt(const Request& request, const SeatView& game) {
    const Geometry& g = game.geometry();
    Prompt prompt;
    const bool order = request.kind == RequestKind::RetreatOrder;
    if (order) {
        prompt.title = "You won on " + g.name(request.from) + ": order seat " +
                       seatText(request.loser) + "'s losing warrior one step away (G9).";
        if (!request.refused.empty())
            prompt.title += " Refused already: " + squaresText(request.refused, g) + ".";
    } else {
        prompt.title = "No winner on " + g.name(request.from) + ": withdraw your warrior " +
                       std::to_string(request.piece) + " in secret (G9).";
    }
    const auto legal = legalActions(request, game.knowledge().own(), g);
    std::vector<std::string> items;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        items.push_back(bracket(key(i)) + " " + g.name(legal[i].square));
        prompt.choices.push_back(Choice{key(i), legal[i], formatAction(legal[i], g)});
    }
    prompt.body = layOut(items, "  ");
    prompt.marker = (order ? "order" : "withdraw") + std::string(kPromptEnd);
    return prompt;
}

Prompt rewardPrompt(const Request& request, const SeatView& game) {
    const Geometry& g = game.geometry();
    const OwnPieces& own = game.knowledge().own();
    Prompt prompt;
    prompt.title = "You gained a point (" + std::to_string(request.points) +
                   " to place): give it in secret to a warrior (G10).";
    for (const Action& a : legalActions(request, own, g)) {
        const std::string k = std::to_string(a.piece);
        prompt.body += "  " + bracket(k) + " " + pieceLabel(own, a.piece, g) + ", then " +
                       std::to_string(own[a.piece].strength + 1) + "\n";
        prompt.choices.push_back(Choice{k, a, formatAction(a, g)});
    }
    prompt.marker = "reward" + std::string(kPromptEnd);
    return prompt;
}

// HelpRow: one line of the help: what to type, what it does.
struct HelpRow {
    std::string form;
    std::string meaning;
};

std::string hintLine(const Request& request) {
    switch (request.kind) {
        case RequestKind::SetUp:
            return "Type a number, your own set-up, random, help or quit.\n";
        case RequestKind::Turn:
            return "Type a number, or e.g. 1 b2 (warrior 1 to b2), k c3 (the king), combat d4;\n"
                   "or random, board, help, quit.\n";
        case RequestKind::RetreatOrder:
        case RequestKind::Withdraw:
            return "Type a number or a square; random, board, help or quit.\n";
        case RequestKind::Reward:
            return "Type the warrior's number; random, board, help or quit.\n";
    }
    return "\n";
}

std::string header(const SeatView& game) {
    const Knowledge& k = game.knowledge();
    const Geometry& g = game.geometry();
    std::string text = "==== Torneio: you are seat " + seatText(k.seat()) + " (" +
                       std::string(sideName(g.side(k.seat()))) + ") of " +
                       std::to_string(g.seats()) + ", board " + std::to_string(g.size()) + "x" +
                       std::to_string(g.size());
    text += k.round() == 0 ? std::string(", set-up") : ", round " + std::to_string(k.round());
    return "\n" + text + " ====\n";
}

// ---- Input -------------------------------------------------------------------------------------

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A piece as the person may name it: k, king, 0 (the king); 1, 2, 3, w1, w2, w3 (warriors).
std::optional<int> pieceOf(std::string_view token) {
    if (token == "k" || token == "king" || token == "0") return kKing;
    if (token.size() == 2 && token[0] == 'w') token.remove_prefix(1);
    if (token.size() == 1 && token[0] >= '1' && token[0] <= '3') return token[0] - '0';
    return std::nullopt;
}

std::string notUnderstood(std::string_view line) {
    return "Not understood: '" + common::printable(line) + "'.";
}

// The short forms: `<piece> <sq>` and `move <piece> <sq>` for a move; a bare square for an
// order or a withdrawal; `king ...` for a set-up.
common::Result<Action> shortForm(std::string_view line, const Tokens& t, const Request& request,
                                 const Geometry& g) {
    switch (request.kind) {
        case RequestKind::SetUp: {
            if (t[0] != "king") break;
            auto setUp = parseSetUp(line, g);
            if (!setUp)
                return makeError("Not a set-up: " + setUp.error() +
                                 " (e.g. king c1 warriors a1:3 e1:3 g1:4).");
            return setUpAction(setUp.value());
        }
        case RequestKind::Turn: {
            const std::size_t first = t[0] == "move" ? 1 : 0;
            if (t.size() == first + 2) {
                const auto piece = pieceOf(t[first]);
                auto square = g.parse(t[first + 1]);
                if (piece && square) return moveAction(*piece, square.value());
                if (!piece)
                    return makeError("No piece '" + common::printable(t[first]) +
                                     "': name it k (the king) or 1, 2, 3 (warriors).");
                return makeError("No square '" + common::printable(t[first + 1]) +
                                 "' on this board.");
            }
            if (t.size() == 1 && g.parse(t[0]))
                return makeError("A square alone is no move: type combat " + std::string(t[0]) +
                                 " to call a combat there, or <piece> <square> to move.");
            break;
        }
        case RequestKind::RetreatOrder:
        case RequestKind::Withdraw: {
            if (t.size() != 1) break;
            auto square = g.parse(t[0]);
            if (!square) break;
            return request.kind == RequestKind::RetreatOrder ? orderAction(square.value())
                                                             : withdrawAction(square.value());
        }
        case RequestKind::Reward:
            break;
    }
    return makeError(notUnderstood(line));
}

std::string quitText(const Knowledge& k) {
    int others = 0;
    for (int s = 0; s < k.geometry().seats(); ++s)
        if (s != k.seat() && !k.eliminated(s)) ++others;
    std::string text = "You quit: your seat leaves the game (the record says disqualified).\n";
    if (others >= 2) text += "The others finish the game without you; the result follows.\n";
    return text;
}

}  // namespace

// ---- Proposed set-ups ------------------------------------------------------------------------

std::vector<Choice> proposedSetUps(const Geometry& g, int seat) {
    std::vector<Square> zone(g.zone(seat).begin(), g.zone(seat).end());
    if (zone.size() < kPiecesPerSeat) return {};
    const auto byBackThenAlong = [&](Square a, Square b) {
        const int da = edgeDistance(g, seat, a), db = edgeDistance(g, seat, b);
        return da != db ? da < db : alongOf(g, seat, a) < alongOf(g, seat, b);
    };
    std::sort(zone.begin(), zone.end(), byBackThenAlong);
    std::vector<Square> back;
    for (Square s : zone)
        if (edgeDistance(g, seat, s) == edgeDistance(g, seat, zone.front())) back.push_back(s);
    const Square middle = back[back.size() / 2];
    const Square firstCorner = back.front();
    const Square lastCorner = back.back();

    // 3: warriors spread over the front-most squares: first, middle and last of them.
    std::vector<Square> front;
    for (auto it = zone.rbegin(); it != zone.rend(); ++it)
        if (*it != lastCorner) front.push_back(*it);
    std::sort(front.begin(), front.end(), [&](Square a, Square b) {
        const int da = edgeDistance(g, seat, a), db = edgeDistance(g, seat, b);
        return da != db ? da > db : alongOf(g, seat, a) < alongOf(g, seat, b);
    });
    std::vector<Square> line;
    for (Square s : front)
        if (edgeDistance(g, seat, s) == edgeDistance(g, seat, front.front())) line.push_back(s);
    std::vector<Square> spread =
        line.size() >= kWarriors
            ? std::vector<Square>{line.front(), line[line.size() / 2], line.back()}
            : std::vector<Square>(front.begin(), front.begin() + 3);

    const Params& p = g.params();
    const std::vector<std::pair<SetUp, std::string>> candidates = {
        {makeSetUp(middle, nearestTo(g, seat, middle), splitStrength(p, {4, 3, 3})),
         "the king at the back, warriors around it"},
        {makeSetUp(firstCorner, nearestTo(g, seat, firstCorner), splitStrength(p, {6, 2, 2})),
         "the king in a corner, one strong guard"},
        {makeSetUp(lastCorner, spread, splitStrength(p, {4, 3, 3})),
         "the king in the other corner, warriors spread out in front"},
    };
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = seat;
    std::vector<Choice> choices;
    for (const auto& [setUp, label] : candidates) {
        const Action action = setUpAction(setUp);
        const bool seen = std::any_of(choices.begin(), choices.end(),
                                      [&](const Choice& c) { return c.action == action; });
        if (seen || !isLegal(request, OwnPieces{}, g, action)) continue;
        choices.push_back(Choice{key(choices.size()), action, label});
    }
    return choices;
}

// ---- Prompt, screen, help --------------------------------------------------------------------

Prompt makePrompt(const Request& request, const SeatView& game) {
    Prompt prompt;
    switch (request.kind) {
        case RequestKind::SetUp:
            prompt = setUpPrompt(request, game);
            break;
        case RequestKind::Turn:
            prompt = turnPrompt(request, game);
            break;
        case RequestKind::RetreatOrder:
        case RequestKind::Withdraw:
            prompt = squarePrompt(request, game);
            break;
        case RequestKind::Reward:
            prompt = rewardPrompt(request, game);
            break;
    }
    prompt.body += hintLine(request);
    return prompt;
}

std::string drawScreen(const SeatView& game, const Prompt& prompt, std::size_t logFrom) {
    std::string text = header(game) + drawBoard(game) + "\n" + drawOpponents(game) + "\n";
    const std::string log = drawLog(game, logFrom, kLogLines);
    if (!log.empty()) text += log + "\n";
    return text + prompt.title + "\n" + prompt.body + prompt.marker;
}

std::string drawEnd(const SeatView& game, std::size_t logFrom) {
    std::string text = header(game) + drawBoard(game) + "\n" + drawOpponents(game) + "\n" +
                       drawLog(game, logFrom, kLogLines) + "\n";
    const Outcome& outcome = game.knowledge().outcome();
    const bool mine = (outcome.seats >> game.seat() & 1u) != 0;
    if (outcome.kind == OutcomeKind::Win)
        text += mine ? "You won the game.\n" : "You lost the game.\n";
    else if (outcome.kind == OutcomeKind::Draw)
        text += mine ? "A draw: you survived the last round.\n" : "You lost the game.\n";
    return text;
}

std::string helpText(const Request& request, const Geometry& g) {
    std::vector<HelpRow> rows;
    switch (request.kind) {
        case RequestKind::SetUp:
            rows = {{"1, 2, ...", "one of the proposed set-ups"},
                    {"king c1 warriors a1:3 e1:3 g1:4", "your own: the king's square, then each"},
                    {"", "warrior's square:strength (warriors 1, 2, 3)"},
                    {"random", "a random legal set-up"}};
            break;
        case RequestKind::Turn:
            rows = {{"1, 2, ...", "a listed move or combat"},
                    {"move 1 b3  (or 1 b3, w1 b3)", "warrior 1 to b3: a warrior steps one square"},
                    {"", "in any of the 8 directions (G5)"},
                    {"move 0 c3  (or k c3)", "the king one or two squares straight, never"},
                    {"", "onto or over your own pieces (G5)"},
                    {"combat d4", "a combat on one of your warriors' squares: every"},
                    {"", "opponent piece there is revealed; the strongest"},
                    {"", "wins, ties go to you (G7, G8); a king there is"},
                    {"", "out at once (G11)"},
                    {"pass", "only when nothing else is possible (D10)"},
                    {"random", "a random legal move or combat"}};
            break;
        case RequestKind::RetreatOrder:
            rows = {{"1, 2, ...  or  e5", "the losing warrior goes there (one step from the"},
                    {"", "combat); if its owner has a piece there, it says"},
                    {"", "so and you order again (G9)"},
                    {"random", "a random legal square"}};
            break;
        case RequestKind::Withdraw:
            rows = {{"1, 2, ...  or  d5", "your warrior withdraws there, in secret (G9)"},
                    {"random", "a random legal square"}};
            break;
        case RequestKind::Reward:
            rows = {{"1, 2, 3", "that warrior gets the point, in secret (G10)"},
                    {"random", "a random living warrior"}};
            break;
    }
    rows.insert(rows.end(), {{"board", "the screen again"},
                             {"help", "this help"},
                             {"quit", "leave the game: your seat is out (you lose)"}});
    std::size_t width = 0;
    for (const HelpRow& row : rows) width = std::max(width, row.form.size());
    std::string text = "\nWhat you can type now:\n";
    for (const HelpRow& row : rows) {
        std::string form = "  " + row.form;
        form.resize(width + 4, ' ');
        text += form + row.meaning + "\n";
    }
    return text + "Squares are named like chess squares: a1 is the south-west corner, " +
           g.name(g.squareCount() - 1) + " the north-east one.\n";
}

// ---- Input -----------------------------------------------------------------------------------

common::Result<Input> parseInput(std::string_view line, const Request& request,
                                 const Prompt& prompt, const Knowledge& knowledge) {
    const std::string text = lowered(line);
    const Tokens t = common::splitWhitespace(text);
    if (t.empty()) return makeError("Nothing typed.");
    if (t.size() == 1) {
        if (t[0] == "help" || t[0] == "?") return Input{InputKind::Help, {}};
        if (t[0] == "quit" || t[0] == "exit" || t[0] == "resign") return Input{InputKind::Quit, {}};
        if (t[0] == "board") return Input{InputKind::Board, {}};
        if (t[0] == "random") return Input{InputKind::Random, {}};
        for (const Choice& c : prompt.choices)
            if (c.key == t[0]) return Input{InputKind::Choose, c.action};
        if (common::parseBoundedInteger(t[0], 0, 1'000'000))
            return makeError(request.kind == RequestKind::Reward
                                 ? "No living warrior " + std::string(t[0]) + "."
                                 : "There is no choice " + std::string(t[0]) + " in the list.");
    }
    const Geometry& g = knowledge.geometry();
    auto action = parseAction(text, g);
    if (!action) {
        auto shorter = shortForm(text, t, request, g);
        if (!shorter) return makeError(shorter.error());
        action = shorter.value();
    }
    auto legal = checkAction(request, knowledge.own(), g, action.value());
    if (!legal) return makeError("Not legal: " + legal.error() + ".");
    return Input{InputKind::Choose, action.value()};
}

// ---- Dialog ----------------------------------------------------------------------------------

Dialog::Dialog(const SeatView& game, const Request& request, std::size_t logFrom)
    : game_(game),
      request_(request),
      prompt_(makePrompt(request, game)),
      screen_(drawScreen(game, prompt_, logFrom)) {
}

Dialog::Answer Dialog::answer(std::string_view line, common::Random& random) const {
    const Knowledge& k = game_.knowledge();
    auto input = parseInput(line, request_, prompt_, k);
    if (!input)
        return Answer{
            "  " + input.error() + " Type help to see what you can type.\n" + prompt_.marker,
            std::nullopt, false};
    switch (input.value().kind) {
        case InputKind::Help:
            return Answer{helpText(request_, game_.geometry()) + "\n" + prompt_.title + "\n" +
                              prompt_.body + prompt_.marker,
                          std::nullopt, false};
        case InputKind::Board:
            return Answer{screen_, std::nullopt, false};
        case InputKind::Quit:
            return Answer{quitText(k), std::nullopt, true};
        case InputKind::Random: {
            const Action action = randomAction(request_, k.own(), game_.geometry(), random);
            return Answer{"  Random choice: " + formatAction(action, game_.geometry()) + "\n",
                          action, false};
        }
        case InputKind::Choose:
            return Answer{"  You: " + formatAction(input.value().action, game_.geometry()) + "\n",
                          input.value().action, false};
    }
    return Answer{prompt_.marker, std::nullopt, false};
}

}  // namespace torneio::person
