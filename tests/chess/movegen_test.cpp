// Move generation: properties checked on many positions (both perft suites and the
// positions of seeded random games from them), a move-by-move comparison with a slow
// generator written here, and hand-made edge cases: en passant, Chess960 castling,
// promotions, double check and pins.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"

using namespace arbiter;

namespace {

Position parse(const std::string& fen, bool chess960 = false, FenCheck check = FenCheck::Reachable) {
    const FenResult result = Position::from_fen(fen, chess960, check);
    INFO(fen << ": " << result.error);
    REQUIRE(result.position.has_value());
    return *result.position;
}

MoveList generated(const Position& pos, GenKind kind) {
    MoveList list;
    if (kind == GenKind::All) generate<GenKind::All>(pos, list);
    else if (kind == GenKind::Noisy) generate<GenKind::Noisy>(pos, list);
    else generate<GenKind::Quiet>(pos, list);
    return list;
}

Move from_raw(uint16_t raw) {
    return Move(Square(raw & 63), Square((raw >> 6) & 63), Move::Kind(raw >> 14),
                PieceType(((raw >> 12) & 3) + Knight));
}

std::vector<uint16_t> sorted_raw(const MoveList& list) {
    std::vector<uint16_t> raw;
    for (Move m : list) raw.push_back(m.raw());
    std::sort(raw.begin(), raw.end());
    return raw;
}

// Whether the king of the side to move is safe after `from` goes to `to` and the
// piece on `captured` (NoSquare for none) leaves the board. Attacks are computed from
// the enemy piece sets here, so a captured attacker no longer attacks.
bool leaves_king_safe(const Position& pos, Square from, Square to, Square captured) {
    const Color us = pos.side_to_move(), them = ~us;
    Bitboard removed = square_bb(from) | square_bb(to);
    if (captured != NoSquare) removed |= square_bb(captured);
    const Bitboard occupied = (pos.occupied() & ~removed) | square_bb(to);
    const Bitboard enemies = pos.pieces(them) & ~removed;
    const Square king = type_of(pos.piece_on(from)) == King ? to : pos.king_square(us);
    const Bitboard diagonal = pos.pieces(Bishop) | pos.pieces(Queen);
    const Bitboard straight = pos.pieces(Rook) | pos.pieces(Queen);
    const Bitboard attackers = (pawn_attacks(us, king) & pos.pieces(Pawn)) |
                               (knight_attacks(king) & pos.pieces(Knight)) | (king_attacks(king) & pos.pieces(King)) |
                               (bishop_attacks(king, occupied) & diagonal) | (rook_attacks(king, occupied) & straight);
    return !(attackers & enemies);
}

// The legal moves other than castling, found the slow way: every pseudo-legal move,
// kept if it leaves the king safe.
std::vector<uint16_t> slow_legal_moves(const Position& pos) {
    const Color us = pos.side_to_move();
    const Bitboard occupied = pos.occupied(), ours = pos.pieces(us), theirs = pos.pieces(~us);
    std::vector<uint16_t> moves;
    auto add = [&](Square from, Square to, Move::Kind kind, Square captured) {
        if (!leaves_king_safe(pos, from, to, captured)) return;
        if (kind == Move::Promotion)
            for (PieceType t : {Knight, Bishop, Rook, Queen}) moves.push_back(Move(from, to, kind, t).raw());
        else moves.push_back(Move(from, to, kind).raw());
    };
    for (Square from : squares(ours)) {
        const PieceType type = type_of(pos.piece_on(from));
        if (type != Pawn) {
            for (Square to : squares(piece_attacks(type, from, occupied) & ~ours))
                add(from, to, Move::Normal, contains(theirs, to) ? to : NoSquare);
            continue;
        }
        const int up = pawn_push(us);
        const auto pawn_kind = [&](Square to) {
            return relative_rank(us, rank_of(to)) == Rank8 ? Move::Promotion : Move::Normal;
        };
        const Square one = Square(from + up);
        if (!contains(occupied, one)) {
            add(from, one, pawn_kind(one), NoSquare);
            const Square two = Square(one + up);
            if (relative_rank(us, rank_of(from)) == Rank2 && !contains(occupied, two))
                add(from, two, Move::Normal, NoSquare);
        }
        for (Square to : squares(pawn_attacks(us, from) & theirs)) add(from, to, pawn_kind(to), to);
        if (pos.ep_square() != NoSquare && contains(pawn_attacks(us, from), pos.ep_square()))
            add(from, pos.ep_square(), Move::EnPassant, Square(pos.ep_square() - up));
    }
    std::sort(moves.begin(), moves.end());
    return moves;
}

// Whether the side to move in `pos` has a legal en passant capture onto `ep`, judged
// by the slow check above (the position's own ep square is not consulted).
bool slow_en_passant_exists(const Position& pos, Square ep) {
    const Color us = pos.side_to_move();
    for (Square from : squares(pawn_attacks(~us, ep) & pos.pieces(us, Pawn)))
        if (leaves_king_safe(pos, from, ep, Square(ep - pawn_push(us)))) return true;
    return false;
}

// Every property the generator promises, for one position. Returns the first broken
// one in words, or an empty string.
std::string movegen_problem(const Position& pos) {
    const bool c960 = pos.chess960();
    const Color us = pos.side_to_move();
    const MoveList all = generated(pos, GenKind::All);
    const MoveList noisy = generated(pos, GenKind::Noisy);
    const MoveList quiet = generated(pos, GenKind::Quiet);
    std::ostringstream why;

    if (count_legal_moves(pos) != all.size()) {
        why << "count_legal_moves " << count_legal_moves(pos) << " but generate<All> gave " << all.size();
        return why.str();
    }
    const std::vector<uint16_t> raw_all = sorted_raw(all);
    if (std::adjacent_find(raw_all.begin(), raw_all.end()) != raw_all.end()) {
        why << "duplicate move " << to_uci(from_raw(*std::adjacent_find(raw_all.begin(), raw_all.end())), c960);
        return why.str();
    }
    MoveList both = noisy;
    for (Move m : quiet) both.push_back(m);
    if (sorted_raw(both) != raw_all) {
        why << "noisy (" << noisy.size() << ") + quiet (" << quiet.size() << ") differ from all (" << all.size() << ")";
        return why.str();
    }
    for (Move m : noisy)
        if (!pos.is_capture(m) && m.kind() != Move::Promotion)
            return "noisy move " + to_uci(m, c960) + " is neither capture nor promotion";
    for (Move m : quiet)
        if (pos.is_capture(m) || m.kind() == Move::Promotion)
            return "quiet move " + to_uci(m, c960) + " is a capture or promotion";
    // Position::is_noisy names the same partition.
    for (Move m : noisy)
        if (!pos.is_noisy(m)) return "noisy move " + to_uci(m, c960) + " is not is_noisy";
    for (Move m : quiet)
        if (pos.is_noisy(m)) return "quiet move " + to_uci(m, c960) + " is is_noisy";

    // Against the slow generator, castling aside (perft and the hand cases cover it).
    std::vector<uint16_t> without_castling;
    for (uint16_t raw : raw_all)
        if (from_raw(raw).kind() != Move::Castling) without_castling.push_back(raw);
    const std::vector<uint16_t> slow = slow_legal_moves(pos);
    if (without_castling != slow) {
        for (uint16_t raw : slow)
            if (!std::binary_search(without_castling.begin(), without_castling.end(), raw))
                return "legal move " + to_uci(from_raw(raw), c960) + " is not generated";
        for (uint16_t raw : without_castling)
            if (!std::binary_search(slow.begin(), slow.end(), raw))
                return "illegal move " + to_uci(from_raw(raw), c960) + " is generated";
    }
    if (pos.ep_square() != NoSquare && !slow_en_passant_exists(pos, pos.ep_square()))
        return "en passant square " + square_name(pos.ep_square()) + " is kept without a legal capture";

    const Square ksq = pos.king_square(us);
    for (Move m : all) {
        const std::string uci = to_uci(m, c960);
        if (pos.piece_on(m.from()) == NoPiece || color_of(pos.piece_on(m.from())) != us)
            return uci + " does not move a piece of the side to move";
        if (more_than_one(pos.checkers()) && m.from() != ksq) return uci + " is not a king move in double check";
        if (contains(pos.pinned(), m.from()) && !aligned(ksq, m.from(), m.to()))
            return uci + " moves a pinned piece off its pin line";
        if (m.kind() == Move::Castling &&
            (pos.in_check() || m.from() != ksq || pos.piece_on(m.to()) != make_piece(us, Rook)))
            return uci + " is a castling move without king and own rook, or out of check";

        const Position child = pos.apply(m);
        if (child.side_to_move() != ~us) return uci + " does not pass the move";
        if (child.is_attacked(child.king_square(us), ~us, child.occupied())) return uci + " leaves the king in check";
        const Square their_king = child.king_square(~us);
        if (child.checkers() != (child.attackers_to(their_king, child.occupied()) & child.pieces(us)))
            return uci + " gives a child whose checkers() are wrong";
        if (pos.gives_check(m) != child.in_check())
            return uci + (child.in_check() ? " gives check but gives_check() says no"
                                           : " gives no check but gives_check() says it does");
        // After a double push the child keeps the en passant square exactly when a
        // capture is legal there.
        const bool double_push =
            type_of(pos.piece_on(m.from())) == Pawn && (m.to() == m.from() + 16 || m.from() == m.to() + 16);
        if (double_push) {
            const Square ep = Square((m.from() + m.to()) / 2);
            const Square expected = slow_en_passant_exists(child, ep) ? ep : NoSquare;
            if (child.ep_square() != expected)
                return uci + " gives en passant square " +
                       (child.ep_square() == NoSquare ? "-" : square_name(child.ep_square())) + ", expected " +
                       (expected == NoSquare ? "-" : square_name(expected));
        } else if (child.ep_square() != NoSquare) {
            return uci + " is no double push but sets an en passant square";
        }
    }
    return {};
}

struct SuitePosition {
    std::string fen;
    bool chess960;
};

std::vector<SuitePosition> suite_positions() {
    std::vector<SuitePosition> result;
    for (const auto& [file, chess960] : {std::pair<const char*, bool>{"standard.epd", false}, {"chess960.epd", true}}) {
        std::ifstream in(std::string(ARBITER_TEST_DATA) + "/" + file);
        REQUIRE(in.good());
        std::string line;
        while (std::getline(in, line)) {
            const std::string fen = line.substr(0, line.find(';'));
            if (fen.find_first_not_of(" \t\r") != std::string::npos) result.push_back({fen, chess960});
        }
    }
    REQUIRE(result.size() == 1088);
    return result;
}

using Strings = std::vector<std::string>;

// Squares and moves are compared as text so that a failure prints readable names.
std::string ep_name(const Position& pos) { return pos.ep_square() == NoSquare ? "-" : square_name(pos.ep_square()); }

std::vector<std::string> uci_moves(const Position& pos, GenKind kind = GenKind::All) {
    std::vector<std::string> result;
    for (Move m : generated(pos, kind)) result.push_back(to_uci(m, pos.chess960()));
    std::sort(result.begin(), result.end());
    return result;
}

std::vector<std::string> uci_moves_from(const Position& pos, Square from) {
    std::vector<std::string> result;
    for (Move m : legal_moves(pos))
        if (m.from() == from) result.push_back(to_uci(m, pos.chess960()));
    std::sort(result.begin(), result.end());
    return result;
}

bool has_move(const Position& pos, const std::string& uci) {
    const auto moves = uci_moves(pos);
    return std::find(moves.begin(), moves.end(), uci) != moves.end();
}

std::vector<Move> castling_moves(const Position& pos) {
    std::vector<Move> result;
    for (Move m : legal_moves(pos))
        if (m.kind() == Move::Castling) result.push_back(m);
    return result;
}

Strings castling_names(const Position& pos) {
    Strings result;
    for (Move m : castling_moves(pos)) result.push_back(to_uci(m, pos.chess960()));
    return result;
}

std::vector<Move> en_passant_moves(const Position& pos) {
    std::vector<Move> result;
    for (Move m : legal_moves(pos))
        if (m.kind() == Move::EnPassant) result.push_back(m);
    return result;
}

}  // namespace

TEST_CASE("generator properties on the suite positions and on random games from them", "[movegen]") {
    std::mt19937 rng(960);
    constexpr int GamePlies = 120;
    int checked = 0;
    for (const SuitePosition& start : suite_positions()) {
        Position pos = parse(start.fen, start.chess960, FenCheck::Playable);
        // A random game from every fourth position; the suite position itself always.
        const int plies = checked % 4 == 0 ? GamePlies : 0;
        ++checked;
        for (int ply = 0; ply <= plies; ++ply) {
            INFO(start.fen << " after " << ply << " random plies: " << pos.fen());
            const std::string problem = movegen_problem(pos);
            CHECK(problem == "");
            if (!problem.empty()) break;
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
}

TEST_CASE("is_legal agrees with the generator on every 16-bit move encoding", "[movegen]") {
    // The suite positions and, every fifth ply, random games from every eighth of them:
    // pins, checks, double checks, promotions, en passant and Chess960 castling.
    std::mt19937 rng(65536);
    int positions = 0, legal = 0;
    std::vector<bool> generated(1 << 16);
    const auto compare = [&](const Position& pos) {
        const MoveList moves = legal_moves(pos);
        std::fill(generated.begin(), generated.end(), false);
        for (Move m : moves) generated[m.raw()] = true;
        for (uint32_t raw = 0; raw < (1u << 16); ++raw) {
            const Move m = Move::from_raw(uint16_t(raw));
            if (is_legal(pos, m) != generated[raw]) {
                INFO(pos.fen() << ": raw move " << raw << " " << square_name(m.from()) << square_name(m.to())
                               << " kind " << int(m.kind()) << " promotion bits " << ((raw >> 12) & 3));
                CHECK(is_legal(pos, m) == generated[raw]);
                return false;
            }
        }
        ++positions;
        legal += int(moves.size());
        return true;
    };
    int start_index = 0;
    for (const SuitePosition& start : suite_positions()) {
        Position pos = parse(start.fen, start.chess960, FenCheck::Playable);
        const int plies = start_index++ % 8 == 0 ? 100 : 0;
        for (int ply = 0; ply <= plies; ++ply) {
            if (ply % 5 == 0 && !compare(pos)) break;
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
    CHECK(positions > 3000);
    CHECK(legal > 50000);
}

TEST_CASE("generator properties along random games from the start position", "[movegen]") {
    std::mt19937 rng(1);
    int promotions = 0, en_passants = 0, castlings = 0;
    for (int game = 0; game < 200; ++game) {
        Position pos = Position::startpos();
        for (int ply = 0; ply < 300; ++ply) {
            INFO("game " << game << " ply " << ply << ": " << pos.fen());
            const std::string problem = movegen_problem(pos);
            CHECK(problem == "");
            if (!problem.empty()) break;
            const MoveList moves = legal_moves(pos);
            if (moves.empty() || pos.halfmove_clock() >= 100) break;
            // Prefer captures a little so that games reach endings and promotions.
            MoveList noisy;
            generate<GenKind::Noisy>(pos, noisy);
            const Move m = !noisy.empty() && rng() % 2 ? noisy[rng() % noisy.size()] : moves[rng() % moves.size()];
            promotions += m.kind() == Move::Promotion;
            en_passants += m.kind() == Move::EnPassant;
            castlings += m.kind() == Move::Castling;
            pos = pos.apply(m);
        }
    }
    // The games must actually exercise the special moves.
    CHECK(promotions > 0);
    CHECK(en_passants > 0);
    CHECK(castlings > 0);
}

TEST_CASE("gives_check sees direct, discovered, castling, en passant and promotion checks", "[movegen]") {
    auto checks = [](const char* fen, const char* uci, bool chess960 = false) {
        const Position pos = parse(fen, chess960);
        INFO(fen << " " << uci);
        const std::optional<Move> parsed = parse_uci(pos, uci);
        REQUIRE(parsed.has_value());
        const Move m = *parsed;
        CHECK(pos.gives_check(m) == pos.apply(m).in_check());
        return pos.gives_check(m);
    };
    CHECK(checks("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"));  // direct
    CHECK_FALSE(checks("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a7"));
    CHECK(checks("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3"));  // discovered by a knight
    CHECK(checks("1k6/8/8/8/8/8/1K6/1R6 w - - 0 1", "b2c3"));    // discovered by the king
    CHECK(checks("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));     // the castled rook on f1
    CHECK_FALSE(checks("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
    CHECK(checks("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"));  // the rook on d1
    // En passant: both pawns leave the rank; the captured pawn opens a diagonal; the
    // capturing pawn checks from d6; or nothing.
    CHECK(checks("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 5", "e5d6"));
    CHECK(checks("6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 5", "e5d6"));
    CHECK(checks("8/2k5/8/2PpP3/8/8/8/4K3 w - d6 0 5", "e5d6"));
    CHECK_FALSE(checks("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 5", "e5d6"));
    CHECK_FALSE(checks("8/8/2k5/3pP3/8/8/8/4K3 w - d6 0 5", "e5d6"));
    // Promotions: the new piece checks or does not; a capture-promotion uncovers a rook.
    CHECK(checks("2k5/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"));
    CHECK_FALSE(checks("2k5/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n"));
    CHECK(checks("8/P1k5/8/8/8/8/8/4K3 w - - 0 1", "a7a8n"));
    CHECK_FALSE(checks("8/P1k5/8/8/8/8/8/4K3 w - - 0 1", "a7a8r"));
    CHECK_FALSE(checks("8/P7/2k5/8/8/8/8/4K3 w - - 0 1", "a7a8n"));
    CHECK(checks("nk6/1P6/8/8/8/8/8/1R2K3 w - - 0 1", "b7a8n"));
    // Chess960: the king stays on g1 and the rook lands on f1, checking f8.
    CHECK(checks("5k2/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true));
}

TEST_CASE("en passant that exposes the king along the rank is not generated", "[movegen]") {
    // b5xc6 would lift b5 and c5 off the fifth rank and open a5-h5 for the rook.
    const Position pos = parse("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
    // position.h: the en passant square is kept only when a capture is legal.
    CHECK(ep_name(pos) == "-");
    CHECK(pos.fen() == "8/8/8/KPp4r/8/8/8/4k3 w - - 0 2");
    CHECK(en_passant_moves(pos).empty());
    CHECK_FALSE(has_move(pos, "b5c6"));
    CHECK(has_move(pos, "b5b6"));
    CHECK(movegen_problem(pos) == "");

    // With a second white pawn on d5, either capture leaves one pawn on the rank.
    const Position two = parse("8/8/8/KPpP3r/8/8/8/4k3 w - c6 0 2");
    CHECK(ep_name(two) == "c6");
    CHECK(uci_moves(two, GenKind::Noisy) == Strings{"b5c6", "d5c6"});

    // The same for Black, with the king on the fourth rank.
    const Position black = parse("4K3/8/8/8/R3pP1k/8/8/8 b - f3 0 1");
    CHECK(ep_name(black) == "-");
    CHECK_FALSE(has_move(black, "e4f3"));
}

TEST_CASE("en passant by a diagonally pinned pawn only along the pin", "[movegen]") {
    // e5 is pinned by g7 against c3: exd6 leaves the diagonal.
    const Position off_line = parse("4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 2");
    CHECK(ep_name(off_line) == "-");
    CHECK(uci_moves_from(off_line, E5).empty());
    // exf6 stays on it (f6 lies between c3 and g7).
    const Position on_line = parse("4k3/6b1/8/4Pp2/8/2K5/8/8 w - f6 0 2");
    CHECK(ep_name(on_line) == "f6");
    CHECK(uci_moves_from(on_line, E5) == Strings{"e5f6"});
    const auto ep = en_passant_moves(on_line);
    REQUIRE(ep.size() == 1);
    const Position after = on_line.apply(ep[0]);
    CHECK(after.piece_on(F6) == WPawn);
    CHECK(after.piece_on(F5) == NoPiece);
    CHECK(after.piece_on(E5) == NoPiece);
}

TEST_CASE("en passant that captures the checking pawn is generated", "[movegen]") {
    // ...d7-d5 checks the king on e4; exd6 removes the checker.
    const Position pos = parse("4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2");
    CHECK(pos.checkers() == square_bb(D5));
    CHECK(ep_name(pos) == "d6");
    CHECK(has_move(pos, "e5d6"));
    const auto ep = en_passant_moves(pos);
    REQUIRE(ep.size() == 1);
    const Position after = pos.apply(ep[0]);
    CHECK(after.piece_on(D5) == NoPiece);
    CHECK(after.piece_on(D6) == WPawn);
    CHECK(movegen_problem(pos) == "");

    // From the other side, for Black: ...exd3 answers d2-d4+.
    const Position black = parse("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1");
    CHECK(black.checkers() == square_bb(D4));
    CHECK(has_move(black, "e4d3"));

    // A discovered check is not resolved by en passant: ...d7-d5 opened c8-g4, and
    // exd6 does not block it, so the square is dropped.
    const Position discovered = parse("2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 2");
    CHECK(discovered.checkers() == square_bb(C8));
    CHECK(ep_name(discovered) == "-");
    CHECK(en_passant_moves(discovered).empty());
}

TEST_CASE("promotions generate all four pieces, with and without capture", "[movegen]") {
    const Position pos = parse("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(uci_moves_from(pos, A7) == Strings{"a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"});
    MoveList noisy;
    generate<GenKind::Noisy>(pos, noisy);
    int promotions = 0;
    for (Move m : noisy) promotions += m.kind() == Move::Promotion;
    CHECK(promotions == 8);
    const Position black = parse("4k3/8/8/8/8/8/6p1/4K2R b - - 0 1");
    CHECK(uci_moves_from(black, G2) == Strings{"g2g1b", "g2g1n", "g2g1q", "g2g1r", "g2h1b", "g2h1n", "g2h1q", "g2h1r"});
    // A pinned pawn promotes only by capturing its pinner on the pin line.
    const Position pinned = parse("4k2b/6P1/8/8/8/8/8/K7 w - - 0 1");
    CHECK(pinned.pinned() == square_bb(G7));
    CHECK(uci_moves_from(pinned, G7) == Strings{"g7h8b", "g7h8n", "g7h8q", "g7h8r"});
    for (Move m : legal_moves(pos))
        if (m.kind() == Move::Promotion) CHECK(pos.apply(m).piece_on(m.to()) == make_piece(White, m.promotion()));
}

TEST_CASE("double check allows only king moves", "[movegen]") {
    // Rook e8 and knight d3 both check e1; the bishop could take the knight in single check.
    const Position pos = parse("4r1k1/8/8/8/8/3n4/8/RB2K2R w KQ - 0 1");
    CHECK(popcount(pos.checkers()) == 2);
    CHECK(uci_moves(pos) == Strings{"e1d1", "e1d2", "e1f1"});
    CHECK(count_legal_moves(pos) == 3);
    const Position single = parse("6k1/8/8/8/8/3n4/8/RB2K2R w KQ - 0 1");
    CHECK(has_move(single, "b1d3"));
    CHECK(castling_moves(single).empty());
}

TEST_CASE("pinned pieces move only along the pin line", "[movegen]") {
    const Position pos = parse("k3r3/8/8/b7/4R2b/8/3B1N2/4K3 w - - 0 1");
    CHECK(pos.pinned() == (square_bb(E4) | square_bb(D2) | square_bb(F2)));
    CHECK(uci_moves_from(pos, E4) == Strings{"e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8"});
    CHECK(uci_moves_from(pos, D2) == Strings{"d2a5", "d2b4", "d2c3"});
    CHECK(uci_moves_from(pos, F2).empty());
    // A queen pinned on a rank moves along the rank only.
    const Position queen = parse("4k3/8/8/8/r2QK3/8/8/8 w - - 0 1");
    CHECK(uci_moves_from(queen, D4) == Strings{"d4a4", "d4b4", "d4c4"});
    // In check, a pinned piece cannot capture the checker or block.
    const Position check = parse("4k3/8/8/8/4r2b/8/5R2/4K3 w - - 0 1");
    CHECK(check.pinned() == square_bb(F2));
    CHECK_FALSE(has_move(check, "f2e2"));
    CHECK(uci_moves_from(check, F2).empty());
}

TEST_CASE("standard castling: out of, through and into check", "[movegen]") {
    // Composed: no Black man can have made the last move.
    const Position free = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, FenCheck::Playable);
    CHECK(castling_moves(free).size() == 2);
    CHECK(has_move(free, "e1g1"));
    CHECK(has_move(free, "e1c1"));
    const Position after = free.apply(Move(E1, H1, Move::Castling));
    CHECK(after.piece_on(G1) == WKing);
    CHECK(after.piece_on(F1) == WRook);
    CHECK(after.piece_on(E1) == NoPiece);
    CHECK(after.piece_on(H1) == NoPiece);

    // Out of check.
    CHECK(castling_moves(parse("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1")).empty());
    // Through check: f1, then d1.
    const Position through_f1 = parse("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK_FALSE(has_move(through_f1, "e1g1"));
    CHECK(has_move(through_f1, "e1c1"));
    const Position through_d1 = parse("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(has_move(through_d1, "e1g1"));
    CHECK_FALSE(has_move(through_d1, "e1c1"));
    // Into check.
    const Position into_g1 = parse("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK_FALSE(has_move(into_g1, "e1g1"));
    CHECK(has_move(into_g1, "e1c1"));
    const Position into_c1 = parse("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(has_move(into_c1, "e1g1"));
    CHECK_FALSE(has_move(into_c1, "e1c1"));
    // b1 attacked: only the rook passes it, so queenside castling is legal.
    CHECK(castling_moves(parse("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")).size() == 2);
    // Blocked by a knight on b1 (rook's path) or g1 (king's path).
    const Position blocked = parse("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    CHECK(castling_moves(blocked).empty());
    // Black, for symmetry: the bishop on a3 covers f8.
    const Position black = parse("r3k2r/8/8/8/8/B7/8/4K3 b kq - 0 1");
    CHECK_FALSE(has_move(black, "e8g8"));
    CHECK(has_move(black, "e8c8"));
}

TEST_CASE("Chess960 castling where king and rook swap or stay", "[movegen]") {
    SECTION("king f1 and rook g1 swap") {
        const Position pos = parse("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true);
        REQUIRE(castling_names(pos) == Strings{"f1g1"});
        CHECK(to_uci(castling_moves(pos)[0], true) == "f1g1");
        const Position after = pos.apply(Move(F1, G1, Move::Castling));
        CHECK(after.piece_on(G1) == WKing);
        CHECK(after.piece_on(F1) == WRook);
        CHECK(after.castling_rights() == 0);
    }
    SECTION("king d1 and rook c1 swap") {
        const Position pos = parse("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", true);
        REQUIRE(castling_names(pos) == Strings{"d1c1"});
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(C1) == WKing);
        CHECK(after.piece_on(D1) == WRook);
    }
    SECTION("the king stays on g1") {
        const Position pos = parse("4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
        REQUIRE(castling_moves(pos).size() == 1);
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(G1) == WKing);
        CHECK(after.piece_on(F1) == WRook);
        CHECK(after.piece_on(H1) == NoPiece);
    }
    SECTION("the king stays on c1") {
        const Position pos = parse("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", true);
        REQUIRE(castling_moves(pos).size() == 1);
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(C1) == WKing);
        CHECK(after.piece_on(D1) == WRook);
        CHECK(after.piece_on(A1) == NoPiece);
    }
    SECTION("the rook stays on f1") {
        const Position pos = parse("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", true);
        REQUIRE(castling_moves(pos).size() == 1);
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(G1) == WKing);
        CHECK(after.piece_on(F1) == WRook);
        CHECK(after.piece_on(E1) == NoPiece);
    }
    SECTION("the rook stays on d1") {
        const Position pos = parse("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", true);
        REQUIRE(castling_moves(pos).size() == 1);
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(C1) == WKing);
        CHECK(after.piece_on(D1) == WRook);
    }
    SECTION("Black swaps too") {
        const Position pos = parse("5kr1/8/8/8/8/8/8/4K3 b g - 0 1", true);
        REQUIRE(castling_names(pos) == Strings{"f8g8"});
        const Position after = pos.apply(castling_moves(pos)[0]);
        CHECK(after.piece_on(G8) == BKing);
        CHECK(after.piece_on(F8) == BRook);
    }
}

TEST_CASE("Chess960 castling blocked or illegal", "[movegen]") {
    SECTION("a piece on the rook's path blocks") {
        // King g1, rook a1: the king's path f1-c1 is free, the rook's b1-d1 is not.
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/RN4K1 w A - 0 1", true)).empty());
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/R5K1 w A - 0 1", true)).size() == 1);
    }
    SECTION("a piece on the king's destination blocks") {
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/4KRN1 w F - 0 1", true)).empty());
        // King b1 with rooks a1 and c1: queenside would land the king on the other rook.
        const Position two_rooks = parse("4k3/8/8/8/8/8/8/RKR5 w CA - 0 1", true);
        CHECK(castling_names(two_rooks) == Strings{"b1c1"});
    }
    SECTION("the castling rook shields the king's destination") {
        // Queen a1, rook b1, king e1: after O-O-O the rook stands on d1 and the queen
        // sees c1 through the emptied b1.
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/qR2K3 w B - 0 1", true)).empty());
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", true)).size() == 1);
        // The king stays on c1 and the pinned rook b1 leaves the rank.
        CHECK(castling_moves(parse("4k3/8/8/8/8/8/8/qRK5 w B - 0 1", true)).empty());
        // The same for Black.
        CHECK(castling_moves(parse("Qr2k3/8/8/8/8/8/8/4K3 b b - 0 1", true)).empty());
    }
    SECTION("out of, through and into check") {
        // The rook b8 checks the king on b1.
        CHECK(castling_moves(parse("1r4k1/8/8/8/8/8/8/1K5R w H - 0 1", true)).empty());
        // The king b1 passes e1, attacked by the rook e8.
        CHECK(castling_moves(parse("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1", true)).empty());
        // The king lands on g1, attacked by the rook g8.
        CHECK(castling_moves(parse("k5r1/8/8/8/8/8/8/1K5R w H - 0 1", true)).empty());
        // Only the rook passes b1: legal although b1 is attacked.
        CHECK(castling_moves(parse("1r4k1/8/8/8/8/8/8/R4K2 w A - 0 1", true)).size() == 1);
    }
}

TEST_CASE("checkmate and stalemate have no moves", "[movegen]") {
    const Position mate = parse("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    CHECK(mate.in_check());
    CHECK(legal_moves(mate).empty());
    CHECK(count_legal_moves(mate) == 0);
    CHECK_FALSE(has_legal_move(mate));
    const Position stalemate = parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK_FALSE(stalemate.in_check());
    CHECK(legal_moves(stalemate).empty());
    CHECK_FALSE(has_legal_move(stalemate));
}

TEST_CASE("is_legal accepts exactly the generated moves", "[movegen]") {
    const Position pos = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for (Move m : legal_moves(pos)) CHECK(is_legal(pos, m));
    CHECK_FALSE(is_legal(pos, Move()));
    CHECK(is_legal(pos, Move(E1, H1, Move::Castling)));
    CHECK_FALSE(is_legal(pos, Move(E1, G1)));  // castling is encoded as king takes rook
    CHECK_FALSE(is_legal(pos, Move(A2, A5)));
    CHECK_FALSE(is_legal(pos, Move(A1, A8)));
}
