// Table::probe: from a position to the index of its value in a table, then the
// value. The scheme is described in encoding.h.

#include <algorithm>

#include "syzygy/table.h"

namespace arbiter::syzygy {

namespace {

int edge_distance(int file) { return std::min(file, 7 - file); }
bool pawn_order(int a, int b) { return Encoding.pawn_rank[a] < Encoding.pawn_rank[b]; }

// Index of a non-pawn table's leading group, its first piece already in the
// a1-d1-d4 triangle and the group under the diagonal where it leaves it.
uint64_t leading_pieces_index(const int* sq, bool three_unique) {
    if (!three_unique) return uint64_t(Encoding.king_pair[Encoding.triangle[sq[0]]][sq[1]]);
    // Three unique pieces: 63 squares remain for the second, 62 for the third; the
    // cases with leading pieces on the diagonal come after (fewer symmetric twins).
    const int adjust1 = sq[1] > sq[0];
    const int adjust2 = (sq[2] > sq[0]) + (sq[2] > sq[1]);
    const auto rank = [](int s) { return s >> 3; };
    if (diagonal_offset(sq[0]) != 0)
        return uint64_t((Encoding.triangle[sq[0]] * 63 + (sq[1] - adjust1)) * 62 + sq[2] - adjust2);
    if (diagonal_offset(sq[1]) != 0)
        return uint64_t((6 * 63 + rank(sq[0]) * 28 + Encoding.below_diagonal[sq[1]]) * 62 + sq[2] - adjust2);
    if (diagonal_offset(sq[2]) != 0)
        return uint64_t(6 * 63 * 62 + 4 * 28 * 62 + rank(sq[0]) * 7 * 28 + (rank(sq[1]) - adjust1) * 28 +
                        Encoding.below_diagonal[sq[2]]);
    return uint64_t(6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + rank(sq[0]) * 7 * 6 + (rank(sq[1]) - adjust1) * 6 +
                    (rank(sq[2]) - adjust2));
}

} // namespace

TableValue Table::probe(const Position& pos, int wdl) const {
    if (!ensure_ready()) return {TableValue::Failed, 0};

    // The file stores its first side as White. Look up a position with the colours
    // the other way round, and a symmetric table's Black-to-move positions (stored
    // only for White to move), with colours swapped and the board turned over.
    const bool symmetric = key_ == mirrored_key_;
    const bool swap = material_key(pos) != key_ || (symmetric && pos.side_to_move() == Black);
    const int colour_flip = swap ? 8 : 0;
    const int square_flip = swap ? 56 : 0;
    const int side = int(pos.side_to_move()) ^ int(swap);
    const auto code_of = [&](Piece p) { return uint8_t((int(p) ^ colour_flip) + 1); };

    int sq[MaxPieces];
    uint8_t code[MaxPieces];
    int count = 0, leading_pawns = 0, file = 0;
    Bitboard lead = 0;
    if (has_pawns_) {
        // The leading pawns are those of the colour of the stream's first piece;
        // the one nearest the a/h edge (then lowest) decides the sub-table's file.
        const Color lead_colour = Color((pairs_[0][0].pieces[0] >> 3) ^ (swap ? 1 : 0));
        lead = pos.pieces(lead_colour, Pawn);
        for (Square s : squares(lead)) {
            code[count] = code_of(pos.piece_on(s));
            sq[count++] = s ^ square_flip;
        }
        leading_pawns = count;
        std::swap(sq[0], *std::max_element(sq, sq + leading_pawns, pawn_order));
        file = edge_distance(sq[0] & 7);
    }
    const PairsData& d = pairs_[type_ == TableType::Wdl ? side % (symmetric ? 1 : 2) : 0][file];
    // A DTZ table holds one side to move; a symmetric table without pawns holds
    // both (the swap above made the side to move its first side).
    if (type_ == TableType::Dtz && (d.flags & flag::SideToMove) != side && !(symmetric && !has_pawns_))
        return {TableValue::OtherSideToMove, 0};

    for (Square s : squares(pos.occupied() & ~lead)) {
        code[count] = code_of(pos.piece_on(s));
        sq[count++] = s ^ square_flip;
    }
    if (count != piece_count_) return {TableValue::Failed, 0};
    // Put the pieces in the stream's order.
    for (int i = leading_pawns; i < count - 1; ++i)
        for (int j = i + 1; j < count; ++j)
            if (d.pieces[i] == code[j]) {
                std::swap(code[i], code[j]);
                std::swap(sq[i], sq[j]);
                break;
            }

    // The first piece goes to files a-d.
    if ((sq[0] & 7) > 3)
        for (int i = 0; i < count; ++i) sq[i] ^= 7;

    uint64_t index;
    if (has_pawns_) {
        index = uint64_t(Encoding.lead_pawn_index[leading_pawns][sq[0]]);
        std::stable_sort(sq + 1, sq + leading_pawns, pawn_order);
        for (int i = 1; i < leading_pawns; ++i) index += Encoding.binomial[i][Encoding.pawn_rank[sq[i]]];
    } else {
        // Then to ranks 1-4, and below the a1-h8 diagonal: the first piece of the
        // leading group off the diagonal decides whether to transpose.
        if ((sq[0] >> 3) > 3)
            for (int i = 0; i < count; ++i) sq[i] ^= 56;
        for (int i = 0; i < d.group_length[0]; ++i) {
            const int offset = diagonal_offset(sq[i]);
            if (offset == 0) continue;
            if (offset > 0)
                for (int j = i; j < count; ++j) sq[j] = ((sq[j] >> 3) | (sq[j] << 3)) & 63;
            break;
        }
        index = leading_pieces_index(sq, has_unique_pieces_);
    }
    index *= d.group_factor[0];

    // Every further group: a set of squares among those the earlier groups left,
    // counted in increasing square order. The second colour's pawns (when both
    // have pawns) choose among the 48 pawn squares.
    int* group = sq + d.group_length[0];
    bool pawn_group = has_pawns_ && pawn_count_[1] > 0;
    for (int g = 1; d.group_length[g] != 0; ++g) {
        const int length = d.group_length[g];
        std::sort(group, group + length);
        uint64_t n = 0;
        for (int i = 0; i < length; ++i) {
            const int below = int(std::count_if(sq, group, [&](int s) { return s < group[i]; }));
            const int rank = group[i] - below - (pawn_group ? 8 : 0);
            if (rank < 0 || i + 1 >= MaxPieces) return {TableValue::Failed, 0};  // only from a damaged file
            n += Encoding.binomial[i + 1][rank];
        }
        pawn_group = false;
        index += n * d.group_factor[g];
        group += length;
    }

    const int raw = d.value_at(index);
    if (raw < 0) return {TableValue::Failed, 0};
    if (type_ == TableType::Wdl) {
        if (raw > 4) return {TableValue::Failed, 0};  // a damaged file
        return {TableValue::Ok, raw - 2};
    }

    // DTZ: a map per WDL class may translate the stored value; distances are in
    // moves unless the flags say plies (always moves for cursed wins and blessed
    // losses), and count the plies to the zeroing move, not counting it.
    int value = raw;
    if (d.flags & flag::Mapped) {
        static constexpr int MapOf[5] = {1, 3, 0, 2, 0};  // by wdl + 2
        const size_t entry = size_t(d.dtz_map_index[MapOf[wdl + 2]]) + size_t(raw);
        const std::span<const uint8_t> bytes = file_.bytes();
        const bool wide = d.flags & flag::WideMap;
        const size_t at = dtz_map_ + (wide ? 2 * entry : entry);
        if (at + (wide ? 2 : 1) > bytes.size()) return {TableValue::Failed, 0};
        value = wide ? load_le16(bytes.data() + at) : bytes[at];
    }
    if ((wdl == 2 && !(d.flags & flag::WinPlies)) || (wdl == -2 && !(d.flags & flag::LossPlies)) || wdl == 1 ||
        wdl == -1)
        value *= 2;
    return {TableValue::Ok, value + 1};
}

} // namespace arbiter::syzygy
