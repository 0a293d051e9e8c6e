#include "tools/game_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <istream>
#include <ostream>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "tools/cli.h"

namespace arbiter::tools {

// The data tools are built on the search: its scores, limits and workers.
using namespace search;

namespace {

constexpr size_t StartBytes = GameStartBytes;
constexpr uint8_t GameMarker = 0x47;
constexpr uint8_t NoEnPassant = 255;
constexpr uint8_t NoCastling = 15;
constexpr int MaxCentipawns = 32000;
constexpr int MaxMateScore = 32767;
constexpr int MaxMatePlies = MaxMateScore - MaxCentipawns - 1;  // 766

void put_u16(std::vector<uint8_t>& out, uint16_t v) {
    out.push_back(uint8_t(v));
    out.push_back(uint8_t(v >> 8));
}
uint16_t get_u16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }

}  // namespace

int16_t encode_ply_score(const ScoredPly& ply) {
    if (!ply.mate) return int16_t(std::clamp(ply.score_white, -MaxCentipawns, MaxCentipawns));
    const int plies = std::clamp(Mate - std::abs(ply.score_white), 0, MaxMatePlies);
    return int16_t(ply.score_white > 0 ? MaxMateScore - plies : -(MaxMateScore - plies));
}

ScoredPly decode_ply(Move move, int16_t v) {
    if (std::abs(v) <= MaxCentipawns) return {move, v, false};
    const int plies = MaxMateScore - std::abs(v);
    return {move, v > 0 ? Mate - plies : -(Mate - plies), true};
}

// The 32 bytes of a start position: the board as `.abin` stores it, then the state
// `.abin` leaves out (castling rooks, en passant square).
std::array<uint8_t, GameStartBytes> encode_game_start(const Position& pos) {
    const TrainingRecord board = encode_record(pos, 0, TrainingResult::Draw, false);
    std::array<uint8_t, StartBytes> out{};
    std::copy(board.begin(), board.begin() + 24, out.begin());
    out[24] = uint8_t((pos.side_to_move() == Black ? 1 : 0) | (pos.chess960() ? 2 : 0));
    out[25] = pos.ep_square() == NoSquare ? NoEnPassant : uint8_t(pos.ep_square());
    uint16_t castling = 0;
    for (int i = 0; i < 4; ++i) {
        const Color c = Color(i / 2);
        const CastleSide side = CastleSide(i % 2);
        const unsigned file = pos.can_castle(c, side) ? unsigned(file_of(pos.castling_rook(c, side))) : NoCastling;
        castling |= uint16_t(file << (4 * i));
    }
    out[26] = uint8_t(castling);
    out[27] = uint8_t(castling >> 8);
    out[28] = uint8_t(std::min(pos.halfmove_clock(), 255));
    out[29] = GameMarker;
    const int fullmove = std::min(pos.fullmove_number(), 65535);
    out[30] = uint8_t(fullmove);
    out[31] = uint8_t(fullmove >> 8);
    return out;
}

// The start position of 32 bytes, or the reason they are not one. The position is
// rebuilt through a FEN (the rules core's one validated way in) and must encode back
// to the same bytes, so no field can hold a value the writer would not produce.
std::string decode_game_start(const std::array<uint8_t, GameStartBytes>& bytes, Position& pos) {
    if (bytes[29] != GameMarker) return fmt::format("no game marker (byte 29 is {:#04x}, expected 0x47)", bytes[29]);
    uint64_t occupancy = 0;
    for (int i = 0; i < 8; ++i) occupancy |= uint64_t(bytes[size_t(i)]) << (8 * i);
    const int count = popcount(occupancy);
    if (count > 32) return fmt::format("{} occupied squares", count);
    for (int i = 0; i < 32; ++i) {
        const int code = (bytes[size_t(8 + i / 2)] >> (4 * (i % 2))) & 15;
        if (i < count ? code > 11 : code != 0) return fmt::format("bad piece code {} at index {}", code, i);
    }
    TrainingRecord record{};
    std::copy(bytes.begin(), bytes.begin() + 24, record.begin());
    const DecodedRecord board = decode_record(record);

    std::string fen = fen_placement(board.board);
    fen += bytes[24] & 1 ? " b " : " w ";
    const uint16_t castling = get_u16(&bytes[26]);
    std::string rights;
    for (int i = 0; i < 4; ++i) {
        const unsigned file = (castling >> (4 * i)) & 15;
        if (file == NoCastling) continue;
        if (file > 7) return fmt::format("bad castling rook file {}", file);
        rights += char((i < 2 ? 'A' : 'a') + file);
    }
    fen += rights.empty() ? "-" : rights;
    fen += ' ';
    fen += bytes[25] == NoEnPassant ? std::string("-") : bytes[25] < 64 ? square_name(Square(bytes[25])) : "?";
    fen += fmt::format(" {} {}", bytes[28], get_u16(&bytes[30]));
    const FenResult parsed = Position::from_fen(fen, (bytes[24] & 2) != 0, FenCheck::Playable);
    if (!parsed.position) return fmt::format("start position: {} ('{}')", parsed.error, fen);
    if (encode_game_start(*parsed.position) != bytes)
        return fmt::format("start position '{}' is not stored as written", fen);
    pos = *parsed.position;
    return {};
}

ScoredPly make_ply(Move move, Score score_white) {
    return decode_ply(move, encode_ply_score({move, score_white, is_mate(score_white)}));
}

void append_game(std::vector<uint8_t>& out, const ScoredGame& game) {
    const auto start = encode_game_start(game.start);
    out.insert(out.end(), start.begin(), start.end());
    for (const ScoredPly& ply : game.plies) {
        put_u16(out, ply.move.raw());
        put_u16(out, uint16_t(encode_ply_score(ply)));
    }
    put_u16(out, 0);
    out.push_back(uint8_t(game.result));
    out.push_back(0);
}

bool write_game(std::ostream& out, const ScoredGame& game) {
    std::vector<uint8_t> bytes;
    append_game(bytes, game);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return bool(out);
}

bool GameReader::next(ScoredGame& game) {
    if (!error_.empty()) return false;
    const uint64_t number = games_ + 1, game_offset = offset_;
    const auto fail = [&](const std::string& what) {
        error_ = fmt::format("game {} (byte {}), {}", number, game_offset, what);
        return false;
    };
    const auto read = [&](uint8_t* p, size_t n) {
        in_.read(reinterpret_cast<char*>(p), std::streamsize(n));
        offset_ += uint64_t(in_.gcount());
        return size_t(in_.gcount()) == n;
    };

    std::array<uint8_t, StartBytes> start{};
    if (in_.peek() == std::char_traits<char>::eof()) return false;  // a clean end between games
    if (!read(start.data(), start.size())) return fail("start position: truncated file");
    Position pos = Position::startpos();
    if (const std::string error = decode_game_start(start, pos); !error.empty())
        return fail("start position: " + error);
    game.start = pos;
    game.plies.clear();
    for (size_t ply = 0;; ++ply) {
        uint8_t entry[4];
        if (!read(entry, 4)) return fail(fmt::format("ply {}: truncated file", ply));
        const Move move = Move::from_raw(get_u16(entry));
        if (move.is_null()) {
            if (entry[2] > uint8_t(TrainingResult::WhiteWins)) return fail(fmt::format("end: bad result {}", entry[2]));
            if (entry[3] != 0) return fail(fmt::format("end: reserved byte is {}, not 0", entry[3]));
            game.result = TrainingResult(entry[2]);
            break;
        }
        if (!is_legal(pos, move))
            return fail(fmt::format("ply {}: move {:#06x} ({}) is not legal in {}", ply, move.raw(),
                                    to_uci(move, pos.chess960()), pos.fen()));
        game.plies.push_back(decode_ply(move, int16_t(get_u16(entry + 2))));
        pos = pos.apply(move);
    }
    ++games_;
    return true;
}

std::vector<TrainingRecord> game_records(const ScoredGame& game, ConversionStats& stats) {
    std::vector<TrainingRecord> records;
    Position pos = game.start;
    ++stats.games;
    for (const ScoredPly& ply : game.plies) {
        ++stats.plies;
        if (pos.in_check()) ++stats.in_check;
        else if (pos.is_noisy(ply.move)) ++stats.tactical;
        else if (!ply.scored) ++stats.unscored;
        else if (ply.mate) ++stats.mate;
        else {
            records.push_back(encode_record(pos, ply.score_white, game.result, game.start.chess960()));
            ++stats.written;
        }
        pos = pos.apply(ply.move);
    }
    return records;
}

std::string convert_games(std::istream& in, std::ostream& out, ConversionStats& stats) {
    GameReader reader(in);
    for (ScoredGame game; reader.next(game);) {
        const std::vector<TrainingRecord> records = game_records(game, stats);
        out.write(reinterpret_cast<const char*>(records.data()),
                  std::streamsize(records.size() * sizeof(TrainingRecord)));
        if (!out) return "write failed";
    }
    return reader.error();
}

bool open_conversion_input(const std::string& input, const std::string& output, std::ifstream& in, std::ostream& log) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(output) && fs::equivalent(input, output, ec)) {
        log << "arbiter convert: input and output are the same file\n";
        return false;
    }
    errno = 0;
    in.open(input, std::ios::binary);
    if (!in) {
        log << "arbiter convert: cannot open " << input << ": " << system_error_text(errno) << '\n';
        return false;
    }
    return true;
}

}  // namespace arbiter::tools
