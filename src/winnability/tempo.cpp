#include "winnability/tempo.h"

#include <cstdint>
#include <vector>

#include "chess/attacks.h"

namespace arbiter::winnability {

// The proof in two steps.
//
// 1. Frozen men. A set F of men (never the loser's king) is *frozen* if, while every
//    man of F stays where it is, none of them has a move: a pawn has a man of F in
//    front of it (and takes nothing: step 2 gives up where it could), a knight,
//    bishop, rook or queen has a man of its own side's F on every square next to it
//    along its lines (or on every square of its jumps), and the winner's king has on
//    every square next to it a man of its own F or a square that a pawn of the
//    loser's F attacks, or a piece of the loser's F from next to it (an attack from
//    next to a square can never be blocked). The largest such set is found by taking
//    every man and removing those that fail until none does. The proof asks that it
//    hold the winner's king and every piece on the board: the winner then has its
//    pawns' moves and nothing else, and the loser its king and pawns. As long as no
//    man of F is taken, by induction over the moves no man of F ever moves.
// 2. The race. A node is the pawns of both sides, the side to move, the set of
//    squares the loser's king may stand on, and, once the loser has promoted, the
//    type of its new piece and the set of squares it may stand on. It stands for
//    every position with the king on a square of its set and the piece on one of its
//    own. The children of the winner's nodes are its pawn moves; those of the loser's
//    its pawn moves, its king's steps (from every square of the set at once, to the
//    squares not attacked, those of the set included, or onto an unguarded pawn of
//    the winner's) and its piece's moves. A pawn move takes the squares it passes or
//    lands on out of the king's set, and after the loser's move the squares then
//    attacked go too (its king cannot stand in check), so the children stand for
//    every position a legal move leads to, and more (a push is allowed where the
//    loser's piece would block it, the winner's pushes where its king is in check).
//    Nodes with the same pawns, side to move and piece type are merged, their sets
//    joined: every child, and every mate the test below finds, only grows with the
//    sets, so the merged nodes still stand for every position a game can reach.
//    After each move of the winner's, a square of the king's set the winner attacks
//    where the king has no flight (every square next to it holds a man of the
//    loser's, is attacked, or is the winner's king), or one flight the loser's piece
//    may plug, might be mate, and the proof gives up (the test ignores every answer
//    to the check but a king's step, so it finds mate more often than there is one).
//    It also gives up where the winner could promote (its queen may mate), where a
//    pawn or the loser's king could take a man of F or a piece, where the loser could
//    promote a second time, where the loser's piece could take a man of the winner's
//    that is not a free pawn or block the line of a piece of the winner's (the winner
//    must have none besides its king then), where a double step could be taken en
//    passant, and beyond its budget. A position where the loser's piece checks the
//    winner's king and the winner can neither block nor take it (its king cannot
//    move) is mate of the winner: the game ends there, and the piece's square is
//    dropped from the set. A node with no move for the winner is a game over too.
//    Searching every node without giving up proves that the winner can never mate:
//    every position a game can reach is stood for by some node. (The search ends:
//    there are finitely many nodes, and a node is searched again only when a set of
//    it grew.)

namespace {

// Nodes and expansions of the race: the positions that qualify have few pawn moves,
// and on the reference vectors a race takes at most about 10,000 nodes and 50,000
// expansions; the limits keep the cost bounded elsewhere.
constexpr size_t MaxNodes = 20000;
constexpr size_t MaxExpansions = 80000;
// Slots of the table of nodes: a power of two, never more than half full.
constexpr size_t Slots = 65536;
static_assert(Slots >= 2 * MaxNodes && (Slots & (Slots - 1)) == 0);

// The largest frozen set of step 1.
Bitboard frozen_men(const Position& pos, Color winner) {
    Bitboard frozen = pos.occupied() & ~pos.pieces(~winner, King);
    for (;;) {
        Bitboard fixed_attacks[2];
        for (Color c : {White, Black}) {
            fixed_attacks[c] = pawn_attacks_bb(c, frozen & pos.pieces(c, Pawn));
            for (Square q : squares(frozen & pos.pieces(c) & ~pos.pieces(Pawn) & ~pos.pieces(King))) {
                fixed_attacks[c] |= piece_attacks(type_of(pos.piece_on(q)), q, ~Bitboard(0));
            }
        }
        Bitboard keep = 0;
        for (Square q : squares(frozen)) {
            const Color c = color_of(pos.piece_on(q));
            const PieceType t = type_of(pos.piece_on(q));
            const Bitboard own = frozen & pos.pieces(c);
            const bool stays = t == Pawn   ? contains(frozen, Square(q + pawn_push(c)))
                               : t == King ? !(king_attacks(q) & ~own & ~fixed_attacks[~c])
                                           : !(piece_attacks(t, q, ~Bitboard(0)) & ~own);
            if (stays) keep |= square_bb(q);
        }
        if (keep == frozen) return frozen;
        frozen = keep;
    }
}

struct Node {
    Bitboard pawns[2];
    Bitboard king;
    Color to_move;
    // The squares the loser's one promoted piece may stand on (none before it has
    // promoted, or after it was taken).
    Bitboard piece;
    PieceType piece_type;
    bool queued;
};

// A race's nodes, an open-addressing table of their indices + 1 (0 when empty) and
// the work list: one per thread, reused, so that a race does not allocate.
struct Storage {
    std::vector<Node> nodes;
    std::vector<uint32_t> slots;
    std::vector<uint32_t> work;
};

Storage& storage() {
    static thread_local Storage s;
    s.nodes.clear();
    s.work.clear();
    s.slots.assign(Slots, 0);
    return s;
}

class Race {
public:
    Race(const Position& pos, Color winner, Bitboard frozen)
            : winner_(winner),
              loser_(~winner),
              frozen_pawns_(frozen & pos.pieces(Pawn)),
              winner_king_(pos.pieces(winner, King)),
              winner_pieces_(pos.pieces(winner) & ~pos.pieces(Pawn) & ~pos.pieces(King)),
              loser_pieces_(pos.pieces(~winner) & frozen & ~pos.pieces(Pawn)) {
        blocks_ = winner_king_ | winner_pieces_ | loser_pieces_;
        for (Square q : squares(winner_king_ | winner_pieces_)) {
            const PieceType t = type_of(pos.piece_on(q));
            if (t == Bishop || t == Rook || t == Queen) {
                sliders_.push_back({q, t});
            } else {
                fixed_attacks_ |= piece_attacks(t, q, 0);
            }
        }
        piece_fits_ = !winner_pieces_;
        Node root{{pos.pieces(White, Pawn), pos.pieces(Black, Pawn)},
                  pos.pieces(~winner, King),
                  pos.side_to_move(),
                  0,
                  NoPieceType,
                  false};
        add(root);
    }

    // False where the proof gives up.
    bool run() {
        size_t expansions = 0;
        while (!work_.empty()) {
            if (++expansions > MaxExpansions) return false;
            const uint32_t index = work_.back();
            work_.pop_back();
            nodes_[index].queued = false;
            const Node node = nodes_[index];
            if (node.piece && !piece_fits_) return false;
            if (!(node.to_move == winner_ ? winner_moves(node) : loser_moves(node))) return false;
        }
        return true;
    }

private:
    struct Slider {
        Square square;
        PieceType type;
    };

    Bitboard winner_attacks(const Bitboard (&pawns)[2]) const {
        Bitboard attacks = fixed_attacks_ | pawn_attacks_bb(winner_, pawns[winner_]);
        const Bitboard occupied = pawns[White] | pawns[Black] | blocks_;
        for (const Slider& s : sliders_) attacks |= piece_attacks(s.type, s.square, occupied);
        return attacks;
    }

    // Every pawn move of `side` from `node`, as (the node after it, the squares the
    // loser's king cannot stand on for the move to be legal); false where the proof
    // gives up.
    template <typename F>
    bool pawn_moves(const Node& node, Color side, F&& visit) const {
        const Bitboard empty = ~(node.pawns[White] | node.pawns[Black] | blocks_);
        const Bitboard last = rank_bb(side == White ? Rank8 : Rank1);
        const Bitboard start = rank_bb(side == White ? Rank2 : Rank7);
        const Bitboard victims = side == winner_ ? loser_pieces_ : winner_pieces_;
        // A pawn arrives on `to`: a promotion of the winner's may mate, one of the
        // loser's makes its free piece, of any type.
        const auto land = [&](Node next, Square to, Bitboard passed) {
            if (!contains(last, to)) {
                visit(next, passed);
                return true;
            }
            if (side == winner_ || node.piece) return false;
            next.pawns[side] &= ~square_bb(to);
            next.piece = square_bb(to);
            for (PieceType t : {Knight, Bishop, Rook, Queen}) {
                next.piece_type = t;
                visit(next, passed);
            }
            return true;
        };
        for (Square from : squares(node.pawns[side])) {
            const Bitboard targets = pawn_attacks(side, from);
            if (targets & victims) return false;
            Bitboard takes = targets & node.pawns[~side];
            if (side == winner_) takes |= targets & node.piece;
            if (takes && ((frozen_pawns_ & (square_bb(from) | takes)))) return false;
            for (Square to : squares(takes)) {
                Node next = node;
                if (contains(node.pawns[~side], to)) {
                    next.pawns[~side] &= ~square_bb(to);
                } else {
                    next.piece = 0;
                    next.piece_type = NoPieceType;
                }
                next.pawns[side] ^= square_bb(from) | square_bb(to);
                if (!land(next, to, square_bb(to))) return false;
            }
            const Square to = Square(from + pawn_push(side));
            if (!contains(empty, to)) continue;
            Node next = node;
            next.pawns[side] ^= square_bb(from) | square_bb(to);
            if (!land(next, to, square_bb(to))) return false;
            const Square two = Square(to + pawn_push(side));
            if (contains(start, from) && contains(empty, two)) {
                // An en passant capture would follow: not modelled.
                if (pawn_attacks(side, to) & node.pawns[~side]) return false;
                next.pawns[side] ^= square_bb(to) | square_bb(two);
                if (!land(next, two, square_bb(to) | square_bb(two))) return false;
            }
        }
        return true;
    }

    bool winner_moves(const Node& node) {
        bool mate = false;
        const bool fits = pawn_moves(node, winner_, [&](Node next, Bitboard taken) {
            next.king &= ~taken;
            if (!next.king) return;
            // A flight may hold an unguarded man of the winner's (the king takes it),
            // never the winner's king; the loser's promoted piece may plug one.
            const Bitboard attacks = winner_attacks(next.pawns);
            const Bitboard closed = next.pawns[loser_] | loser_pieces_ | winner_king_ | attacks;
            for (Square k : squares(next.king & attacks)) {
                const Bitboard flights = king_attacks(k) & ~closed;
                if (!flights || (!more_than_one(flights) && (flights & next.piece))) mate = true;
            }
            next.to_move = loser_;
            add(next);
        });
        return fits && !mate && !overflow_;
    }

    bool loser_moves(const Node& node) {
        const Bitboard attacks = winner_attacks(node.pawns);
        const Bitboard steps = king_steps(node.king) & ~attacks;
        // The king could take a frozen man or a piece: the frozen set may break.
        if (steps & ((frozen_pawns_ & node.pawns[winner_]) | winner_pieces_)) return false;
        for (Square q : squares(steps & node.pawns[winner_])) {
            Node next = node;
            next.pawns[winner_] &= ~square_bb(q);
            next.king = square_bb(q);
            next.to_move = winner_;
            add(next);
        }
        Node walked = node;
        walked.king = steps & ~(node.pawns[White] | node.pawns[Black] | blocks_);
        walked.to_move = winner_;
        if (walked.king) add(walked);
        const auto after = [&](Node next) {
            next.king &= ~winner_attacks(next.pawns);
            next.to_move = winner_;
            if (!next.king) return;
            if (next.piece) {
                next.piece &= ~mating_squares(next);
                if (!next.piece) return;
            }
            add(next);
        };
        const bool fits = pawn_moves(node, loser_, [&](Node next, Bitboard taken) {
            next.king &= ~taken;
            after(next);
        });
        // The promoted piece moves, or takes a pawn of the winner's (not a frozen one,
        // whose side's king might then move).
        if (node.piece) {
            const Bitboard occupied = node.pawns[White] | node.pawns[Black] | blocks_;
            Bitboard reach = 0;
            for (Square q : squares(node.piece)) reach |= piece_attacks(node.piece_type, q, occupied);
            if (reach & frozen_pawns_ & node.pawns[winner_]) return false;
            Node moved = node;
            moved.piece = reach & ~occupied;
            if (moved.piece) after(moved);
            for (Square q : squares(reach & node.pawns[winner_])) {
                Node next = node;
                next.pawns[winner_] &= ~square_bb(q);
                next.piece = square_bb(q);
                after(next);
            }
        }
        return fits && !overflow_;
    }

    // Squares of the promoted piece from which it checks the winner's king whatever
    // square of its set the loser's king stands on, with no answer: the winner's king
    // cannot move, and no pawn of the winner's can block the check or take the piece.
    // The game ends there.
    Bitboard mating_squares(const Node& n) const {
        const Bitboard occupied = n.pawns[White] | n.pawns[Black] | blocks_;
        const Square king = lsb(winner_king_);
        const Bitboard pawns = n.pawns[winner_];
        const Bitboard forward = winner_ == White ? shift<North>(pawns) : shift<South>(pawns);
        const Bitboard single = forward & ~occupied;
        const Bitboard third = rank_bb(winner_ == White ? Rank3 : Rank6);
        const Bitboard twice =
            (winner_ == White ? shift<North>(single & third) : shift<South>(single & third)) & ~occupied;
        Bitboard mating = 0;
        for (Square p : squares(n.piece & piece_attacks(n.piece_type, king, occupied))) {
            const Bitboard line = between(p, king);
            if ((line & (n.king | single | twice)) || (pawn_attacks(loser_, p) & pawns)) continue;
            mating |= square_bb(p);
        }
        return mating;
    }

    // Squares a king steps to from some square of `b`: squares of `b` too, where
    // they are next to another one of them.
    static Bitboard king_steps(Bitboard b) {
        const Bitboard sides = shift<East>(b) | shift<West>(b);
        const Bitboard row = b | sides;
        return sides | shift<North>(row) | shift<South>(row);
    }

    static bool same_place(const Node& a, const Node& b) {
        return a.pawns[White] == b.pawns[White] && a.pawns[Black] == b.pawns[Black] && a.to_move == b.to_move &&
               a.piece_type == b.piece_type;
    }

    void add(const Node& n) {
        const uint64_t key = hash(n);
        for (size_t i = key & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
            if (slots_[i] == 0) {
                if (nodes_.size() >= MaxNodes) {
                    overflow_ = true;
                    return;
                }
                nodes_.push_back(n);
                nodes_.back().queued = true;
                slots_[i] = uint32_t(nodes_.size());
                work_.push_back(uint32_t(nodes_.size() - 1));
                return;
            }
            Node& old = nodes_[slots_[i] - 1];
            if (!same_place(old, n)) continue;
            if (!(n.king & ~old.king) && !(n.piece & ~old.piece)) return;
            old.king |= n.king;
            old.piece |= n.piece;
            if (!old.queued) {
                old.queued = true;
                work_.push_back(slots_[i] - 1);
            }
            return;
        }
    }

    static uint64_t hash(const Node& n) {
        uint64_t h = n.pawns[White] * 0x9E3779B97F4A7C15ULL;
        h ^= (n.pawns[Black] + n.to_move + 2 * n.piece_type) * 0xBF58476D1CE4E5B9ULL;
        return h ^ (h >> 31);
    }

    Color winner_, loser_;
    Bitboard frozen_pawns_, winner_king_, winner_pieces_, loser_pieces_, blocks_ = 0, fixed_attacks_ = 0;
    // Whether the loser may hold a promoted piece: the winner has no piece whose
    // line it could block, nor that it could take.
    bool piece_fits_ = false;
    std::vector<Slider> sliders_;
    Storage& storage_ = storage();
    std::vector<Node>& nodes_ = storage_.nodes;
    std::vector<uint32_t>& slots_ = storage_.slots;
    std::vector<uint32_t>& work_ = storage_.work;
    bool overflow_ = false;
};

}  // namespace

bool pawn_race_cannot_mate(const Position& pos, Color winner) {
    const Color loser = ~winner;
    if (pos.castling_rights() || pos.ep_square() != NoSquare) return false;
    // The race tests for mate after the winner's moves only: a loser in check at the
    // start may be mated already.
    if (pos.side_to_move() == loser && pos.in_check()) return false;
    // A cheap test first: the winner's king has no square to step to now.
    const Square king = pos.king_square(winner);
    if (king_attacks(king) & ~pos.occupied() & ~pawn_attacks_bb(loser, pos.pieces(loser, Pawn))) return false;
    const Bitboard pieces = pos.occupied() & ~pos.pieces(Pawn) & ~pos.pieces(King);
    const Bitboard frozen = frozen_men(pos, winner);
    if (!contains(frozen, king) || (pieces & ~frozen)) return false;
    Race race(pos, winner, frozen);
    return race.run();
}

}  // namespace arbiter::winnability
