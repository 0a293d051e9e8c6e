#include "syzygy/table.h"

#include <fmt/format.h>

namespace arbiter::syzygy {

Table::Table(TableType type, std::string path, const Material& material)
    : type_(type), path_(std::move(path)), material_(material), key_(material.key()), mirrored_key_(material.mirrored().key()),
      piece_count_(material.total()), has_pawns_(material.pawns(White) + material.pawns(Black) > 0),
      has_unique_pieces_(false) {
    for (int c = 0; c < 2; ++c)
        for (int t = Pawn; t <= Queen; ++t)
            if (material.count[c][t] == 1) has_unique_pieces_ = true;
    // Both colours with pawns: the one with fewer leads (White on a tie).
    const int white = material.pawns(White), black = material.pawns(Black);
    const bool white_leads = black == 0 || (white > 0 && black >= white);
    pawn_count_[0] = white_leads ? white : black;
    pawn_count_[1] = white_leads ? black : white;
}

bool Table::ensure_ready() const {
    const State state = state_.load(std::memory_order_acquire);
    if (state != NotLoaded) return state == Ready;
    return prepare().empty();
}

std::string Table::prepare() const {
    std::lock_guard lock(mutex_);
    const State state = state_.load(std::memory_order_relaxed);
    if (state == Ready) return {};
    if (state == Broken) return error_;
    std::string error = file_.map(path_);
    if (error.empty()) error = parse();
    else error = fmt::format("{}: {}", path_, error);
    if (!error.empty()) {
        file_.unmap();
        error_ = error;
    }
    state_.store(error.empty() ? Ready : Broken, std::memory_order_release);
    return error;
}

void Table::set_groups(PairsData& d, const int order[2], int file) const {
    // Pieces form groups: the leading group (two kings and a third unique piece
    // when there is one, or the leading pawns), then runs of like pieces.
    int n = 0;
    d.group_length[0] = 1;
    int leading = has_pawns_ ? 0 : has_unique_pieces_ ? 3 : 2;
    for (int i = 1; i < piece_count_; ++i) {
        if (--leading > 0 || d.pieces[i] == d.pieces[i - 1]) ++d.group_length[n];
        else d.group_length[++n] = 1;
    }
    d.group_length[++n] = 0;

    // The groups' index factors, in the order the file gives: the leading group
    // at order[0], the other colour's pawns (when both have pawns) at order[1].
    const bool both_pawns = has_pawns_ && pawn_count_[1] > 0;
    int next = both_pawns ? 2 : 1;
    int free_squares = 64 - d.group_length[0] - (both_pawns ? d.group_length[1] : 0);
    uint64_t factor = 1;
    for (int k = 0; k < 16 && (next < n || k == order[0] || k == order[1]); ++k) {
        if (k == order[0]) {
            d.group_factor[0] = factor;
            factor *= has_pawns_ ? uint64_t(Encoding.lead_pawns_size[d.group_length[0]][file])
                      : has_unique_pieces_ ? 31332 : 462;
        } else if (k == order[1]) {
            d.group_factor[1] = factor;
            factor *= Encoding.binomial[d.group_length[1]][48 - d.group_length[0]];
        } else {
            d.group_factor[next] = factor;
            factor *= Encoding.binomial[d.group_length[next]][free_squares];
            free_squares -= d.group_length[next++];
        }
    }
    d.group_factor[n] = factor;
}

bool Table::pieces_match(const PairsData& d) const {
    // The stream's piece codes must be the file name's pieces (White's: 1-6, the
    // other side's: 9-14), in some order; pawn tables start with a pawn.
    int count[16] = {};
    for (int k = 0; k < piece_count_; ++k) ++count[d.pieces[k]];
    for (int c = 0; c < 2; ++c)
        for (int t = Pawn; t <= King; ++t)
            if (count[c * 8 + t + 1] != material_.count[c][t]) return false;
    return !has_pawns_ || (d.pieces[0] & 7) == 1;
}

std::string Table::parse() const {
    const std::span<const uint8_t> bytes = file_.bytes();
    const auto damaged = [&](std::string_view what) {
        return fmt::format("{}: damaged or truncated table ({}; {} bytes)", path_, what, bytes.size());
    };
    ByteReader in(bytes, 0);
    const uint32_t magic = in.le32();
    if (in.failed() || magic != (type_ == TableType::Wdl ? WdlMagic : DtzMagic))
        return fmt::format("{}: not a Syzygy {} table (bad magic number)", path_,
                           type_ == TableType::Wdl ? "WDL" : "DTZ");
    const uint8_t header = in.u8();
    if (bool(header & 2) != has_pawns_) return damaged("pawn flag does not match the file name");
    const bool symmetric = key_ == mirrored_key_;
    if (type_ == TableType::Wdl && bool(header & 1) == symmetric) return damaged("side flag does not match the file name");

    const int sides = type_ == TableType::Wdl && !symmetric ? 2 : 1;
    const int files = has_pawns_ ? 4 : 1;
    const bool both_pawns = has_pawns_ && pawn_count_[1] > 0;
    for (int f = 0; f < files; ++f) {
        const uint8_t first = in.u8();
        const uint8_t second = both_pawns ? in.u8() : 0xFF;
        const int order[2][2] = {{first & 0xF, both_pawns ? second & 0xF : 0xF},
                                 {first >> 4, both_pawns ? second >> 4 : 0xF}};
        for (int k = 0; k < piece_count_; ++k) {
            const uint8_t code = in.u8();
            for (int i = 0; i < sides; ++i) pairs_[i][f].pieces[k] = uint8_t(i ? code >> 4 : code & 0xF);
        }
        if (in.failed()) return damaged("header");
        for (int i = 0; i < sides; ++i) {
            if (!pieces_match(pairs_[i][f])) return damaged("pieces do not match the file name");
            set_groups(pairs_[i][f], order[i], f);
        }
    }
    in.align(2);
    for (int f = 0; f < files; ++f)
        for (int i = 0; i < sides; ++i) {
            PairsData& d = pairs_[i][f];
            int groups = 0;
            while (d.group_length[groups] != 0) ++groups;
            if (!d.read_header(in, d.group_factor[groups])) return damaged("value stream header");
        }
    if (type_ == TableType::Dtz) {
        dtz_map_ = in.offset();
        for (int f = 0; f < files; ++f) {
            PairsData& d = pairs_[0][f];
            if (!(d.flags & flag::Mapped)) continue;
            if (d.flags & flag::WideMap) {
                in.align(2);
                for (uint16_t& start : d.dtz_map_index) {
                    start = uint16_t((in.offset() - dtz_map_) / 2 + 1);
                    in.take(2 * size_t(in.le16()));
                }
            } else {
                for (uint16_t& start : d.dtz_map_index) {
                    start = uint16_t(in.offset() - dtz_map_ + 1);
                    in.take(in.u8());
                }
            }
        }
        in.align(2);
    }
    for (int f = 0; f < files; ++f)
        for (int i = 0; i < sides; ++i) pairs_[i][f].sparse_index = in.take(pairs_[i][f].sparse_bytes());
    for (int f = 0; f < files; ++f)
        for (int i = 0; i < sides; ++i) pairs_[i][f].block_lengths = in.take(pairs_[i][f].block_length_bytes());
    for (int f = 0; f < files; ++f)
        for (int i = 0; i < sides; ++i) {
            in.align(64);
            pairs_[i][f].blocks = in.take(size_t(pairs_[i][f].block_bytes()));
        }
    if (in.failed()) return damaged("the file ends before its data");
    return {};
}

} // namespace arbiter::syzygy
