#pragma once
// A vector with fixed capacity stored inline: no allocation, for move lists and
// other hot-path containers whose maximum size is known.
//
// The storage is left uninitialised: a move picker holds three lists of 256 moves,
// and constructing them element by element (Move zeroes itself) cost 17% of the
// search's time in `perf`. Hence the restriction to trivially destructible types,
// whose lifetime needs no bookkeeping.

#include <cassert>
#include <cstddef>
#include <type_traits>

namespace arbiter {

template <typename T, size_t Capacity>
class StaticVector {
    static_assert(std::is_trivially_destructible_v<T>);

public:
    constexpr StaticVector() {}
    constexpr StaticVector(const StaticVector& other) : size_(other.size_) {
        for (size_t i = 0; i < size_; ++i) items_[i] = other.items_[i];
    }
    constexpr StaticVector& operator=(const StaticVector& other) {
        size_ = other.size_;
        for (size_t i = 0; i < size_; ++i) items_[i] = other.items_[i];
        return *this;
    }

    constexpr void push_back(const T& value) {
        assert(size_ < Capacity);
        items_[size_++] = value;
    }
    constexpr void pop_back() { --size_; }
    constexpr void clear() { size_ = 0; }
    constexpr size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    static constexpr size_t capacity() { return Capacity; }

    constexpr T& operator[](size_t i) { return items_[i]; }
    constexpr const T& operator[](size_t i) const { return items_[i]; }
    constexpr T* begin() { return items_; }
    constexpr T* end() { return items_ + size_; }
    constexpr const T* begin() const { return items_; }
    constexpr const T* end() const { return items_ + size_; }

private:
    // A union member is not constructed: only the first size_ items are ever written
    // before they are read.
    union {
        T items_[Capacity];
    };
    size_t size_ = 0;
};

}  // namespace arbiter
