#include "chess/winnability.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "chess/movegen.h"
#include "chess/winnability_helpmate.h"
#include "chess/winnability_sketch.h"

namespace arbiter {

using winnability_detail::GuidedHelpmates;
using winnability_detail::sketch_proves_no_mate;

namespace {

// Sketches explored by the static proof at the root, and at each node of the
// exhaustive search (where most proofs need one or two).
constexpr int RootSketches = 300;
constexpr int NodeSketches = 6;

bool is_mate_of(const Position& pos, Color loser) {
    return pos.side_to_move() == loser && pos.in_check() && !has_legal_move(pos);
}

// Move ordering for a helpmate of `~winner`: the winner brings its pieces towards the
// loser's king and takes pawns that wall it off; the loser walks its king towards the
// winner's forces, brings its pieces next to its own king to block flight squares and
// avoids taking the winner's pieces.
int helpmate_order(const Position& pos, Move m, Color winner) {
    const Color loser = ~winner;
    const Square from = m.from(), to = m.to();
    const PieceType moved = type_of(pos.piece_on(from));
    const Square loser_king = pos.king_square(loser);
    const bool capture = pos.is_capture(m);
    int score = 0;
    if (pos.side_to_move() == winner) {
        if (m.kind() == Move::Promotion) score += m.promotion() == Queen ? 600 : -200;
        if (capture) score += 150;
        score += 16 * (square_distance(from, loser_king) - square_distance(to, loser_king));
    } else {
        if (capture) score += type_of(pos.piece_on(to)) == Pawn || m.kind() == Move::EnPassant ? 40 : -400;
        if (m.kind() == Move::Promotion) score += 100;
        const Square winner_king = pos.king_square(winner);
        if (moved == King && m.kind() != Move::Castling) {
            score += 12 * (square_distance(from, winner_king) - square_distance(to, winner_king));
        } else if (moved != Pawn) {
            score += 8 * (square_distance(from, loser_king) - square_distance(to, loser_king));
        }
    }
    return score;
}

// Iterative deepening helpmate search. The table remembers positions known to have no
// mate within a number of plies; a lost entry only costs time, never a wrong answer,
// because Yes is only ever given for a line that was played to mate.
class HelpmateSearch {
public:
    HelpmateSearch(Color winner, uint64_t budget) : winner_(winner), budget_(budget), table_(TableSize) {}

    bool find(const Position& root) {
        for (int depth = root.side_to_move() == winner_ ? 1 : 2; depth <= MaxDepth; depth += 2) {
            if (search(root, depth)) return true;
            if (aborted_) return false;
        }
        return false;
    }

private:
    static constexpr size_t TableSize = size_t(1) << 16;
    static constexpr int MaxDepth = 99;

    struct Entry {
        Key key = 0;
        int depth = 0;
    };

    bool search(const Position& pos, int depth) {
        const bool winner_moves = pos.side_to_move() == winner_;
        if (!winner_moves && depth < 2) return false;
        MoveList moves = legal_moves(pos);
        // A node costs one unit per move it plays.
        nodes_ += 1 + moves.size();
        if (nodes_ > budget_) {
            aborted_ = true;
            return false;
        }
        if (winner_moves && depth == 1) {
            for (Move m : moves) {
                const Position next = pos.apply(m);
                if (next.in_check() && !has_legal_move(next)) return true;
            }
            return false;
        }

        std::array<int, 256> scores;
        for (size_t i = 0; i < moves.size(); ++i) scores[i] = helpmate_order(pos, moves[i], winner_);
        for (size_t i = 1; i < moves.size(); ++i) {
            for (size_t j = i; j > 0 && scores[j] > scores[j - 1]; --j) {
                std::swap(scores[j], scores[j - 1]);
                std::swap(moves[j], moves[j - 1]);
            }
        }
        for (Move m : moves) {
            const Position next = pos.apply(m);
            if (winner_moves && next.in_check() && !has_legal_move(next)) return true;
            Entry& entry = table_[next.key() & (TableSize - 1)];
            if (entry.key == next.key() && entry.depth >= depth - 1) continue;
            if (search(next, depth - 1)) return true;
            if (aborted_) return false;
            entry = {next.key(), depth - 1};
        }
        return false;
    }

    Color winner_;
    uint64_t budget_;
    uint64_t nodes_ = 0;
    bool aborted_ = false;
    std::vector<Entry> table_;
};

// Guided random games: both sides pick moves by the helpmate ordering plus noise,
// and the winner takes any mate in one it is offered. Finds the long helpmates of
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
                for (Move m : moves) {
                    const Position next = pos.apply(m);
                    if (next.in_check() && !has_legal_move(next)) return true;
                }
            }
            Move best = moves[0];
            int best_score = INT32_MIN;
            for (Move m : moves) {
                const int score = helpmate_order(pos, m, winner) + int(next_random() % 64);
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

// Visits every position reachable from `root`, except beyond positions the static
// proof settles, looking for a mate of `~winner`. Positions are compared in full, not
// only by key, so that a key collision cannot hide a branch and make the No unsound.
// Each static proof attempt costs one node per man on the board. Resumable: run()
// continues where the previous call stopped, so that it can take turns with the
// helpmate playouts.
class ExhaustiveSearch {
public:
    ExhaustiveSearch(const Position& root, Color winner) : winner_(winner), seen_{root}, index_{{root.key(), 0}} {}

    Winnable run(uint64_t budget) {
        const Color loser = ~winner_;
        uint64_t nodes = 0;
        while (!pending_.empty() || next_move_ < moves_.size()) {
            if (next_move_ == moves_.size()) {
                parent_.emplace(seen_[pending_.back()]);
                pending_.pop_back();
                moves_ = legal_moves(*parent_);
                next_move_ = 0;
                continue;
            }
            if (nodes > budget) return Winnable::Unknown;
            const Move m = moves_[next_move_++];
            const Position& parent = *parent_;
            const Position next = parent.apply(m);
            // Every move counts, a transposition too: the time goes into making it.
            ++nodes;
            if (!insert(next)) continue;
            if (is_mate_of(next, loser)) return Winnable::Yes;
            // A quiet piece move keeps every piece inside its region (piece moves are
            // reversible), so the child's sketch is the parent's, which failed; only a
            // change of pawns or material, a check or an en passant right can help.
            const bool same_sketch = !parent.in_check() && !parent.is_capture(m) &&
                                     type_of(parent.piece_on(m.from())) != Pawn && next.ep_square() == NoSquare;
            if (!same_sketch) {
                nodes += popcount(next.occupied());
                if (sketch_proves_no_mate(next, winner_, NodeSketches)) continue;
            }
            pending_.push_back(uint32_t(seen_.size() - 1));
        }
        return Winnable::No;
    }

private:
    bool insert(const Position& pos) {
        const auto [first, last] = index_.equal_range(pos.key());
        for (auto it = first; it != last; ++it) {
            if (seen_[it->second].same_position(pos)) return false;
        }
        index_.emplace(pos.key(), uint32_t(seen_.size()));
        seen_.push_back(pos);
        return true;
    }

    Color winner_;
    std::vector<Position> seen_;
    std::unordered_multimap<Key, uint32_t> index_;
    std::vector<uint32_t> pending_{0};
    std::optional<Position> parent_;
    MoveList moves_;
    size_t next_move_ = 0;
};

} // namespace

Winnable can_win(const Position& pos, Color winner, uint64_t budget) {
    // Step 1: the game is over.
    if (!has_legal_move(pos)) return pos.in_check() && pos.side_to_move() != winner ? Winnable::Yes : Winnable::No;
    // Step 2: a king never gives check, so a bare king can never mate.
    if (pos.pieces(winner) == pos.pieces(winner, King)) return Winnable::No;
    // Step 3: a static proof, cheap enough to try first.
    if (sketch_proves_no_mate(pos, winner, RootSketches)) return Winnable::No;
    // Step 4: look for a short mate with a full-width search, then for a long one
    // along guided random games.
    HelpmateSearch helpmate(winner, budget / 8);
    if (helpmate.find(pos)) return Winnable::Yes;
    if (random_helpmates(pos, winner, budget / 16)) return Winnable::Yes;
    // Step 5: take turns between guided helpmate playouts and the exhaustive search
    // of the continuations the static proof does not settle, so that a dead position
    // gets as much of the budget as a won one.
    GuidedHelpmates guided(pos, winner);
    ExhaustiveSearch exhaustive(pos, winner);
    const uint64_t slice = budget / 32;
    for (uint64_t spent = budget * 3 / 16; spent < budget; spent += 2 * slice) {
        if (guided.run(slice)) return Winnable::Yes;
        const Winnable result = exhaustive.run(slice);
        if (result != Winnable::Unknown) return result;
    }
    return Winnable::Unknown;
}

Winnability winnability(const Position& pos, uint64_t budget) {
    return {can_win(pos, White, budget), can_win(pos, Black, budget)};
}

} // namespace arbiter
