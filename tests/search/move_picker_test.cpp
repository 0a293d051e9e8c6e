// The move picker's contract: every legal move exactly once (main search), in stages
// TT move, good captures (MVV-LVA), killers and the countermove, quiets by history,
// bad captures; the quiescence picker gives only noisy moves out of check and every
// evasion in check. Each position is run with several set-ups of TT move, killers and
// history.

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "eval/evaluate.h"
#include "search/move_picker.h"
#include "search/see.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

constexpr int Ply = 3;

const std::vector<std::string_view> Fens = {
    std::string_view(Position::StartFen),
    // Kiwipete: many captures, some losing (Qxf6 loses the queen for a knight).
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Promotions for both sides, with and without capture.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    // En passant available.
    "rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    // In check (Bb5+), evasions only.
    "rnbqkbnr/ppp1pppp/8/1B1p4/8/4P3/PPPP1PPP/RNBQK1NR b KQkq - 1 2",
    // Double check.
    "4k3/8/1b3N2/8/8/8/4R3/4K3 b - - 0 1",
};

// Playable: the perft page's position 4 among them is composed (no move gives its check).
Position parse(std::string_view fen) { return test::parse_fen(fen, false, FenCheck::Playable); }

bool is_noisy(const Position& pos, Move m) { return pos.is_capture(m) || m.kind() == Move::Promotion; }

bool is_good_noisy(const Position& pos, Move m) {
    if (m.kind() == Move::Promotion && m.promotion() != Queen) return false;
    return see_ge(pos, m, 0);
}

// MVV-LVA as the picker documents it: the most valuable victim (a promotion counts
// as winning the new piece) first, the least valuable attacker breaking ties.
int mvv_lva(const Position& pos, Move m) {
    const PieceType victim = m.kind() == Move::EnPassant ? Pawn : type_of(pos.piece_on(m.to()));
    int score = victim == NoPieceType ? 0 : eval::PieceValue[victim] * 8;
    if (m.kind() == Move::Promotion) score += eval::PieceValue[m.promotion()] * 8;
    return score - eval::PieceValue[type_of(pos.piece_on(m.from()))];
}

std::vector<uint16_t> sorted_raw(const std::vector<Move>& moves) {
    std::vector<uint16_t> raw;
    for (Move m : moves) raw.push_back(m.raw());
    std::sort(raw.begin(), raw.end());
    return raw;
}

std::vector<Move> to_vector(const MoveList& list) { return std::vector<Move>(list.begin(), list.end()); }

struct Drained {
    std::vector<Move> moves;
    std::vector<bool> bad_stage;   // last_was_bad_noisy() right after each move
    std::vector<bool> refutation;  // last_was_refutation() right after each move
};

Drained drain(MovePicker& picker) {
    Drained out;
    for (int guard = 0; guard < 600; ++guard) {
        const Move m = picker.next();
        if (m.is_null()) {
            // Done stays done.
            CHECK(picker.next().is_null());
            return out;
        }
        out.moves.push_back(m);
        out.bad_stage.push_back(picker.last_was_bad_noisy());
        out.refutation.push_back(picker.last_was_refutation());
    }
    FAIL("the picker never returned a null move");
    return out;
}

std::string names(const std::vector<Move>& moves) {
    std::string text;
    for (Move m : moves) text += to_uci(m, false) + " ";
    return text;
}

struct Setup {
    Move tt;
    std::vector<Move> killers;                  // added in this order
    std::vector<std::pair<Move, int>> history;  // update_quiet calls for the side to move
};

enum Phase { GoodNoisy, Killer, Quiet, BadNoisy };

void check_main_order(const Position& pos, const Setup& setup) {
    auto history = std::make_unique<History>();
    const Threats threats = threats_against_side_to_move(pos);
    for (Move k : setup.killers) history->add_killer(Ply, k);
    for (auto [m, bonus] : setup.history)
        history->update_quiet(pos.side_to_move(), m, threats.any, continuation_index(pos.piece_on(m.from()), m.to()),
                              {}, bonus);

    MovePicker picker(pos, setup.tt, *history, Ply, threats);
    const Drained got = drain(picker);
    INFO(pos.fen() << " tt " << to_uci(setup.tt, false) << "\nsequence: " << names(got.moves));

    // Each legal move exactly once.
    REQUIRE(sorted_raw(got.moves) == sorted_raw(to_vector(legal_moves(pos))));

    const bool tt_legal = !setup.tt.is_null() && is_legal(pos, setup.tt);
    size_t first = 0;
    if (tt_legal) {
        CHECK(got.moves[0] == setup.tt);
        CHECK_FALSE(got.bad_stage[0]);
        CHECK_FALSE(got.refutation[0]);
        first = 1;
    }

    const auto& killers = history->killers(Ply);
    auto killer_phase = [&](Move m) {
        return (m == killers[0] || m == killers[1]) && !is_noisy(pos, m) && m != setup.tt;
    };
    Phase previous = GoodNoisy;
    int previous_key = 0;
    for (size_t i = first; i < got.moves.size(); ++i) {
        const Move m = got.moves[i];
        const Phase phase = is_noisy(pos, m)  ? (is_good_noisy(pos, m) ? GoodNoisy : BadNoisy)
                            : killer_phase(m) ? Killer
                                              : Quiet;
        INFO("move " << i << " " << to_uci(m, false) << " phase " << int(phase));
        CHECK(phase >= previous);
        CHECK(got.bad_stage[i] == (phase == BadNoisy));
        CHECK(got.refutation[i] == (phase == Killer));
        // Within a stage: captures by MVV-LVA, quiets by history and threats, killers in their slot order.
        const int key = phase == GoodNoisy ? mvv_lva(pos, m)
                        : phase == Quiet
                            ? history->quiet(pos.side_to_move(), m, threats.any) + threat_bonus(pos, m, threats)
                        : phase == Killer ? (m == killers[0] ? 1 : 0)
                                          : 0;
        if (phase == previous && i > first) CHECK(key <= previous_key);
        previous = phase;
        previous_key = key;
    }
}

// A few set-ups per position, chosen from its own moves so they stay legal.
std::vector<Setup> setups(const Position& pos) {
    std::vector<Move> quiets, noisy;
    for (Move m : legal_moves(pos)) (is_noisy(pos, m) ? noisy : quiets).push_back(m);
    std::vector<Setup> out;
    out.push_back({});
    if (quiets.size() >= 4) {
        // Quiet TT move, two other quiet killers, history on a few more.
        out.push_back({quiets[0], {quiets[1], quiets[2]}, {{quiets[3], 900}, {quiets.back(), 300}}});
        // Killer equal to the TT move; repeated killer; negative history.
        out.push_back({quiets[1], {quiets[2], quiets[1], quiets[1]}, {{quiets[0], -500}, {quiets[3], 1200}}});
    }
    if (!noisy.empty()) {
        // Capture as TT move and as killer (a capture killer belongs to the capture stages).
        out.push_back({noisy.back(), {noisy[0], quiets.empty() ? Move() : quiets.back()}, {}});
    }
    // Illegal TT move and killers: taken from the start position or made up.
    out.push_back({Move(A2, A7), {Move(H1, H5), Move(B8, H2)}, {}});
    out.push_back({Move(E2, E4), {Move(G1, F3), Move(E7, E5)}, {}});
    return out;
}

}  // namespace

TEST_CASE("main picker: every legal move once, in stage order", "[picker]") {
    for (std::string_view fen : Fens) {
        const Position pos = parse(fen);
        for (const Setup& setup : setups(pos)) check_main_order(pos, setup);
    }
}

TEST_CASE("main picker: TT move first, killers after good captures", "[picker]") {
    // Kiwipete: Nxf7 and Bxa6 are winning or equal captures; a2a3 and g2g3 as killers.
    const Position pos = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const Move tt = *parse_uci(pos, "e1g1");
    const Move k1 = *parse_uci(pos, "a2a3"), k2 = *parse_uci(pos, "g2g3");
    const Move bad = *parse_uci(pos, "f3f6");  // Qxf6 Bxf6 / gxf6 ... the queen for a knight
    const Move best_capture = *parse_uci(pos, "e2a6");
    REQUIRE_FALSE(see_ge(pos, bad, 0));
    REQUIRE(see_ge(pos, best_capture, 0));

    auto history = std::make_unique<History>();
    history->add_killer(Ply, k2);
    history->add_killer(Ply, k1);  // k1 is now the first killer
    // Its history outweighs the bonus of the knight on c3 escaping the pawn on b4.
    const Move favourite = *parse_uci(pos, "a1b1");
    const Threats threats = threats_against_side_to_move(pos);
    history->update_quiet(White, favourite, threats.any,
                          continuation_index(pos.piece_on(favourite.from()), favourite.to()), {}, 12000);

    MovePicker picker(pos, tt, *history, Ply, threats);
    const std::vector<Move> seq = drain(picker).moves;
    INFO(names(seq));
    REQUIRE(seq.size() == legal_moves(pos).size());
    auto at = [&](Move m) { return size_t(std::find(seq.begin(), seq.end(), m) - seq.begin()); };
    CHECK(seq[0] == tt);
    CHECK(at(best_capture) < at(k1));
    CHECK(at(k1) < at(k2));
    CHECK(at(k2) < at(favourite));
    CHECK(at(favourite) < at(*parse_uci(pos, "h1f1")));
    CHECK(at(favourite) < at(bad));
    CHECK(at(*parse_uci(pos, "h1f1")) < at(bad));
    // The killers come right after the last good capture.
    CHECK(seq[at(k1) - 1] != k2);
    CHECK(is_noisy(pos, seq[at(k1) - 1]));
    CHECK(seq[at(k1) + 1] == k2);
    CHECK(seq[at(k2) + 1] == favourite);
}

TEST_CASE("main picker: the countermove after the killers, both flagged as refutations", "[picker]") {
    // After 1.e4 e5: Nf3 and Bc4 are the killers, d2d4 the countermove to ...e5.
    const Position pos = parse("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    const Move k1 = *parse_uci(pos, "g1f3"), k2 = *parse_uci(pos, "f1c4"), counter = *parse_uci(pos, "d2d4");
    auto history = std::make_unique<History>();
    history->add_killer(Ply, k2);
    history->add_killer(Ply, k1);
    ContinuationContext context;
    context.back1 = continuation_index(make_piece(Black, Pawn), E5);
    history->set_counter(context.back1, counter);

    MovePicker picker(pos, Move(), *history, Ply, threats_against_side_to_move(pos), context);
    const Drained got = drain(picker);
    INFO(names(got.moves));
    REQUIRE(got.moves.size() == legal_moves(pos).size());
    // No captures here: the killers and the countermove open the list.
    REQUIRE(got.moves.size() > 3);
    CHECK(got.moves[0] == k1);
    CHECK(got.moves[1] == k2);
    CHECK(got.moves[2] == counter);
    for (size_t i = 0; i < got.moves.size(); ++i) {
        CHECK(got.refutation[i] == (i < 3));
        CHECK_FALSE(got.bad_stage[i]);
    }
    // A countermove equal to a killer is played once, as the killer.
    history->set_counter(context.back1, k2);
    MovePicker again(pos, Move(), *history, Ply, threats_against_side_to_move(pos), context);
    const Drained repeat = drain(again);
    REQUIRE(sorted_raw(repeat.moves) == sorted_raw(to_vector(legal_moves(pos))));
    CHECK(repeat.moves[0] == k1);
    CHECK(repeat.moves[1] == k2);
    CHECK(repeat.refutation[1]);
    CHECK_FALSE(repeat.refutation[2]);
}

TEST_CASE("main picker skips an illegal TT move and illegal killers", "[picker]") {
    const Position pos = Position::startpos();
    auto history = std::make_unique<History>();
    history->add_killer(Ply, Move(E7, E5));  // Black's move
    history->add_killer(Ply, Move(E2, E5));  // no piece moves like that
    for (Move tt : {Move(E7, E5), Move(D1, D3), Move(E1, G1, Move::Castling), Move(A2, A3, Move::Promotion, Queen)}) {
        REQUIRE_FALSE(is_legal(pos, tt));
        MovePicker picker(pos, tt, *history, Ply, threats_against_side_to_move(pos));
        const std::vector<Move> seq = drain(picker).moves;
        CHECK(sorted_raw(seq) == sorted_raw(to_vector(legal_moves(pos))));
    }
}

TEST_CASE("quiescence picker: noisy moves only out of check", "[picker]") {
    for (std::string_view fen : Fens) {
        const Position pos = parse(fen);
        if (pos.in_check()) continue;
        std::vector<Move> noisy;
        for (Move m : legal_moves(pos))
            if (is_noisy(pos, m)) noisy.push_back(m);

        // No TT move, a few legal ones (quiet and noisy), an illegal one.
        std::vector<Move> tts = {Move(), Move(A2, A7)};
        for (Move m : legal_moves(pos))
            if (tts.size() < 5) tts.push_back(m);
        tts.insert(tts.end(), noisy.begin(), noisy.begin() + long(std::min<size_t>(noisy.size(), 3)));

        for (Move tt : tts) {
            auto history = std::make_unique<History>();
            MovePicker picker(pos, tt, *history);
            const std::vector<Move> seq = drain(picker).moves;
            INFO(pos.fen() << " tt " << to_uci(tt, false) << "\nsequence: " << names(seq));
            // No duplicates, nothing quiet, nothing illegal.
            std::vector<uint16_t> raw = sorted_raw(seq);
            CHECK(std::adjacent_find(raw.begin(), raw.end()) == raw.end());
            for (Move m : seq) {
                CHECK(is_legal(pos, m));
                CHECK(is_noisy(pos, m));
            }
            // Every capture that does not lose material, and every queen promotion, is there.
            for (Move m : noisy)
                if (is_good_noisy(pos, m)) {
                    INFO("missing " << to_uci(m, false));
                    CHECK(std::find(seq.begin(), seq.end(), m) != seq.end());
                }
            // A legal noisy TT move comes first.
            if (!tt.is_null() && is_legal(pos, tt) && is_noisy(pos, tt)) {
                REQUIRE_FALSE(seq.empty());
                CHECK(seq[0] == tt);
            }
        }
    }
}

TEST_CASE("quiescence picker: all evasions in check", "[picker]") {
    for (std::string_view fen : Fens) {
        const Position pos = parse(fen);
        if (!pos.in_check()) continue;
        const MoveList legal = legal_moves(pos);
        std::vector<Move> tts = {Move(), Move(A2, A7)};
        for (Move m : legal) tts.push_back(m);
        for (Move tt : tts) {
            auto history = std::make_unique<History>();
            history->add_killer(0, legal[0]);
            MovePicker picker(pos, tt, *history);
            const std::vector<Move> seq = drain(picker).moves;
            INFO(pos.fen() << " tt " << to_uci(tt, false) << "\nsequence: " << names(seq));
            CHECK(sorted_raw(seq) == sorted_raw(to_vector(legal)));
            if (is_legal(pos, tt)) CHECK(seq[0] == tt);
        }
    }
}

TEST_CASE("pickers on a position without legal moves return nothing", "[picker]") {
    for (std::string_view fen : {"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}) {
        const Position pos = parse(fen);
        auto history = std::make_unique<History>();
        MovePicker main(pos, Move(H8, G8), *history, Ply, threats_against_side_to_move(pos));
        CHECK(main.next().is_null());
        MovePicker quiescence(pos, Move(H8, G8), *history);
        CHECK(quiescence.next().is_null());
    }
}
