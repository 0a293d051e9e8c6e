#include "chess/chess960.h"

namespace arbiter {

std::string chess960_start_fen(int number) {
    char rank[8] = {};
    // Places `piece` on the `n`-th (0-based) still empty file.
    const auto place_on_empty = [&](int n, char piece) {
        for (int file = 0; file < 8; ++file)
            if (!rank[file] && n-- == 0) {
                rank[file] = piece;
                return;
            }
    };
    rank[(number % 4) * 2 + 1] = 'B';  // light-squared bishop: files b, d, f, h
    number /= 4;
    rank[(number % 4) * 2] = 'B';      // dark-squared bishop: files a, c, e, g
    number /= 4;
    place_on_empty(number % 6, 'Q');
    number /= 6;
    // The ten ways to put two knights on five empty files, in lexicographic order.
    static constexpr int Knights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    place_on_empty(Knights[number][1], 'N');  // the later one first: it does not shift the earlier
    place_on_empty(Knights[number][0], 'N');
    place_on_empty(0, 'R');
    place_on_empty(0, 'K');
    place_on_empty(0, 'R');

    std::string white(rank, 8), black;
    std::string white_rights, black_rights;
    for (int file = 7; file >= 0; --file)
        if (rank[file] == 'R') {
            white_rights += char('A' + file);
            black_rights += char('a' + file);
        }
    for (char c : white) black += char(c - 'A' + 'a');
    return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + white_rights + black_rights + " - 0 1";
}

} // namespace arbiter
