#include "syzygy/table.h"

#include <fmt/format.h>

namespace arbiter::syzygy {

Table::Table(TableType type, std::string path, const Material& material)
        : type_(type),
          path_(std::move(path)),
          material_(material),
          key_(material.key()),
          mirrored_key_(material.mirrored().key()),
          piece_count_(material.total()),
          has_pawns_(material.pawns(White) + material.pawns(Black) > 0),
          both_sides_pawns_(material.pawns(White) > 0 && material.pawns(Black) > 0),
          has_unique_pieces_(false) {
    for (int c = 0; c < 2; ++c)
        for (int t = Pawn; t <= Queen; ++t)
            if (material.count[c][t] == 1) has_unique_pieces_ = true;
}

Table::Table(TableType type, std::string name, const Material& material, std::span<const uint8_t> bytes)
        : Table(type, std::move(name), material) {
    in_memory_ = true;
    memory_ = bytes;
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
    std::string error;
    if (!in_memory_) error = file_.map(path_);
    else if (memory_.empty()) error = "empty file";
    else file_.view(memory_);
    if (error.empty()) error = parse();
    else error = fmt::format("{}: {}", path_, error);
    if (!error.empty()) {
        file_.unmap();
        error_ = error;
    }
    state_.store(error.empty() ? Ready : Broken, std::memory_order_release);
    return error;
}

bool Table::build_layout(IndexLayout& layout, int lead_position, int pawn_position, int file) const {
    // The stream's pieces must be the file name's, in some order (White's codes
    // 1-6, the other side's 9-14); a pawn table's first piece is a pawn.
    int seen[16] = {};
    for (int i = 0; i < piece_count_; ++i) ++seen[layout.codes[i]];
    for (int c = 0; c < 2; ++c)
        for (int t = Pawn; t <= King; ++t)
            if (seen[8 * c + t + 1] != material_.count[c][t]) return false;
    if (has_pawns_ && (layout.codes[0] & 7) != 1) return false;

    // Groups: the leading group holds the first `leading` pieces (the two kings and
    // a unique piece, or the two kings; in pawn tables the first pawn) and any like
    // pieces right after them; every later run of like pieces is a group.
    const int leading = has_pawns_ ? 1 : has_unique_pieces_ ? 3 : 2;
    layout.groups = 0;
    for (int i = 0; i < piece_count_; ++i) {
        if (i == 0 || (i >= leading && layout.codes[i] != layout.codes[i - 1])) layout.group_size[layout.groups++] = 0;
        ++layout.group_size[layout.groups - 1];
    }
    if (has_pawns_ ? layout.group_size[0] > 5 : layout.group_size[0] != leading) return false;

    // The range of each group's digit. The other colour's pawns, when both colours
    // have pawns, are group 1 and lie on the 48 pawn squares the leading pawns left.
    uint64_t range[MaxPieces];
    range[0] = has_pawns_ ? uint64_t(Tables.leader_sets[layout.group_size[0]][file]) : has_unique_pieces_ ? 31332 : 462;
    int free_squares = 64 - layout.group_size[0];
    for (int g = 1; g < layout.groups; ++g) {
        if (layout.group_size[g] >= MaxPieces) return false;
        if (g == 1 && both_sides_pawns_) {
            range[g] = Tables.choose[layout.group_size[g]][48 - layout.group_size[0]];
        } else {
            range[g] = Tables.choose[layout.group_size[g]][free_squares];
        }
        free_squares -= layout.group_size[g];
    }

    // The digits' order, least significant first: the file places the leading group
    // (and group 1 when both colours have pawns); the others fill the remaining
    // places in group order.
    int group_at[MaxPieces];
    for (int& g : group_at) g = -1;
    if (lead_position >= layout.groups) return false;
    group_at[lead_position] = 0;
    int next = 1;
    if (both_sides_pawns_) {
        if (layout.groups < 2 || pawn_position >= layout.groups || group_at[pawn_position] >= 0) return false;
        group_at[pawn_position] = 1;
        next = 2;
    }
    uint64_t weight = 1;
    for (int place = 0; place < layout.groups; ++place) {
        if (group_at[place] < 0) group_at[place] = next++;
        layout.weight[group_at[place]] = weight;
        weight *= range[group_at[place]];
    }
    layout.positions = weight;
    return true;
}

std::string Table::parse() const {
    const std::span<const uint8_t> bytes = file_.bytes();
    const auto damaged = [&](std::string_view what) {
        return fmt::format("{}: truncated or damaged ({}; {} bytes)", path_, what, bytes.size());
    };
    ByteReader in(bytes, 0);
    const uint32_t magic = in.le32();
    if (in.failed() || magic != (type_ == TableType::Wdl ? WdlMagic : DtzMagic))
        return fmt::format("{}: not a Syzygy {} table (bad magic number)", path_,
                           type_ == TableType::Wdl ? "WDL" : "DTZ");
    const uint8_t properties = in.u8();
    if (bool(properties & 2) != has_pawns_) return damaged("pawn flag does not match the file name");
    const bool symmetric = key_ == mirrored_key_;
    if (type_ == TableType::Wdl && bool(properties & 1) == symmetric)
        return damaged("side flag does not match the file name");

    // Sub-tables: sides to move stored, times files of the leading pawn.
    const int sides = type_ == TableType::Wdl && !symmetric ? 2 : 1;
    const int files = has_pawns_ ? 4 : 1;
    for (int f = 0; f < files; ++f) {
        const uint8_t lead_positions = in.u8();
        const uint8_t pawn_positions = both_sides_pawns_ ? in.u8() : 0;
        for (int k = 0; k < piece_count_; ++k) {
            const uint8_t both = in.u8();
            subtables_[0][f].layout.codes[k] = both & 0xF;
            subtables_[1][f].layout.codes[k] = both >> 4;
        }
        if (in.failed()) return damaged("piece list");
        for (int side = 0; side < sides; ++side) {
            const int shift = 4 * side;
            const int lead_position = lead_positions >> shift & 0xF, pawn_position = pawn_positions >> shift & 0xF;
            if (!build_layout(subtables_[side][f].layout, lead_position, pawn_position, f))
                return damaged("pieces do not match the file name");
        }
    }
    in.align(2);
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side) {
            SubTable& sub = subtables_[side][f];
            if (!sub.values.read_description(in, sub.layout.positions)) return damaged("value stream description");
        }

    if (type_ == TableType::Dtz) {
        // Four maps per mapped sub-table, for wins, losses, cursed wins and blessed
        // losses: a count, then that many entries of one or two bytes.
        for (int f = 0; f < files; ++f) {
            SubTable& sub = subtables_[0][f];
            if (!(sub.values.flags() & flag::Mapped)) continue;
            const bool wide = sub.values.flags() & flag::WideMap;
            if (wide) in.align(2);
            for (size_t& start : sub.map_start) {
                const size_t entries = wide ? in.le16() : in.u8();
                start = in.offset();
                in.take(entries * (wide ? 2 : 1));
            }
        }
        in.align(2);
    }

    const uint8_t* checkpoints[2][4] = {};
    const uint8_t* block_sizes[2][4] = {};
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side)
            checkpoints[side][f] = in.take(subtables_[side][f].values.checkpoint_bytes());
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side)
            block_sizes[side][f] = in.take(subtables_[side][f].values.block_size_bytes());
    for (int f = 0; f < files; ++f)
        for (int side = 0; side < sides; ++side) {
            ValueStream& values = subtables_[side][f].values;
            in.align(64);
            values.set_sections(checkpoints[side][f], block_sizes[side][f], in.take(size_t(values.block_data_bytes())));
        }
    if (in.failed()) return damaged("the file ends before its data");
    return {};
}

}  // namespace arbiter::syzygy
