// Storage: the float buffer behind tensors, with an allocator tuned for traces.
//
// A large trace is hundreds of MiB of freshly allocated memory, and the page faults
// alone cost more than the arithmetic (~30 ms per 64 MiB measured here). So freed large
// buffers are cached for the next trace (a recompute after a seed, mask or dropout
// change, or a slider that moved a size a little: blocks are rounded up to size classes
// and a cached block up to twice the request is reused), and elements are left
// uninitialised because every step writes all of them. The window gives the cache back
// to the system once it has been idle for a moment (release_cached_storage).
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace attn {

// Allocates `bytes`, 64-byte aligned, reusing a cached block when one fits; throws
// std::bad_alloc on failure.
void* allocate_storage(std::size_t bytes);
// Frees a block from allocate_storage; large blocks are kept (up to a limit) for reuse
// by the next trace.
void free_storage(void* pointer, std::size_t bytes) noexcept;
// Frees every cached block and hands unused heap pages back to the system; returns
// the bytes the cache held. Blocks in use are not touched.
std::size_t release_cached_storage() noexcept;
// Bytes currently held by the cache (freed blocks kept for reuse).
std::size_t cached_storage_bytes() noexcept;
// Makes malloc keep the memory it frees for reuse instead of returning it to the system
// at once (glibc: fixed mmap and trim thresholds), for the window, which builds a trace
// of a slightly different shape on every slider step. Without it the tensors below the
// cache's block size (Q/K/V, and (B, H, L, S) just under 2 MiB) came from fresh pages each
// step: about 1,500 page faults per change at L = 256, E = 512. release_cached_storage()
// still hands everything free back once the window is idle. No effect outside glibc.
void keep_freed_memory_for_reuse() noexcept;

// Bytes actually reserved for a request of `bytes`: large requests are rounded up to
// one of eight size classes per octave (at most 12.5% more), so a trace whose sizes
// grew a little still finds the previous trace's blocks.
std::size_t storage_block_capacity(std::size_t bytes);

// The cache's policy, on its own so a test can drive it without timing: which freed
// block serves which request, what is dropped past the limit, what release gives back.
// Thread-safe. Blocks are freed with std::free.
class BlockCache {
public:
    explicit BlockCache(std::size_t limit_bytes) : limit_(limit_bytes) {}
    ~BlockCache() { release_all(); }
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    // The smallest cached block of at least `capacity` bytes and at most twice that
    // (a larger one would waste more than it saves), removed from the cache and its
    // real size put in `block_capacity`; null when none fits.
    void* take(std::size_t capacity, std::size_t& block_capacity);
    // Keeps a freed block of `capacity` bytes, dropping the oldest blocks to stay within
    // the limit; false when the block alone exceeds the limit (the caller frees it).
    bool keep(void* pointer, std::size_t capacity);
    // Frees every cached block; returns the bytes given back.
    std::size_t release_all() noexcept;
    std::size_t cached_bytes() const;
    std::size_t cached_blocks() const;

private:
    struct Block {
        void* pointer;
        std::size_t capacity;
    };
    mutable std::mutex mutex_;
    std::deque<Block> blocks_;  // oldest first
    std::size_t cached_ = 0;
    std::size_t limit_;
};

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
