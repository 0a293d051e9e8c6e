#pragma once
// A vector with fixed capacity stored inline: no allocation, for move lists and
// other hot-path containers whose maximum size is known.

#include <array>
#include <cassert>
#include <cstddef>

namespace arbiter {

template <typename T, size_t Capacity>
class StaticVector {
public:
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
    constexpr T* begin() { return items_.data(); }
    constexpr T* end() { return items_.data() + size_; }
    constexpr const T* begin() const { return items_.data(); }
    constexpr const T* end() const { return items_.data() + size_; }

private:
    std::array<T, Capacity> items_;
    size_t size_ = 0;
};

} // namespace arbiter
