#include "winnability/winnability.h"

#include <cstdint>
#include <optional>

#include "chess/movegen.h"
#include "winnability/exhaustive.h"
#include "winnability/helpmate.h"
#include "winnability/minor.h"
#include "winnability/search.h"
#include "winnability/sketch.h"
#include "winnability/tempo.h"
#include "winnability/template.h"

namespace arbiter::winnability {

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
// Positions with at most this many men share the playouts' time with composed mates
// (7 since the composed mates move the loser's spoiling men out of the way: 8 and 10
// found no more on the vectors).
constexpr int TemplateMen = 7;
// The exhaustive search of both sides starts afresh for the side left open once the
// other is decided, when at least this many positions wait (see settle()).
constexpr size_t RestartPending = 256;
// The share, in 32nds, of a decided side's remaining budget left to the other side
// (see settle()).
constexpr uint64_t LeftShare = 16;
// The shares of a side's budget, in 32nds, of the full-width helpmate search and of
// the random helpmate games (step 4); the rest goes to step 5. Of the three ways to
// find a long mate, the random games find the most for their nodes and the
// full-width search the fewest: on the vectors a sixteenth each gave 1,608 exact,
// 1 and 8 gave 1,615, with the same dead positions proven (measured while the proof
// cache still outlived a decision: see forget_proofs()). Since the exhaustive search
// finds more mates (the loser's moves unsteered there), the random games need less:
// with 2, 4, 6 and 8 the vectors gave 1,651, 1,654, 1,655 and 1,649 exact (770, 770,
// 770 and 767 dead), and the slowest positions took the same time. Once the
// exhaustive search starts afresh for the side left open (settle()), it finds the
// deep pawn mates the random games miss: with 0, 1, 2, 3, 4 and 6 the vectors gave
// 1,712, 1,713, 1,712, 1,712, 1,711 and 1,710 exact (794 dead each), and with
// step 5's later shares 1, 3 and 6 gave 1,726, 1,726 and 1,719. Not 1: where the
// exhaustive search cannot finish, its nodes cost up to five times a random game's
// (its static proofs), and the slowest position took a tenth longer than with 3.
constexpr uint64_t HelpmateShare = 1, RandomShare = 3;

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
// exhaustive search (settle()). `raced` is set where the pawn race answered.
Winnable quick_answer(const Position& pos, Color winner, uint64_t budget, bool& raced) {
    // Step 1: the game is over.
    if (!has_legal_move(pos)) return pos.in_check() && pos.side_to_move() != winner ? Winnable::Yes : Winnable::No;
    // Step 2: a king never gives check, so a bare king can never mate.
    if (pos.pieces(winner) == pos.pieces(winner, King)) return Winnable::No;
    // Step 3: a static proof, cheap enough to try first: the mating pictures of a lone
    // minor piece (the sketch below counts its plugs but not their answers to the
    // check), then the sketch of the pawn structure, then the race of a winner left
    // with nothing but pawn moves (the sketch counts no tempo).
    if (lone_minor_cannot_mate(pos, winner)) return Winnable::No;
    if (sketch_proves_no_mate(pos, winner, RootSketches, RootLooseSketches)) return Winnable::No;
    if (pawn_race_cannot_mate(pos, winner)) {
        raced = true;
        return Winnable::No;
    }
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
//
// Once one side is decided, the search of both sides may start afresh for the other.
// Depth first, with the side to move's own moves ordered first, the search of both
// has gone deep into the lines of the side just decided; the other side's mate, if
// it has one, lies in siblings left far down its stack, where a new search ordered
// for that side alone reaches it within a few thousand nodes (the deep pawn mates of
// blocked positions: a king walk to eat the pawn in front of one's own). A new search
// throws away the old one's work towards a No, so it starts only where hundreds of
// positions wait: a search with a few dozen waiting is narrow or near its end, and
// on the vectors those are the ones that went on to prove the other side's No (at
// most 52 waiting), where the searches that found a mate afresh had 265 and more.
// From 100 up to 1,000 the vectors gave the same 1,713 exact, 1,702 restarting
// always (ten proofs and mates of the old searches lost).
//
// Of the sides in `asked`, one decided before its budget is spent leaves half of
// what remains of it to the side still open (once), except where the pawns make the
// play: the position's time stays within that of one whose sides both stay open.
// On the vectors a quarter everywhere gave 1,729 exact, a half 1,737 and all of it
// 1,739, but a half made the slowest positions take 43 ms and all of it 60 ms,
// those where the pawns make the play (the exhaustive search's nodes are dearer
// there than the playouts'). A half elsewhere and nothing there gave 1,734, the
// slowest positions as fast as before.
void settle(const Position& pos, Winnable (&result)[2], Sides open, Sides asked, uint64_t budget) {
    if (!open) return;
    std::optional<GuidedHelpmates> guided[2];
    std::optional<TemplateHelpmates> templates[2];
    for (Color c : {White, Black}) {
        if (open & side_bit(c)) {
            guided[c].emplace(pos, c);
            templates[c].emplace(pos, c);
        }
    }
    std::optional<ExhaustiveSearch> exhaustive;
    exhaustive.emplace(pos, open);
    Sides searched = open;
    const uint64_t slice = budget / 32;
    // Where the pawns make the play (two or more for each piece besides the kings),
    // the exhaustive search finds more of the mates and proofs than the playouts,
    // whose potential sees a pawn only as a runner: there the playouts' turn is half
    // a slice and the search gets the rest. On the vectors this gave 1,724 exact and
    // 796 dead where equal turns gave 1,713 and 794 (a quarter slice: 1,723 and 797;
    // half a slice everywhere: 1,723, the slowest position 56 ms, its search dearer
    // per node than the playouts). Once the search cannot finish, the playouts take
    // two such turns, not two full slices: those found nothing more, for 7% more time.
    const int pieces = popcount(pos.occupied() & ~pos.pieces(Pawn) & ~pos.pieces(King));
    const bool pawn_play = 2 * pieces <= popcount(pos.pieces(Pawn));
    const uint64_t playout = pawn_play ? slice / 2 : slice;
    // Composed mates pay off where few men stand (the minor-piece mates); elsewhere
    // the guided playouts find more.
    const uint64_t composed = popcount(pos.occupied()) <= TemplateMen ? playout * 3 / 4 : 0;
    const auto sides = [&open] { return uint64_t(popcount(Bitboard(open))); };
    // Once the exhaustive search has more positions waiting than a quarter of the
    // budget left (a position costs a node per move to expand), it cannot finish:
    // its turns go to the playouts.
    bool hopeless = false;
    uint64_t end = budget;
    bool left = false;
    for (uint64_t spent = quick_budget(budget, HelpmateShare) + quick_budget(budget, RandomShare); spent < end && open;
         spent += 2 * slice) {
        if (!left && !pawn_play && (asked & ~open)) {
            end += quick_budget(budget - spent, LeftShare);
            left = true;
        }
        for (Color c : {White, Black}) {
            for (int turn = hopeless ? 2 : 1; turn > 0 && (open & side_bit(c)); --turn) {
                if (guided[c]->run(playout - composed) || (composed && templates[c]->run(composed))) {
                    result[c] = Winnable::Yes;
                    open &= Sides(~side_bit(c));
                    exhaustive->close(c);
                }
            }
        }
        if (open && open != searched && exhaustive->pending() >= RestartPending) {
            exhaustive.emplace(pos, open);
            searched = open;
            hopeless = false;
        }
        if (hopeless || !open) continue;
        exhaustive->run((2 * slice - playout) * sides());
        for (Color c : {White, Black}) {
            if (!(open & side_bit(c)) || exhaustive->result(c) == Winnable::Unknown) continue;
            result[c] = exhaustive->result(c);
            open &= Sides(~side_bit(c));
        }
        if (exhaustive->pending() * 4 > (end - spent) * sides()) hopeless = true;
    }
}

// Step 6, for the sides in `asked` still Unknown: the static proof with more sketches
// than the root could afford for every position.
void last_resort(const Position& pos, Winnable (&result)[2], Sides asked) {
    for (Color c : {White, Black}) {
        if ((asked & side_bit(c)) && result[c] == Winnable::Unknown && sketch_proves_no_mate(pos, c, LastSketches)) {
            result[c] = Winnable::No;
        }
    }
}

}  // namespace

Winnable can_win(const Position& pos, Color winner, uint64_t budget) {
    forget_proofs();
    // The other side is not asked about: settle() leaves it out.
    Winnable result[2] = {Winnable::Unknown, Winnable::Unknown};
    bool raced = false;
    result[winner] = quick_answer(pos, winner, budget, raced);
    settle(pos, result, result[winner] == Winnable::Unknown ? side_bit(winner) : 0, side_bit(winner), budget);
    last_resort(pos, result, side_bit(winner));
    return result[winner];
}

Winnability decide(const Position& pos, uint64_t budget) {
    forget_proofs();
    bool raced[2] = {false, false};
    Winnable result[2] = {quick_answer(pos, White, budget, raced[White]),
                          quick_answer(pos, Black, budget, raced[Black])};
    Sides open = 0;
    for (Color c : {White, Black}) {
        if (result[c] == Winnable::Unknown) open |= side_bit(c);
    }
    // A side the pawn race settles leaves its share of the budget to the other side.
    // The race fits where one side has only pawn moves and the other a free king,
    // whose mate is then a long one (its king eats pawns, a pawn promotes) that the
    // exhaustive search used to find while it served both sides: with one side's
    // budget the vectors gave 1,699 exact and 791 dead, against 1,715 and 796 (and,
    // with the fresh search for the side left open in settle(), 1,741 and 795 against
    // 1,748 and 797). The time stays that of a position whose sides both stay open.
    const uint64_t budget_left = raced[White] || raced[Black] ? 2 * budget : budget;
    settle(pos, result, open, side_bit(White) | side_bit(Black), budget_left);
    last_resort(pos, result, side_bit(White) | side_bit(Black));
    return {result[White], result[Black]};
}

}  // namespace arbiter::winnability
