#include "torneio/play/knowledge.h"

namespace torneio::play {

namespace {

using common::makeError;

void takeOff(Piece& piece) {
    piece.alive = false;
    piece.square = kNoSquare;
}

}  // namespace

Knowledge::Knowledge(const Params& params, int seat) : geometry_(params), seat_(seat) {
}

Knowledge::Knowledge(const Params& params, int seat, const OwnPieces& start)
    : geometry_(params), seat_(seat), own_(start), setUp_(true) {
}

common::Result<bool> Knowledge::update(std::string_view line) {
    auto event = parseEvent(line, seat_, geometry_);
    if (!event) return makeError(event.error());
    return update(event.value());
}

// The events that change the seat's own pieces; each is checked before anything changes.
common::Result<bool> Knowledge::updateOwn(const Event& e) {
    switch (e.kind) {
        case EventKind::SetUp: {
            if (setUp_) return makeError("I have set up already");
            Request asked;
            asked.kind = RequestKind::SetUp;
            asked.seat = seat_;
            auto legal = checkAction(asked, OwnPieces{}, geometry_, setUpAction(e.setUp));
            if (!legal) return makeError("not a set-up of mine: " + legal.error());
            own_ = piecesOf(e.setUp);
            setUp_ = true;
            return true;
        }
        case EventKind::Move:
        case EventKind::Withdraw: {
            if (!own_[e.piece].alive || own_[e.piece].square != e.square)
                return makeError("my piece " + std::to_string(e.piece) + " is not on " +
                                 geometry_.name(e.square));
            own_[e.piece].square = e.to;
            return true;
        }
        case EventKind::Position: {
            // A resampled world's "you are here" (State::withHiddenPieces).
            own_ = OwnPieces{};
            if (geometry_.onBoard(e.setUp.king)) own_[kKing] = Piece{e.setUp.king, 0, true};
            for (int w = kFirstWarrior; w <= kWarriors; ++w) {
                const auto i = static_cast<std::size_t>(w - 1);
                own_[w] = Piece{e.setUp.warriors[i], e.setUp.strengths[i],
                                geometry_.onBoard(e.setUp.warriors[i])};
            }
            setUp_ = true;
            return true;
        }
        case EventKind::Placed:
            if (!own_[e.piece].alive) return makeError("a point for a warrior I do not have");
            own_[e.piece].strength = e.value;
            return true;
        case EventKind::Retreat: {
            const int piece = own_.pieceOn(combatSquare_);
            if (combatSquare_ == kNoSquare || piece < 0 || own_.occupies(e.square))
                return makeError("a retreat of a piece I do not have on the combat square");
            own_[piece].square = e.square;
            return true;
        }
        case EventKind::Removed: {
            const int piece = own_.pieceOn(e.square);
            if (piece < 0) return makeError("no piece of mine on " + geometry_.name(e.square));
            takeOff(own_[piece]);
            return true;
        }
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            for (Piece& piece : own_.pieces) takeOff(piece);
            return true;
        default:
            return true;
    }
}

namespace {

// The kinds that only happen while a combat is resolved (D12), after its "combat" event.
bool duringCombat(EventKind kind) {
    switch (kind) {
        case EventKind::Unopposed:
        case EventKind::Reveal:
        case EventKind::Result:
        case EventKind::Refused:
        case EventKind::Retreat:
        case EventKind::Removed:
        case EventKind::Withdrew:
        case EventKind::Withdraw:
        case EventKind::Gained:
        case EventKind::Forfeit:
        case EventKind::Placed:
            return true;
        default:
            return false;
    }
}

}  // namespace

common::Result<bool> Knowledge::update(const Event& e) {
    if (over()) return makeError("the game is over");
    if (!visibleTo(e, seat_)) return makeError("an event private to another seat");
    if (duringCombat(e.kind) && combatSquare_ == kNoSquare)
        return makeError("no combat is being resolved");
    if (isPrivateKind(e.kind) || e.seat == seat_) {
        auto own = updateOwn(e);
        if (!own) return own;
    }
    switch (e.kind) {
        case EventKind::Turn:
            turnSeat_ = e.seat;
            round_ = e.value;
            combatSquare_ = kNoSquare;
            break;
        case EventKind::Combat:
            combatSquare_ = e.square;
            break;
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            out_[static_cast<std::size_t>(e.seat)] = true;
            break;
        case EventKind::Gained:
            gained_[static_cast<std::size_t>(e.seat)] += e.value;
            break;
        case EventKind::End:
            outcome_.kind = e.draw ? OutcomeKind::Draw : OutcomeKind::Win;
            outcome_.seats = static_cast<unsigned>(e.value);
            outcome_.round = round_;
            break;
        default:
            break;
    }
    return true;
}

}  // namespace torneio::play
