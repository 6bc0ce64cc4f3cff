// A growable array of plain values for the members of a state: 16 bytes instead of
// std::vector's 24 (32-bit size and capacity), a copy holds exactly what it uses, and an
// assignment reuses the room it has (scratch states are dealt again without allocating).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace carc {

// Asks the cache for [p, p + bytes), every 64 bytes from p (a hint: nothing waits for it; the
// last line of a range that does not start on a line is left out, and asking for it too, from
// p's line on, measured slower). A vector environment steps many games in turn, and a game's
// memory has left the cache by its next step; asking for the next game's lines while this one
// is stepped hides part of that wait.
inline void prefetch_bytes(const void* p, size_t bytes, bool write) {
    const char* c = static_cast<const char*>(p);
    if (write) for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(c + off, 1, 3);
    else for (size_t off = 0; off < bytes; off += 64) __builtin_prefetch(c + off, 0, 3);
}

template <typename T>
class Vec {
    static_assert(std::is_trivially_copyable<T>::value, "Vec holds plain values");

   public:
    Vec() = default;
    Vec(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
    Vec(const std::vector<T>& items) { assign(items.data(), items.data() + items.size()); }  // NOLINT
    Vec(const Vec& other) { assign(other.begin(), other.end()); }
    Vec(Vec&& other) noexcept : ptr_(other.ptr_), n_(other.n_), cap_(other.cap_) {
        other.ptr_ = nullptr;
        other.n_ = other.cap_ = 0;
    }
    Vec& operator=(const Vec& other) {
        if (this != &other) assign(other.begin(), other.end());
        return *this;
    }
    Vec& operator=(Vec&& other) noexcept {
        if (this != &other) {
            std::free(ptr_);
            ptr_ = other.ptr_;
            n_ = other.n_;
            cap_ = other.cap_;
            other.ptr_ = nullptr;
            other.n_ = other.cap_ = 0;
        }
        return *this;
    }
    ~Vec() { std::free(ptr_); }

    size_t size() const { return n_; }
    size_t capacity() const { return cap_; }
    bool empty() const { return n_ == 0; }
    T* data() { return ptr_; }
    const T* data() const { return ptr_; }
    T* begin() { return ptr_; }
    T* end() { return ptr_ + n_; }
    const T* begin() const { return ptr_; }
    const T* end() const { return ptr_ + n_; }
    T& operator[](size_t i) { return ptr_[i]; }
    const T& operator[](size_t i) const { return ptr_[i]; }
    T& front() { return ptr_[0]; }
    const T& front() const { return ptr_[0]; }
    T& back() { return ptr_[n_ - 1]; }
    const T& back() const { return ptr_[n_ - 1]; }

    void reserve(size_t want) {
        if (want <= cap_) return;
        T* grown = static_cast<T*>(std::realloc(static_cast<void*>(ptr_), want * sizeof(T)));
        if (!grown) throw std::bad_alloc();
        ptr_ = grown;
        cap_ = static_cast<uint32_t>(want);
    }
    void clear() { n_ = 0; }
    // Fill past the end through data() within capacity(), then say how many are there.
    void set_size(size_t n) { n_ = static_cast<uint32_t>(n); }
    void push_back(const T& item) {
        if (n_ == cap_) {
            T copy = item;  // (item may live in this array)
            reserve(cap_ ? 2 * static_cast<size_t>(cap_) : 4);
            ptr_[n_++] = copy;
            return;
        }
        ptr_[n_++] = item;
    }
    template <typename... Args>
    void emplace_back(Args&&... args) { push_back(T{std::forward<Args>(args)...}); }
    void pop_back() { --n_; }
    void resize(size_t n, const T& fill = T()) {
        reserve(n);
        for (size_t i = n_; i < n; ++i) ptr_[i] = fill;
        n_ = static_cast<uint32_t>(n);
    }
    void assign(size_t n, const T& fill) {
        n_ = 0;
        resize(n, fill);
    }
    void assign(const T* first, const T* last) {
        const size_t n = static_cast<size_t>(last - first);
        reserve(n);
        if (n) std::memmove(static_cast<void*>(ptr_), first, n * sizeof(T));
        n_ = static_cast<uint32_t>(n);
    }
    T* erase(T* first, T* last) {
        std::memmove(static_cast<void*>(first), last, static_cast<size_t>(end() - last) * sizeof(T));
        n_ -= static_cast<uint32_t>(last - first);
        return first;
    }
    T* erase(T* at) { return erase(at, at + 1); }
    void swap(Vec& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(n_, other.n_);
        std::swap(cap_, other.cap_);
    }

   private:
    T* ptr_ = nullptr;
    uint32_t n_ = 0, cap_ = 0;
};

}  // namespace carc
