// The particles of a Belief (belief.h): their start, reach, the constraints each public event
// puts on them (dropped, repaired or forced), unseen moves, and the queries. The king's grid
// filter is in belief_king.cpp.
#include "torneio/play/ai/belief.h"
#include "torneio/rules/distance.h"

#include <algorithm>
#include <cstdlib>

namespace torneio::play {

namespace {

// How much likelier a particle attributes an unseen move to a given warrior than to the king.
constexpr int kWarriorMoveWeight = 4;
// Grid filter of the king: how much a refusal (a piece of the seat stands there, maybe the
// king) multiplies the square's probability.
constexpr double kRefusalFactor = 3.0;
// Below this fraction of survivors the rejected particles are repaired rather than dropped.
constexpr std::size_t kSurvivorFraction = 4;

// How a constraint treats a particle that does not fit it.
enum class Mode : std::uint8_t { Check, Repair, Force };

}  // namespace

Belief::Belief(const Params& params, int seat, int particles, std::uint64_t seed, KingPrior prior,
               OpponentModel model)
    : geometry_(params),
      seat_(seat),
      size_(std::max(1, particles)),
      prior_(prior),
      model_(model),
      random_(seed) {
    for (int s = 0; s < geometry_.seats(); ++s)
        if (s != seat_) initialise(s);
}

// D2/D3: each particle starts as a uniformly random legal set-up of the seat; the king filter
// from the KingPrior.
void Belief::initialise(int seat) {
    Request request;
    request.kind = RequestKind::SetUp;
    request.seat = seat;
    KingModels& models = kingModels_[static_cast<std::size_t>(seat)];
    const std::vector<double> start = kingPriorField(seat);
    for (std::size_t h = 0; h < kKingMobilities; ++h) {
        models.field[h] = start;
        models.weight[h] = 1.0 / kKingMobilities;
    }
    mixKing(seat);
    std::vector<Particle>& ps = of(seat);
    ps.assign(static_cast<std::size_t>(size_), Particle{});
    for (Particle& p : ps) {
        const Action a = randomAction(request, OwnPieces{}, geometry_, random_);
        p.pieces = piecesOf(a.setUp);
    }
}

bool Belief::opponent(int seat) const {
    return seat >= 0 && seat != seat_ && !particles_[static_cast<std::size_t>(seat)].empty();
}

// ---- Reach -----------------------------------------------------------------------------------

int Belief::minSteps(int seat, const Particle& p, int piece, Square to) const {
    const auto distance = [&](Square from) {
        return piece == kKing ? kingMoves(geometry_, from, to) : chebyshev(geometry_, from, to);
    };
    const Square anchor = p.anchor[static_cast<std::size_t>(piece)];
    if (anchor != kNoSquare) return distance(anchor);
    int best = 1 << 20;
    for (Square z : geometry_.zone(seat)) best = std::min(best, distance(z));
    return best;
}

// Moves of other pieces cannot be re-attributed in general (they may predate this piece's
// pin), so a piece reaches only what its own attributed moves allow.
bool Belief::canReach(int seat, const Particle& p, int piece, Square to) const {
    return minSteps(seat, p, piece, to) <= p.steps[static_cast<std::size_t>(piece)];
}

// Puts the piece on `to` (within its reach: canReach).
void Belief::relocate(int seat, Particle& p, int piece, Square to) {
    (void)seat;
    p.pieces[piece].square = to;
}

// ---- Constraints -----------------------------------------------------------------------------

bool Belief::fitsPin(const Particle& p, Square square, Need need, int strength) const {
    const int there = p.pieces.pieceOn(square);
    if (there < 0) return false;
    if (need == Need::King && there != kKing) return false;
    if (need == Need::Warrior && there == kKing) return false;
    return strength < 0 || p.pieces[there].strength == strength;
}

// D3/G10: gives warrior `warrior` the strength, moving the difference to or from the other
// living warriors without taking any below its floor; false when impossible.
bool Belief::setStrength(Particle& p, int warrior, int strength) {
    const auto w = static_cast<std::size_t>(warrior);
    if (strength < p.floor[w]) return false;
    int delta = strength - p.pieces[warrior].strength;
    const int minimum = geometry_.params().minStrength;
    std::array<int, kWarriors> others{};
    int count = 0;
    for (int o = kFirstWarrior; o < kPiecesPerSeat; ++o)
        if (o != warrior && p.pieces[o].alive) others[static_cast<std::size_t>(count++)] = o;
    if (delta != 0 && count == 0) return false;
    if (delta > 0) {
        int capacity = 0;
        for (int i = 0; i < count; ++i) {
            const int o = others[static_cast<std::size_t>(i)];
            capacity +=
                p.pieces[o].strength - std::max(minimum, p.floor[static_cast<std::size_t>(o)]);
        }
        if (capacity < delta) return false;
        for (int i = 0; i < count && delta > 0; ++i) {
            const int o = others[static_cast<std::size_t>(i)];
            const int spare =
                p.pieces[o].strength - std::max(minimum, p.floor[static_cast<std::size_t>(o)]);
            const int take = std::min(spare, delta);
            p.pieces[o].strength -= take;
            delta -= take;
        }
    } else if (delta < 0) {
        // The surplus goes to warriors below their ceiling (never revealed: no ceiling).
        const auto room = [&p](int o) {
            const int c = p.ceiling[static_cast<std::size_t>(o)];
            return c < 0 ? 1 << 20 : c - p.pieces[o].strength;
        };
        int capacity = 0;
        for (int i = 0; i < count; ++i) capacity += room(others[static_cast<std::size_t>(i)]);
        if (capacity < -delta) return false;
        for (int k = 0; k < -delta; ++k) {
            int o = others[random_.index(static_cast<std::size_t>(count))];
            for (int i = 0; room(o) <= 0 && i < count; ++i) o = others[static_cast<std::size_t>(i)];
            ++p.pieces[o].strength;
        }
    }
    p.pieces[warrior].strength = strength;
    return true;
}

// Moves the piece standing on `square` (other than `except`) one legal step away, within
// reach unless forced; true when the square is (now) free of it.
bool Belief::evict(int seat, Particle& p, Square square, int except, bool force) {
    const int q = p.pieces.pieceOn(square);
    if (q < 0 || q == except) return true;
    const SquareList steps = pieceDestinations(p.pieces, q, geometry_);
    std::array<Square, SquareList::kCapacity> fit{};
    int count = 0;
    for (Square s : steps)
        if (force || canReach(seat, p, q, s)) fit[static_cast<std::size_t>(count++)] = s;
    if (count == 0) return false;
    const Square to = fit[random_.index(static_cast<std::size_t>(count))];
    if (force)
        p.pieces[q].square = to;
    else
        relocate(seat, p, q, to);
    return true;
}

// A piece of the kind needed (with that strength, when >= 0) stands on `square` now: checks it,
// or (repair) moves a piece that can have gone there. Pins the piece on success.
bool Belief::pin(int seat, Particle& p, Square square, Need need, int strength, bool repair) {
    int there = p.pieces.pieceOn(square);
    const bool typeOk = there >= 0 && !(need == Need::King && there != kKing) &&
                        !(need == Need::Warrior && there == kKing);
    if (!typeOk) {
        if (!repair) return false;
        if (there >= 0 && !evict(seat, p, square, -1, false)) return false;
        std::array<int, kPiecesPerSeat> exact{};
        std::array<int, kPiecesPerSeat> other{};
        int exactCount = 0;
        int otherCount = 0;
        for (int c = 0; c < kPiecesPerSeat; ++c) {
            if (!p.pieces[c].alive) continue;
            if (need == Need::King && c != kKing) continue;
            if (need == Need::Warrior && c == kKing) continue;
            // The loser waiting on the combat square stays there (its own retreat comes).
            if (p.pieces[c].square == combat_.square && square != combat_.square) continue;
            if (!canReach(seat, p, c, square)) continue;
            const bool same = strength < 0 || p.pieces[c].strength == strength;
            if (same)
                exact[static_cast<std::size_t>(exactCount++)] = c;
            else
                other[static_cast<std::size_t>(otherCount++)] = c;
        }
        if (exactCount + otherCount == 0) return false;
        there = exactCount > 0 ? exact[random_.index(static_cast<std::size_t>(exactCount))]
                               : other[random_.index(static_cast<std::size_t>(otherCount))];
        relocate(seat, p, there, square);
    }
    const auto t = static_cast<std::size_t>(there);
    if (strength >= 0 && p.pieces[there].strength != strength) {
        if (!repair || !setStrength(p, there, strength)) return false;
    }
    p.anchor[t] = square;
    p.steps[t] = 0;
    if (strength >= 0) p.floor[t] = p.ceiling[t] = strength;
    return true;
}

// Last resort when no particle fits: teleports a suitable piece and forces the strength.
void Belief::force(int seat, Particle& p, Square square, Need need, int strength) {
    int there = p.pieces.pieceOn(square);
    const bool typeOk = there >= 0 && !(need == Need::King && there != kKing) &&
                        !(need == Need::Warrior && there == kKing);
    if (!typeOk) {
        if (there >= 0) evict(seat, p, square, -1, true);
        there = -1;
        for (int c = 0; c < kPiecesPerSeat && there < 0; ++c) {
            if (!p.pieces[c].alive || (need == Need::King && c != kKing) ||
                (need == Need::Warrior && c == kKing))
                continue;
            if (p.pieces[c].square == combat_.square && square != combat_.square) continue;
            there = c;
        }
        if (there < 0) return;
        p.pieces[there].square = square;
    }
    const auto t = static_cast<std::size_t>(there);
    if (strength >= 0 && p.pieces[there].strength != strength) {
        for (int& f : p.floor) f = 0;
        for (int& c : p.ceiling) c = -1;
        if (!setStrength(p, there, strength)) p.pieces[there].strength = strength;
    }
    p.anchor[t] = square;
    p.steps[t] = 0;
    if (strength >= 0) p.floor[t] = p.ceiling[t] = strength;
}

template <class Apply>
void narrowWith(std::vector<Particle>& ps, std::size_t size, common::Random& random, int& repairs,
                int& resets, Apply apply) {
    std::vector<Particle> kept;
    kept.reserve(size);
    for (const Particle& p : ps) {
        Particle copy = p;
        if (apply(copy, Mode::Check)) kept.push_back(copy);
    }
    if (kept.size() * kSurvivorFraction < size) {
        ++repairs;
        for (const Particle& p : ps) {
            Particle copy = p;
            if (!apply(copy, Mode::Check) && apply(copy, Mode::Repair)) kept.push_back(copy);
        }
    }
    if (kept.empty()) {
        ++resets;
        for (const Particle& p : ps) {
            Particle copy = p;
            apply(copy, Mode::Force);
            kept.push_back(copy);
        }
    }
    const std::size_t survivors = kept.size();
    while (kept.size() < size) kept.push_back(kept[random.index(survivors)]);
    kept.resize(size);
    ps = std::move(kept);
}

// ---- Unseen changes --------------------------------------------------------------------------

// G6 "moved": one piece of the particle takes one legal step (a warrior likelier than the king).
void Belief::randomStep(int seat, Particle& p, const OwnPieces& mine) {
    (void)seat;
    (void)mine;
    std::array<int, kPiecesPerSeat> weight{};
    int total = 0;
    for (int i = 0; i < kPiecesPerSeat; ++i) {
        if (!p.pieces[i].alive || pieceDestinations(p.pieces, i, geometry_).empty()) continue;
        weight[static_cast<std::size_t>(i)] = i == kKing ? 1 : kWarriorMoveWeight;
        total += weight[static_cast<std::size_t>(i)];
    }
    if (total == 0) return;
    auto pick = static_cast<int>(random_.below(static_cast<std::uint64_t>(total)));
    int piece = 0;
    while (pick >= weight[static_cast<std::size_t>(piece)])
        pick -= weight[static_cast<std::size_t>(piece++)];
    const SquareList to = pieceDestinations(p.pieces, piece, geometry_);
    p.pieces[piece].square =
        to[static_cast<int>(random_.index(static_cast<std::size_t>(to.size())))];
    ++p.steps[static_cast<std::size_t>(piece)];
}

void Belief::withdraw(int seat, Particle& p, Square from) {
    (void)seat;
    const int piece = p.pieces.pieceOn(from);
    if (piece < 0) return;
    const SquareList to = pieceDestinations(p.pieces, piece, geometry_);
    if (to.empty()) return;
    p.pieces[piece].square =
        to[static_cast<int>(random_.index(static_cast<std::size_t>(to.size())))];
    ++p.steps[static_cast<std::size_t>(piece)];
}

// G10: the points go onto living warriors: all onto the strongest, or each to a random one.
void Belief::gain(Particle& p, int points) {
    std::array<int, kWarriors> alive{};
    int count = 0;
    int strongest = -1;
    for (int w = kFirstWarrior; w < kPiecesPerSeat; ++w) {
        if (!p.pieces[w].alive) continue;
        alive[static_cast<std::size_t>(count++)] = w;
        if (strongest < 0 || p.pieces[w].strength > p.pieces[strongest].strength) strongest = w;
    }
    if (count == 0) return;
    for (int& c : p.ceiling)
        if (c >= 0) c += points;  // G10: any warrior may have taken the points
    const bool greedy = random_.chance(0.5);
    for (int k = 0; k < points; ++k) {
        const int w = greedy ? strongest : alive[random_.index(static_cast<std::size_t>(count))];
        ++p.pieces[w].strength;
    }
}

// ---- Events ----------------------------------------------------------------------------------

void Belief::observe(const Event& e, const Knowledge& knowledge) {
    const auto size = static_cast<std::size_t>(size_);
    const auto narrowSeat = [&](int seat, auto apply) {
        narrowWith(of(seat), size, random_, repairs_, resets_, apply);
    };
    const auto pinning = [&](int seat, Square square, Need need, int strength) {
        narrowSeat(seat, [=, this](Particle& p, Mode mode) {
            if (mode == Mode::Force) {
                force(seat, p, square, need, strength);
                return true;
            }
            return pin(seat, p, square, need, strength, mode == Mode::Repair);
        });
    };
    const auto clearing = [&](int seat, Square square) {
        narrowSeat(seat, [=, this](Particle& p, Mode mode) {
            if (mode == Mode::Check) return !p.pieces.occupies(square);
            return evict(seat, p, square, -1, mode == Mode::Force);
        });
    };
    switch (e.kind) {
        case EventKind::Turn:
            combat_ = Combat{};
            break;
        case EventKind::Moved:
            if (opponent(e.seat)) {
                for (Particle& p : of(e.seat)) randomStep(e.seat, p, knowledge.own());
                weighTurn(e.seat, false);
                diffuseKing(e.seat);
            }
            break;
        case EventKind::Withdrew:
            if (opponent(e.seat))
                for (Particle& p : of(e.seat)) withdraw(e.seat, p, combat_.square);
            break;
        case EventKind::Combat:
            combat_ = Combat{};
            combat_.square = e.square;
            combat_.attacker = e.seat;
            see(e.seat, e.square);
            if (opponent(e.seat)) {
                pinning(e.seat, e.square, Need::Warrior, -1);
                weighTurn(e.seat, true);
                scaleKing(e.seat, e.square, 0);
            }
            break;
        case EventKind::Unopposed:
            for (int s = 0; s < geometry_.seats(); ++s)
                if (s != e.seat && opponent(s)) {
                    clearing(s, e.square);
                    scaleKing(s, e.square, 0);
                }
            break;
        case EventKind::Reveal:
            combat_.revealed[static_cast<std::size_t>(e.seat)] = true;
            if (e.value != kKingReveal) see(e.seat, combat_.square);
            if (opponent(e.seat)) {
                const bool king = e.value == kKingReveal;
                pinning(e.seat, combat_.square, king ? Need::King : Need::Warrior,
                        king ? -1 : e.value);
                if (!king) scaleKing(e.seat, combat_.square, 0);
            }
            break;
        case EventKind::Result:
            for (int s = 0; s < geometry_.seats(); ++s)
                if (opponent(s) && !combat_.revealed[static_cast<std::size_t>(s)]) {
                    clearing(s, combat_.square);
                    scaleKing(s, combat_.square, 0);
                }
            break;
        case EventKind::Eliminated:
        case EventKind::Disqualified:
            if (e.seat != seat_) {
                of(e.seat).clear();
                kingField_[static_cast<std::size_t>(e.seat)].clear();
                for (auto& field : kingModels_[static_cast<std::size_t>(e.seat)].field)
                    field.clear();
            }
            break;
        case EventKind::Refused:
            if (opponent(e.seat)) {
                pinning(e.seat, e.square, Need::Any, -1);
                scaleKing(e.seat, e.square, kRefusalFactor);
            }
            break;
        case EventKind::Retreat:
            see(e.seat, e.square);
            if (opponent(e.seat)) {
                scaleKing(e.seat, e.square, 0);
                const Square from = combat_.square;
                const Square to = e.square;
                const int seat = e.seat;
                narrowSeat(seat, [=, this](Particle& p, Mode mode) {
                    const int mover = p.pieces.pieceOn(from);
                    if (mover < 0) return mode == Mode::Force;
                    const int blocker = p.pieces.pieceOn(to);
                    if (blocker >= 0 && mode == Mode::Check) return false;
                    if (blocker >= 0 && !evict(seat, p, to, mover, mode == Mode::Force))
                        return false;
                    p.pieces[mover].square = to;
                    p.anchor[static_cast<std::size_t>(mover)] = to;
                    p.steps[static_cast<std::size_t>(mover)] = 0;
                    return true;
                });
            }
            break;
        case EventKind::Removed:
            if (opponent(e.seat)) {
                pinning(e.seat, e.square, Need::Any, -1);
                for (Particle& p : of(e.seat)) {
                    const int piece = p.pieces.pieceOn(e.square);
                    if (piece < 0) continue;
                    p.pieces[piece].alive = false;
                    p.pieces[piece].square = kNoSquare;
                }
            }
            break;
        case EventKind::Gained:
            if (opponent(e.seat))
                for (Particle& p : of(e.seat)) gain(p, e.value);
            break;
        default:
            break;
    }
}

// ---- Queries ---------------------------------------------------------------------------------

StartPosition Belief::sample(const Knowledge& knowledge, common::Random& random) const {
    StartPosition start;
    start.pieces[static_cast<std::size_t>(seat_)] = knowledge.own();
    for (int s = 0; s < geometry_.seats(); ++s) {
        const auto& ps = particles_[static_cast<std::size_t>(s)];
        if (s == seat_ || ps.empty() || knowledge.eliminated(s)) continue;
        start.pieces[static_cast<std::size_t>(s)] = ps[random.index(ps.size())].pieces;
    }
    start.turnSeat = std::max(0, knowledge.turnSeat());
    start.round = std::max(1, knowledge.round());
    return start;
}

StartPosition Belief::sampleWithKingFilter(const Knowledge& knowledge, common::Random& random,
                                           std::array<int, kMaxSeats>& hypotheses) const {
    StartPosition start;
    start.pieces[static_cast<std::size_t>(seat_)] = knowledge.own();
    hypotheses.fill(-1);
    for (int s = 0; s < geometry_.seats(); ++s) {
        const auto& ps = particles_[static_cast<std::size_t>(s)];
        if (s == seat_ || ps.empty() || knowledge.eliminated(s)) continue;
        OwnPieces& pieces = start.pieces[static_cast<std::size_t>(s)];
        pieces = ps[random.index(ps.size())].pieces;
        const KingModels& models = kingModels_[static_cast<std::size_t>(s)];
        if (models.field[0].empty() || !pieces[kKing].alive) continue;
        double pick = random.unit();
        std::size_t h = 0;
        while (h + 1 < kKingMobilities && pick >= models.weight[h]) pick -= models.weight[h++];
        hypotheses[static_cast<std::size_t>(s)] = static_cast<int>(h);
        const std::vector<double>& field = models.field[h];
        double free = 0;
        for (Square q = 0; q < geometry_.squareCount(); ++q)
            if (pieces.pieceOn(q) <= kKing) free += field[static_cast<std::size_t>(q)];
        if (free <= 0) continue;
        double at = random.unit() * free;
        for (Square q = 0; q < geometry_.squareCount(); ++q) {
            if (pieces.pieceOn(q) > kKing) continue;
            at -= field[static_cast<std::size_t>(q)];
            if (at < 0 || q == geometry_.squareCount() - 1) {
                if (field[static_cast<std::size_t>(q)] > 0) pieces[kKing].square = q;
                break;
            }
        }
    }
    start.turnSeat = std::max(0, knowledge.turnSeat());
    start.round = std::max(1, knowledge.round());
    return start;
}

double Belief::probability(int seat, bool king, Square square) const {
    const auto& ps = particles_[static_cast<std::size_t>(seat)];
    if (ps.empty()) return 0;
    if (king) return kingField(seat)[static_cast<std::size_t>(square)];
    double total = 0;
    for (const Particle& p : ps) {
        const int there = p.pieces.pieceOn(square);
        if (king) {
            total += there == kKing ? 1 : 0;
        } else if (there > kKing) {
            total += 1.0 / std::max(1, p.pieces.livingWarriors());
        }
    }
    return total / static_cast<double>(ps.size());
}

}  // namespace torneio::play
