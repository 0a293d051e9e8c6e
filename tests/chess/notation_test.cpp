// Square names, UCI long algebraic and SAN: the specific cases FIDE Appendix C and
// the UCI protocol spell out, then both formats round-tripped over random games.

#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"

using namespace arbiter;

namespace {

Position parse(std::string_view fen, bool chess960 = false) { return test::parse_fen(fen, chess960); }
// The castling tests' kings and rooks alone with their rights: no man of the side not
// to move can have made the last move, so they are read as Playable.
Position composed(std::string_view fen, bool chess960 = false) {
    return test::parse_fen(fen, chess960, FenCheck::Playable);
}

// The move `san` must be legal and be `expected`.
void check_san_move(const Position& pos, std::string_view san, Move expected) {
    INFO("SAN '" << san << "' in " << pos.fen());
    const SanResult result = parse_san(pos, san);
    INFO("error: " << result.error);
    REQUIRE(result.move.has_value());
    CHECK(*result.move == expected);
    CHECK(result.error.empty());
}

void check_san_error(const Position& pos, std::string_view san, const std::string& reason) {
    INFO("SAN '" << san << "' in " << pos.fen());
    const SanResult result = parse_san(pos, san);
    CHECK_FALSE(result.move.has_value());
    CHECK_THAT(result.error, Catch::Contains(reason));
}

Position play_san(Position pos, std::initializer_list<std::string_view> sans) {
    for (std::string_view san : sans) {
        const SanResult result = parse_san(pos, san);
        INFO("SAN '" << san << "' in " << pos.fen() << ": " << result.error);
        REQUIRE(result.move.has_value());
        pos = pos.apply(*result.move);
    }
    return pos;
}

std::vector<std::string> epd_fens(const std::string& file) { return test::epd_fens(file); }

}  // namespace

TEST_CASE("Square names", "[notation]") {
    CHECK(square_name(A1) == "a1");
    CHECK(square_name(H1) == "h1");
    CHECK(square_name(E4) == "e4");
    CHECK(square_name(A8) == "a8");
    CHECK(square_name(H8) == "h8");
    CHECK(square_name(NoSquare) == "-");
    for (int i = 0; i < 64; ++i) {
        const Square s = square_at(i);
        CHECK(parse_square(square_name(s)) == s);
    }
    CHECK(parse_square("e4") == E4);
    for (const char* bad : {"", "e", "i1", "a0", "a9", "A1", "e44", "4e", "-", " e4"})
        CHECK_FALSE(parse_square(bad).has_value());
}

TEST_CASE("UCI moves: normal moves and promotions", "[notation]") {
    const Position start = Position::startpos();
    CHECK(parse_uci(start, "e2e4") == Move(E2, E4));
    CHECK(parse_uci(start, "g1f3") == Move(G1, F3));
    CHECK(to_uci(Move(E2, E4), false) == "e2e4");
    CHECK(to_uci(Move(E2, E4), true) == "e2e4");
    CHECK(to_uci(Move(), false) == "0000");

    const Position promo = parse("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(parse_uci(promo, "e7e8q") == Move(E7, E8, Move::Promotion, Queen));
    CHECK(parse_uci(promo, "e7e8r") == Move(E7, E8, Move::Promotion, Rook));
    CHECK(parse_uci(promo, "e7e8b") == Move(E7, E8, Move::Promotion, Bishop));
    CHECK(parse_uci(promo, "e7e8n") == Move(E7, E8, Move::Promotion, Knight));
    CHECK(parse_uci(promo, "e7d8n") == Move(E7, D8, Move::Promotion, Knight));
    CHECK(to_uci(Move(E7, E8, Move::Promotion, Queen), false) == "e7e8q");
    CHECK(to_uci(Move(E7, D8, Move::Promotion, Knight), false) == "e7d8n");
    CHECK(to_uci(Move(E7, D8, Move::Promotion, Rook), true) == "e7d8r");
    CHECK(to_uci(Move(E7, E8, Move::Promotion, Bishop), false) == "e7e8b");
    // A promotion needs its piece, and only N, B, R, Q are pieces to promote to.
    CHECK_FALSE(parse_uci(promo, "e7e8").has_value());
    CHECK_FALSE(parse_uci(promo, "e7e8k").has_value());
    CHECK_FALSE(parse_uci(promo, "e7e8p").has_value());
    CHECK_FALSE(parse_uci(promo, "e7f8q").has_value());

    const Position black_promo = parse("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1");
    CHECK(parse_uci(black_promo, "a2a1q") == Move(A2, A1, Move::Promotion, Queen));
    CHECK(parse_uci(black_promo, "a2b1n") == Move(A2, B1, Move::Promotion, Knight));

    const Position ep = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    CHECK(parse_uci(ep, "e5f6") == Move(E5, F6, Move::EnPassant));
    CHECK(to_uci(Move(E5, F6, Move::EnPassant), false) == "e5f6");
}

TEST_CASE("UCI castling: king two squares in standard chess, king takes rook in Chess960", "[notation]") {
    SECTION("standard chess") {
        const Position pos = composed("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        CHECK(parse_uci(pos, "e1g1") == Move(E1, H1, Move::Castling));
        CHECK(parse_uci(pos, "e1c1") == Move(E1, A1, Move::Castling));
        CHECK_FALSE(parse_uci(pos, "e1h1").has_value());
        CHECK_FALSE(parse_uci(pos, "e1a1").has_value());
        CHECK(to_uci(Move(E1, H1, Move::Castling), false) == "e1g1");
        CHECK(to_uci(Move(E1, A1, Move::Castling), false) == "e1c1");
        CHECK(to_uci(Move(E8, H8, Move::Castling), false) == "e8g8");
        CHECK(to_uci(Move(E8, A8, Move::Castling), false) == "e8c8");

        const Position black = composed("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        CHECK(parse_uci(black, "e8g8") == Move(E8, H8, Move::Castling));
        CHECK(parse_uci(black, "e8c8") == Move(E8, A8, Move::Castling));
    }
    SECTION("the same position played as Chess960") {
        const Position pos = composed("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
        CHECK(parse_uci(pos, "e1h1") == Move(E1, H1, Move::Castling));
        CHECK(parse_uci(pos, "e1a1") == Move(E1, A1, Move::Castling));
        CHECK_FALSE(parse_uci(pos, "e1g1").has_value());
        CHECK_FALSE(parse_uci(pos, "e1c1").has_value());
        CHECK(to_uci(Move(E1, H1, Move::Castling), true) == "e1h1");
        CHECK(to_uci(Move(E1, A1, Move::Castling), true) == "e1a1");
    }
    SECTION("Chess960: castling and an ordinary king move to the same square stay apart") {
        const Position pos = composed("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true);
        CHECK(parse_uci(pos, "b1a1") == Move(B1, A1, Move::Castling));
        CHECK(parse_uci(pos, "b1h1") == Move(B1, H1, Move::Castling));
        CHECK(parse_uci(pos, "b1c1") == Move(B1, C1));
        CHECK(to_san(pos, Move(B1, A1, Move::Castling)) == "O-O-O");
        CHECK(to_san(pos, Move(B1, H1, Move::Castling)) == "O-O");
        CHECK(to_san(pos, Move(B1, C1)) == "Kc1");
        // After O-O-O the king stands on c1 and the rook on d1.
        const Position after = pos.apply(Move(B1, A1, Move::Castling));
        CHECK(after.piece_on(C1) == WKing);
        CHECK(after.piece_on(D1) == WRook);
    }
    SECTION("Chess960: the king already on its castling square") {
        const Position pos = composed("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", true);
        CHECK(parse_uci(pos, "g1h1") == Move(G1, H1, Move::Castling));
        CHECK(to_san(pos, Move(G1, H1, Move::Castling)) == "O-O");
        check_san_move(pos, "O-O", Move(G1, H1, Move::Castling));
        check_san_move(pos, "O-O-O", Move(G1, B1, Move::Castling));
    }
}

TEST_CASE("UCI parsing rejects illegal moves and garbage", "[notation]") {
    const Position start = Position::startpos();
    for (const char* bad : {"", "e2", "e2e", "e2e5", "e7e5", "e1e2", "e2e4q", "e2e4e4", "e2-e4", "0000", "a1a1", "xyzw",
                            "e9e4", "i2i4", "Nf3", "e2 e4", "g1g3"}) {
        INFO(bad);
        CHECK_FALSE(parse_uci(start, bad).has_value());
    }
    // Castling without the right, through check, or out of check is not a move either.
    const Position no_rights = parse("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    CHECK_FALSE(parse_uci(no_rights, "e1g1").has_value());
    const Position f1_attacked = parse("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    CHECK_FALSE(parse_uci(f1_attacked, "e1g1").has_value());
    CHECK(parse_uci(f1_attacked, "e1c1") == Move(E1, A1, Move::Castling));
    const Position d1_attacked = parse("r3k2r/8/8/8/8/8/3r4/R3K2R w KQkq - 0 1");
    CHECK(parse_uci(d1_attacked, "e1g1") == Move(E1, H1, Move::Castling));
    CHECK_FALSE(parse_uci(d1_attacked, "e1c1").has_value());
    const Position in_check = parse("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    CHECK_FALSE(parse_uci(in_check, "e1g1").has_value());
    CHECK_FALSE(parse_uci(in_check, "e1c1").has_value());
}

TEST_CASE("SAN: pawn moves, captures and promotions", "[notation]") {
    const Position start = Position::startpos();
    CHECK(to_san(start, Move(E2, E4)) == "e4");
    CHECK(to_san(start, Move(G1, F3)) == "Nf3");
    check_san_move(start, "e4", Move(E2, E4));
    check_san_move(start, "e3", Move(E2, E3));
    check_san_move(start, "Nf3", Move(G1, F3));

    const Position exd5 = parse("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    CHECK(to_san(exd5, Move(E4, D5)) == "exd5");
    check_san_move(exd5, "exd5", Move(E4, D5));
    check_san_move(exd5, "ed5", Move(E4, D5));

    const Position nxe5 = parse("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    CHECK(to_san(nxe5, Move(F3, E5)) == "Nxe5");
    check_san_move(nxe5, "Nxe5", Move(F3, E5));
    check_san_move(nxe5, "Ne5", Move(F3, E5));

    const Position ep = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    CHECK(to_san(ep, Move(E5, F6, Move::EnPassant)) == "exf6");
    check_san_move(ep, "exf6", Move(E5, F6, Move::EnPassant));

    const Position promo = parse("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(to_san(promo, Move(E7, E8, Move::Promotion, Queen)) == "e8=Q+");
    CHECK(to_san(promo, Move(E7, E8, Move::Promotion, Rook)) == "e8=R+");
    CHECK(to_san(promo, Move(E7, E8, Move::Promotion, Bishop)) == "e8=B");
    CHECK(to_san(promo, Move(E7, E8, Move::Promotion, Knight)) == "e8=N");
    CHECK(to_san(promo, Move(E7, D8, Move::Promotion, Knight)) == "exd8=N");
    CHECK(to_san(promo, Move(E7, D8, Move::Promotion, Queen)) == "exd8=Q+");
    check_san_move(promo, "e8=Q", Move(E7, E8, Move::Promotion, Queen));
    check_san_move(promo, "e8=Q+", Move(E7, E8, Move::Promotion, Queen));
    check_san_move(promo, "exd8=N", Move(E7, D8, Move::Promotion, Knight));
    check_san_move(promo, "exd8=B", Move(E7, D8, Move::Promotion, Bishop));
    check_san_move(promo, "exd8=R+", Move(E7, D8, Move::Promotion, Rook));
    // A pawn reaching the last rank must say what it becomes.
    check_san_error(promo, "e8", "not legal");
    check_san_error(promo, "exd8", "not legal");
    check_san_error(promo, "e8=K", "cannot read");

    // A pawn capture promoting on the file of a bishop: letter case decides.
    const Position bishop_or_pawn = parse("2r1k3/1P6/8/5B2/8/8/8/4K3 w - - 0 1");
    CHECK(to_san(bishop_or_pawn, Move(F5, C8)) == "Bxc8");
    CHECK(to_san(bishop_or_pawn, Move(B7, C8, Move::Promotion, Queen)) == "bxc8=Q+");
    check_san_move(bishop_or_pawn, "Bxc8", Move(F5, C8));
    check_san_move(bishop_or_pawn, "bxc8=Q+", Move(B7, C8, Move::Promotion, Queen));
    check_san_move(bishop_or_pawn, "bxc8=N", Move(B7, C8, Move::Promotion, Knight));
    check_san_move(bishop_or_pawn, "b8=Q", Move(B7, B8, Move::Promotion, Queen));
}

TEST_CASE("SAN: disambiguation by file, by rank, and by both", "[notation]") {
    SECTION("by file") {
        const Position pos = parse("r1bqkbnr/pppppppp/2n5/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 1 2");
        CHECK(to_san(pos, Move(B1, D2)) == "Nbd2");
        CHECK(to_san(pos, Move(F3, D2)) == "Nfd2");
        // Only one knight reaches e5 and c3: no disambiguation.
        CHECK(to_san(pos, Move(F3, E5)) == "Ne5");
        CHECK(to_san(pos, Move(B1, C3)) == "Nc3");
        check_san_move(pos, "Nbd2", Move(B1, D2));
        check_san_move(pos, "Nfd2", Move(F3, D2));
        check_san_move(pos, "N1d2", Move(B1, D2));
        check_san_move(pos, "Nb1d2", Move(B1, D2));
        check_san_error(pos, "Nd2", "ambiguous");
    }
    SECTION("by rank") {
        const Position pos = parse("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        CHECK(to_san(pos, Move(A1, A3)) == "R1a3");
        CHECK(to_san(pos, Move(A5, A3)) == "R5a3");
        CHECK(to_san(pos, Move(A1, B1)) == "Rb1");
        check_san_move(pos, "R1a3", Move(A1, A3));
        check_san_move(pos, "R5a3", Move(A5, A3));
        check_san_error(pos, "Ra3", "ambiguous");
        // File letters do not help when both rooks stand on the a-file.
        check_san_error(pos, "Raa3", "ambiguous");
    }
    SECTION("file preferred when it suffices, even if the rank would too") {
        const Position pos = parse("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        CHECK(to_san(pos, Move(A1, F1)) == "Raf1");
        CHECK(to_san(pos, Move(H1, F1)) == "Rhf1");
    }
    SECTION("by both, with three queens") {
        const Position pos = parse("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1");
        CHECK(to_san(pos, Move(H4, E1)) == "Qh4e1");
        CHECK(to_san(pos, Move(E4, E1)) == "Qee1");
        CHECK(to_san(pos, Move(H1, E1)) == "Q1e1");
        check_san_move(pos, "Qh4e1", Move(H4, E1));
        check_san_move(pos, "Qee1", Move(E4, E1));
        check_san_move(pos, "Q1e1", Move(H1, E1));
        check_san_error(pos, "Qhe1", "ambiguous");
        check_san_error(pos, "Q4e1", "ambiguous");
        check_san_error(pos, "Qe1", "ambiguous");
    }
    SECTION("a pinned piece does not count as a rival") {
        // The c3 knight is pinned by the b4 bishop; Ne2 has only one candidate.
        const Position pos = parse("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1");
        CHECK(to_san(pos, Move(G1, E2)) == "Ne2");
        check_san_move(pos, "Ne2", Move(G1, E2));
    }
}

TEST_CASE("SAN: check and mate suffixes", "[notation]") {
    const Position start = Position::startpos();
    const Position fools = play_san(start, {"f3", "e5", "g4"});
    CHECK(to_san(fools, Move(D8, H4)) == "Qh4#");
    const Position mated = play_san(fools, {"Qh4#"});
    CHECK(mated.in_check());
    CHECK_FALSE(has_legal_move(mated));

    const Position open_f7 = play_san(start, {"e4", "f6"});
    CHECK(to_san(open_f7, Move(D1, H5)) == "Qh5+");
    CHECK(play_san(open_f7, {"Qh5+"}).in_check());

    const Position scholars = play_san(start, {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"});
    CHECK(to_san(scholars, Move(H5, F7)) == "Qxf7#");
    CHECK(to_san(scholars, Move(C4, F7)) == "Bxf7+");

    // Castling can give check.
    const Position castle_check = parse("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(to_san(castle_check, Move(E1, H1, Move::Castling)) == "O-O+");
    check_san_move(castle_check, "O-O+", Move(E1, H1, Move::Castling));

    // Stalemate is not mate: no suffix.
    const Position stalemating = parse("k7/8/1Q6/8/8/8/8/7K w - - 0 1");
    CHECK(to_san(stalemating, Move(B6, C7)) == "Qc7");
    CHECK(to_san(stalemating, Move(B6, B7)) == "Qb7+");
}

TEST_CASE("SAN: castling", "[notation]") {
    const Position pos = composed("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    CHECK(to_san(pos, Move(E1, H1, Move::Castling)) == "O-O");
    CHECK(to_san(pos, Move(E1, A1, Move::Castling)) == "O-O-O");
    check_san_move(pos, "O-O", Move(E1, H1, Move::Castling));
    check_san_move(pos, "O-O-O", Move(E1, A1, Move::Castling));
    check_san_move(pos, "0-0", Move(E1, H1, Move::Castling));
    check_san_move(pos, "0-0-0", Move(E1, A1, Move::Castling));
    check_san_move(pos, "O-O!", Move(E1, H1, Move::Castling));

    const Position black = composed("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    CHECK(to_san(black, Move(E8, H8, Move::Castling)) == "O-O");
    check_san_move(black, "O-O-O", Move(E8, A8, Move::Castling));

    const Position no_rights = composed("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    check_san_error(no_rights, "O-O-O", "not legal");
    check_san_move(no_rights, "O-O", Move(E1, H1, Move::Castling));
    // The king's two-square step is not a way to write castling in SAN.
    check_san_error(no_rights, "Kg1", "not legal");
}

TEST_CASE("SAN: Chess960 castling, king beside its rook and king on its castling square", "[notation]") {
    // King b1, rooks a1 and g1: O-O-O takes the king to c1 and the rook to d1.
    const Position pos = composed("rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1", true);
    CHECK(to_san(pos, Move(B1, A1, Move::Castling)) == "O-O-O");
    CHECK(to_san(pos, Move(B1, G1, Move::Castling)) == "O-O");
    check_san_move(pos, "O-O-O", Move(B1, A1, Move::Castling));
    check_san_move(pos, "0-0", Move(B1, G1, Move::Castling));
    const Position black = pos.apply(Move(B1, G1, Move::Castling));
    CHECK(black.piece_on(G1) == make_piece(White, King));
    CHECK(black.piece_on(F1) == make_piece(White, Rook));
    CHECK(to_san(black, Move(B8, A8, Move::Castling)) == "O-O-O");
    check_san_move(black, "O-O-O", Move(B8, A8, Move::Castling));

    // King already on g1: O-O only moves the rook, and is not the king move Kf1.
    const Position g1 = composed("6kr/8/8/8/8/8/8/6KR w Hh - 0 1", true);
    CHECK(to_san(g1, Move(G1, H1, Move::Castling)) == "O-O");
    CHECK(to_san(g1, Move(G1, F1)) == "Kf1");
    check_san_move(g1, "O-O", Move(G1, H1, Move::Castling));
    check_san_move(g1, "Kf1", Move(G1, F1));
    check_san_error(g1, "O-O-O", "not legal");
}

TEST_CASE("SAN parsing is lenient about what people write", "[notation]") {
    const Position start = Position::startpos();
    check_san_move(start, "e4!?", Move(E2, E4));
    check_san_move(start, "e4!", Move(E2, E4));
    check_san_move(start, "e4??", Move(E2, E4));
    check_san_move(start, "Nf3?!", Move(G1, F3));
    check_san_move(start, "Nf3+", Move(G1, F3));
    check_san_move(start, "Ngf3", Move(G1, F3));
    check_san_move(start, "N1f3", Move(G1, F3));
    check_san_move(start, "Ng1f3", Move(G1, F3));

    const Position exd5 = parse("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    check_san_move(exd5, "ed5", Move(E4, D5));
    check_san_move(exd5, "exd5!", Move(E4, D5));

    const Position promo = parse("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    check_san_move(promo, "e8Q", Move(E7, E8, Move::Promotion, Queen));
    check_san_move(promo, "e8N", Move(E7, E8, Move::Promotion, Knight));
    check_san_move(promo, "e8=q", Move(E7, E8, Move::Promotion, Queen));
    check_san_move(promo, "exd8N", Move(E7, D8, Move::Promotion, Knight));
    check_san_move(promo, "ed8=R", Move(E7, D8, Move::Promotion, Rook));
    check_san_move(promo, "e8=Q+!", Move(E7, E8, Move::Promotion, Queen));
}

TEST_CASE("SAN: an en passant capture may say so with e.p.", "[notation]") {
    const Position ep = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    const Move capture(E5, F6, Move::EnPassant);
    check_san_move(ep, "exf6e.p.", capture);
    check_san_move(ep, "exf6 e.p.", capture);
    check_san_move(ep, "exf6e.p.+", capture);
    check_san_move(ep, "exf6+e.p.", capture);
    check_san_move(ep, "e5f6e.p.", capture);
    // Only after an en passant capture, and not alone.
    const SanResult other = parse_san(ep, "d3e.p.");
    CHECK_FALSE(other.move);
    CHECK(other.error.find("not an en passant capture") != std::string::npos);
    CHECK_FALSE(parse_san(ep, "e.p.").move);
}

TEST_CASE("SAN parsing reports ambiguous, illegal and unreadable moves", "[notation]") {
    const Position start = Position::startpos();
    check_san_error(start, "", "empty move");
    check_san_error(start, "+", "empty move");
    check_san_error(start, "e5", "not legal");
    check_san_error(start, "Ke2", "not legal");
    check_san_error(start, "Qh5", "not legal");
    check_san_error(start, "Nd2", "not legal");
    check_san_error(start, "Bb5", "not legal");
    check_san_error(start, "O-O", "not legal");
    check_san_error(start, "O-O-O", "not legal");
    check_san_error(start, "Nhf3", "not legal");
    check_san_error(start, "hello", "cannot read");
    check_san_error(start, "e9", "cannot read");
    check_san_error(start, "Zf3", "cannot read");
    check_san_error(start, "N", "cannot read");
    check_san_error(start, "e2-e4", "cannot read");

    const Position pinned = parse("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
    check_san_error(pinned, "Nf3", "not legal");

    const Position two_knights = parse("r1bqkbnr/pppppppp/2n5/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 1 2");
    check_san_error(two_knights, "Nd2", "is ambiguous");
    check_san_error(two_knights, "Nxd2", "is ambiguous");
}

namespace {

// What the random games exercised, so that a test can insist the rare move kinds came up.
struct Coverage {
    int positions = 0;
    int moves = 0;
    int castling = 0;
    int promotions = 0;
    int en_passant = 0;
    int mates = 0;
};

// For every legal move of `pos`: UCI and SAN read back to the move, and no two moves
// share a SAN or UCI string.
void check_all_moves_round_trip(const Position& pos, Coverage& seen) {
    const MoveList moves = legal_moves(pos);
    std::set<std::string> sans, ucis;
    for (Move m : moves) {
        const std::string uci = to_uci(m, pos.chess960());
        const std::string san = to_san(pos, m);
        const std::optional<Move> from_uci = parse_uci(pos, uci);
        const SanResult from_san = parse_san(pos, san);
        if (!from_uci || *from_uci != m || !from_san.move || *from_san.move != m) {
            FAIL_CHECK("round trip failed in " << pos.fen() << " for " << uci << " / " << san << ": "
                                               << from_san.error);
        }
        sans.insert(san);
        ucis.insert(uci);
        // A SAN ends in '#' exactly when it mates and in '+' exactly when it checks.
        const Position next = pos.apply(m);
        const char last = san.back();
        const char expected = !next.in_check() ? 0 : has_legal_move(next) ? '+' : '#';
        if ((expected == 0 && (last == '+' || last == '#')) || (expected != 0 && last != expected))
            FAIL_CHECK("wrong check suffix in " << pos.fen() << " for " << san);
        ++seen.moves;
        seen.castling += m.kind() == Move::Castling;
        seen.promotions += m.kind() == Move::Promotion;
        seen.en_passant += m.kind() == Move::EnPassant;
        seen.mates += expected == '#';
    }
    if (sans.size() != moves.size()) FAIL_CHECK("duplicate SAN among the moves of " << pos.fen());
    if (ucis.size() != moves.size()) FAIL_CHECK("duplicate UCI among the moves of " << pos.fen());
    ++seen.positions;
}

// Plays `games` random games of at most `plies` plies from `start`, checking every
// position on the way.
void random_games(const Position& start, int games, int plies, std::mt19937& rng, Coverage& seen) {
    for (int game = 0; game < games; ++game) {
        Position pos = start;
        for (int ply = 0; ply < plies; ++ply) {
            check_all_moves_round_trip(pos, seen);
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
}

}  // namespace

TEST_CASE("UCI and SAN round trip for every legal move along random games", "[notation]") {
    std::mt19937 rng(0xA4B17E4);
    Coverage seen;
    SECTION("from the standard start position") {
        random_games(Position::startpos(), 120, 100, rng, seen);
        CHECK(seen.positions > 10000);
    }
    SECTION("from Chess960 start positions") {
        const std::vector<std::string> fens = epd_fens("chess960.epd");
        REQUIRE(fens.size() >= 900);
        for (size_t i = 0; i < fens.size(); i += 48) random_games(parse(fens[i], true), 6, 100, rng, seen);
        CHECK(seen.positions > 10000);
    }
    SECTION("from the standard perft suite") {
        for (const std::string& fen : epd_fens("standard.epd"))
            random_games(test::parse_fen(fen, false, FenCheck::Playable), 2, 40, rng, seen);
        CHECK(seen.positions > 5000);
    }
    // Every section must have met the rare move kinds, or it proved little about them.
    CHECK(seen.castling > 0);
    CHECK(seen.promotions > 0);
    CHECK(seen.en_passant > 0);
    CHECK(seen.mates > 0);
}
