#pragma once
// A chess position as a value: board, side to move, castling rights, en passant
// square and clocks, plus derived check information.
//
// Moves are made by copying (`Position next = pos.apply(move)`): there is no undo to
// get wrong, and a position is small enough (see the static_assert) that the copy is
// cheaper than the bookkeeping make/unmake needs.
//
// Invariants kept by every constructor and by apply():
// - the side not to move is not in check;
// - `ep_square()` is set only when the side to move has a *legal* en passant capture.
//   FIDE 9.2.3 counts a position as the same whether or not an unusable en passant
//   right exists, so the key, the FEN we write and repetition detection all ignore it;
// - `checkers()` and `pinned()` describe the side to move.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "chess/attacks.h"
#include "chess/bitboard.h"
#include "chess/move.h"
#include "chess/zobrist.h"

namespace arbiter {

using zobrist::Key;

struct FenResult;

// How much from_fen asks of a well-formed FEN.
// - Reachable: a position some legal game from the initial position can reach. Besides
//   what Playable asks, no more pieces than promotions can give (counting each square
//   colour's bishops), and a last move that leads to the position from a legal one:
//   checks it can have given, a halfmove clock of 0 after a double step or a pawn's
//   check, a man that can have made it (src/chess/last_move.h).
// - Playable: what the rules core needs to play on correctly: one king each, kings apart,
//   no pawn on the first or last rank, the side not to move not in check, at most two
//   checkers.
//   For composed problems and test suites, which hold positions no game reaches (the
//   perft suite's two bishops checking along one diagonal, for one).
enum class FenCheck { Reachable, Playable };

class Position {
public:
    static constexpr std::string_view StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    // Strict FEN reader. `chess960` allows any king and rook files and Shredder-FEN
    // castling letters; without it castling rights need the standard e- and a/h-files.
    static FenResult from_fen(std::string_view fen, bool chess960 = false, FenCheck check = FenCheck::Reachable);
    static Position startpos();

    std::string fen() const;

    // The position after a legal move. The move must be legal here.
    Position apply(Move move) const;
    // apply() without the check information, for a search that looks at most
    // children only for their men and key and learns of a check from gives_check()
    // on the parent (the winnability decider's): checkers() and pinned() read as
    // empty (and in_check() as false) until add_check_info() computes them; legal
    // move generation needs them. Everything else, the key and the en passant square
    // included, is as apply() leaves it.
    Position apply_board(Move move) const;
    // apply(move).key() without making the move, except after a double pawn push
    // that allows an en passant capture (that key also holds the en passant file):
    // cheap enough to look up the child in a hash table before making the move.
    Key key_after(Move move) const;
    void add_check_info() { update_check_info(); }
    // Whether the legal move `move` gives check: the same answer as
    // apply(move).in_check(), without making the move. A caller asking for many moves
    // of one position computes check_squares() once and passes it.
    struct CheckSquares {
        Square king;           // the king of the side not to move
        Bitboard by_type[6];   // where a piece of each type would give check (none for the king)
        Bitboard discoverers;  // our men whose move off their line to it uncovers a check
    };
    CheckSquares check_squares() const;
    bool gives_check(Move move, const CheckSquares& squares) const;
    bool gives_check(Move move) const { return gives_check(move, check_squares()); }
    // The same position with the other side to move (the search's null move). Only
    // valid when the side to move is not in check.
    Position apply_null_move() const;

    Color side_to_move() const { return side_; }
    Piece piece_on(Square s) const { return board_[s]; }
    Bitboard occupied() const { return by_color_[White] | by_color_[Black]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType t) const { return by_type_[t]; }
    Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
    Square king_square(Color c) const { return lsb(pieces(c, King)); }

    Bitboard checkers() const { return checkers_; }
    bool in_check() const { return checkers_ != 0; }
    // Pieces of the side to move that shield their own king from a slider.
    Bitboard pinned() const { return pinned_; }

    Key key() const { return key_; }
    Key pawn_key() const { return pawn_key_; }
    Square ep_square() const { return ep_square_; }
    CastlingRights castling_rights() const { return castling_; }
    bool can_castle(Color c, CastleSide side) const { return castling_ & castling_bit(c, side); }
    // The rook a castling right belongs to; meaningful only while the right exists.
    Square castling_rook(Color c, CastleSide side) const { return castling_rooks_[c * 2 + side]; }
    int halfmove_clock() const { return halfmove_; }
    int fullmove_number() const { return fullmove_; }
    bool chess960() const { return chess960_; }

    // Pieces of either colour attacking `s` when the board holds `occupied`.
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    bool is_attacked(Square s, Color by, Bitboard occupied) const;
    bool is_capture(Move m) const {
        return m.kind() == Move::EnPassant || (m.kind() != Move::Castling && board_[m.to()] != NoPiece);
    }
    // A capture or a promotion (what GenKind::Noisy generates); every other move is quiet.
    bool is_noisy(Move m) const { return is_capture(m) || m.kind() == Move::Promotion; }
    // Whether the pawn on `from` may legally capture en passant on `ep_square()`.
    bool en_passant_is_legal(Square from) const;

    // Same pieces on the same squares, same side to move, same castling rights and
    // same en passant possibility: "the same position" of FIDE 9.2.3.
    bool same_position(const Position& other) const;

private:
    Position() {
        for (Piece& p : board_) p = NoPiece;
    }

    // apply() (with the check information) and apply_board() (without): one body.
    template <bool WithCheckInfo>
    Position make_move(Move m) const;
    // The castling rights left after a move from `from` to `to` of `moving`: a king
    // move loses both of its side's, a move from or onto a castling rook's square
    // (a capture of it included) loses that one.
    CastlingRights castling_after(Piece moving, Square from, Square to) const;
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_castling(CastlingRights rights);
    // Recomputes checkers and pins for the side to move.
    void update_check_info();
    // Our men alone between `king` and a slider of `sliders_of`'s colour.
    Bitboard blockers_of(Square king, Color sliders_of) const;
    // gives_check for castling, en passant and promotions: the board after the move.
    bool special_move_gives_check(Move move, Square king) const;
    // Sets the en passant square after a double push if, and only if, a capture is legal.
    void set_en_passant_if_capturable(Square ep);

    std::string validate(FenCheck check) const;
    friend struct FenReader;

    Bitboard by_type_[6] = {};
    Bitboard by_color_[2] = {};
    Piece board_[64];
    Key key_ = 0;
    Key pawn_key_ = 0;
    Bitboard checkers_ = 0;
    Bitboard pinned_ = 0;
    Square castling_rooks_[4] = {NoSquare, NoSquare, NoSquare, NoSquare};
    CastlingRights castling_ = 0;
    Square ep_square_ = NoSquare;
    Color side_ = White;
    bool chess960_ = false;
    uint32_t halfmove_ = 0;
    uint32_t fullmove_ = 1;
};

// The outcome of parsing a FEN: a position or the reason it was refused, which starts
// "invalid FEN: " for bad syntax and "impossible position: " for a well-formed FEN that
// the FenCheck asked for refuses (a game cannot reach it, or play cannot go on from it).
struct FenResult {
    std::optional<Position> position;
    std::string error;
};

static_assert(sizeof(Position) == 176, "Position is copied on every move: keep it small");

// The piece-placement field of a FEN for `board` (indexed by Square): ranks 8 to 1
// separated by '/', each from the a-file to the h-file, a run of empty squares as
// its length. The one writer of a placement: Position::fen() and every other FEN
// built from a board use it.
std::string fen_placement(std::span<const Piece, 64> board);

}  // namespace arbiter
