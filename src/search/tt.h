#pragma once
// The transposition table, shared by all search threads.
//
// Each entry is two 64-bit words written and read with relaxed atomics: the data
// word and the key xor-ed with the data. A reader accepts an entry only when the
// two words agree with its key, so an entry torn by two threads writing at once is
// rejected instead of used (Hyatt's lockless hashing). Moves read from the table are
// still checked for legality before use: a 64-bit key can collide.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "chess/move.h"
#include "chess/zobrist.h"
#include "search/score.h"

namespace arbiter::search {

enum class Bound : uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTData {
    Move move;
    Score score = NoScore;  // adjusted to the probing ply
    Score eval = NoScore;
    int depth = 0;
    Bound bound = Bound::None;
    bool pv = false;  // the position was on a principal variation when stored (TT-PV)
};

class TranspositionTable {
public:
    TranspositionTable();

    // Resizes to `megabytes`, clearing the table. On allocation failure the old
    // table stays and false is returned.
    bool resize(size_t megabytes);
    size_t size_mb() const { return megabytes_; }
    void clear();
    // Marks the start of a new search, so older entries age out first.
    void new_search() { generation_ = uint8_t((generation_ + 1) & 31); }

    bool probe(zobrist::Key key, int ply, TTData& out) const;
    void store(zobrist::Key key, int ply, Move move, Score score, Score eval, int depth, Bound bound, bool pv);
    void prefetch(zobrist::Key key) const { __builtin_prefetch(&clusters_[index(key)]); }

    // Permille of entries written in the current search, sampled over 1000 clusters.
    int hashfull() const;

    // Mate and tablebase scores are stored relative to the node, not the root. Read
    // back far from the root, a distant one would leave the band of proven scores
    // (and pass for an evaluation): it stays the farthest proven score instead.
    static Score to_tt(Score s, int ply) { return s >= TbWinInMaxPly ? s + ply : s <= -TbWinInMaxPly ? s - ply : s; }
    static Score from_tt(Score s, int ply) {
        return s >= TbWinInMaxPly    ? std::max(s - ply, TbWinInMaxPly)
               : s <= -TbWinInMaxPly ? std::min(s + ply, -TbWinInMaxPly)
                                     : s;
    }

private:
    struct Entry {
        std::atomic<uint64_t> key_xor_data{0};
        std::atomic<uint64_t> data{0};
    };
    static constexpr int ClusterSize = 4;
    struct alignas(64) Cluster {
        Entry entries[ClusterSize];
    };
    static_assert(sizeof(Cluster) == 64, "one cluster per cache line");

    // Maps the key onto [0, cluster_count) by a multiply-high, which needs no power of two.
    size_t index(zobrist::Key key) const {
        __extension__ using Wide = unsigned __int128;
        return size_t((Wide(key) * cluster_count_) >> 64);
    }

    std::unique_ptr<Cluster[]> clusters_;
    size_t cluster_count_ = 0;
    size_t megabytes_ = 0;
    uint8_t generation_ = 0;
};

}  // namespace arbiter::search
