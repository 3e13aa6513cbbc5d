// Every C++ heap allocation of a test program, on any thread, counted while g_counting is set: the program's
// replacements of the global operator new and delete. Include it in exactly one source file of a test program (a
// replacement may be defined once); tests read and reset g_allocations around the code they check.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace spinegpu::test {
inline std::atomic<bool> g_counting{false};
inline std::atomic<long> g_allocations{0};
}  // namespace spinegpu::test

// Out of line, so that the compiler does not see free() called on what operator new returned.
[[gnu::noinline]] void* operator new(std::size_t size) {
    if (spinegpu::test::g_counting.load(std::memory_order_relaxed))
        spinegpu::test::g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
// The nothrow form too: the standard library pairs it with the plain delete (std::stable_sort's temporary buffer),
// so leaving it to the default (or the sanitizer's) would free with one allocator what another allocated.
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    if (spinegpu::test::g_counting.load(std::memory_order_relaxed))
        spinegpu::test::g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
