#pragma once
// Staged move ordering: the hash move, winning and equal captures (most valuable
// victim first, then capture history; SEE >= 0), killers, the countermove, quiet
// moves by history and by the threats they escape or walk into, then losing
// captures. Generation is staged as well, so a cutoff by the hash move or a capture
// saves generating the quiet moves.

#include "chess/movegen.h"
#include "search/history.h"
#include "search/threats.h"

namespace arbiter::search {

// A quiet move's ordering bonus for a threat it escapes (+) or walks into (-): a
// queen attacked by a rook or anything cheaper, a rook by a minor piece or a pawn,
// a knight or bishop by a pawn. Added to its history score.
int threat_bonus(const Position& pos, Move m, const Threats& threats);

class MovePicker {
public:
    // Main search: all moves. `threats` are the squares the opponent attacks
    // (threats_against_side_to_move); `context` holds the continuation indices of
    // the moves one, two and four plies back.
    MovePicker(const Position& pos, Move tt_move, const History& history, int ply, const Threats& threats,
               const ContinuationContext& context = {});
    // Quiescence: captures and promotions only (all evasions when in check).
    MovePicker(const Position& pos, Move tt_move, const History& history);

    // The next move, or a null move when none is left.
    Move next();
    // Whether the move just returned was a losing capture (or an underpromotion).
    bool last_was_bad_noisy() const { return last_stage_ == Stage::BadNoisy; }
    // Whether the move just returned was a killer or the countermove.
    bool last_was_refutation() const {
        return last_stage_ == Stage::Killer1 || last_stage_ == Stage::Killer2 || last_stage_ == Stage::Counter;
    }

private:
    enum class Stage {
        TTMove,
        GenerateNoisy,
        GoodNoisy,
        Killer1,
        Killer2,
        Counter,
        GenerateQuiet,
        Quiet,
        BadNoisy,
        Done
    };

    struct Scored {
        Move move;
        int score;
    };
    using ScoredList = StaticVector<Scored, 256>;

    void score_noisy();
    void score_quiet();
    // Removes and returns the best-scored move of `list` from `cursor` on.
    static Move pick_best(ScoredList& list, size_t& cursor);
    bool already_tried(Move m) const;
    // A killer or countermove is played before generation, so it must be checked.
    bool usable_quiet(Move m) const;
    // Returns `m`, recording that it came from `stage`.
    Move from_stage(Stage stage, Move m) {
        last_stage_ = stage;
        return m;
    }

    const Position& pos_;
    const History& history_;
    Move tt_move_;
    Move killers_[2];
    Move counter_;
    ContinuationContext context_;
    Threats threats_;
    bool quiescence_ = false;
    Stage stage_ = Stage::TTMove;
    Stage last_stage_ = Stage::TTMove;  // the stage the move just returned came from
    ScoredList noisy_, quiet_, bad_noisy_;
    size_t noisy_cursor_ = 0, quiet_cursor_ = 0, bad_cursor_ = 0;
};

}  // namespace arbiter::search
