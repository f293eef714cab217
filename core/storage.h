// Storage: the float buffer behind tensors, with an allocator tuned for traces.
//
// A large trace is hundreds of MiB of freshly allocated memory, and the page faults
// alone cost more than the arithmetic (~30 ms per 64 MiB measured here). So freed large
// buffers are cached for the next trace of the same shape (a recompute after a seed,
// mask or dropout change), and elements are left uninitialised because every step
// writes all of them.
#pragma once

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace attn {

// Allocates `bytes`, 64-byte aligned, reusing a cached block of the same size when
// there is one; throws std::bad_alloc on failure.
void* allocate_storage(std::size_t bytes);
// Frees a block from allocate_storage; large blocks are kept (up to a limit) for reuse
// by the next trace of the same shape.
void free_storage(void* pointer, std::size_t bytes) noexcept;

template <typename T>
struct StorageAllocator {
    using value_type = T;
    StorageAllocator() = default;
    template <typename U>
    StorageAllocator(const StorageAllocator<U>&) noexcept {}  // NOLINT: rebinding
    T* allocate(std::size_t n) { return static_cast<T*>(allocate_storage(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { free_storage(p, n * sizeof(T)); }
    // Default-initialise (no zero fill) when constructed without a value.
    template <typename U>
    void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) { ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...); }
    template <typename U>
    bool operator==(const StorageAllocator<U>&) const noexcept { return true; }
    template <typename U>
    bool operator!=(const StorageAllocator<U>&) const noexcept { return false; }
};

using Storage = std::vector<float, StorageAllocator<float>>;

}  // namespace attn
