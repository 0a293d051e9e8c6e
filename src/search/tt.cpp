#include "search/tt.h"

#include <cstdint>
#include <new>

namespace arbiter::search {

namespace {

// data word: move (16) | score (16) | eval (16) | depth (8) | generation (5) | pv (1) | bound (2)
uint64_t pack(Move move, Score score, Score eval, int depth, uint8_t generation, bool pv, Bound bound) {
    return uint64_t(move.raw()) | uint64_t(uint16_t(int16_t(score))) << 16 | uint64_t(uint16_t(int16_t(eval))) << 32 |
           uint64_t(uint8_t(depth)) << 48 | uint64_t((generation << 3) | (uint8_t(pv) << 2) | uint8_t(bound)) << 56;
}

struct Unpacked {
    uint16_t move;
    Score score, eval;
    int depth;
    uint8_t generation;
    bool pv;
    Bound bound;
};

Unpacked unpack(uint64_t data) {
    return {uint16_t(data),      Score(int16_t(data >> 16)), Score(int16_t(data >> 32)), int(uint8_t(data >> 48)),
            uint8_t(data >> 59), bool((data >> 58) & 1),     Bound((data >> 56) & 3)};
}

}  // namespace

TranspositionTable::TranspositionTable() { resize(16); }

bool TranspositionTable::resize(size_t megabytes) {
    if (megabytes == 0 || megabytes > (SIZE_MAX >> 20)) return false;
    const size_t count = megabytes * 1024 * 1024 / sizeof(Cluster);
    std::unique_ptr<Cluster[]> fresh(new (std::nothrow) Cluster[count]);
    if (!fresh) return false;
    clusters_ = std::move(fresh);
    cluster_count_ = count;
    megabytes_ = megabytes;
    generation_ = 0;
    return true;
}

void TranspositionTable::clear() {
    for (size_t i = 0; i < cluster_count_; ++i)
        for (Entry& e : clusters_[i].entries) {
            e.key_xor_data.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    generation_ = 0;
}

bool TranspositionTable::probe(zobrist::Key key, int ply, TTData& out) const {
    const Cluster& cluster = clusters_[index(key)];
    for (const Entry& e : cluster.entries) {
        const uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.key_xor_data.load(std::memory_order_relaxed) ^ data) != key || data == 0) continue;
        const Unpacked u = unpack(data);
        out.move = Move::from_raw(u.move);
        out.score = u.score == NoScore ? NoScore : from_tt(u.score, ply);
        out.eval = u.eval;
        out.depth = u.depth;
        out.bound = u.bound;
        out.pv = u.pv;
        return true;
    }
    return false;
}

void TranspositionTable::store(zobrist::Key key, int ply, Move move, Score score, Score eval, int depth, Bound bound,
                               bool pv) {
    Cluster& cluster = clusters_[index(key)];
    // Replace the entry of the same key, else the least valuable: shallow and old.
    Entry* target = &cluster.entries[0];
    int worst = 1 << 30;
    for (Entry& e : cluster.entries) {
        const uint64_t data = e.data.load(std::memory_order_relaxed);
        if ((e.key_xor_data.load(std::memory_order_relaxed) ^ data) == key) {
            target = &e;
            const Unpacked old = unpack(data);
            // Keep a deeper exact result of this search unless the new one is exact too.
            if (bound != Bound::Exact && old.generation == generation_ && old.depth > depth + 3) return;
            if (move.is_null()) move = Move::from_raw(old.move);
            break;
        }
        const Unpacked u = unpack(data);
        const int age = (generation_ - u.generation) & 31;
        const int value = data == 0 ? -(1 << 20) : u.depth - 8 * age;
        if (value < worst) {
            worst = value;
            target = &e;
        }
    }
    const Score stored = score == NoScore ? NoScore : to_tt(score, ply);
    const uint64_t data = pack(move, stored, eval, depth, generation_, pv, bound);
    target->data.store(data, std::memory_order_relaxed);
    target->key_xor_data.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    int used = 0;
    const size_t sample = std::min<size_t>(250, cluster_count_);
    for (size_t i = 0; i < sample; ++i)
        for (const Entry& e : clusters_[i].entries) {
            const uint64_t data = e.data.load(std::memory_order_relaxed);
            if (data != 0 && unpack(data).generation == generation_) ++used;
        }
    return int(used * 1000 / (sample * ClusterSize));
}

}  // namespace arbiter::search
