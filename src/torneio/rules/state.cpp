#include "torneio/rules/state.h"

#include <algorithm>
#include <bit>

namespace torneio {

namespace {

using common::makeError;

Event publicEvent(EventKind kind, int seat) {
    Event e;
    e.kind = kind;
    e.seat = seat;
    return e;
}

Event publicEvent(EventKind kind, int seat, Square square) {
    Event e = publicEvent(kind, seat);
    e.square = square;
    return e;
}

Event privateEvent(EventKind kind, int seat) {
    Event e;
    e.kind = kind;
    e.audience = seat;
    e.seat = seat;
    return e;
}

int warriorStrengthSum(const OwnPieces& own) {
    int sum = 0;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) sum += own[w].strength;
    return sum;
}

// Checks a StartPosition's pieces of one seat: alive pieces on different squares of the board,
// dead ones on kNoSquare, kings with strength 0, warriors >= 0, everything dead with the king.
common::Result<bool> checkStartPieces(const OwnPieces& own, const Geometry& geometry) {
    for (int i = 0; i < kPiecesPerSeat; ++i) {
        const Piece& p = own[i];
        if (p.alive && !geometry.onBoard(p.square)) return makeError("a piece is off the board");
        if (!p.alive && p.square != kNoSquare)
            return makeError("a dead piece must stand on no square");
        if (p.alive && own.pieceOn(p.square) != i)
            return makeError("two own pieces share a square");
        if (i == kKing && p.strength != 0) return makeError("a king's strength is 0 (G4)");
        if (p.strength < 0) return makeError("negative strength");
        if (p.alive && !own.kingAlive())
            return makeError("a seat without its king has no pieces (G11)");
    }
    return true;
}

}  // namespace

State::State(std::shared_ptr<const Geometry> geometry) : geometry_(std::move(geometry)) {
}

common::Result<State> State::create(const Params& params) {
    auto valid = validateParams(params);
    if (!valid) return makeError(valid.error());
    State state(std::make_shared<const Geometry>(params));
    state.phase_ = Phase::SetUp;
    state.request_.kind = RequestKind::SetUp;
    state.request_.seat = 0;
    return state;
}

common::Result<State> State::withSetUps(const Params& params, std::span<const SetUp> setUps) {
    auto created = create(params);
    if (!created) return created;
    State state = std::move(created).value();
    if (setUps.size() != static_cast<std::size_t>(state.seats()))
        return makeError("expected " + std::to_string(state.seats()) + " set-ups");
    for (int seat = 0; seat < state.seats(); ++seat) {
        auto applied = state.apply(seat, setUpAction(setUps[static_cast<std::size_t>(seat)]));
        if (!applied) return makeError("seat " + seatText(seat) + ": " + applied.error());
    }
    return state;
}

common::Result<State> State::fromPosition(const Params& params, const StartPosition& start) {
    auto created = create(params);
    if (!created) return created;
    State state = std::move(created).value();
    const Geometry& geometry = state.geometry();
    for (int seat = 0; seat < state.seats(); ++seat) {
        const auto s = static_cast<std::size_t>(seat);
        const OwnPieces& own = start.pieces[s];
        if (auto ok = checkStartPieces(own, geometry); !ok)
            return makeError("seat " + seatText(seat) + ": " + ok.error());
        state.pieces_[s] = own;
        state.setUpDone_[s] = true;
        state.eliminated_[s] = !own.kingAlive();
        state.initialExtra_[s] = warriorStrengthSum(own) - params.strengthTotal;
    }
    if (state.survivors() < 2) return makeError("a game needs at least 2 seats with a king");
    if (start.turnSeat < 0 || start.turnSeat >= state.seats() || state.eliminated(start.turnSeat))
        return makeError("the seat to play must be a seat with its king");
    if (start.round < 1 || start.round > params.maxRounds)
        return makeError("round must be 1.." + std::to_string(params.maxRounds));
    state.start_ = start;
    state.round_ = start.round;
    state.beginTurn(start.turnSeat);
    return state;
}

int State::survivors() const {
    int count = 0;
    for (int seat = 0; seat < seats(); ++seat) count += eliminated(seat) ? 0 : 1;
    return count;
}

void State::emit(const Event& event) {
    if (logEvents_) events_.push_back(event);
}

common::Result<std::size_t> State::apply(int seat, const Action& action) {
    if (over()) return makeError("the game is over");
    if (seat != request_.seat)
        return makeError("seat " + seatText(seat) + " is not to decide (seat " +
                         seatText(request_.seat) + " is)");
    auto legal = checkAction(request_, pieces(seat), geometry(), action);
    if (!legal) return makeError(legal.error());
    const std::size_t first = events_.size();
    if (logEvents_) history_.push_back(Decision{seat, action, first});
    switch (phase_) {
        case Phase::SetUp:
            applySetUp(seat, action.setUp);
            break;
        case Phase::Turn:
            applyTurn(seat, action);
            break;
        case Phase::Retreat:
            applyOrder(action);
            break;
        case Phase::Withdraw:
            applyWithdraw(seat, action);
            break;
        case Phase::Reward:
            applyReward(seat, action);
            break;
        case Phase::Over:
            break;
    }
    return first;
}

// ---- Set-up and turns (G3, G6, D9-D11, D13) --------------------------------------------------

void State::applySetUp(int seat, const SetUp& setUp) {
    const auto s = static_cast<std::size_t>(seat);
    pieces_[s] = piecesOf(setUp);
    setUpDone_[s] = true;
    Event e = privateEvent(EventKind::SetUp, seat);
    e.setUp = setUp;
    emit(e);
    const int next = nextSeatToSetUp(seat);
    if (next < seats()) {
        request_ = Request{};
        request_.kind = RequestKind::SetUp;
        request_.seat = next;
        return;
    }
    startGame();
}

// The first seat after `after` still in the game (a disqualified one sets nothing up); seats()
// when there is none.
int State::nextSeatToSetUp(int after) const {
    int next = after + 1;
    while (next < seats() && eliminated(next)) ++next;
    return next;
}

void State::startGame() {
    round_ = 1;
    beginTurn(nextSeatToSetUp(-1));  // D9: seat 1 moves first (the next one if it is out)
}

void State::beginTurn(int seat) {
    turnSeat_ = seat;
    phase_ = Phase::Turn;
    Event e = publicEvent(EventKind::Turn, seat);
    e.value = round_;
    emit(e);
    request_ = Request{};
    request_.kind = RequestKind::Turn;
    request_.seat = seat;
    request_.round = round_;
}

void State::endTurn() {
    // D9: the next seat clockwise that is still in; passing seat N closes the round (D13).
    int next = turnSeat_;
    bool wrapped = false;
    for (int k = 1; k <= seats(); ++k) {
        const int candidate = (turnSeat_ + k) % seats();
        if (eliminated(candidate)) continue;
        next = candidate;
        wrapped = turnSeat_ + k >= seats();
        break;
    }
    if (wrapped) {
        if (round_ >= params().maxRounds) {  // D11: after the last round the survivors draw
            finishDraw();
            return;
        }
        ++round_;
    }
    beginTurn(next);
}

void State::applyTurn(int seat, const Action& action) {
    switch (action.kind) {
        case ActionKind::Move: {  // G6: public "moved", the details private to the mover
            Piece& piece = pieces_[static_cast<std::size_t>(seat)][action.piece];
            emit(publicEvent(EventKind::Moved, seat));
            Event e = privateEvent(EventKind::Move, seat);
            e.piece = action.piece;
            e.square = piece.square;
            e.to = action.square;
            emit(e);
            piece.square = action.square;
            endTurn();
            return;
        }
        case ActionKind::Pass:  // D10, D13: a pass is public
            emit(publicEvent(EventKind::Pass, seat));
            endTurn();
            return;
        case ActionKind::Combat:
            resolveCombat(seat, action.square);
            return;
        default:
            return;  // not reached: checkAction allows only the three above
    }
}

// ---- Combat (G7-G11, D5-D7, D12) -------------------------------------------------------------

void State::resolveCombat(int attacker, Square square) {
    emit(publicEvent(EventKind::Combat, attacker, square));
    combat_ = CombatStage{};
    combat_.attacker = attacker;
    combat_.square = square;

    // D12: clockwise from the seat after the attacker, the attacker last. At most one piece of
    // a seat stands on the square (G5).
    std::array<int, kMaxSeats> order{};
    std::array<int, kMaxSeats> pieceThere{};
    int present = 0;
    for (int k = 1; k <= seats(); ++k) {
        const int seat = (attacker + k) % seats();
        if (eliminated(seat)) continue;
        const int piece = pieces(seat).pieceOn(square);
        if (piece < 0) continue;
        order[static_cast<std::size_t>(present)] = seat;
        pieceThere[static_cast<std::size_t>(present)] = piece;
        ++present;
    }
    if (present == 1) {  // D5/D6: only the attacker: nobody reveals anything, the turn is spent
        emit(publicEvent(EventKind::Unopposed, attacker, square));
        endTurn();
        return;
    }

    // D12.1: reveals, kings as "king", the attacker last.
    for (int i = 0; i < present; ++i) {
        const int seat = order[static_cast<std::size_t>(i)];
        const int piece = pieceThere[static_cast<std::size_t>(i)];
        Event e = publicEvent(EventKind::Reveal, seat);
        e.value = piece == kKing ? kKingReveal : pieces(seat)[piece].strength;
        emit(e);
    }

    // D12.2: the result (G8, D6). The strongest defending warrior against the attacker's; the
    // attacker wins ties; a tie of two or more strongest defenders above the attacker has no
    // winner; kings never win.
    const int attackerStrength =
        pieces(attacker)[pieceThere[static_cast<std::size_t>(present - 1)]].strength;
    int best = -1;
    int bestCount = 0;
    int bestSeat = -1;
    for (int i = 0; i + 1 < present; ++i) {
        const int piece = pieceThere[static_cast<std::size_t>(i)];
        if (piece == kKing) continue;
        const int strength = pieces(order[static_cast<std::size_t>(i)])[piece].strength;
        if (strength > best) {
            best = strength;
            bestCount = 1;
            bestSeat = order[static_cast<std::size_t>(i)];
        } else if (strength == best) {
            ++bestCount;
        }
    }
    int winner = attacker;
    if (bestCount > 0 && best > attackerStrength) winner = bestCount >= 2 ? -1 : bestSeat;
    combat_.winner = winner;
    emit(publicEvent(EventKind::Result, winner));

    // D12.3: eliminations (G11); each king is a point for the attacker whatever the result.
    int kings = 0;
    for (int i = 0; i + 1 < present; ++i) {
        if (pieceThere[static_cast<std::size_t>(i)] != kKing) continue;
        const int seat = order[static_cast<std::size_t>(i)];
        eliminate(seat);
        emit(publicEvent(EventKind::Eliminated, seat));
        ++kings;
    }
    if (survivors() == 1) {  // G12: the game ends here
        finishWin();
        return;
    }

    // D12.4: the warriors that leave the square, in D12 order: with a winner every other
    // warrior (each one defeated, D6); with no winner every warrior, the attacker's included.
    for (int i = 0; i < present; ++i) {
        const int seat = order[static_cast<std::size_t>(i)];
        if (pieceThere[static_cast<std::size_t>(i)] == kKing || seat == winner) continue;
        combat_.movers[static_cast<std::size_t>(combat_.moverCount++)] = seat;
    }

    // D12.5 / G10 / D6: the winner gains a point per defeated warrior (plus the kings when it is
    // the attacker); an attacker that is not the winner gains the kings' points alone.
    const int defeated = winner >= 0 ? combat_.moverCount : 0;
    const auto addReward = [this](int seat, int points) {
        if (points <= 0) return;
        combat_.rewards[static_cast<std::size_t>(combat_.rewardCount++)] =
            RewardDue{seat, points, points};
    };
    if (winner >= 0) addReward(winner, defeated + (winner == attacker ? kings : 0));
    if (winner != attacker) addReward(attacker, kings);

    if (winner >= 0) {
        phase_ = Phase::Retreat;
        askRetreatOrNext();
    } else {
        phase_ = Phase::Withdraw;
        askWithdrawOrNext();
    }
}

void State::eliminate(int seat) {
    const auto s = static_cast<std::size_t>(seat);
    eliminated_[s] = true;
    for (int i = 0; i < kPiecesPerSeat; ++i)
        if (pieces_[s][i].alive) removePiece(seat, i);
}

void State::removePiece(int seat, int piece) {
    Piece& p = pieces_[static_cast<std::size_t>(seat)][piece];
    p.alive = false;
    p.square = kNoSquare;
}

void State::askRetreatOrNext() {
    const Square square = combat_.square;
    while (combat_.next < combat_.moverCount) {
        const int loser = combat_.movers[static_cast<std::size_t>(combat_.next)];
        const OwnPieces& own = pieces(loser);
        const auto steps = geometry().warriorSteps(square);
        const bool nowhere =
            std::all_of(steps.begin(), steps.end(), [&own](Square to) { return own.occupies(to); });
        if (nowhere) {  // D7: every square it could reach holds one of its own pieces
            removePiece(loser, own.pieceOn(square));
            emit(publicEvent(EventKind::Removed, loser, square));
            ++combat_.next;
            continue;
        }
        request_ = Request{};
        request_.kind = RequestKind::RetreatOrder;
        request_.seat = combat_.winner;
        request_.loser = loser;
        request_.from = square;
        request_.refused = combat_.refused;
        return;
    }
    phase_ = Phase::Reward;
    askRewardOrNext();
}

void State::applyOrder(const Action& action) {
    const int loser = combat_.movers[static_cast<std::size_t>(combat_.next)];
    OwnPieces& own = pieces_[static_cast<std::size_t>(loser)];
    if (own.occupies(action.square)) {  // G9: "my piece stands there", public; order again
        emit(publicEvent(EventKind::Refused, loser, action.square));
        combat_.refused.push_back(action.square);
        request_.refused = combat_.refused;
        return;
    }
    own[own.pieceOn(combat_.square)].square = action.square;
    emit(publicEvent(EventKind::Retreat, loser, action.square));
    ++combat_.next;
    combat_.refused.clear();
    askRetreatOrNext();
}

void State::askWithdrawOrNext() {
    const Square square = combat_.square;
    while (combat_.next < combat_.moverCount) {
        const int seat = combat_.movers[static_cast<std::size_t>(combat_.next)];
        const int piece = pieces(seat).pieceOn(square);
        if (pieceDestinations(pieces(seat), piece, geometry()).empty()) {  // D7, D12.4
            removePiece(seat, piece);
            emit(publicEvent(EventKind::Removed, seat, square));
            ++combat_.next;
            continue;
        }
        request_ = Request{};
        request_.kind = RequestKind::Withdraw;
        request_.seat = seat;
        request_.piece = piece;
        request_.from = square;
        return;
    }
    phase_ = Phase::Reward;
    askRewardOrNext();
}

void State::applyWithdraw(int seat, const Action& action) {
    Piece& piece = pieces_[static_cast<std::size_t>(seat)][request_.piece];
    emit(publicEvent(EventKind::Withdrew, seat));  // G9/D8: that it withdrew, not where
    Event e = privateEvent(EventKind::Withdraw, seat);
    e.piece = request_.piece;
    e.square = piece.square;
    e.to = action.square;
    emit(e);
    piece.square = action.square;
    ++combat_.next;
    askWithdrawOrNext();
}

void State::askRewardOrNext() {
    while (combat_.nextReward < combat_.rewardCount) {
        RewardDue& due = combat_.rewards[static_cast<std::size_t>(combat_.nextReward)];
        const auto s = static_cast<std::size_t>(due.seat);
        if (!combat_.announced) {  // D12.5: the number of points gained is public
            Event e = publicEvent(EventKind::Gained, due.seat);
            e.value = due.total;
            emit(e);
            gained_[s] += due.total;
            combat_.announced = true;
            if (pieces(due.seat).livingWarriors() == 0) {
                // No warrior to hold them: the points are lost, publicly (it tells nothing new:
                // removals and eliminations, the only ways to lose a warrior, are public).
                // Under G5 this never happens: the winner's warrior stays on the square, and an
                // attacker's warrior is only removed (D7) when every square next to it holds
                // one of its own pieces, at least 3 of them (a corner), so two warriors live.
                Event lost = publicEvent(EventKind::Forfeit, due.seat);
                lost.value = due.left;
                emit(lost);
                forfeited_[s] += due.left;
                due.left = 0;
            }
        }
        if (due.left == 0) {
            ++combat_.nextReward;
            combat_.announced = false;
            continue;
        }
        request_ = Request{};
        request_.kind = RequestKind::Reward;
        request_.seat = due.seat;
        request_.points = due.left;
        return;
    }
    endTurn();
}

void State::applyReward(int seat, const Action& action) {
    const auto s = static_cast<std::size_t>(seat);
    Piece& warrior = pieces_[s][action.piece];
    ++warrior.strength;  // G10: one point, in secret
    ++placed_[s];
    Event e = privateEvent(EventKind::Placed, seat);
    e.piece = action.piece;
    e.value = warrior.strength;
    emit(e);
    --combat_.rewards[static_cast<std::size_t>(combat_.nextReward)].left;
    askRewardOrNext();
}

// ---- End (G12, D11) --------------------------------------------------------------------------

void State::finishWin() {
    unsigned mask = 0;
    for (int seat = 0; seat < seats(); ++seat)
        if (!eliminated(seat)) mask |= 1u << seat;
    outcome_ = Outcome{OutcomeKind::Win, mask, round_};
    Event e = publicEvent(EventKind::End, -1);
    e.value = static_cast<int>(mask);
    emit(e);
    phase_ = Phase::Over;
    request_ = Request{};
}

void State::finishDraw() {
    unsigned mask = 0;
    for (int seat = 0; seat < seats(); ++seat)
        if (!eliminated(seat)) mask |= 1u << seat;
    outcome_ = Outcome{OutcomeKind::Draw, mask, round_};
    Event e = publicEvent(EventKind::End, -1);
    e.value = static_cast<int>(mask);
    e.draw = true;
    emit(e);
    phase_ = Phase::Over;
    request_ = Request{};
}

// ---- Disqualification (the referee's, not a rule: see State::disqualify) ---------------------

common::Result<std::size_t> State::disqualify(int seat, Fault fault) {
    if (over()) return makeError("the game is over");
    if (seat < 0 || seat >= seats()) return makeError("no seat " + std::to_string(seat + 1));
    if (eliminated(seat)) return makeError("seat " + seatText(seat) + " is already out");
    const std::size_t first = events_.size();
    Event e = publicEvent(EventKind::Disqualified, seat);
    e.value = static_cast<int>(fault);
    emit(e);
    eliminate(seat);
    if (survivors() == 1) {  // G12
        finishWin();
        return first;
    }
    switch (phase_) {
        case Phase::SetUp:
            if (request_.seat != seat) break;
            if (const int next = nextSeatToSetUp(seat); next < seats()) {
                request_ = Request{};
                request_.kind = RequestKind::SetUp;
                request_.seat = next;
            } else {
                startGame();
            }
            break;
        case Phase::Turn:
            if (turnSeat_ == seat) endTurn();
            break;
        case Phase::Retreat:
            dropFromCombat(seat);
            askRetreatOrNext();
            break;
        case Phase::Withdraw:
            dropFromCombat(seat);
            askWithdrawOrNext();
            break;
        case Phase::Reward:
            dropFromCombat(seat);
            askRewardOrNext();
            break;
        case Phase::Over:
            break;
    }
    return first;
}

// Takes a disqualified seat out of the combat being resolved: its pieces still to retreat or
// withdraw and its points still to place; as the winner, it orders nothing more.
void State::dropFromCombat(int seat) {
    const auto current = [this] {
        return combat_.next < combat_.moverCount
                   ? combat_.movers[static_cast<std::size_t>(combat_.next)]
                   : -1;
    };
    const int before = current();
    int kept = combat_.next;
    for (int i = combat_.next; i < combat_.moverCount; ++i) {
        const int mover = combat_.movers[static_cast<std::size_t>(i)];
        if (mover != seat) combat_.movers[static_cast<std::size_t>(kept++)] = mover;
    }
    combat_.moverCount = kept;
    if (seat == combat_.winner) combat_.moverCount = combat_.next;
    if (current() != before) combat_.refused.clear();

    int keptRewards = combat_.nextReward;
    for (int i = combat_.nextReward; i < combat_.rewardCount; ++i) {
        const RewardDue due = combat_.rewards[static_cast<std::size_t>(i)];
        if (due.seat == seat) {
            if (i == combat_.nextReward) combat_.announced = false;
            continue;
        }
        combat_.rewards[static_cast<std::size_t>(keptRewards++)] = due;
    }
    combat_.rewardCount = keptRewards;
}

common::Result<std::size_t> apply(State& state, int seat, const Action& action) {
    return state.apply(seat, action);
}

// ---- Invariants ------------------------------------------------------------------------------

common::Result<State> State::withHiddenPieces(const State& real, int seat,
                                              const StartPosition& sample) {
    if (seat < 0 || seat >= real.seats())
        return makeError("seat " + seatText(seat) + " out of range");
    State state = real;
    const Params& params = real.params();
    for (int other = 0; other < real.seats(); ++other) {
        const auto o = static_cast<std::size_t>(other);
        if (other == seat || !real.setUpDone(other) || real.eliminated(other)) continue;
        const OwnPieces& own = sample.pieces[o];
        if (own.kingAlive() != real.pieces(other).kingAlive())
            return makeError("seat " + seatText(other) +
                             ": the sample's king is not as the game's");
        for (int i = 0; i < kPiecesPerSeat; ++i)
            if (own[i].alive != real.pieces(other)[i].alive)
                return makeError("seat " + seatText(other) + ": the sample's piece " +
                                 std::to_string(i) + " is not alive as the game's is");
        state.pieces_[o] = own;
        state.initialExtra_[o] =
            warriorStrengthSum(own) - params.strengthTotal - real.pointsPlaced(other);
        if (state.start_) state.start_->pieces[o] = OwnPieces{};
    }
    // What the seat saw, and nothing else.
    std::erase_if(state.events_, [seat](const Event& e) { return !visibleTo(e, seat); });
    std::erase_if(state.history_, [seat](const Decision& d) { return d.seat != seat; });
    for (int other = 0; other < real.seats(); ++other) {
        if (other == seat || !real.setUpDone(other) || real.eliminated(other)) continue;
        const OwnPieces& own = state.pieces(other);
        Event e = privateEvent(EventKind::Position, other);
        e.setUp.king = own[kKing].alive ? own[kKing].square : kNoSquare;
        for (int w = kFirstWarrior; w <= kWarriors; ++w) {
            const auto i = static_cast<std::size_t>(w - 1);
            e.setUp.warriors[i] = own[w].alive ? own[w].square : kNoSquare;
            e.setUp.strengths[i] = own[w].strength;
        }
        state.events_.push_back(e);
    }
    state.sampledFor_ = seat;

    // A combat being resolved needs, for each seat still to retreat or withdraw, its warrior on
    // the square and somewhere to go (else the rules would have removed it, D7).
    const CombatStage& combat = state.combat_;
    if (state.phase_ == Phase::Retreat || state.phase_ == Phase::Withdraw) {
        for (int k = combat.next; k < combat.moverCount; ++k) {
            const int mover = combat.movers[static_cast<std::size_t>(k)];
            const OwnPieces& own = state.pieces(mover);
            const int piece = own.pieceOn(combat.square);
            if (piece <= kKing)
                return makeError("seat " + seatText(mover) +
                                 " has no warrior on the combat square in the sample");
            if (state.phase_ == Phase::Withdraw) {
                if (pieceDestinations(own, piece, state.geometry()).empty())
                    return makeError("seat " + seatText(mover) + "'s warrior cannot withdraw");
                if (k == combat.next) state.request_.piece = piece;
                continue;
            }
            const auto steps = state.geometry().warriorSteps(combat.square);
            const bool refusedHeld =
                k != combat.next || std::all_of(combat.refused.begin(), combat.refused.end(),
                                                [&own](Square q) { return own.occupies(q); });
            const bool free = std::any_of(steps.begin(), steps.end(), [&](Square to) {
                return !own.occupies(to) &&
                       (k != combat.next || std::find(combat.refused.begin(), combat.refused.end(),
                                                      to) == combat.refused.end());
            });
            if (!refusedHeld || !free)
                return makeError("seat " + seatText(mover) +
                                 "'s retreat does not agree with the sample");
        }
    }
    if (auto valid = checkInvariants(state); !valid) return makeError(valid.error());
    return state;
}

common::Result<bool> checkInvariants(const State& state) {
    const Geometry& geometry = state.geometry();
    const Params& params = state.params();
    const auto fail = [](int seat, const std::string& what) {
        return makeError("seat " + seatText(seat) + ": " + what);
    };
    for (int seat = 0; seat < state.seats(); ++seat) {
        const auto s = static_cast<std::size_t>(seat);
        const OwnPieces& own = state.pieces(seat);
        for (int i = 0; i < kPiecesPerSeat; ++i) {
            const Piece& p = own[i];
            if (p.alive && !geometry.onBoard(p.square)) return fail(seat, "piece off the board");
            if (!p.alive && p.square != kNoSquare) return fail(seat, "dead piece on a square");
            if (p.alive && own.pieceOn(p.square) != i)
                return fail(seat, "two own pieces on one square (G5)");
            if (i == kKing && p.strength != 0) return fail(seat, "king with strength (G4)");
            if (p.strength < 0) return fail(seat, "negative strength (D3)");
        }
        if (!state.setUpDone(seat)) {
            for (const Piece& p : own.pieces)
                if (p.alive) return fail(seat, "pieces before its set-up");
            continue;
        }
        if (warriorStrengthSum(own) !=
            params.strengthTotal + state.pointsPlaced(seat) + state.initialExtra_[s])
            return fail(seat, "strengths do not add up to the total plus points placed (G10)");
        if (state.pointsPlaced(seat) + state.pointsForfeited(seat) > state.pointsGained(seat))
            return fail(seat, "more points placed than gained");
        if (state.eliminated(seat) == own.kingAlive())
            return fail(seat, "eliminated but its king is alive, or the reverse (G11)");
        if (state.eliminated(seat))
            for (const Piece& p : own.pieces)
                if (p.alive) return fail(seat, "eliminated seat with a piece on the board (G11)");
    }
    if (state.phase() != Phase::SetUp && !state.over() && state.survivors() < 2)
        return makeError("fewer than 2 seats left but the game goes on (G12)");
    if (state.round() < 1 || state.round() > params.maxRounds)
        return makeError("round out of range (D11)");
    if (state.over()) {
        const Outcome& outcome = state.outcome();
        if (outcome.kind == OutcomeKind::Ongoing) return makeError("over without an outcome");
        if (outcome.kind == OutcomeKind::Win &&
            (state.survivors() != 1 || std::popcount(outcome.seats) != 1 ||
             state.eliminated(std::countr_zero(outcome.seats))))
            return makeError("a win must name the one seat left (G12)");
        return true;
    }
    const Request& request = state.request();
    if (request.seat < 0 || request.seat >= state.seats()) return makeError("no seat to decide");
    if (state.phase() != Phase::SetUp && state.eliminated(request.seat))
        return makeError("an eliminated seat is to decide");
    if (state.phase() == Phase::Turn && request.seat != state.turnSeat())
        return makeError("the seat to play is not the turn's seat");
    if (countLegalActions(request, state.pieces(request.seat), geometry) == 0)
        return makeError("the pending request has no legal reply");
    return true;
}

}  // namespace torneio
