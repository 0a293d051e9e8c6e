// FEN reading and writing: round trips, X-FEN and Shredder-FEN castling, the en passant
// normalisation of Position's invariants, every rejection with its reason, and the key.

#include <catch2/catch.hpp>

#include <fstream>
#include <random>
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

void check_rejected(std::string_view fen, const std::string& reason, bool chess960 = false) {
    INFO("FEN: '" << fen << "' chess960=" << chess960);
    const FenResult result = Position::from_fen(fen, chess960);
    CHECK_FALSE(result.position.has_value());
    CHECK_THAT(result.error, Catch::Contains(reason));
}

std::vector<std::string> epd_fens(const std::string& file) { return test::epd_fens(file); }

Position play(Position pos, std::initializer_list<std::string_view> uci_moves) {
    for (std::string_view text : uci_moves) {
        INFO("move " << text << " in " << pos.fen());
        const std::optional<Move> m = parse_uci(pos, text);
        REQUIRE(m.has_value());
        pos = pos.apply(*m);
    }
    return pos;
}

}  // namespace

TEST_CASE("FEN round trips through Position", "[fen]") {
    const char* const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Kiwipete and the other positions of the chessprogramming.org perft page.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        // En passant squares with a legal capture, for either side.
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3",
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq d3 0 3",
        // Black to move, partial castling rights, large clocks.
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 37 104",
        "r3k3/8/8/8/8/8/8/4K2R b Kq - 99 9999",
        "4k3/8/8/8/8/8/8/4K3 w - - 9999 1",
    };
    // Read as Playable: this test is about writing, and some of these positions are
    // composed (no Black move gives position 4's check; in the Kq position White has
    // no man that can have moved last).
    for (const char* fen : fens) {
        INFO(fen);
        CHECK(test::parse_fen(fen, false, FenCheck::Playable).fen() == fen);
    }
}

TEST_CASE("FEN round trips in Chess960 with Shredder-FEN castling", "[fen]") {
    const Position pos = parse("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
    CHECK(pos.chess960());
    CHECK(pos.fen() == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    CHECK(pos.castling_rook(White, KingSide) == H1);
    CHECK(pos.castling_rook(White, QueenSide) == F1);
    CHECK(pos.castling_rook(Black, KingSide) == H8);
    CHECK(pos.castling_rook(Black, QueenSide) == F8);

    // Every position of the Chess960 perft suite is written canonically.
    const std::vector<std::string> fens = epd_fens("chess960.epd");
    REQUIRE(fens.size() >= 900);
    for (const std::string& fen : fens) {
        INFO(fen);
        const FenResult result = Position::from_fen(fen, true);
        REQUIRE(result.position.has_value());
        CHECK(result.position->fen() == fen);
    }
}

TEST_CASE("FEN without clock fields defaults to 0 1", "[fen]") {
    const Position four = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    CHECK(four.halfmove_clock() == 0);
    CHECK(four.fullmove_number() == 1);
    CHECK(four.fen() == Position::StartFen);

    const Position five = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7");
    CHECK(five.halfmove_clock() == 7);
    CHECK(five.fullmove_number() == 1);
    CHECK(five.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 1");
}

TEST_CASE("FEN fields may be separated by runs of spaces and tabs", "[fen]") {
    const Position pos = parse("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq\t-   0 1  ");
    CHECK(pos.fen() == Position::StartFen);
    CHECK(pos.key() == Position::startpos().key());
}

TEST_CASE("FEN fields are read into the position", "[fen]") {
    const Position pos = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17");
    CHECK(pos.side_to_move() == Black);
    CHECK(pos.piece_on(E1) == WKing);
    CHECK(pos.piece_on(E8) == BKing);
    CHECK(pos.piece_on(F3) == WQueen);
    CHECK(pos.piece_on(H3) == BPawn);
    CHECK(pos.piece_on(D4) == NoPiece);
    CHECK(pos.king_square(White) == E1);
    CHECK(pos.king_square(Black) == E8);
    CHECK(pos.can_castle(White, KingSide));
    CHECK_FALSE(pos.can_castle(White, QueenSide));
    CHECK_FALSE(pos.can_castle(Black, KingSide));
    CHECK(pos.can_castle(Black, QueenSide));
    CHECK(pos.castling_rook(White, KingSide) == H1);
    CHECK(pos.castling_rook(Black, QueenSide) == A8);
    CHECK(pos.halfmove_clock() == 3);
    CHECK(pos.fullmove_number() == 17);
    CHECK_FALSE(pos.chess960());
    CHECK(pos.ep_square() == NoSquare);
}

TEST_CASE("startpos() is the standard starting FEN", "[fen]") {
    const Position pos = Position::startpos();
    CHECK(pos.fen() == Position::StartFen);
    CHECK(pos.key() == parse(Position::StartFen).key());
    CHECK(pos.castling_rights() == AllCastling);
}

TEST_CASE("FEN of every position of random games reads back to the same position", "[fen]") {
    std::vector<std::pair<std::string, bool>> starts = {{std::string(Position::StartFen), false}};
    const std::vector<std::string> c960 = epd_fens("chess960.epd");
    for (size_t i = 0; i < c960.size(); i += 97) starts.emplace_back(c960[i], true);

    std::mt19937 rng(20240611);
    for (const auto& [start, chess960] : starts) {
        for (int game = 0; game < 10; ++game) {
            Position pos = parse(start, chess960);
            for (int ply = 0; ply < 120; ++ply) {
                const std::string fen = pos.fen();
                INFO(fen);
                const FenResult back = Position::from_fen(fen, chess960);
                REQUIRE(back.position.has_value());
                CHECK(back.position->fen() == fen);
                CHECK(back.position->key() == pos.key());
                CHECK(back.position->pawn_key() == pos.pawn_key());
                CHECK(back.position->same_position(pos));
                const MoveList moves = legal_moves(pos);
                if (moves.empty()) break;
                pos = pos.apply(moves[rng() % moves.size()]);
            }
        }
    }
}

TEST_CASE("The FEN of a position reached at the clock limits reads back", "[fen]") {
    // from_fen accepts clocks up to a billion, and apply() counts on past it; whatever
    // fen() writes must still be a FEN that from_fen reads.
    const Position pos = parse("4k3/8/8/8/8/8/8/4K3 b - - 9999 9999");
    const Position next = pos.apply(Move(E8, D8));
    const FenResult back = Position::from_fen(next.fen());
    INFO(next.fen() << ": " << back.error);
    CHECK(back.position.has_value());
}

TEST_CASE("X-FEN castling letters in Chess960", "[fen]") {
    SECTION("KQkq means the outermost rook on each side") {
        const Position xfen = parse("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", true);
        const Position shredder = parse("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
        CHECK(xfen.castling_rook(White, KingSide) == H1);
        CHECK(xfen.castling_rook(White, QueenSide) == F1);
        CHECK(xfen.castling_rook(Black, KingSide) == H8);
        CHECK(xfen.castling_rook(Black, QueenSide) == F8);
        CHECK(xfen.fen() == shredder.fen());
        CHECK(xfen.key() == shredder.key());
        CHECK(xfen.same_position(shredder));
    }
    SECTION("the outermost rook is taken when two rooks share a side") {
        const Position pos = parse("1r2k1rr/8/8/8/8/8/8/1R2K1RR w KQkq - 0 1", true);
        CHECK(pos.castling_rook(White, KingSide) == H1);
        CHECK(pos.castling_rook(White, QueenSide) == B1);
        CHECK(pos.castling_rook(Black, KingSide) == H8);
        CHECK(pos.castling_rook(Black, QueenSide) == B8);
        CHECK(pos.fen() == "1r2k1rr/8/8/8/8/8/8/1R2K1RR w HBhb - 0 1");
    }
    SECTION("an inner rook needs its file letter") {
        const Position pos = parse("1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1", true);
        CHECK(pos.can_castle(White, KingSide));
        CHECK(pos.can_castle(Black, KingSide));
        CHECK_FALSE(pos.can_castle(White, QueenSide));
        CHECK(pos.castling_rook(White, KingSide) == G1);
        CHECK(pos.castling_rook(Black, KingSide) == G8);
        CHECK(pos.fen() == "1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1");
        const Position outer = parse("1r2k1rr/8/8/8/8/8/8/1R2K1RR w Kk - 0 1", true);
        CHECK_FALSE(pos.same_position(outer));
    }
    SECTION("Shredder letters parse on a standard setup") {
        const Position pos = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true);
        CHECK(pos.castling_rights() == AllCastling);
        CHECK(pos.castling_rook(White, KingSide) == H1);
        CHECK(pos.castling_rook(White, QueenSide) == A1);
        CHECK(pos.castling_rook(Black, KingSide) == H8);
        CHECK(pos.castling_rook(Black, QueenSide) == A8);
        CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        CHECK(pos.key() == parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true).key());
        // In standard mode the same rights are written KQkq.
        CHECK(parse(Position::StartFen).fen() == Position::StartFen);
    }
    SECTION("a king on the b-file castles queen side with the a-rook") {
        // Composed (no Black man can have moved last): read as Playable.
        const Position pos = test::parse_fen("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, FenCheck::Playable);
        CHECK(pos.castling_rook(White, QueenSide) == A1);
        CHECK(pos.castling_rook(White, KingSide) == H1);
        CHECK(pos.fen() == "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
        CHECK(test::parse_fen("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", true, FenCheck::Playable).fen() == pos.fen());
    }
}

TEST_CASE("An en passant square with no legal capture is accepted but dropped", "[fen]") {
    auto check_dropped = [](std::string_view fen, std::string_view without_ep) {
        INFO(fen);
        const Position pos = parse(fen);
        const Position plain = parse(without_ep);
        CHECK(pos.ep_square() == NoSquare);
        CHECK(pos.fen() == without_ep);
        CHECK(pos.key() == plain.key());
        CHECK(pos.same_position(plain));
    };
    auto check_kept = [](std::string_view fen, Square ep, std::string_view without_ep) {
        INFO(fen);
        const Position pos = parse(fen);
        CHECK(pos.ep_square() == ep);
        CHECK(pos.fen() == fen);
        CHECK(pos.key() != parse(without_ep).key());
    };

    SECTION("no pawn is beside the pushed pawn") {
        check_dropped("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        check_dropped("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                      "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    }
    SECTION("a pawn beside the pushed pawn belongs to the side that pushed") {
        check_dropped("4k3/8/8/8/3PP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3PP3/8/8/4K3 b - - 0 1");
    }
    SECTION("the capture would expose the king along the rank") {
        check_dropped("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2", "8/8/8/KPp4r/8/8/8/4k3 w - - 0 2");
        check_dropped("8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1", "8/8/8/8/k2pP2Q/8/8/4K3 b - - 0 1");
    }
    SECTION("the capturing pawn is pinned diagonally") {
        check_dropped("4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2", "4k3/6b1/8/3pP3/8/2K5/8/8 w - - 0 2");
    }
    SECTION("the capture does not answer a discovered check") {
        const Position pos = parse("2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 2");
        CHECK(pos.in_check());
        check_dropped("2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 2", "2b1k3/8/8/3pP3/6K1/8/8/8 w - - 0 2");
    }
    SECTION("a pinned pawn may capture along the pin line") {
        check_kept("1b2k3/8/8/3pP3/8/8/7K/8 w - d6 0 2", D6, "1b2k3/8/8/3pP3/8/8/7K/8 w - - 0 2");
    }
    SECTION("the capture removes the pawn that gives check") {
        const Position pos = parse("4k3/8/8/3Pp3/5K2/8/8/8 w - e6 0 2");
        CHECK(pos.in_check());
        check_kept("4k3/8/8/3Pp3/5K2/8/8/8 w - e6 0 2", E6, "4k3/8/8/3Pp3/5K2/8/8/8 w - - 0 2");
    }
    SECTION("one of two capturing pawns is pinned, the other is free") {
        check_kept("8/8/8/KPpP3r/8/8/8/4k3 w - c6 0 2", C6, "8/8/8/KPpP3r/8/8/8/4k3 w - - 0 2");
    }
    SECTION("a plain legal capture") {
        check_kept("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", F6,
                   "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    }
}

TEST_CASE("FEN rejections name their reason", "[fen]") {
    SECTION("empty FEN") {
        check_rejected("", "empty FEN");
        check_rejected("   \t ", "empty FEN");
    }
    SECTION("wrong number of fields") {
        // The message names the fields a FEN has, and how many this one has.
        const std::string expected =
            "expected 6 fields (placement, side to move, castling, en passant, halfmove "
            "clock, fullmove number; the two clocks may be left out), found ";
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", expected + "3");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", expected + "1");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", expected + "7");
    }
    SECTION("wrong number of ranks") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "the board has 7 ranks");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "the board has 9 ranks");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "the board has 9 ranks");
    }
    SECTION("rank with too few squares") {
        check_rejected("rnbqkbnr/pppppppp/8/7/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 5 has 7 squares");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 squares");
        check_rejected("rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 0 squares");
    }
    SECTION("rank with too many squares") {
        check_rejected("rnbqkbnr/pppppppp/8/5ppp1/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       "rank 5 has more than 8 squares");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has more than 8 squares");
        check_rejected("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has more than 8 squares");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/8RNBQKBNR w KQkq - 0 1", "rank 1 has more than 8 squares");
    }
    SECTION("unknown piece letter") {
        check_rejected("rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece letter 'X'");
    }
    SECTION("a run of empty squares is one digit from 1 to 8") {
        check_rejected("rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       "rank 4: '9' is not a run of 1 to 8");
        check_rejected("rnbqkbnr/pppppppp/8/8/08/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       "rank 4: '0' is not a run of 1 to 8");
        check_rejected("rnbqkbnr/pppppppp/8/8/4P03/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "'0' is not a run");
        // Digits that sum to 8 are still two runs where FEN has one.
        check_rejected("rnbqkbnr/pppppppp/8/44/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 5: two digits in a row");
        check_rejected("rnbqkbnr/pppppppp/8/8/116/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 4: two digits in a row");
        check_rejected("rnbqkbnr/pppppppp/8/8/3P13/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1", "rank 4: two digits in a row");
        // The same ranks written as FEN writes them are fine.
        CHECK(Position::from_fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").position.has_value());
    }
    SECTION("no king or two kings for a side") {
        check_rejected("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "Black has 0 kings");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", "White has 0 kings");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "White has 2 kings");
        check_rejected("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "Black has 2 kings");
        check_rejected("8/8/8/8/8/8/8/8 w - - 0 1", "has 0 kings");
    }
    SECTION("pawns on the first or last rank") {
        check_rejected("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on the first or last rank (a1)");
        check_rejected("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on the first or last rank (a8)");
        check_rejected("4k3/8/8/8/8/8/8/4K2p b - - 0 1", "pawn on the first or last rank (h1)");
        check_rejected("4k2p/8/8/8/8/8/8/4K3 b - - 0 1", "pawn on the first or last rank (h8)");
    }
    SECTION("more than 8 pawns") {
        check_rejected("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "White has 9 pawns");
        check_rejected("4k3/pppppppp/7p/8/8/8/8/4K3 w - - 0 1", "Black has 9 pawns");
    }
    SECTION("too many promoted pieces") {
        // Three queens need two promotions but only one pawn is missing.
        check_rejected("4k3/8/8/8/8/QQQ5/PPPPPPP1/4K3 w - - 0 1", "White has more pieces than its missing pawns");
        check_rejected("4k3/pppppppp/8/8/8/8/8/nnnK4 w - - 0 1", "Black has more pieces than its missing pawns");
        // Nine queens (one original, eight promoted) is the most a side can have.
        CHECK(Position::from_fen("K7/8/8/8/8/7k/QQQQ4/QQQQQ3 b - - 0 1").position.has_value());
        check_rejected("K7/8/8/8/8/7k/QQQQQ3/QQQQQ3 b - - 0 1", "White has more pieces");
    }
    SECTION("the side not to move is in check") {
        check_rejected("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "the side not to move (Black) is in check");
        check_rejected("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "the side not to move (White) is in check");
        check_rejected("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 2",
                       "the side not to move (Black) is in check");
    }
    SECTION("more than two checkers") {
        check_rejected("7k/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1", "White is in check from 3 pieces");
    }
    SECTION("malformed side to move") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move must be 'w' or 'b'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side to move must be 'w' or 'b'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
                       "side to move must be 'w' or 'b'");
    }
    SECTION("castling rights that do not match the king and rooks") {
        // King not on e1 in standard chess.
        check_rejected("r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", "needs king and rook on their standard squares");
        check_rejected("r3k2r/8/8/8/8/8/8/R4K1R w Q - 0 1", "needs king and rook on their standard squares");
        check_rejected("r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling right 'k' needs king and rook");
        // King off its first rank.
        check_rejected("4k3/8/8/8/8/8/4K3/7R w K - 0 1", "castling right 'K' needs the White king on its first rank");
        check_rejected("r7/4k3/8/8/8/8/8/4K3 w q - 0 1", "castling right 'q' needs the Black king on its first rank");
        // Rook missing.
        check_rejected("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling right 'k' has no Black rook");
        check_rejected("r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1", "castling right 'Q' has no White rook");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                       "castling right 'K' has no White rook");
        // Rook not in the corner (standard chess takes the outermost rook: g1 is not h1).
        check_rejected("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "castling right 'K' needs king and rook");
        // Duplicated right.
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1", "castling right 'K' is given twice");
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1", "castling right 'q' is given twice");
        check_rejected("1r2k1rr/8/8/8/8/8/8/1R2K1RR w KH - 0 1", "castling right 'H' is given twice", true);
        // Bad letters.
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KQx - 0 1", "invalid castling field 'KQx'");
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KQkq- - 0 1", "invalid castling field");
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1", "invalid castling field 'X'");
        // A Shredder letter whose file holds no rook.
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Bb - 0 1", "castling right 'B' has no White rook",
                       true);
        // The king's own file.
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w E - 0 1", "castling right 'E' has no White rook",
                       true);
    }
    SECTION("Chess960 castling without Chess960") {
        check_rejected("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                       "Chess960 positions need UCI_Chess960");
        check_rejected("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
                       "Chess960 positions need UCI_Chess960");
        // Without castling rights the same board is an ordinary position.
        CHECK(
            Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w - - 2 9").position.has_value());
    }
    SECTION("en passant square on the wrong rank") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on the 6th rank");
        check_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "not on the 3rd rank");
        check_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "not on the 3rd rank");
    }
    SECTION("en passant square with no pawn in front of it") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                       "en passant square e6 has no Black pawn");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
                       "en passant square e3 has no White pawn");
        // A pawn of the wrong colour in front.
        check_rejected("rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1", "has no Black pawn");
    }
    SECTION("en passant square with squares behind it occupied") {
        check_rejected("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 3",
                       "en passant square e6 needs e6 and e7 empty");
        check_rejected("rnbqk1nr/ppppbppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 3",
                       "en passant square e6 needs e6 and e7 empty");
        check_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1",
                       "en passant square e3 needs e3 and e2 empty");
    }
    SECTION("malformed en passant square") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "invalid en passant square 'e9'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z6 0 1", "invalid en passant square 'z6'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E6 0 1", "invalid en passant square 'E6'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", "invalid en passant square 'e'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1", "invalid en passant square 'e66'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -- 0 1", "invalid en passant square '--'");
    }
    SECTION("malformed halfmove clock") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock 'x'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock '-1'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1", "halfmove clock '+1'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", "halfmove clock '1.5'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1000000001 1",
                       "halfmove clock '1000000001'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1", "halfmove clock");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x", "halfmove clock 'x'");
    }
    SECTION("clock numbers are plain decimals: no sign, no leading zero") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 1", "halfmove clock '00'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 05 1", "halfmove clock '05'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -0 1", "halfmove clock '-0'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 01", "fullmove number '01'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +1", "fullmove number '+1'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;", "fullmove number '1;'");
        CHECK(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10 100").position.has_value());
    }
    SECTION("castling rights in FEN's order: White first, king side first") {
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w QK - 0 1", "castling field 'QK' is out of order");
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1", "castling field 'kqKQ' is out of order");
        check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KkQq - 0 1", "out of order");
        check_rejected("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w BG - 0 1", "castling field 'BG' is out of order", true);
        CHECK(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1").position.has_value());
        CHECK(Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true, FenCheck::Playable)
                  .position.has_value());
    }
    SECTION("bishops: one of each square colour starts the game") {
        // Two light-squared bishops beside eight pawns: one of them must be promoted.
        check_rejected("4k3/8/8/8/8/8/PPPPPPPP/2B1KB1B w - - 0 1", "White has more pieces than its missing pawns");
        CHECK(Position::from_fen("4k3/8/8/8/8/8/PPPPPPP1/2B1KB1B w - - 0 1").position.has_value());
        CHECK(Position::from_fen("4k3/8/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1").position.has_value());
    }
    SECTION("malformed fullmove number") {
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number '0'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number '-3'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove number 'one'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1000000001",
                       "fullmove number '1000000001'");
        check_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2x", "fullmove number '2x'");
    }
}

TEST_CASE("A refusal says invalid FEN for bad syntax, impossible position for what no game reaches", "[fen]") {
    const auto check_prefix = [](std::string_view fen, std::string_view prefix, bool chess960 = false,
                                 FenCheck check = FenCheck::Reachable) {
        const FenResult result = Position::from_fen(fen, chess960, check);
        INFO("FEN: '" << fen << "' error: " << result.error);
        CHECK_FALSE(result.position.has_value());
        CHECK(result.error.starts_with(prefix));
    };
    SECTION("syntax") {
        for (const char* fen : {
                 "",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                 "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                 "rnbqkbnr/pppppppp/8/44/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                 "rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                 "r3k2r/8/8/8/8/8/8/R3K2R w KQx - 0 1",
                 "r3k2r/8/8/8/8/8/8/R3K2R w KKkq - 0 1",
                 "r3k2r/8/8/8/8/8/8/R3K2R w QK - 0 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
             })
            check_prefix(fen, "invalid FEN: ");
    }
    SECTION("reachability") {
        for (const char* fen : {
                 "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",          // no black king
                 "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",                                 // pawn on a1
                 "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",                                // Black in check, White to move
                 "7k/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1",                             // three checkers
                 "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",                          // nine pawns
                 "4k3/8/8/8/8/QQQ5/PPPPPPP1/4K3 w - - 0 1",                        // promotions
                 "4k3/8/8/8/8/8/4K3/7R w K - 0 1",                                 // castling right, king moved
                 "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",                            // castling right, no rook
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",      // e.p. square on the wrong rank
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",      // e.p. square with no pawn
                 "rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 3",  // e.p. square occupied
                 "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",                              // double check by two knights
             })
            check_prefix(fen, "impossible position: ");
        // Castling rights that need Chess960.
        check_prefix("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "impossible position: ");
        // What play itself needs is refused with the same words when unreachable positions are allowed.
        check_prefix("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "impossible position: ", false, FenCheck::Playable);
        check_prefix("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "impossible position: ", false,
                     FenCheck::Playable);
    }
    SECTION("kings side by side") {
        for (FenCheck check : {FenCheck::Reachable, FenCheck::Playable}) {
            check_prefix("8/8/8/4k3/4K3/8/8/8 w - - 0 1",
                         "impossible position: the kings stand on adjacent squares e4 and e5", false, check);
            check_prefix("8/8/8/8/8/8/1k6/K7 b - - 0 1",
                         "impossible position: the kings stand on adjacent squares a1 and b2", false, check);
        }
        CHECK(Position::from_fen("8/8/4k3/8/4K3/8/8/8 w - - 0 1").position.has_value());
    }
}

TEST_CASE("Positions reached by different move orders have equal keys", "[fen]") {
    const Position start = Position::startpos();
    const Position a = play(start, {"g1f3", "g8f6", "b1c3", "b8c6"});
    const Position b = play(start, {"b1c3", "b8c6", "g1f3", "g8f6"});
    CHECK(a.key() == b.key());
    CHECK(a.pawn_key() == b.pawn_key());
    CHECK(a.same_position(b));
    CHECK(a.fen() == b.fen());

    // A double push that nobody can capture leaves no trace in the key.
    const Position c = play(start, {"e2e4", "e7e5", "g1f3"});
    const Position d = play(start, {"g1f3", "e7e5", "e2e4"});
    CHECK(d.ep_square() == NoSquare);
    CHECK(c.key() == d.key());
    CHECK(c.same_position(d));
    // The FEN states differ only in their clocks.
    CHECK(c.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    CHECK(d.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 2");

    // Keys after moves agree with keys read from FEN.
    CHECK(a.key() == parse(a.fen()).key());
    CHECK(c.key() == parse(c.fen()).key());

    // Losing castling rights by a king walk and by rook moves gives the same key.
    const Position e = play(start, {"e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"});
    CHECK(e.castling_rights() == 0);
    CHECK(e.key() == parse("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4").key());
}

TEST_CASE("The key tells side to move, castling rights and legal en passant apart", "[fen]") {
    const Position base = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");

    SECTION("side to move") {
        const Position black = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
        CHECK(base.key() != black.key());
        CHECK_FALSE(base.same_position(black));
        // The pawn key holds pawns only.
        CHECK(base.pawn_key() == black.pawn_key());
    }
    SECTION("castling rights") {
        std::vector<Key> keys;
        for (const char* rights : {"KQkq", "Qkq", "Kkq", "KQq", "KQk", "KQ", "kq", "K", "q", "-"}) {
            const Position pos =
                parse(std::string("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w ") + rights + " - 0 1");
            keys.push_back(pos.key());
        }
        for (size_t i = 0; i < keys.size(); ++i)
            for (size_t j = i + 1; j < keys.size(); ++j) CHECK(keys[i] != keys[j]);
        CHECK(keys[0] == base.key());
    }
    SECTION("clocks do not enter the key") {
        CHECK(parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 42 77").key() == base.key());
    }
    SECTION("a legal en passant square") {
        const Position with_ep = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        const Position without = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        CHECK(with_ep.key() != without.key());
        CHECK_FALSE(with_ep.same_position(without));
        // Same board, en passant on the other file: also a different position.
        const Position other_file = parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
        CHECK(other_file.ep_square() == D6);
        CHECK(other_file.key() != with_ep.key());
        CHECK(other_file.key() != without.key());
        // Reached by moves, the key matches the FEN with the en passant square.
        const Position played = play(Position::startpos(), {"e2e4", "d7d5", "e4e5", "f7f5"});
        CHECK(played.ep_square() == F6);
        CHECK(played.key() == with_ep.key());
    }
}
