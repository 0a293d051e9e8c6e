#include "winnability/helpmate.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "chess/movegen.h"
#include "winnability/search.h"
#include "winnability/sketch.h"
#include "util/static_vector.h"

namespace arbiter::winnability {

namespace {

constexpr int MaxPlies = 160;
// The full-width search near the target (plies, nodes): tried once per playout, when
// the loser's king stands on the target and the winner's king within two steps of it.
// Larger or more frequent searches cost more of the budget than they find.
constexpr int NearPlies = 4;
constexpr uint64_t NearBudget = 1000;
constexpr int8_t Unreachable = 32;

// xorshift64; seeded by the position so that the decider stays deterministic.
int random_below(uint64_t& state, int n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return int(state % uint64_t(n));
}

using Distances = std::array<int8_t, 64>;

// King steps from `from` to every square over `passable`; Unreachable elsewhere.
Distances king_distances(Square from, Bitboard passable) {
    Distances d;
    d.fill(Unreachable);
    Bitboard seen = square_bb(from), frontier = seen;
    for (int8_t step = 0; frontier; ++step) {
        Bitboard next = 0;
        for (Square q : squares(frontier)) {
            d[q] = step;
            next |= king_attacks(q);
        }
        frontier = next & passable & ~seen;
        seen |= frontier;
    }
    return d;
}

// Squares a king of `c` may cross while the pawns stand still: not its own pawns and
// not squares an enemy pawn guards (enemy pawns themselves may be taken).
Bitboard king_passable(const Position& pos, Color c) {
    return ~pos.pieces(c, Pawn) & ~pawn_attacks_bb(~c, pos.pieces(~c, Pawn));
}

}  // namespace

// One playout's plan: where the loser's king should be mated and how much each part
// of the potential weighs. Lower potential is better for both sides (they cooperate).
struct GuidedHelpmates::Plan {
    Square target = NoSquare;
    int loser_king = 12, winner_king = 4, winner_piece = 2, winner_pawn = 5;
    int loser_piece = 1, loser_pawn = 0, loser_material = 0, noise = 16;
};

namespace {

constexpr int material_of(PieceType t) { return t == Queen ? 9 : t == Rook ? 5 : t == Knight || t == Bishop ? 3 : 0; }

// Roughly how many moves a piece of `type` on `from` needs to check a king on `t`.
int check_distance(PieceType type, Square from, Square t) {
    const int dr = std::abs(int(rank_of(from)) - int(rank_of(t))), df = std::abs(int(file_of(from)) - int(file_of(t)));
    switch (type) {
    case Knight: {
        // Knight moves to a square a knight's move from `t`, by the usual estimate.
        const int best = std::max((dr + 1) / 2, (df + 1) / 2);
        return dr + df == 3 && dr && df ? 0 : std::max(best, (dr + df + 2) / 3);
    }
    case Bishop: return dr == df ? 0 : 1 + square_distance(from, t) / 4;
    case Rook: return dr == 0 || df == 0 ? 0 : 1 + square_distance(from, t) / 4;
    default: return dr == df || dr == 0 || df == 0 ? 0 : 1 + square_distance(from, t) / 4;
    }
}

int potential(const Position& pos, Color winner, const GuidedHelpmates::Plan& plan, const Distances& to_target) {
    const Color loser = ~winner;
    const Square t = plan.target, loser_king = pos.king_square(loser);
    int v = plan.loser_king * to_target[loser_king];
    v += plan.winner_king * std::abs(square_distance(pos.king_square(winner), t) - 2);
    for (PieceType type : {Knight, Bishop, Rook, Queen}) {
        for (Square q : squares(pos.pieces(winner, type))) {
            v += plan.winner_piece * check_distance(type, q, t) - 12 * material_of(type);
        }
        for (Square q : squares(pos.pieces(loser, type))) {
            v += plan.loser_piece * square_distance(q, loser_king) + plan.loser_material;
        }
    }
    for (Square q : squares(pos.pieces(winner, Pawn))) v += plan.winner_pawn * (7 - relative_rank(winner, rank_of(q)));
    // A pawn that promotes must gain more than its new piece costs where it stands.
    if (plan.loser_pawn) {
        for (Square q : squares(pos.pieces(loser, Pawn)))
            v += plan.loser_pawn * (7 - relative_rank(loser, rank_of(q))) + 24;
    }
    return v;
}

}  // namespace

GuidedHelpmates::GuidedHelpmates(const Position& root, Color winner)
        : root_(root), winner_(winner), rng_(root.key() * 0x9E3779B97F4A7C15ULL | 1) {
    const Color loser = ~winner;
    const Distances from_king = king_distances(root.king_square(loser), king_passable(root, loser));
    for (Square q = Square(0); q < 64; q = Square(q + 1)) {
        if (from_king[q] < Unreachable) region_ |= square_bb(q);
    }
    mate_squares_ = sketch_mate_squares(root, winner) & region_;
    const Bitboard edges = rank_bb(Rank1) | rank_bb(Rank8) | file_bb(File(0)) | file_bb(File(7));
    edges_ = region_ & edges;
}

bool GuidedHelpmates::run(uint64_t budget) {
    budget_ = nodes_ + budget;
    while (nodes_ < budget_) {
        if (play(make_plan())) return true;
    }
    return false;
}

Square GuidedHelpmates::pick(Bitboard set) {
    Square best = NoSquare;
    const Square king = root_.king_square(~winner_);
    // The nearest of a few random candidates: near targets are tried more often.
    for (int tries = random_below(rng_, 3) + 1; tries > 0; --tries) {
        Bitboard b = set;
        for (int skip = random_below(rng_, popcount(b)); skip > 0; --skip) b &= b - 1;
        const Square q = lsb(b);
        if (best == NoSquare || square_distance(q, king) < square_distance(best, king)) best = q;
    }
    return best;
}

GuidedHelpmates::Plan GuidedHelpmates::make_plan() {
    Plan plan;
    const int kind = random_below(rng_, 4);
    plan.target = pick(mate_squares_ && kind < 2 ? mate_squares_ : edges_ && kind < 3 ? edges_ : region_);
    plan.loser_king = 10 + random_below(rng_, 8);
    plan.winner_king = 2 + random_below(rng_, 5);
    plan.winner_piece = random_below(rng_, 4);
    plan.winner_pawn = random_below(rng_, 3) ? 3 + random_below(rng_, 6) : 0;
    plan.loser_piece = random_below(rng_, 4);
    plan.loser_pawn = random_below(rng_, 2) ? 4 : 0;
    plan.loser_material = random_below(rng_, 3) ? 0 : 6;
    plan.noise = 4 << random_below(rng_, 5);
    return plan;
}

// Whether `~winner_` can be mated at once after the loser plays `m`.
bool GuidedHelpmates::allows_mate(const Position& pos, Move m) {
    const Position next = pos.apply(m);
    const MoveList replies = legal_moves(next);
    nodes_ += 1 + replies.size();
    const Position::CheckSquares checks = next.check_squares();
    for (Move r : replies) {
        if (mates(next, r, checks)) return true;
    }
    return false;
}

bool GuidedHelpmates::play(const Plan& plan) {
    const Color loser = ~winner_;
    Position pos = root_;
    Bitboard pawns = ~Bitboard(0);
    Distances to_target{};
    std::array<Key, 256> visited{};
    bool near_tried = false;
    for (int ply = 0; ply < MaxPlies && nodes_ < budget_; ++ply) {
        if (pos.pieces(Pawn) != pawns) {
            pawns = pos.pieces(Pawn);
            to_target = king_distances(plan.target, king_passable(pos, loser));
        }
        // Once the kings have met at the target, the last moves must be exact (a
        // loser's piece plugging the one flight square a knight or bishop leaves):
        // search them full width instead of trusting the potential.
        if (!near_tried && pos.king_square(loser) == plan.target &&
            square_distance(pos.king_square(winner_), plan.target) <= 2) {
            near_tried = true;
            HelpmateSearch near(winner_, NearBudget, NearPlies);
            const bool found = near.find(pos);
            nodes_ += near.nodes();
            if (found) return true;
        }
        const MoveList moves = legal_moves(pos);
        nodes_ += 1 + moves.size();
        if (moves.size() == 0) return false;
        const bool winner_moves = pos.side_to_move() == winner_;
        Move best = moves[0];
        int best_score = INT32_MAX;
        StaticVector<std::pair<int, Move>, 256> ranked;
        // Only the winner's moves are tried for a mate.
        const Position::CheckSquares checks = winner_moves ? pos.check_squares() : Position::CheckSquares{};
        for (Move m : moves) {
            if (winner_moves && mates(pos, m, checks)) return true;
            const Position next = pos.apply_board(m);
            int score = potential(next, winner_, plan, to_target) + random_below(rng_, plan.noise);
            if (visited[next.key() & 255] == next.key()) score += 40;
            if (score < best_score) {
                best_score = score;
                best = m;
            }
            if (!winner_moves) ranked.push_back({score, m});
        }
        // Near the target the loser looks one move further, for a move that lets
        // the winner mate at once.
        if (!winner_moves && to_target[pos.king_square(loser)] <= 1) {
            for (int tries = 0; tries < 6 && !ranked.empty(); ++tries) {
                auto it = ranked.begin();
                for (auto j = ranked.begin(); j != ranked.end(); ++j) {
                    if (j->first < it->first) it = j;
                }
                if (allows_mate(pos, it->second)) {
                    best = it->second;
                    break;
                }
                it->first = INT32_MAX;
            }
        }
        pos = pos.apply(best);
        visited[pos.key() & 255] = pos.key();
    }
    return false;
}

}  // namespace arbiter::winnability
