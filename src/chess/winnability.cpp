#include "chess/winnability.h"

#include <algorithm>
#include <cstdint>
#include <array>
#include <optional>

#include "chess/movegen.h"
#include "chess/winnability_exhaustive.h"
#include "chess/winnability_helpmate.h"
#include "chess/winnability_search.h"
#include "chess/winnability_sketch.h"
#include "chess/winnability_template.h"
#include "util/static_vector.h"

namespace arbiter {

using winnability_detail::ExhaustiveSearch;
using winnability_detail::GuidedHelpmates;
using winnability_detail::helpmate_order;
using winnability_detail::mates;
using winnability_detail::HelpmateSearch;
using winnability_detail::side_bit;
using winnability_detail::Sides;
using winnability_detail::forget_proofs;
using winnability_detail::lone_minor_cannot_mate;
using winnability_detail::sketch_proves_no_mate;
using winnability_detail::TemplateHelpmates;

namespace winnability_detail {

namespace {

// The kinds of man that may plug a flight square in lone_minor_cannot_mate(): a pawn,
// a knight, a bishop on light or on dark squares, a rook, a queen (one bit each).
enum PlugKind { PlugPawn, PlugKnight, PlugLightBishop, PlugDarkBishop, PlugRook, PlugQueen, PlugKinds };

// Whether a loser's man of `kind` on the flight square `f` could answer the check of the
// winner's piece on `c` against the king on `k`: by taking the checker, or by stepping
// between them (`line`, empty for a knight's check). `occupied` holds the men the
// picture places; when `spare` men of the loser may stand anywhere else, a slide over
// an empty square may be blocked and does not count.
bool plug_answers_check(PlugKind kind, Color loser, Square f, Square c, Bitboard line, Bitboard occupied, bool spare) {
    const auto slides_to = [&](PieceType type, Bitboard targets) {
        for (Square t : squares(piece_attacks(type, f, occupied) & targets)) {
            if (!spare || !between(f, t)) return true;
        }
        return false;
    };
    switch (kind) {
    case PlugPawn: {
        if (contains(pawn_attacks(loser, f), c)) return true;
        const Square one = Square(f + pawn_push(loser));
        if (contains(line, one)) return true;
        const Square two = Square(one + pawn_push(loser));
        return relative_rank(loser, rank_of(f)) == Rank2 && !spare && !contains(occupied, one) && contains(line, two);
    }
    case PlugKnight: return (knight_attacks(f) & (line | square_bb(c))) != 0;
    case PlugLightBishop:
    case PlugDarkBishop: return slides_to(Bishop, line | square_bb(c));
    case PlugRook: return slides_to(Rook, line | square_bb(c));
    default: return slides_to(Queen, line | square_bb(c));
    }
}

// Whether each square of `open` can take a different one of `men`, a man fitting where
// its kinds meet the square's `harmless` kinds (augmenting paths; at most 8 squares).
bool can_assign(Bitboard open, const StaticVector<uint8_t, 16>& men, const std::array<uint8_t, 64>& harmless) {
    std::array<int8_t, 16> holder;
    holder.fill(-1);
    std::array<Square, 8> need;
    int needed = 0;
    for (Square f : squares(open)) need[needed++] = f;
    uint32_t tried = 0;
    const auto augment = [&](auto&& self, int square) -> bool {
        for (int m = 0; m < int(men.size()); ++m) {
            if (!(men[m] & harmless[need[square]]) || (tried & (1u << m))) continue;
            tried |= 1u << m;
            if (holder[m] < 0 || self(self, holder[m])) {
                holder[m] = int8_t(square);
                return true;
            }
        }
        return false;
    };
    for (int i = 0; i < needed; ++i) {
        tried = 0;
        if (!augment(augment, i)) return false;
    }
    return true;
}

} // namespace

// Part of step 3, for a winner left with its king and one knight or bishop and no
// pawn (so for ever, as it has nothing to promote): such a piece mates only where the
// loser's own men stand on the flight squares its king and piece leave, and none of
// those men may take the checker or step into the check. Every mating picture is
// tried: the loser's king on k, the piece checking from c, the winner's king on w two
// or more steps away, a plug on each flight square left, each a different man of the
// loser's (a pawn may have promoted to anything). Over-approximate, so finding no
// picture is a proof: the winner's cover ignores plugs in its way, the loser's other
// men are assumed taken or out of the way, and the picture need not be reachable. No
// pin can stop an answer: the winner's one piece gives the check.
//
// The loser's spare men (those no flight square needs) may stand anywhere, so they
// might block a plug's slide, and then a slide over an empty square does not count as
// an answer. Not when every man of the loser's is a queen: of the queens standing
// between a plug and the square it slides to, the one nearest that square has a clear
// line to it and answers the check instead.
//
// The same holds for several bishops on squares of one colour, with no other man but
// the king: such bishops only ever cover that colour, so the flights of the other
// colour (the king's orthogonal neighbours) must be plugged as for one bishop. The
// other bishops are counted as covering every square of their colour, guarding the
// checker and perhaps blocking a plug's slide; they cannot pin a plug on a square of
// the other colour to the king (a bishop pins along a diagonal), and two of them
// never give check at once (a bishop leaving a diagonal of the king's cannot arrive
// on the other one, which is parallel to every diagonal through its old square).
bool lone_minor_cannot_mate(const Position& pos, Color winner) {
    const Color loser = ~winner;
    const Bitboard minors = pos.pieces(winner) & ~pos.pieces(winner, King);
    if (!minors || pos.pieces(winner, Pawn)) return false;
    const bool several = more_than_one(minors);
    if (several && (minors != pos.pieces(winner, Bishop) || ((minors & LightSquares) && (minors & DarkSquares)))) {
        return false;
    }
    const Square from = lsb(minors);
    const PieceType type = type_of(pos.piece_on(from));
    if (type != Knight && type != Bishop) return false;
    const Bitboard check_squares = type == Knight ? ~Bitboard(0)
                                   : contains(LightSquares, from) ? LightSquares
                                                                  : DarkSquares;
    // The kinds each of the loser's men may be when it plugs.
    StaticVector<uint8_t, 16> men;
    for (Square q : squares(pos.pieces(loser) & ~pos.pieces(loser, King))) {
        switch (type_of(pos.piece_on(q))) {
        case Pawn: men.push_back((1 << PlugKinds) - 1); break;
        case Knight: men.push_back(1 << PlugKnight); break;
        case Bishop: men.push_back(1 << (contains(LightSquares, q) ? PlugLightBishop : PlugDarkBishop)); break;
        case Rook: men.push_back(1 << PlugRook); break;
        default: men.push_back(1 << PlugQueen); break;
        }
    }
    const int total = int(men.size());
    const bool only_queens = std::all_of(men.begin(), men.end(), [](uint8_t m) { return m == (1 << PlugQueen); });
    for (Square k = Square(0); k < 64; k = Square(k + 1)) {
        for (Square c : squares(piece_attacks(type, k, 0) & check_squares)) {
            const Bitboard line = between(c, k);
            for (Square w : squares(~(king_attacks(k) | square_bb(k) | square_bb(c) | line))) {
                // The king takes a checker next to it that its opponent's king does not guard.
                if (!several && contains(king_attacks(k), c) && !contains(king_attacks(w), c)) continue;
                const Bitboard cover = king_attacks(w) | piece_attacks(type, c, square_bb(w)) | (several ? check_squares : 0);
                const Bitboard open = king_attacks(k) & ~cover & ~square_bb(c);
                const int needed = popcount(open);
                if (needed > total) continue;
                // Whether some man of either side might stand in a plug's way.
                const bool spare = several || (total > needed && !only_queens);
                const Bitboard occupied = square_bb(k) | square_bb(w) | square_bb(c) | open;
                // The kinds of man that may plug each open square without answering the check.
                std::array<uint8_t, 64> harmless{};
                for (Square f : squares(open)) {
                    for (int kind = 0; kind < PlugKinds; ++kind) {
                        if (kind == PlugPawn && (rank_of(f) == Rank1 || rank_of(f) == Rank8)) continue;
                        if (kind == PlugLightBishop && !contains(LightSquares, f)) continue;
                        if (kind == PlugDarkBishop && !contains(DarkSquares, f)) continue;
                        if (!plug_answers_check(PlugKind(kind), loser, f, c, line, occupied, spare)) {
                            harmless[f] |= uint8_t(1 << kind);
                        }
                    }
                }
                if (can_assign(open, men, harmless)) return false;
            }
        }
    }
    return true;
}

} // namespace winnability_detail

namespace {

// Sketches explored by the static proof at the root.
constexpr int RootSketches = 300;
// The coarser proof with loose pairs, tried once the exact one runs out of sketches:
// at the root only, where one success settles the position (at the nodes it cost
// more time than it saved).
constexpr int RootLooseSketches = 1200;
// The last resort for a side still undecided when the budget is spent: the static
// proof once more, with more sketches. Here it costs only positions that have taken
// the whole budget already (a few hundredths of their time), where at the start it
// would cost every position whose proof runs out (a third more time at the median
// for 700 sketches). Only exact sketches: the root has tried the loose ones, and
// trying them again with the larger count cost one vector a fifth of its time for
// nothing.
constexpr int LastSketches = 1000;
// Positions with at most this many men share the playouts' time with composed mates.
constexpr int TemplateMen = 6;
// The shares of a side's budget, in 32nds, of the full-width helpmate search and of
// the random helpmate games (step 4); the rest goes to step 5. Of the three ways to
// find a long mate, the random games find the most for their nodes and the
// full-width search the fewest: on the vectors a sixteenth each gave 1,608 exact,
// 1 and 8 gave 1,615, with the same dead positions proven (measured while the proof
// cache still outlived a decision: see forget_proofs()). Since the exhaustive search
// finds more mates (the loser's moves unsteered there), the random games need less:
// with 2, 4, 6 and 8 the vectors gave 1,651, 1,654, 1,655 and 1,649 exact (770, 770,
// 770 and 767 dead), and the slowest positions took the same time.
constexpr uint64_t HelpmateShare = 1, RandomShare = 6;

constexpr uint64_t quick_budget(uint64_t budget, uint64_t share) { return budget * share / 32; }

// Guided random games: the winner picks moves by the helpmate ordering plus noise,
// the loser by noise alone (steering it too found 1,655 exact on the vectors, this
// 1,657), and the winner takes any mate in one it is offered. Finds the long helpmates of
// sparse positions (a king walk, a promotion to a blocking piece) that the
// full-width search cannot reach. Deterministic: the noise is seeded by the position.
bool random_helpmates(const Position& root, Color winner, uint64_t budget) {
    constexpr int MaxPlies = 160;
    uint64_t state = root.key() | 1;
    const auto next_random = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    uint64_t nodes = 0;
    while (nodes < budget) {
        Position pos = root;
        for (int ply = 0; ply < MaxPlies && nodes < budget; ++ply) {
            const MoveList moves = legal_moves(pos);
            nodes += 1 + (pos.side_to_move() == winner ? moves.size() : 0);
            if (moves.size() == 0) break;
            if (pos.side_to_move() == winner) {
                const Position::CheckSquares checks = pos.check_squares();
                for (Move m : moves) {
                    if (mates(pos, m, checks)) return true;
                }
            }
            Move best = moves[0];
            int best_score = INT32_MIN;
            for (Move m : moves) {
                const int steer = pos.side_to_move() == winner ? helpmate_order(pos, m, winner) : 0;
                const int score = steer + int(next_random() % 64);
                if (score > best_score) {
                    best_score = score;
                    best = m;
                }
            }
            pos = pos.apply(best);
        }
    }
    return false;
}

// Steps 1 to 4 of the decision for one side: Yes, No, or Unknown when it takes the
// exhaustive search (settle()).
Winnable quick_answer(const Position& pos, Color winner, uint64_t budget) {
    // Step 1: the game is over.
    if (!has_legal_move(pos)) return pos.in_check() && pos.side_to_move() != winner ? Winnable::Yes : Winnable::No;
    // Step 2: a king never gives check, so a bare king can never mate.
    if (pos.pieces(winner) == pos.pieces(winner, King)) return Winnable::No;
    // Step 3: a static proof, cheap enough to try first: the mating pictures of a lone
    // minor piece (the sketch below counts its plugs but not their answers to the
    // check), then the sketch of the pawn structure.
    if (lone_minor_cannot_mate(pos, winner)) return Winnable::No;
    if (sketch_proves_no_mate(pos, winner, RootSketches, RootLooseSketches)) return Winnable::No;
    // Step 4: look for a short mate with a full-width search, then for a long one
    // along guided random games.
    HelpmateSearch helpmate(winner, quick_budget(budget, HelpmateShare));
    if (helpmate.find(pos)) return Winnable::Yes;
    if (random_helpmates(pos, winner, quick_budget(budget, RandomShare))) return Winnable::Yes;
    return Winnable::Unknown;
}

// Step 5, for the sides in `open` (whose result is Unknown): take turns between each
// side's guided helpmate playouts and one exhaustive search for all of them, of the
// continuations the static proof does not settle, so that a dead position gets as
// much of the budget as a won one, and both sides of a dead position share the
// search's time.
void settle(const Position& pos, Winnable (&result)[2], Sides open, uint64_t budget) {
    if (!open) return;
    std::optional<GuidedHelpmates> guided[2];
    std::optional<TemplateHelpmates> templates[2];
    for (Color c : {White, Black}) {
        if (open & side_bit(c)) {
            guided[c].emplace(pos, c);
            templates[c].emplace(pos, c);
        }
    }
    ExhaustiveSearch exhaustive(pos, open);
    const uint64_t slice = budget / 32;
    // Composed mates pay off where few men stand (the minor-piece mates); elsewhere
    // the guided playouts find more.
    const uint64_t composed = popcount(pos.occupied()) <= TemplateMen ? slice * 3 / 4 : 0;
    const auto sides = [&open] { return uint64_t(popcount(Bitboard(open))); };
    // Once the exhaustive search has more positions waiting than a quarter of the
    // budget left (a position costs a node per move to expand), it cannot finish:
    // its turns go to the playouts.
    bool hopeless = false;
    for (uint64_t spent = quick_budget(budget, HelpmateShare) + quick_budget(budget, RandomShare); spent < budget && open;
         spent += 2 * slice) {
        for (Color c : {White, Black}) {
            for (int turn = hopeless ? 2 : 1; turn > 0 && (open & side_bit(c)); --turn) {
                if (guided[c]->run(slice - composed) || (composed && templates[c]->run(composed))) {
                    result[c] = Winnable::Yes;
                    open &= Sides(~side_bit(c));
                    exhaustive.close(c);
                }
            }
        }
        if (hopeless || !open) continue;
        exhaustive.run(slice * sides());
        for (Color c : {White, Black}) {
            if (exhaustive.result(c) == Winnable::Unknown) continue;
            result[c] = exhaustive.result(c);
            open &= Sides(~side_bit(c));
        }
        if (exhaustive.pending() * 4 > (budget - spent) * sides()) hopeless = true;
    }
}

// Step 6, for the sides in `asked` still Unknown: the static proof with more sketches
// than the root could afford for every position.
void last_resort(const Position& pos, Winnable (&result)[2], Sides asked) {
    for (Color c : {White, Black}) {
        if ((asked & side_bit(c)) && result[c] == Winnable::Unknown &&
            sketch_proves_no_mate(pos, c, LastSketches)) {
            result[c] = Winnable::No;
        }
    }
}

} // namespace

Winnable can_win(const Position& pos, Color winner, uint64_t budget) {
    forget_proofs();
    // The other side is not asked about: settle() leaves it out.
    Winnable result[2] = {Winnable::Unknown, Winnable::Unknown};
    result[winner] = quick_answer(pos, winner, budget);
    settle(pos, result, result[winner] == Winnable::Unknown ? side_bit(winner) : 0, budget);
    last_resort(pos, result, side_bit(winner));
    return result[winner];
}

Winnability winnability(const Position& pos, uint64_t budget) {
    forget_proofs();
    Winnable result[2] = {quick_answer(pos, White, budget), quick_answer(pos, Black, budget)};
    Sides open = 0;
    for (Color c : {White, Black}) {
        if (result[c] == Winnable::Unknown) open |= side_bit(c);
    }
    settle(pos, result, open, budget);
    last_resort(pos, result, side_bit(White) | side_bit(Black));
    return {result[White], result[Black]};
}

} // namespace arbiter
