#include "search/move_picker.h"

#include "eval/evaluate.h"
#include "search/see.h"
#include "search/tunable.h"

namespace arbiter::search {

int threat_bonus(const Position& pos, Move m, const Threats& threats) {
    const PieceType type = type_of(pos.piece_on(m.from()));
    const Bitboard danger = type == Queen                      ? threats.by_rook
                            : type == Rook                     ? threats.by_minor
                            : type == Knight || type == Bishop ? threats.by_pawn
                                                               : 0;
    const bool from_attacked = danger & square_bb(m.from());
    const bool to_attacked = danger & square_bb(m.to());
    if (from_attacked == to_attacked) return 0;
    const int value = type == Queen  ? tune::picker_threat_queen
                      : type == Rook ? tune::picker_threat_rook
                                     : tune::picker_threat_minor;
    return from_attacked ? value : -value;
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& history, int ply, const Threats& threats,
                       const ContinuationContext& context)
        : pos_(pos),
          history_(history),
          tt_move_(tt_move),
          killers_{history.killers(ply)[0], history.killers(ply)[1]},
          counter_(history.counter(context.back1)),
          context_(context),
          threats_(threats) {
    if (!tt_move_.is_null() && !is_legal(pos_, tt_move_)) tt_move_ = Move();
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const History& history)
        : pos_(pos), history_(history), tt_move_(tt_move), quiescence_(!pos.in_check()) {
    // Out of check, quiescence searches only noisy moves, so a quiet hash move is dropped.
    if (!tt_move_.is_null() && (!is_legal(pos_, tt_move_) || (quiescence_ && !pos_.is_noisy(tt_move_))))
        tt_move_ = Move();
}

bool MovePicker::already_tried(Move m) const {
    return m == tt_move_ || (!quiescence_ && (m == killers_[0] || m == killers_[1] || m == counter_));
}

bool MovePicker::usable_quiet(Move m) const {
    return !m.is_null() && m != tt_move_ && !pos_.is_noisy(m) && is_legal(pos_, m);
}

void MovePicker::score_noisy() {
    for (Scored& s : noisy_) {
        const Move m = s.move;
        const PieceType victim = captured_type(pos_, m);
        int score = victim == NoPieceType ? 0 : eval::PieceValue[victim] * tune::picker_mvv_mult;
        if (m.kind() == Move::Promotion) score += eval::PieceValue[m.promotion()] * tune::picker_mvv_mult;
        s.score =
            score + history_.capture(pos_.piece_on(m.from()), m.to(), victim) / tune::picker_capture_history_divisor;
    }
}

void MovePicker::score_quiet() {
    const Color us = pos_.side_to_move();
    for (Scored& s : quiet_) {
        const ContinuationIndex current = continuation_index(pos_.piece_on(s.move.from()), s.move.to());
        s.score =
            history_.quiet_score(us, s.move, threats_.any, current, context_) + threat_bonus(pos_, s.move, threats_);
    }
}

Move MovePicker::pick_best(ScoredList& list, size_t& cursor) {
    if (cursor >= list.size()) return Move();
    // The first of the best scores, found without branches: which list entry wins is
    // unpredictable, and a mispredicted branch per entry cost more than the scan.
    size_t best = cursor;
    int best_score = list[cursor].score;
    for (size_t i = cursor + 1; i < list.size(); ++i) {
        const int score = list[i].score;
        const bool better = score > best_score;
        best = better ? i : best;
        best_score = better ? score : best_score;
    }
    std::swap(list[cursor], list[best]);
    return list[cursor++].move;
}

Move MovePicker::next() {
    switch (stage_) {
    case Stage::TTMove:
        stage_ = Stage::GenerateNoisy;
        if (!tt_move_.is_null()) return from_stage(Stage::TTMove, tt_move_);
        [[fallthrough]];
    case Stage::GenerateNoisy: {
        MoveList moves;
        generate<GenKind::Noisy>(pos_, moves);
        for (Move m : moves) noisy_.push_back({m, 0});
        score_noisy();
        stage_ = Stage::GoodNoisy;
        [[fallthrough]];
    }
    case Stage::GoodNoisy:
        while (true) {
            const Move m = pick_best(noisy_, noisy_cursor_);
            if (m.is_null()) break;
            if (m == tt_move_) continue;
            // Underpromotions and losing captures wait until after the quiet moves. In
            // the main search a capture that has done well lately may lose a little
            // material by SEE (capture history / picker_good_capture_history_divisor, at
            // most 256 cp by default) and still count as good; quiescence searches only
            // captures that lose nothing.
            const bool under_promotion = m.kind() == Move::Promotion && m.promotion() != Queen;
            const int threshold = quiescence_
                                      ? 0
                                      : -history_.capture(pos_.piece_on(m.from()), m.to(), captured_type(pos_, m)) /
                                            tune::picker_good_capture_history_divisor;
            if (under_promotion || !see_ge(pos_, m, threshold)) {
                bad_noisy_.push_back({m, 0});
                continue;
            }
            return from_stage(Stage::GoodNoisy, m);
        }
        if (quiescence_) {
            stage_ = Stage::Done;
            return Move();
        }
        stage_ = Stage::Killer1;
        [[fallthrough]];
    case Stage::Killer1:
        stage_ = Stage::Killer2;
        if (usable_quiet(killers_[0])) return from_stage(Stage::Killer1, killers_[0]);
        [[fallthrough]];
    case Stage::Killer2:
        stage_ = Stage::Counter;
        if (killers_[1] != killers_[0] && usable_quiet(killers_[1])) return from_stage(Stage::Killer2, killers_[1]);
        [[fallthrough]];
    case Stage::Counter:
        stage_ = Stage::GenerateQuiet;
        if (counter_ != killers_[0] && counter_ != killers_[1] && usable_quiet(counter_))
            return from_stage(Stage::Counter, counter_);
        [[fallthrough]];
    case Stage::GenerateQuiet: {
        MoveList moves;
        generate<GenKind::Quiet>(pos_, moves);
        for (Move m : moves)
            if (!already_tried(m)) quiet_.push_back({m, 0});
        score_quiet();
        stage_ = Stage::Quiet;
        [[fallthrough]];
    }
    case Stage::Quiet:
        if (const Move m = pick_best(quiet_, quiet_cursor_); !m.is_null()) return from_stage(Stage::Quiet, m);
        stage_ = Stage::BadNoisy;
        [[fallthrough]];
    case Stage::BadNoisy:
        if (bad_cursor_ < bad_noisy_.size()) return from_stage(Stage::BadNoisy, bad_noisy_[bad_cursor_++].move);
        stage_ = Stage::Done;
        [[fallthrough]];
    case Stage::Done: return Move();
    }
    return Move();
}

}  // namespace arbiter::search
