#include "tools/game_pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <array>
#include <cstring>
#include <fstream>
#include <iterator>

#include "chess/attacks.h"
#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "tools/cli.h"
#include "tools/xz.h"

namespace arbiter::tools {

namespace {

constexpr char Magic[8] = {'A', 'R', 'B', 'P', 'A', 'C', 'K', 0};
constexpr uint32_t Version = 1;
constexpr size_t HeaderBytes = 24;

// Material in pawns for the ranking (the king is never captured and risks nothing:
// it cannot move into an attack).
constexpr std::array<int, 6> RankValue = {1, 3, 3, 5, 9, 0};

// 0 in a corner, 6 on the four centre squares.
int centrality(Square s) {
    const int file = file_of(s), rank = rank_of(s);
    return std::min(file, 7 - file) + std::min(rank, 7 - rank);
}

int rank_key(const Position& pos, Bitboard their_pawn_attacks, Move m) {
    const Color us = pos.side_to_move(), them = ~us;
    const Piece mover = pos.piece_on(m.from());
    const int value = RankValue[type_of(mover)];
    const Bitboard from = square_bb(m.from()), to = square_bb(m.to());
    const Bitboard occupied = pos.occupied();

    int gain = 0;
    if (m.kind() == Move::EnPassant) gain = RankValue[Pawn];
    else if (m.kind() != Move::Castling && pos.piece_on(m.to()) != NoPiece)
        gain = RankValue[type_of(pos.piece_on(m.to()))];
    if (m.kind() == Move::Promotion) gain += RankValue[m.promotion()] - RankValue[Pawn];

    int risk = 0;
    if (m.kind() != Move::Castling && (pos.attackers_to(m.to(), occupied ^ from) & pos.pieces(them))) {
        const bool defended = pos.attackers_to(m.to(), occupied) & pos.pieces(us) & ~from;
        risk = !defended ? value : (their_pawn_attacks & to) ? value - 1 : 0;
    }
    int escape = 0;
    if (pos.attackers_to(m.from(), occupied) & pos.pieces(them)) {
        const bool defended = pos.attackers_to(m.from(), occupied) & pos.pieces(us);
        if (!defended || (their_pawn_attacks & from)) escape = value;
    }
    int toward_centre = centrality(m.to()) - centrality(m.from());
    if (type_of(mover) == Pawn) toward_centre = 1;
    if (type_of(mover) == King) toward_centre = -2;
    if (m.kind() == Move::Castling) toward_centre = 6;
    return (gain - risk + escape) * 64 + toward_centre * 4 - (type_of(mover) == Queen ? 2 : 0);
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
uint64_t get_le(const uint8_t* p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

uint16_t zigzag(int16_t v) { return uint16_t((uint16_t(v) << 1) ^ uint16_t(v < 0 ? 0xFFFF : 0)); }
int16_t unzigzag(uint16_t v) { return int16_t((v >> 1) ^ uint16_t(-(v & 1))); }

// A cursor over the payload that reports running past its end.
struct Cursor {
    const std::vector<uint8_t>& bytes;
    size_t at = 0;
    bool take(size_t n, const uint8_t*& p) {
        if (bytes.size() - at < n) return false;
        p = bytes.data() + at;
        at += n;
        return true;
    }
};

}  // namespace

MoveList ranked_moves(const Position& pos) {
    MoveList moves = legal_moves(pos);
    const Color them = ~pos.side_to_move();
    Bitboard their_pawn_attacks = 0;
    for (Bitboard pawns = pos.pieces(them, Pawn); pawns; pawns &= pawns - 1)
        their_pawn_attacks |= pawn_attacks(them, lsb(pawns));
    std::array<std::pair<int, uint16_t>, MoveList::capacity()> keyed{};
    size_t n = 0;
    for (const Move m : moves) keyed[n++] = {-rank_key(pos, their_pawn_attacks, m), m.raw()};
    std::sort(keyed.begin(), keyed.begin() + ptrdiff_t(n));
    MoveList ranked;
    for (size_t i = 0; i < n; ++i) ranked.push_back(Move::from_raw(keyed[i].second));
    return ranked;
}

std::vector<uint8_t> pack_games(const std::vector<ScoredGame>& games) {
    uint64_t plies = 0;
    for (const ScoredGame& game : games) plies += game.plies.size();
    std::vector<uint8_t> out(Magic, Magic + sizeof Magic);
    put_u32(out, Version);
    put_u32(out, uint32_t(games.size()));
    put_u64(out, plies);
    for (const ScoredGame& game : games) {
        const auto start = encode_game_start(game.start);
        out.insert(out.end(), start.begin(), start.end());
    }
    for (const ScoredGame& game : games)
        for (uint64_t n = game.plies.size();; n >>= 7) {
            out.push_back(uint8_t((n & 127) | (n >= 128 ? 128 : 0)));
            if (n < 128) break;
        }
    for (const ScoredGame& game : games) out.push_back(uint8_t(game.result));

    std::vector<uint8_t> low, high;
    low.reserve(plies);
    high.reserve(plies);
    for (const ScoredGame& game : games) {
        Position pos = game.start;
        int16_t previous = 0;
        for (const ScoredPly& ply : game.plies) {
            const MoveList ranked = ranked_moves(pos);
            out.push_back(uint8_t(std::find(ranked.begin(), ranked.end(), ply.move) - ranked.begin()));
            const int16_t score = encode_ply_score(ply);
            const uint16_t delta = zigzag(int16_t(uint16_t(score) - uint16_t(previous)));
            low.push_back(uint8_t(delta));
            high.push_back(uint8_t(delta >> 8));
            previous = score;
            pos = pos.apply(ply.move);
        }
    }
    out.insert(out.end(), low.begin(), low.end());
    out.insert(out.end(), high.begin(), high.end());
    return out;
}

bool unpack_games(const std::vector<uint8_t>& payload, std::vector<ScoredGame>& games, std::string& error) {
    games.clear();
    Cursor in{payload};
    const uint8_t* p = nullptr;
    if (!in.take(HeaderBytes, p) || std::memcmp(p, Magic, sizeof Magic) != 0) {
        error = "not a packed game file (no ARBPACK header)";
        return false;
    }
    if (const uint64_t version = get_le(p + 8, 4); version != Version) {
        error = fmt::format("packed game file version {} (this build reads version {})", version, Version);
        return false;
    }
    const uint64_t count = get_le(p + 12, 4), plies = get_le(p + 16, 8);
    // Every game takes at least 34 bytes and every ply 3: a count the payload cannot
    // hold is damage, found before anything is allocated for it.
    if (count * (GameStartBytes + 2) > payload.size() || plies > payload.size() / 3) {
        error = fmt::format("header: {} games and {} plies do not fit in {} bytes", count, plies, payload.size());
        return false;
    }
    const size_t starts_at = in.at;
    if (!in.take(count * GameStartBytes, p)) {
        error = "start positions: truncated";
        return false;
    }
    std::vector<uint64_t> lengths(count);
    uint64_t total = 0;
    for (uint64_t g = 0; g < count; ++g) {
        uint64_t n = 0;
        for (int shift = 0;; shift += 7) {
            if (shift > 56 || !in.take(1, p)) {
                error = fmt::format("game {}: bad ply count", g + 1);
                return false;
            }
            n |= uint64_t(*p & 127) << shift;
            if (!(*p & 128)) break;
        }
        lengths[g] = n;
        total += n;
        if (total > plies) break;
    }
    if (total != plies) {
        error = fmt::format("the games' ply counts do not add up to the header's {}", plies);
        return false;
    }
    const uint8_t *results = nullptr, *moves = nullptr, *low = nullptr, *high = nullptr;
    if (!in.take(count, results) || !in.take(plies, moves) || !in.take(plies, low) || !in.take(plies, high)) {
        error = "truncated";
        return false;
    }
    if (in.at != payload.size()) {
        error = fmt::format("{} bytes after the last column", payload.size() - in.at);
        return false;
    }

    games.resize(count);
    uint64_t ply_index = 0;
    for (uint64_t g = 0; g < count; ++g) {
        ScoredGame& game = games[g];
        const auto fail = [&](const std::string& what) {
            error = fmt::format("game {}: {}", g + 1, what);
            games.clear();
            return false;
        };
        std::array<uint8_t, GameStartBytes> start{};
        std::copy_n(payload.begin() + ptrdiff_t(starts_at + g * GameStartBytes), GameStartBytes, start.begin());
        if (const std::string why = decode_game_start(start, game.start); !why.empty())
            return fail("start position: " + why);
        if (results[g] > uint8_t(TrainingResult::WhiteWins)) return fail(fmt::format("bad result {}", results[g]));
        game.result = TrainingResult(results[g]);
        game.plies.clear();
        game.plies.reserve(lengths[g]);
        Position pos = game.start;
        int16_t previous = 0;
        for (uint64_t i = 0; i < lengths[g]; ++i, ++ply_index) {
            const MoveList ranked = ranked_moves(pos);
            if (moves[ply_index] >= ranked.size())
                return fail(fmt::format("ply {}: move rank {} of {} legal moves", i, moves[ply_index], ranked.size()));
            const Move move = ranked[moves[ply_index]];
            const uint16_t delta = uint16_t(low[ply_index] | (high[ply_index] << 8));
            const int16_t score = int16_t(uint16_t(previous) + uint16_t(unzigzag(delta)));
            game.plies.push_back(decode_ply(move, score));
            previous = score;
            pos = pos.apply(move);
        }
    }
    return true;
}

bool write_pack_file(const std::string& path, const std::vector<ScoredGame>& games, std::string& error) {
    const std::vector<uint8_t> compressed = xz_compress(pack_games(games));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(compressed.data()), std::streamsize(compressed.size()));
    out.close();
    if (!out) error = fmt::format("cannot write {}", path);
    return bool(out);
}

bool read_pack_file(const std::string& path, std::vector<ScoredGame>& games, std::string& error) {
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = fmt::format("cannot open {}: {}", path, system_error_text(errno));
        return false;
    }
    const std::vector<uint8_t> compressed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::vector<uint8_t> payload;
    if (!xz_decompress(compressed, payload, error) || !unpack_games(payload, games, error)) {
        error = fmt::format("{}: {}", path, error);
        return false;
    }
    return true;
}

uint64_t game_fingerprint(const ScoredGame& game) {
    // FNV-1a over the game's `.agame` bytes: the same game always gives the same bytes.
    std::vector<uint8_t> bytes;
    append_game(bytes, game);
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const uint8_t b : bytes) hash = (hash ^ b) * 0x100000001b3ull;
    return hash;
}

}  // namespace arbiter::tools
