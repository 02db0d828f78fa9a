// Decisions as values: what a seat is asked (Request), what it answers (Action), and which
// answers are legal. The legal answers to a request depend on the request, the deciding seat's
// OWN pieces and the geometry only: that is all a player program knows, and the referee checks
// a reply with exactly the same functions (checkAction).
//
// Text grammar (one line, tokens separated by blanks; squares as in geometry.h; seats 1..N):
//   Actions (the replies)
//     setup king <sq> warriors <sq>:<n> <sq>:<n> <sq>:<n>   G3/G4/D2/D3 (warriors 1, 2, 3)
//     move <piece> <sq>        G6: piece 0 = king, 1..3 = warriors; <sq> = destination
//     combat <sq>              G7: the square of one of the seat's own warriors
//     pass                     D10
//     order <sq>               G9: the winner orders the losing piece to <sq>
//     withdraw <sq>            G9: the piece's owner withdraws it to <sq> (no winner)
//     reward <warrior>         G10: one point onto own warrior 1..3
//   Requests (what the seat to decide is asked; the seat itself is not written: a request is
//   addressed to it)
//     request setup
//     request turn <round>
//     request order <loser seat> <from sq> [refused <sq> ...]
//     request withdraw <piece> <from sq>
//     request reward <points left>
// Every number is range-checked when read (piece 0..3, warrior 1..3, strength
// 0..strengthTotal, round 1..maxRounds, points 1..1000, seat 1..seats); errors are values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/random.h"
#include "common/result.h"
#include "torneio/rules/geometry.h"

namespace torneio {

// G2: each seat has 4 pieces, index 0 the king, 1..3 the warriors.
inline constexpr int kPiecesPerSeat = 4;
inline constexpr int kKing = 0;
inline constexpr int kWarriors = 3;
inline constexpr int kFirstWarrior = 1;

// Piece: one piece of one seat.
//   square    where it stands; kNoSquare once it has left the game
//   strength  G4: 0 for the king; a warrior's strength, kept after the piece leaves the game
//             (so that the strength sum of checkInvariants still holds)
//   alive     on the board. A piece leaves the game by elimination of its owner (G11) or by
//             removal (D7); it never comes back.
// Size: 12 bytes.
struct Piece {
    Square square = kNoSquare;
    int strength = 0;
    bool alive = false;

    friend bool operator==(const Piece&, const Piece&) = default;
};

// OwnPieces: one seat's four pieces (index 0 the king, 1..3 the warriors): the whole of what a
// player knows about the board besides the public events.
// Invariants (checkInvariants): alive pieces stand on different squares of the board; a dead
// piece's square is kNoSquare; the king's strength is 0. Size: 48 bytes.
struct OwnPieces {
    std::array<Piece, kPiecesPerSeat> pieces{};

    const Piece& operator[](int index) const { return pieces[static_cast<std::size_t>(index)]; }
    Piece& operator[](int index) { return pieces[static_cast<std::size_t>(index)]; }
    // Index of the alive piece standing on s, -1 when none.
    int pieceOn(Square s) const;
    bool occupies(Square s) const { return pieceOn(s) >= 0; }
    int livingWarriors() const;
    bool kingAlive() const { return pieces[kKing].alive; }

    friend bool operator==(const OwnPieces&, const OwnPieces&) = default;
};

// SetUp: a seat's secret set-up (G3, G4): the king's square, the 3 warriors' squares and
// strengths (warrior i+1 is warriors[i] with strengths[i]). Legal (D2, D3): 4 different dark
// squares of the seat's zone, strengths >= minStrength adding up to strengthTotal.
// Size: 28 bytes.
struct SetUp {
    Square king = kNoSquare;
    std::array<Square, kWarriors> warriors{kNoSquare, kNoSquare, kNoSquare};
    std::array<int, kWarriors> strengths{};

    friend bool operator==(const SetUp&, const SetUp&) = default;
};

// The pieces a set-up places (does not check legality).
OwnPieces piecesOf(const SetUp& setUp);

enum class ActionKind : std::uint8_t { SetUp, Move, Combat, Pass, Order, Withdraw, Reward };

// Action: one reply to a request. Fields by kind:
//   SetUp     setUp
//   Move      piece (0..3), square = destination
//   Combat    square (of an own warrior)
//   Pass      -
//   Order     square (where the losing piece is ordered)
//   Withdraw  square (where the own piece withdraws)
//   Reward    piece = the warrior (1..3) receiving the point
// Unused fields keep their defaults, so == compares actions. Build with the functions below.
// Size: 40 bytes.
struct Action {
    ActionKind kind = ActionKind::Pass;
    int piece = -1;
    Square square = kNoSquare;
    SetUp setUp{};

    friend bool operator==(const Action&, const Action&) = default;
};

Action setUpAction(const SetUp& setUp);
Action moveAction(int piece, Square to);
Action combatAction(Square square);
Action passAction();
Action orderAction(Square square);
Action withdrawAction(Square square);
Action rewardAction(int warrior);

enum class RequestKind : std::uint8_t { SetUp, Turn, RetreatOrder, Withdraw, Reward };

// Request: what the seat to decide is asked, with the public context it needs. Every field is
// public (D8) or a fact about the deciding seat's own pieces, so a request may be sent as is.
//   kind     SetUp | Turn | RetreatOrder | Withdraw | Reward
//   seat     the deciding seat (0-based)
//   round    Turn: the round number, 1..maxRounds (D11)
//   loser    RetreatOrder: the seat whose losing warrior retreats
//   piece    Withdraw: the index (1..3) of the deciding seat's warrior that withdraws
//   from     RetreatOrder, Withdraw: the combat square the piece leaves
//   refused  RetreatOrder: squares already ordered for this piece and refused (G9, D12: never
//            ordered twice), in the order they were refused
//   points   Reward: the points still to place, this one included (>= 1)
// Unused fields keep their defaults (== compares requests).
struct Request {
    RequestKind kind = RequestKind::Turn;
    int seat = -1;
    int round = 0;
    int loser = -1;
    int piece = -1;
    Square from = kNoSquare;
    std::vector<Square> refused;
    int points = 0;

    friend bool operator==(const Request&, const Request&) = default;
};

// ---- Text ------------------------------------------------------------------------------------
// formatX writes the grammar at the top of this file; parseX reads it, checking syntax and every
// number's range (squares on this board, strengths <= strengthTotal, ...). Parsing does not
// check legality: that is checkAction's job.
std::string formatAction(const Action& action, const Geometry& geometry);
common::Result<Action> parseAction(std::string_view text, const Geometry& geometry);
std::string formatSetUp(const SetUp& setUp, const Geometry& geometry);  // "king c1 warriors ..."
common::Result<SetUp> parseSetUp(std::string_view text, const Geometry& geometry);  // same form
std::string formatRequest(const Request& request, const Geometry& geometry);
// `seat` is the seat the request is addressed to (the text does not name it).
common::Result<Request> parseRequest(std::string_view text, int seat, const Geometry& geometry);

// ---- Legality --------------------------------------------------------------------------------
// G5 for one own alive piece, ignoring other seats' pieces (D4): a warrior's on-board
// neighbours without own pieces; a king's squares one or two steps away orthogonally, the
// first step not holding an own piece (never onto one, never over one). Empty for a dead piece.
SquareList pieceDestinations(const OwnPieces& own, int piece, const Geometry& geometry);

// D10: whether a pass is legal on this seat's turn.
bool passAllowed(const OwnPieces& own, const Geometry& geometry);

// true when `action` is a legal reply to `request` for a seat holding `own`, else the reason.
common::Result<bool> checkAction(const Request& request, const OwnPieces& own,
                                 const Geometry& geometry, const Action& action);
bool isLegal(const Request& request, const OwnPieces& own, const Geometry& geometry,
             const Action& action);

// Every legal reply, in a fixed order (moves by piece then table order, then combats by warrior,
// then pass; set-ups by king, warriors, strengths in lexicographic order). A set-up request has
// many (110,880 for 2 seats, 23,760 for 3-4 with the defaults): prefer countLegalActions and
// randomAction there. The output overload clears `out` first and reuses its storage.
void legalActions(const Request& request, const OwnPieces& own, const Geometry& geometry,
                  std::vector<Action>& out);
std::vector<Action> legalActions(const Request& request, const OwnPieces& own,
                                 const Geometry& geometry);
std::uint64_t countLegalActions(const Request& request, const OwnPieces& own,
                                const Geometry& geometry);

// The set-ups of `seat` numbered 0..count-1 (count = countLegalActions of its set-up request)
// in the order legalActions lists them: nthSetUp(seat, k) is that list's k-th entry, computed
// without the list; setUpNumber is its inverse, an error for a set-up that is not a legal one of
// the seat (D2, D3) or an index out of range.
common::Result<SetUp> nthSetUp(int seat, std::uint64_t index, const Geometry& geometry);
common::Result<std::uint64_t> setUpNumber(int seat, const SetUp& setUp, const Geometry& geometry);

// A uniformly random legal reply (each legal action equally likely), drawn without building
// the list for set-ups. Every request the rules produce has at least one legal reply; for a
// request without one (only possible for hand-made requests) the result is a Pass.
Action randomAction(const Request& request, const OwnPieces& own, const Geometry& geometry,
                    common::Random& random);

}  // namespace torneio
