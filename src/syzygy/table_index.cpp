// Table::probe: from a position to its index in a sub-table (the numbering is
// described in encoding.h), then to the value stored there. Allocates nothing.

#include <utility>

#include "syzygy/table.h"

namespace arbiter::syzygy {

namespace {

// Sorts a few numbers in increasing order.
void sort_small(int* values, int count) {
    for (int i = 1; i < count; ++i)
        for (int j = i; j > 0 && values[j - 1] > values[j]; --j) std::swap(values[j - 1], values[j]);
}

// Mirror images of every square: across the d/e line, across the 4th/5th rank,
// and across the a1-h8 diagonal.
void flip_files(int* squares, int count) {
    for (int i = 0; i < count; ++i) squares[i] ^= 7;
}
void flip_ranks(int* squares, int count) {
    for (int i = 0; i < count; ++i) squares[i] ^= 56;
}
void transpose(int* squares, int count) {
    for (int i = 0; i < count; ++i) squares[i] = file_of_square(squares[i]) * 8 + rank_of_square(squares[i]);
}

// How many of `earlier` lie below `square`: subtracting it numbers the squares
// the earlier pieces left free.
template <typename Key>
int count_lower(const int* earlier, int count, int square, Key key) {
    int lower = 0;
    for (int i = 0; i < count; ++i) lower += key(earlier[i]) < key(square);
    return lower;
}

// Two kings and a unique piece (encoding.h, TrioSections): the section is the
// number of pieces, from the first, on the diagonal before one off it; each
// piece's digit is its number among the squares its section allows it.
uint64_t leading_trio_index(const int* sq) {
    int section = 0;
    while (section < 3 && above_diagonal(sq[section]) == 0) ++section;
    const auto same = [](int s) { return s; };
    uint64_t value = 0;
    for (int piece = 0; piece < 3; ++piece) {
        const int s = sq[piece];
        int digit;
        if (piece == 0) digit = section == 0 ? Tables.triangle[s] : rank_of_square(s);
        else if (piece < section) digit = rank_of_square(s) - count_lower(sq, piece, s, rank_of_square);
        else if (piece == section) digit = Tables.under_diagonal[s];
        else digit = s - count_lower(sq, piece, s, same);
        value = value * uint64_t(Trio.radix[section][piece]) + uint64_t(digit);
    }
    return uint64_t(Trio.offset[section]) + value;
}

// The leading pawns, the leader first: the leader's square, then the set of the
// others, ranked among the pawn squares ordered below it.
uint64_t leading_pawns_index(const int* sq, int count) {
    uint64_t index = uint64_t(Tables.leader_offset[count][sq[0]]);
    int order[MaxPieces];
    for (int i = 1; i < count; ++i) order[i - 1] = Tables.pawn_order[sq[i]];
    sort_small(order, count - 1);
    for (int i = 0; i < count - 1; ++i) index += Tables.choose[i + 1][order[i]];
    return index;
}

}  // namespace

bool Table::compute_index(const IndexLayout& layout, int* sq, int leading_pawns, uint64_t& index) const {
    // Symmetry: the first piece goes to files a-d; without pawns also to ranks
    // 1-4, and the first piece of the leading group off the diagonal under it.
    if (file_of_square(sq[0]) > 3) flip_files(sq, piece_count_);
    if (has_pawns_) {
        index = leading_pawns_index(sq, leading_pawns);
    } else {
        if (rank_of_square(sq[0]) > 3) flip_ranks(sq, piece_count_);
        for (int i = 0; i < layout.group_size[0]; ++i) {
            if (above_diagonal(sq[i]) == 0) continue;
            if (above_diagonal(sq[i]) > 0) transpose(sq, piece_count_);
            break;
        }
        if (has_unique_pieces_) {
            index = leading_trio_index(sq);
        } else {
            const int kings = Tables.kings[Tables.triangle[sq[0]]][sq[1]];
            if (kings < 0) return false;  // kings side by side
            index = uint64_t(kings);
        }
    }
    index *= layout.weight[0];

    // Every further group is a set of squares among those the earlier groups left
    // (for the other colour's pawns: among the 48 pawn squares).
    int start = layout.group_size[0];
    for (int g = 1; g < layout.groups; ++g) {
        int* group = sq + start;
        const int size = layout.group_size[g];
        sort_small(group, size);
        const int not_pawn_squares = g == 1 && both_sides_pawns_ ? 8 : 0;
        uint64_t subset = 0;
        for (int i = 0; i < size; ++i) {
            const int number = group[i] - count_lower(sq, start, group[i], [](int s) { return s; }) - not_pawn_squares;
            if (number < 0) return false;  // a pawn on the first rank: not a legal position
            subset += Tables.choose[i + 1][number];
        }
        index += subset * layout.weight[g];
        start += size;
    }
    return index < layout.positions;
}

TableValue Table::probe(const Position& pos, int wdl) const {
    constexpr TableValue Failed{TableValue::Failed, 0};
    if (!ensure_ready()) return Failed;

    // Step 1: colours. The file stores its first side as White: look up a position
    // with the colours the other way round, and a symmetric table's Black-to-move
    // positions (stored for White to move only), with colours swapped and the board
    // turned over.
    const bool symmetric = key_ == mirrored_key_;
    const bool swap = material_key(pos) != key_ || (symmetric && pos.side_to_move() == Black);
    const int turn_over = swap ? 56 : 0;
    const int side = int(pos.side_to_move()) ^ int(swap);  // in the file's colours
    const auto pieces_of = [&](uint8_t code) {
        return pos.pieces(Color(((code >> 3) & 1) ^ int(swap)), PieceType((code & 7) - 1));
    };

    // Step 2: the leading pawns, and among them the leader, which picks the file's
    // sub-table.
    int sq[MaxPieces];
    int leading_pawns = 0;
    Bitboard placed = 0;
    int file = 0;
    if (has_pawns_) {
        placed = pieces_of(subtables_[0][0].layout.codes[0]);
        for (Bitboard b = placed; b && leading_pawns < MaxPieces;) sq[leading_pawns++] = pop_lsb(b) ^ turn_over;
        if (leading_pawns == 0) return Failed;
        int leader = 0;
        for (int i = 1; i < leading_pawns; ++i)
            if (Tables.pawn_order[sq[i]] > Tables.pawn_order[sq[leader]]) leader = i;
        std::swap(sq[0], sq[leader]);
        file = edge_file(sq[0]);
    }

    // Step 3: the sub-table. A DTZ file holds one side to move; a symmetric one
    // without pawns holds both (step 1 made the side to move its first side).
    const SubTable& sub = subtables_[type_ == TableType::Wdl && !symmetric ? side : 0][file];
    if (type_ == TableType::Dtz && (sub.values.flags() & flag::SideToMove) != side && !(symmetric && !has_pawns_))
        return {TableValue::OtherSideToMove, 0};
    const IndexLayout& layout = sub.layout;
    if (has_pawns_ && leading_pawns != layout.group_size[0]) return Failed;

    // Step 4: the other pieces in the stream's order, like pieces lowest square first.
    for (int i = leading_pawns; i < piece_count_; ++i) {
        const Bitboard candidates = pieces_of(layout.codes[i]) & ~placed;
        if (!candidates) return Failed;
        const Square s = lsb(candidates);
        placed |= square_bb(s);
        sq[i] = s ^ turn_over;
    }
    if (placed != pos.occupied()) return Failed;

    // Step 5: the index, then the value.
    uint64_t index = 0;
    if (!compute_index(layout, sq, leading_pawns, index)) return Failed;
    const int raw = sub.values.value_at(index);
    if (raw < 0) return Failed;
    if (type_ == TableType::Wdl) {
        if (raw > 4) return Failed;  // a damaged file
        return {TableValue::Ok, raw - 2};
    }

    // Step 6, DTZ: the stored number may go through the map of the position's WDL
    // class (the file orders them wins, losses, cursed wins, blessed losses); it
    // counts moves unless the flags say plies (always moves for cursed wins and
    // blessed losses), up to the zeroing move, which it does not count.
    int value = raw;
    if (sub.values.flags() & flag::Mapped) {
        static constexpr int MapOfClass[5] = {1, 3, 0, 2, 0};  // by wdl + 2
        if (wdl < -2 || wdl > 2) return Failed;
        const bool wide = sub.values.flags() & flag::WideMap;
        const size_t at = sub.map_start[MapOfClass[wdl + 2]] + size_t(raw) * (wide ? 2 : 1);
        const std::span<const uint8_t> bytes = file_.bytes();
        if (at + (wide ? 2 : 1) > bytes.size()) return Failed;
        value = wide ? load_le16(bytes.data() + at) : bytes[at];
    }
    const bool in_moves = (wdl == 2 && !(sub.values.flags() & flag::WinPlies)) ||
                          (wdl == -2 && !(sub.values.flags() & flag::LossPlies)) || wdl == 1 || wdl == -1;
    if (in_moves) value *= 2;
    return {TableValue::Ok, value + 1};
}

}  // namespace arbiter::syzygy
