#include "winnability/template.h"

#include <optional>
#include <string>

#include "chess/movegen.h"
#include "winnability/search.h"

namespace arbiter::winnability {

namespace {

constexpr int MaxPlies = 100;
constexpr int ComposeTries = 48;
// Moves to a square that cannot be reached (a bishop of the other colour).
constexpr int Never = 16;
// The full-width search that plays the last moves once every man is this close.
constexpr int NearPotential = 1;
constexpr int NearPlies = 4;
constexpr uint64_t NearBudget = 800;
// Times the loser's men that spoil a composed mate are moved elsewhere.
constexpr int RepairRounds = 3;

// 1 for the light squares (b1, a2, ...), 0 for the dark ones.
int colour_of(Square s) { return (int(file_of(s)) + int(rank_of(s))) & 1; }
constexpr Bitboard LightSquares = 0x55AA55AA55AA55AAULL;

using KnightDistances = std::array<std::array<int8_t, 64>, 64>;

KnightDistances knight_distances() {
    KnightDistances d{};
    for (int from = 0; from < 64; ++from) {
        d[from].fill(Never);
        Bitboard seen = square_bb(Square(from)), frontier = seen;
        for (int8_t step = 0; frontier; ++step) {
            Bitboard next = 0;
            for (Square q : squares(frontier)) {
                d[from][q] = step;
                next |= knight_attacks(q);
            }
            frontier = next & ~seen;
            seen |= frontier;
        }
    }
    return d;
}

// Moves a man of `type` needs from `from` to `to` on an otherwise empty board.
int moves_to(PieceType type, Square from, Square to) {
    static const KnightDistances knight = knight_distances();
    if (from == to) return 0;
    switch (type) {
    case Knight: return knight[from][to];
    case Bishop: return colour_of(from) != colour_of(to) ? Never : contains(bishop_attacks(from, 0), to) ? 1 : 2;
    case Rook: return contains(rook_attacks(from, 0), to) ? 1 : 2;
    case Queen: return contains(queen_attacks(from, 0), to) ? 1 : 2;
    default: return square_distance(from, to);
    }
}

std::string fen_of(const std::array<Piece, 64>& board, Color side) {
    return fen_placement(board) + (side == White ? " w - - 0 1" : " b - - 0 1");
}

}  // namespace

TemplateHelpmates::TemplateHelpmates(const Position& root, Color winner)
        : root_(root), winner_(winner), rng_(root.key() * 0xD1B54A32D192ED03ULL | 1) {
    const Color loser = ~winner;
    // No checker, no template: pawn mates are left to the other playouts.
    if (!(root.pieces(winner) & ~root.pieces(Pawn) & ~root.pieces(King))) return;
    const Bitboard passable = ~root.pieces(loser, Pawn) & ~pawn_attacks_bb(winner, root.pieces(winner, Pawn));
    Bitboard region = root.pieces(loser, King), frontier = region;
    while (frontier) {
        Bitboard next = 0;
        for (Square q : squares(frontier)) next |= king_attacks(q);
        frontier = next & passable & ~region;
        region |= frontier;
    }
    const Bitboard edges = rank_bb(Rank1) | rank_bb(Rank8) | file_bb(File(0)) | file_bb(File(7));
    targets_ = region & edges & ~root.pieces(Pawn);
}

int TemplateHelpmates::random_below(int n) {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return int(rng_ % uint64_t(n));
}

bool TemplateHelpmates::run(uint64_t budget) {
    if (!targets_) return false;
    budget_ = nodes_ + budget;
    Goals goals;
    while (nodes_ < budget_) {
        if (compose(goals) && play(goals)) return true;
    }
    return false;
}

// Composes a mate of `~winner_` with the root's men and pawns, and gives each man
// the square of its kind in it nearest to where it stands. Now and then a side's
// pawn with a free path promotes in the template, to a piece of either side's choice:
// the winner's to check or cover, the loser's to plug a flight square.
bool TemplateHelpmates::compose(Goals& goals) {
    const Color loser = ~winner_;
    const auto pick = [this](Bitboard set) {
        for (int skip = random_below(popcount(set)); skip > 0; --skip) set &= set - 1;
        return lsb(set);
    };
    for (int attempt = 0; attempt < ComposeTries; ++attempt) {
        nodes_ += 8;
        std::array<Piece, 64> board;
        board.fill(NoPiece);
        Square promoting[2] = {NoSquare, NoSquare};
        PieceType promote_to[2] = {Knight, Knight};
        Bitboard pawns = root_.pieces(Pawn);
        for (Color c : {White, Black}) {
            Bitboard runners = 0;
            for (Square q : squares(root_.pieces(c, Pawn))) {
                const Bitboard path = file_bb(file_of(q)) & (c == White ? ~(square_bb(q) * 2 - 1) : square_bb(q) - 1);
                if (!(path & root_.pieces(Pawn))) runners |= square_bb(q);
            }
            if (runners && random_below(2)) {
                promoting[c] = pick(runners);
                promote_to[c] = PieceType(Knight + random_below(4));
                pawns &= ~square_bb(promoting[c]);
            }
        }
        for (Square q : squares(pawns)) board[q] = root_.piece_on(q);
        Bitboard used = pawns;
        const auto place = [&](Piece p, Square q) {
            board[q] = p;
            used |= square_bb(q);
        };
        const Square t = pick(targets_);
        place(make_piece(loser, King), t);
        Bitboard ring = king_attacks(t);
        ring = (ring | shift<North>(ring) | shift<South>(ring));
        ring = (ring | shift<East>(ring) | shift<West>(ring)) & ~king_attacks(t) & ~square_bb(t) & ~used;
        if (!ring) continue;
        place(make_piece(winner_, King), pick(ring));
        // The winner's first piece in random order checks; the others stand near.
        // The men to place, by the square they stand on now (a promoting pawn's for
        // its new piece, which may go to either colour of square).
        const auto piece_from = [&](Square from) {
            const Color c = color_of(root_.piece_on(from));
            return from == promoting[c] ? make_piece(c, promote_to[c]) : root_.piece_on(from);
        };
        const auto squares_for = [&](Square from, Bitboard set) {
            if (type_of(piece_from(from)) != Bishop || from == promoting[color_of(root_.piece_on(from))]) return set;
            return set & (colour_of(from) ? LightSquares : ~LightSquares);
        };
        const auto men_of = [&](Color c) {
            Bitboard men = root_.pieces(c) & ~root_.pieces(Pawn) & ~root_.pieces(King);
            return promoting[c] != NoSquare ? men | square_bb(promoting[c]) : men;
        };
        bool placed = true;
        Bitboard checkers = men_of(winner_);
        if (!checkers) continue;
        // The winner's first man in random order checks; the others stand near.
        const Square first = pick(checkers);
        const Bitboard checks = squares_for(first, piece_attacks(type_of(piece_from(first)), t, used) & ~used);
        if (!checks) continue;
        place(piece_from(first), pick(checks));
        for (Color c : {winner_, loser}) {
            Bitboard men = men_of(c);
            if (c == winner_) men &= ~square_bb(first);
            for (Square from : squares(men)) {
                Bitboard near = (c == loser ? king_attacks(t) : ring | king_attacks(t)) & ~used;
                if (!near || random_below(4) == 0) near = ~used;
                near = squares_for(from, near);
                if (type_of(piece_from(from)) == Pawn) near &= ~(rank_bb(Rank1) | rank_bb(Rank8));
                if (!near) {
                    placed = false;
                    break;
                }
                place(piece_from(from), pick(near));
            }
            if (!placed) break;
        }
        if (!placed) continue;
        const std::optional<Position> parsed = repair(board, used, t);
        if (!parsed) continue;
        // Each man goes to the nearest free square of its kind in the template.
        goals.square.fill(NoSquare);
        Bitboard free = parsed->occupied() & ~pawns;
        for (Color c : {White, Black}) {
            goals.promoted[c] = NoSquare;
            goals.promote_to[c] = promote_to[c];
            if (promoting[c] == NoSquare) continue;
            const Square from = promoting[c];
            goals.square[from] = Square(c == White ? 56 + file_of(from) : file_of(from));
            // The promoted piece's square: any of its kind and colour will do.
            goals.promoted[c] = lsb(free & parsed->pieces(c, promote_to[c]));
            free &= ~square_bb(goals.promoted[c]);
        }
        for (Square from : squares(root_.occupied() & ~root_.pieces(Pawn))) {
            const Piece p = root_.piece_on(from);
            Square best = NoSquare;
            for (Square q : squares(free & parsed->pieces(color_of(p), type_of(p)))) {
                if (best == NoSquare || moves_to(type_of(p), from, q) < moves_to(type_of(p), from, best)) best = q;
            }
            goals.square[from] = best;
            if (best != NoSquare) free &= ~square_bb(best);
        }
        return true;
    }
    return false;
}

// The composed position as a mate, or nothing. A loser's man that answers the check
// (takes the checker or blocks it) or checks the winner's king itself spoils a
// picture that is otherwise mate: such men go to random free squares, a few times
// over. Queens spoil most pictures of a lone knight or bishop, covering every square
// next to them, where the mate needs them out of the way (KN v KQQ: Kh8, Ph7, Kf8,
// Nf7#, the queens elsewhere); placed near the king three times in four, they rarely
// are. A pawn that spoils, or a flight of the king, ends the picture.
std::optional<Position> TemplateHelpmates::repair(std::array<Piece, 64>& board, Bitboard used, Square t) {
    const Color loser = ~winner_;
    Square winner_king = NoSquare;
    for (int q = 0; q < 64; ++q) {
        if (board[q] == make_piece(winner_, King)) winner_king = Square(q);
    }
    for (int round = 0;; ++round) {
        Bitboard spoilers = 0;
        for (int q = 0; q < 64; ++q) {
            const Piece p = board[q];
            if (p == NoPiece || color_of(p) != loser || type_of(p) == King) continue;
            const Bitboard attacks =
                type_of(p) == Pawn ? pawn_attacks(loser, Square(q)) : piece_attacks(type_of(p), Square(q), used);
            if (contains(attacks, winner_king)) spoilers |= square_bb(Square(q));
        }
        if (!spoilers) {
            nodes_ += 8;
            const FenResult parsed = Position::from_fen(fen_of(board, loser), false, FenCheck::Playable);
            if (!parsed.position || !parsed.position->in_check()) return std::nullopt;
            for (Move m : legal_moves(*parsed.position)) {
                if (m.from() == t) return std::nullopt;
                spoilers |= square_bb(m.from());
            }
            if (!spoilers) return parsed.position;
        }
        if (round == RepairRounds) return std::nullopt;
        for (Square q : squares(spoilers)) {
            if (type_of(board[q]) == Pawn) return std::nullopt;
            Bitboard free = ~used & ~king_attacks(t) & ~square_bb(t);
            if (type_of(board[q]) == Bishop) free &= colour_of(q) ? LightSquares : ~LightSquares;
            if (!free) return std::nullopt;
            Bitboard b = free;
            for (int skip = random_below(popcount(b)); skip > 0; --skip) b &= b - 1;
            const Square to = lsb(b);
            board[to] = board[q];
            board[q] = NoPiece;
            used = (used & ~square_bb(q)) | square_bb(to);
        }
    }
}

// Both sides walk their men to their goals, greedily with noise; the winner takes a
// mate in one whenever it is offered.
bool TemplateHelpmates::play(Goals goals) {
    Position pos = root_;
    const int noise = 2 << random_below(4);
    bool near_tried = false;
    std::array<Key, 256> visited{};
    for (int ply = 0; ply < MaxPlies && nodes_ < budget_; ++ply) {
        int remaining = 0;
        for (Square q : squares(pos.occupied())) {
            if (goals.square[q] != NoSquare) remaining += moves_to(type_of(pos.piece_on(q)), q, goals.square[q]);
        }
        if (!near_tried && remaining <= NearPotential) {
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
        // Only the winner's moves are tried for a mate.
        const Position::CheckSquares checks = winner_moves ? pos.check_squares() : Position::CheckSquares{};
        for (Move m : moves) {
            if (winner_moves && mates(pos, m, checks)) return true;
            const Position next = pos.apply_board(m);
            const Square from = m.from(), to = m.to();
            const PieceType type = type_of(pos.piece_on(from));
            int score = random_below(noise);
            const Square goal = goals.square[from];
            if (goal != NoSquare) score += 8 * (moves_to(type, to, goal) - moves_to(type, from, goal));
            // Pawns stand in the template where they stand now, unless promoting;
            // men it needs stay alive.
            if (type == Pawn && goal == NoSquare) score += 12;
            if (m.kind() == Move::Promotion && m.promotion() != goals.promote_to[pos.side_to_move()]) score += 64;
            if (m.kind() == Move::Castling) score += 64;
            if (m.kind() != Move::Castling && goals.square[to] != NoSquare) score += 64;
            if (visited[next.key() & 255] == next.key()) score += 24;
            if (score < best_score) {
                best_score = score;
                best = m;
            }
        }
        // Goals follow the men; a castling king drops its goal, a promoted pawn
        // takes its piece's.
        const Square from = best.from(), to = best.to();
        const Square goal = goals.square[from];
        goals.square[from] = NoSquare;
        goals.square[to] = best.kind() == Move::Normal ? goal : NoSquare;
        if (best.kind() == Move::Promotion && goal != NoSquare) goals.square[to] = goals.promoted[pos.side_to_move()];
        pos = pos.apply(best);
        visited[pos.key() & 255] = pos.key();
    }
    return false;
}

}  // namespace arbiter::winnability
