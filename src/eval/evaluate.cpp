#include "eval/evaluate.h"

#include <algorithm>
#include <array>

namespace arbiter::eval {

namespace {

// A middlegame/endgame pair, tapered by the game phase at the end.
struct Pair {
    int mg = 0, eg = 0;
    constexpr Pair operator+(Pair o) const { return {mg + o.mg, eg + o.eg}; }
    constexpr Pair operator-(Pair o) const { return {mg - o.mg, eg - o.eg}; }
    constexpr Pair operator*(int k) const { return {mg * k, eg * k}; }
    constexpr Pair& operator+=(Pair o) {
        mg += o.mg;
        eg += o.eg;
        return *this;
    }
    constexpr Pair& operator-=(Pair o) {
        mg -= o.mg;
        eg -= o.eg;
        return *this;
    }
};

constexpr Pair Material[6] = {{90, 125}, {320, 295}, {335, 315}, {470, 530}, {970, 960}, {0, 0}};
constexpr int PhaseWeight[6] = {0, 1, 1, 2, 4, 0};
constexpr int MaxPhase = 24;
constexpr int Tempo = 12;

// Distance from the board's centre: 0 on d4/e4/d5/e5, 3 in the corners.
constexpr int centre_distance(Square s) {
    const int f = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
    const int r = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
    return std::max(f, r);
}

// Piece-square values for White (Black looks them up on the mirrored square),
// written as simple shapes rather than tuned numbers.
constexpr Pair square_value(PieceType t, Square s) {
    const int rank = rank_of(s), file = file_of(s), centre = 3 - centre_distance(s);
    const bool central_file = file == FileD || file == FileE;
    switch (t) {
    case Pawn: {
        constexpr int mg_rank[8] = {0, 0, 2, 6, 14, 28, 50, 0};
        constexpr int eg_rank[8] = {0, 0, 4, 10, 22, 42, 70, 0};
        const int centre_bonus = central_file && (rank == 3 || rank == 4) ? 14 : 0;
        const int flank_start = (file <= FileB || file >= FileG) && rank == 1 ? 4 : 0;
        return {mg_rank[rank] + centre_bonus + flank_start, eg_rank[rank]};
    }
    case Knight: return {centre * 12 - 18 + (rank == 0 ? -8 : 0), centre * 10 - 15};
    case Bishop: return {centre * 5 - 5 + (rank == 0 ? -8 : 0), centre * 5 - 8};
    case Rook: return {(rank == 6 ? 16 : 0) + (central_file ? 4 : 0), rank == 6 ? 12 : 0};
    case Queen: return {centre * 2 - 4 + (rank == 0 ? 2 : 0), centre * 8 - 12};
    case King: {
        constexpr int mg_file[8] = {10, 18, 6, -8, -10, 0, 20, 12};
        return {mg_file[file] - 22 * std::min(rank, 3), centre * 14 - 25};
    }
    default: return {};
    }
}

using PsqTable = std::array<std::array<Pair, 64>, 6>;
constexpr PsqTable make_psq() {
    PsqTable table{};
    for (int t = 0; t < 6; ++t)
        for (int s = 0; s < 64; ++s) table[t][s] = Material[t] + square_value(PieceType(t), Square(s));
    return table;
}
constexpr PsqTable Psq = make_psq();

// Mobility: value per reachable square beyond a typical count, per piece type.
constexpr Pair MobilityUnit[6] = {{}, {4, 4}, {5, 5}, {2, 5}, {1, 3}, {}};
constexpr int MobilityTypical[6] = {0, 4, 6, 6, 12, 0};

constexpr Pair PassedPawn[8] = {{0, 0}, {2, 8}, {4, 12}, {10, 24}, {24, 48}, {45, 85}, {70, 130}, {0, 0}};
constexpr Pair DoubledPawn = {-10, -22};
constexpr Pair IsolatedPawn = {-10, -12};
constexpr Pair BishopPair = {28, 52};
constexpr Pair RookOpenFile = {26, 10};
constexpr Pair RookHalfOpenFile = {12, 6};
constexpr int ShieldPawnMissing = -14;
constexpr int KingAttackWeight[6] = {0, 2, 2, 3, 5, 0};

Bitboard adjacent_files(File f) {
    return (f > FileA ? file_bb(File(f - 1)) : 0) | (f < FileH ? file_bb(File(f + 1)) : 0);
}

// Squares in front of a pawn on its own and the adjacent files, up to the last rank.
Bitboard passed_span(Color c, Square s) {
    const Bitboard files = file_bb(file_of(s)) | adjacent_files(file_of(s));
    const int rank = rank_of(s);
    const Bitboard ahead = c == White ? (rank == 7 ? 0 : ~Bitboard(0) << (8 * (rank + 1)))
                                      : (rank == 0 ? 0 : ~Bitboard(0) >> (8 * (8 - rank)));
    return files & ahead;
}

struct Terms {
    Pair psq, mobility, pawns, pieces;
    int king_safety = 0;
};

void evaluate_side(const Position& pos, Color us, Terms& t, int sign) {
    const Color them = ~us;
    const Bitboard occupied = pos.occupied();
    const Bitboard our_pawns = pos.pieces(us, Pawn), their_pawns = pos.pieces(them, Pawn);
    const Bitboard enemy_pawn_attacks = pawn_attacks_bb(them, their_pawns);
    const Bitboard mobility_area = ~pos.pieces(us) & ~enemy_pawn_attacks;
    const Square their_king = pos.king_square(them);
    const Bitboard king_zone = king_attacks(their_king) | square_bb(their_king);

    int attack_units = 0, attackers = 0;
    for (PieceType type : {Pawn, Knight, Bishop, Rook, Queen, King}) {
        for (Square s : squares(pos.pieces(us, type))) {
            const Square view = relative_square(us, s);
            Pair psq = Psq[type][view];
            t.psq += psq * sign;
            if (type == Pawn || type == King) continue;
            const Bitboard attacks = piece_attacks(type, s, occupied);
            const int moves = popcount(attacks & mobility_area);
            t.mobility += MobilityUnit[type] * (moves - MobilityTypical[type]) * sign;
            if (const Bitboard hits = attacks & king_zone) {
                ++attackers;
                attack_units += KingAttackWeight[type] * popcount(hits);
            }
            if (type == Rook) {
                const Bitboard file = file_bb(file_of(s));
                if (!(file & our_pawns)) t.pieces += (file & their_pawns ? RookHalfOpenFile : RookOpenFile) * sign;
            }
        }
    }
    if (popcount(pos.pieces(us, Bishop)) >= 2) t.pieces += BishopPair * sign;

    for (Square s : squares(our_pawns)) {
        const File f = file_of(s);
        if (!(adjacent_files(f) & our_pawns)) t.pawns += IsolatedPawn * sign;
        if (!(passed_span(us, s) & their_pawns)) {
            const int rank = relative_rank(us, rank_of(s));
            Pair bonus = PassedPawn[rank];
            // A blocked passer is worth much less.
            if (pos.piece_on(Square(s + pawn_push(us))) != NoPiece) bonus = {bonus.mg / 2, bonus.eg / 2};
            t.pawns += bonus * sign;
        }
    }
    for (int f = 0; f < 8; ++f) {
        const int count = popcount(our_pawns & file_bb(File(f)));
        if (count > 1) t.pawns += DoubledPawn * (count - 1) * sign;
    }

    // Attack on the enemy king grows faster than linearly with the number of
    // attackers; a lone attacker counts little.
    if (attackers >= 2) t.king_safety += sign * attack_units * attack_units * std::min(attackers, 4) / 8;

    // Our own king's pawn shield: the three files around the king, first two ranks ahead.
    const Square ksq = pos.king_square(us);
    const Bitboard shield_files = file_bb(file_of(ksq)) | adjacent_files(file_of(ksq));
    const Bitboard ahead =
        us == White ? rank_bb(Rank(std::min(7, rank_of(ksq) + 1))) | rank_bb(Rank(std::min(7, rank_of(ksq) + 2)))
                    : rank_bb(Rank(std::max(0, rank_of(ksq) - 1))) | rank_bb(Rank(std::max(0, rank_of(ksq) - 2)));
    const int shield = popcount(our_pawns & shield_files & ahead);
    if (relative_rank(us, rank_of(ksq)) <= Rank2) t.king_safety += sign * ShieldPawnMissing * std::max(0, 3 - shield);
}

}  // namespace

Breakdown breakdown(const Position& pos) {
    Terms t;
    evaluate_side(pos, White, t, 1);
    evaluate_side(pos, Black, t, -1);

    int phase = 0;
    for (PieceType type : {Knight, Bishop, Rook, Queen}) phase += PhaseWeight[type] * popcount(pos.pieces(type));
    phase = std::min(phase, MaxPhase);

    const Pair total = t.psq + t.mobility + t.pawns + t.pieces + Pair{t.king_safety, 0};
    int score = (total.mg * phase + total.eg * (MaxPhase - phase)) / MaxPhase;
    score += pos.side_to_move() == White ? Tempo : -Tempo;

    // Drawish material: without pawns, a side up by less than a rook cannot win
    // by material alone.
    const Color strong = score > 0 ? White : Black;
    if (!pos.pieces(strong, Pawn)) {
        int strong_material = 0, weak_material = 0;
        for (PieceType type : {Knight, Bishop, Rook, Queen}) {
            strong_material += PieceValue[type] * popcount(pos.pieces(strong, type));
            weak_material += PieceValue[type] * popcount(pos.pieces(~strong, type));
        }
        if (strong_material - weak_material < PieceValue[Rook]) score /= strong_material <= PieceValue[Bishop] ? 16 : 4;
    }

    return {t.psq.mg,      t.psq.eg,    t.mobility.mg, t.mobility.eg, t.pawns.mg, t.pawns.eg,
            t.king_safety, t.pieces.mg, t.pieces.eg,   phase,         score};
}

int evaluate(const Position& pos) {
    const int white_view = breakdown(pos).total;
    return pos.side_to_move() == White ? white_view : -white_view;
}

}  // namespace arbiter::eval
