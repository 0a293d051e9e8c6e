// The static evaluation's invariants: colour symmetry (a position and its mirror with
// colours swapped score the same for the side to move), sane values for the start
// position, for a queen up and for bare kings, and never a mate-range score.

#include <catch2/catch.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "eval/evaluate.h"
#include "search/score.h"

using namespace arbiter;

namespace {

Position parse(std::string_view fen) { return test::parse_fen(fen); }

// The FEN of the position seen from the other side: ranks flipped, colours swapped,
// the other side to move, castling rights and en passant square mirrored.
std::string mirror_fen(std::string_view fen) {
    std::vector<std::string> fields;
    size_t start = 0;
    while (start < fen.size()) {
        const size_t end = std::min(fen.find(' ', start), fen.size());
        if (end > start) fields.emplace_back(fen.substr(start, end - start));
        start = end + 1;
    }
    REQUIRE(fields.size() >= 4);

    std::vector<std::string> ranks;
    start = 0;
    const std::string& board = fields[0];
    while (true) {
        const size_t end = board.find('/', start);
        ranks.push_back(board.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    auto swap_case = [](std::string s) {
        for (char& c : s)
            c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
        return s;
    };
    std::string out;
    for (size_t i = ranks.size(); i-- > 0;) {
        out += swap_case(ranks[i]);
        if (i) out += '/';
    }
    out += fields[1] == "w" ? " b " : " w ";
    if (fields[2] == "-") {
        out += "-";
    } else {
        const std::string swapped = swap_case(fields[2]);
        std::string upper, lower;
        for (char c : swapped) (std::isupper(static_cast<unsigned char>(c)) ? upper : lower) += c;
        out += upper + lower;
    }
    out += ' ';
    if (fields[3] == "-") out += "-";
    else out += std::string{fields[3][0], fields[3][1] == '3' ? '6' : '3'};
    for (size_t i = 4; i < fields.size(); ++i) out += " " + fields[i];
    return out;
}

void check_symmetric(const Position& pos) {
    const std::string mirrored = mirror_fen(pos.fen());
    const Position other = test::parse_fen(mirrored, false, FenCheck::Playable);
    INFO(pos.fen() << "  vs  " << mirrored);
    CHECK(eval::evaluate(pos) == eval::evaluate(other));
    // Mirroring twice is the identity.
    CHECK(mirror_fen(mirrored) == pos.fen());
}

std::vector<std::string> suite_fens() {
    std::vector<std::string> fens;
    std::ifstream in(std::string(ARBITER_TEST_DATA) + "/standard.epd");
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        const size_t semicolon = line.find(';');
        std::string fen = line.substr(0, semicolon);
        while (!fen.empty() && fen.back() == ' ') fen.pop_back();
        if (!fen.empty()) fens.push_back(fen);
    }
    return fens;
}

}  // namespace

TEST_CASE("evaluation is colour-symmetric on hand-picked positions", "[eval]") {
    for (std::string_view fen : std::vector<std::string_view>{
             Position::StartFen,
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
             // Pawn structures: passers, a passer beside an enemy pawn, isolated and doubled pawns.
             "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
             "4k3/8/8/5p2/4P3/8/8/4K3 w - - 0 1",
             "4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1",
             "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1",
             "4k3/pp3ppp/8/8/8/8/P4PPP/4K3 w - - 0 1",
             "4k3/ppp5/8/8/8/2P5/2P5/4K3 b - - 0 1",
             // Kings castled opposite ways, rooks on open files, bishop pair.
             "2kr3r/ppp2ppp/2n5/8/8/2B2B2/PPP2PPP/R4RK1 w - - 0 1",
             "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
         }) {
        check_symmetric(parse(fen));
    }
}

TEST_CASE("evaluation is colour-symmetric on the perft suite and random games", "[eval]") {
    std::mt19937 rng(20240607);
    for (const std::string& fen : suite_fens()) {
        Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        check_symmetric(pos);
        // A short random walk from each position.
        for (int ply = 0; ply < 12; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
            check_symmetric(pos);
        }
    }
}

TEST_CASE("the start position is nearly balanced", "[eval]") {
    const Position start = Position::startpos();
    const int score = eval::evaluate(start);
    CHECK(std::abs(score) < 50);
    // After 1. e4 it is Black's turn; the score is still small.
    CHECK(std::abs(eval::evaluate(parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))) < 100);
}

TEST_CASE("an extra queen is worth a lot to its side", "[eval]") {
    // Black's queen removed from the start position.
    const Position white_up = parse("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    CHECK(eval::evaluate(white_up) > 700);
    const Position white_up_black_to_move = parse("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    CHECK(eval::evaluate(white_up_black_to_move) < -700);
    // Queen against bare king.
    CHECK(eval::evaluate(parse("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) > 700);
    CHECK(eval::evaluate(parse("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")) < -700);
}

TEST_CASE("drawish material scores close to zero", "[eval]") {
    struct Case {
        std::string_view fen;
        int bound;
    };
    for (const Case c : {
             Case{"8/8/4k3/8/8/3K4/8/8 w - - 0 1", 30}, Case{"8/8/4k3/8/8/3K4/8/8 b - - 0 1", 30},
             Case{"7k/8/8/8/8/8/8/K7 w - - 0 1", 30}, Case{"8/8/4k3/8/8/3KN3/8/8 w - - 0 1", 50},  // a lone knight
             Case{"8/8/4k3/8/8/3KB3/8/8 b - - 0 1", 50},                                           // a lone bishop
             Case{"8/8/4kn2/8/8/3K4/8/7R w - - 0 1", 100},  // rook against knight
         }) {
        const int score = eval::evaluate(parse(c.fen));
        INFO(std::string(c.fen) << " scores " << score);
        CHECK(std::abs(score) <= c.bound);
    }
}

TEST_CASE("evaluation stays out of the mate range", "[eval]") {
    // Lopsided material: all of one side's pieces against a bare king.
    for (std::string_view fen : {
             "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
             "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1",
             "QQQQkQQQ/QQQQ1QQQ/8/8/8/8/8/4K3 b - - 0 1",
         }) {
        const FenResult result = Position::from_fen(fen);
        if (!result.position) continue;  // a reader may refuse absurd material
        INFO(std::string(fen));
        CHECK(std::abs(eval::evaluate(*result.position)) < search::MateInMaxPly);
    }
}
