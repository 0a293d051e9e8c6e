// Fuzzes the FEN reader: arbitrary bytes go to Position::from_fen, once as standard
// chess and once as Chess960. Refusing the text is always fine; a position that is
// accepted must keep the invariants below, and the harness traps on the first one
// that fails so that libFuzzer saves the input.
//
// Invariants of an accepted position:
// - fen() reads back to a position with the same key and the same fen();
// - the board array and the bitboards agree; checkers() are the enemy pieces that
//   attack the king;
// - the legal move count of the generator equals the bulk count (perft 1), Noisy and
//   Quiet partition All, and is_legal() accepts exactly the generated moves (checked
//   on each generated move and on variants of it with another kind or promotion piece);
// - the en passant square is set exactly when an en passant capture is legal;
// - every child (apply of a legal move) has the other side to move, leaves the mover's
//   king unattacked, keeps the same consistency, and its fen() reads back to the same
//   key: the incrementally updated key equals the one computed from scratch;
// - perft 2 equals the sum of the children's move counts;
// - the null move (when not in check) gives a position whose fen() reads back (as
//   Playable: its side that "moved" need not have a man that can have moved);
// - a position accepted as standard chess is accepted as Chess960 with the same key
//   and the same legal moves (standard castling is a special case of Chess960's).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/position.h"

namespace {

using namespace arbiter;

void check(bool condition) {
    if (!condition) __builtin_trap();
}

// FEN allows clocks up to this (fen.cpp); a child of a position at the limit can
// exceed it, and then its FEN is refused for a reason that has nothing to do with the
// board. Such children skip the read-back check.
constexpr uint32_t ClockLimit = 1'000'000'000;

bool contains_move(const MoveList& list, Move m) { return std::find(list.begin(), list.end(), m) != list.end(); }

std::vector<uint16_t> sorted_raw(const MoveList& list) {
    std::vector<uint16_t> raw;
    for (Move m : list) raw.push_back(m.raw());
    std::sort(raw.begin(), raw.end());
    return raw;
}

void check_consistency(const Position& pos) {
    Bitboard all = 0;
    for (int i = 0; i < 64; ++i) {
        const Square s = square_at(i);
        const Piece p = pos.piece_on(s);
        if (p == NoPiece) {
            check(!contains(pos.occupied(), s));
            continue;
        }
        check(contains(pos.pieces(color_of(p), type_of(p)), s));
        all |= square_bb(s);
    }
    check(all == pos.occupied());
    int counted = 0;
    for (Color c : {White, Black})
        for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen, King}) counted += popcount(pos.pieces(c, t));
    check(counted == popcount(all));
    check((pos.pieces(White) & pos.pieces(Black)) == 0);
    for (Color c : {White, Black}) check(popcount(pos.pieces(c, King)) == 1);

    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    check(pos.checkers() == (pos.attackers_to(ksq, pos.occupied()) & pos.pieces(~us)));
    check(!pos.is_attacked(pos.king_square(~us), us, pos.occupied()));
}

// fen() must read back as the same position (not checked when the clocks are beyond
// what FEN accepts). A position reached by a move from an accepted one is reachable
// too; the null move's position need not be (the side that "moved" may have no man
// that can have made a last move): it is read back as Playable.
void check_round_trip(const Position& pos, FenCheck fen_check = FenCheck::Reachable) {
    if (uint32_t(pos.halfmove_clock()) > ClockLimit || uint32_t(pos.fullmove_number()) > ClockLimit) return;
    const std::string text = pos.fen();
    const FenResult again = Position::from_fen(text, pos.chess960(), fen_check);
    check(again.position.has_value());
    check(again.position->key() == pos.key());
    check(again.position->fen() == text);
    check(again.position->same_position(pos));
}

// The en passant square is kept exactly when a legal en passant capture exists.
void check_en_passant(const Position& pos, const MoveList& moves) {
    const bool capture = std::any_of(moves.begin(), moves.end(), [](Move m) { return m.kind() == Move::EnPassant; });
    check((pos.ep_square() != NoSquare) == capture);
}

void check_legality_oracle(const Position& pos, const MoveList& moves) {
    for (Move m : moves) {
        check(is_legal(pos, m));
        // The same squares with every other kind and promotion piece: is_legal must
        // agree with the generated list (the search feeds it unverified hash moves).
        for (int kind = 0; kind < 4; ++kind) {
            for (PieceType promo : {Knight, Bishop, Rook, Queen}) {
                const Move variant(m.from(), m.to(), Move::Kind(kind), promo);
                check(is_legal(pos, variant) == contains_move(moves, variant));
            }
        }
        // The reverse move is legal only if the generator produced it as well.
        const Move back(m.to(), m.from());
        check(is_legal(pos, back) == contains_move(moves, back));
    }
}

void check_position(const Position& pos) {
    check_consistency(pos);
    check_round_trip(pos);

    const MoveList moves = legal_moves(pos);
    check(count_legal_moves(pos) == moves.size());
    check(has_legal_move(pos) == !moves.empty());
    check(perft(pos, 1) == moves.size());

    MoveList noisy, quiet;
    generate<GenKind::Noisy>(pos, noisy);
    generate<GenKind::Quiet>(pos, quiet);
    check(noisy.size() + quiet.size() == moves.size());
    for (Move m : noisy) check(contains_move(moves, m) && (pos.is_capture(m) || m.kind() == Move::Promotion));
    for (Move m : quiet) check(contains_move(moves, m) && !pos.is_capture(m) && m.kind() != Move::Promotion);

    check_legality_oracle(pos, moves);

    check_en_passant(pos, moves);

    uint64_t grandchildren = 0;
    for (Move m : moves) {
        const Position next = pos.apply(m);
        check(next.side_to_move() == ~pos.side_to_move());
        check(next.chess960() == pos.chess960());
        check_consistency(next);
        check_round_trip(next);
        const MoveList replies = legal_moves(next);
        check(count_legal_moves(next) == replies.size());
        check_en_passant(next, replies);
        grandchildren += replies.size();
    }
    check(perft(pos, 2) == grandchildren);

    if (!pos.in_check()) {
        const Position null = pos.apply_null_move();
        check(null.side_to_move() == ~pos.side_to_move());
        check_consistency(null);
        check_round_trip(null, FenCheck::Playable);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const FenResult standard = Position::from_fen(text, false);
    const FenResult chess960 = Position::from_fen(text, true);
    // Exactly one of position and error is set.
    check(standard.position.has_value() == standard.error.empty());
    check(chess960.position.has_value() == chess960.error.empty());

    if (standard.position) {
        check(!standard.position->chess960());
        check_position(*standard.position);
        check(chess960.position.has_value());
        check(chess960.position->key() == standard.position->key());
        check(sorted_raw(legal_moves(*chess960.position)) == sorted_raw(legal_moves(*standard.position)));
    }
    if (chess960.position) {
        check(chess960.position->chess960());
        check_position(*chess960.position);
    }
    return 0;
}
