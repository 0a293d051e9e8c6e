#include "chess/chess960.h"

#include <array>

#include "chess/position.h"

namespace arbiter {

std::string chess960_start_fen(int number) {
    std::array<PieceType, 8> rank;
    rank.fill(NoPieceType);
    // Places `type` on the `n`-th (0-based) still empty file.
    const auto place_on_empty = [&](int n, PieceType type) {
        for (int file = 0; file < 8; ++file)
            if (rank[file] == NoPieceType && n-- == 0) {
                rank[file] = type;
                return;
            }
    };
    rank[(number % 4) * 2 + 1] = Bishop;  // light-squared bishop: files b, d, f, h
    number /= 4;
    rank[(number % 4) * 2] = Bishop;  // dark-squared bishop: files a, c, e, g
    number /= 4;
    place_on_empty(number % 6, Queen);
    number /= 6;
    // The ten ways to put two knights on five empty files, in lexicographic order.
    static constexpr int Knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                           {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    place_on_empty(Knights[number][1], Knight);  // the later one first: it does not shift the earlier
    place_on_empty(Knights[number][0], Knight);
    place_on_empty(0, Rook);
    place_on_empty(0, King);
    place_on_empty(0, Rook);

    std::array<Piece, 64> board;
    board.fill(NoPiece);
    for (int file = 0; file < 8; ++file) {
        board[make_square(File(file), Rank1)] = make_piece(White, rank[file]);
        board[make_square(File(file), Rank2)] = WPawn;
        board[make_square(File(file), Rank7)] = BPawn;
        board[make_square(File(file), Rank8)] = make_piece(Black, rank[file]);
    }
    std::string white_rights, black_rights;
    for (int file = 7; file >= 0; --file)
        if (rank[file] == Rook) {
            white_rights += char('A' + file);
            black_rights += char('a' + file);
        }
    return fen_placement(board) + " w " + white_rights + black_rights + " - 0 1";
}

}  // namespace arbiter
