#include "core/storage.h"

#include <cstdlib>
#include <unordered_map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn {

namespace {

// Blocks at least this large go through the cache. Smaller ones come from malloc's
// heap, which keeps its pages between traces anyway. (Caching from 128 KiB up made the
// forward at L=256, E=512 ~15% slower: every cached block starts at the same offset in
// its pages, so equally sized tensors compete for the same cache sets.)
constexpr std::size_t kLargeBlock = std::size_t{2} << 20;
// At most this much freed memory is kept while the window is busy; the window gives it
// all back once idle (release_cached_storage).
constexpr std::size_t kCacheLimit = std::size_t{768} << 20;

BlockCache& cache() {
    static BlockCache instance(kCacheLimit);
    return instance;
}

// Real capacity of every large block handed out: a block taken from the cache may be
// larger than its request, and free_storage only hears the request back.
class LiveBlocks {
public:
    void add(void* p, std::size_t capacity) {
        std::lock_guard<std::mutex> lock(mutex_);
        capacity_[p] = capacity;
    }
    std::size_t remove(void* p, std::size_t fallback) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto it = capacity_.find(p);
        if (it == capacity_.end()) return fallback;
        const std::size_t c = it->second;
        capacity_.erase(it);
        return c;
    }

private:
    std::mutex mutex_;
    std::unordered_map<void*, std::size_t> capacity_;
};

LiveBlocks& live() {
    static LiveBlocks instance;
    return instance;
}

}  // namespace

std::size_t storage_block_capacity(std::size_t bytes) {
    if (bytes < kLargeBlock) return bytes;
    // Eight classes per octave: keep the top four bits, round the rest up.
    int top = 0;
    while ((bytes >> top) > 15) ++top;
    const std::size_t unit = std::size_t{1} << top;
    return (bytes + unit - 1) / unit * unit;
}

void* BlockCache::take(std::size_t capacity, std::size_t& block_capacity) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto best = blocks_.end();
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
        if (it->capacity < capacity || it->capacity / 2 > capacity) continue;
        if (best == blocks_.end() || it->capacity < best->capacity) best = it;
    }
    if (best == blocks_.end()) return nullptr;
    void* p = best->pointer;
    block_capacity = best->capacity;
    cached_ -= best->capacity;
    blocks_.erase(best);
    return p;
}

bool BlockCache::keep(void* pointer, std::size_t capacity) {
    if (capacity > limit_) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    while (cached_ + capacity > limit_ && !blocks_.empty()) {  // drop the oldest first
        std::free(blocks_.front().pointer);
        cached_ -= blocks_.front().capacity;
        blocks_.pop_front();
    }
    blocks_.push_back({pointer, capacity});
    cached_ += capacity;
    return true;
}

std::size_t BlockCache::release_all() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Block& b : blocks_) std::free(b.pointer);
    blocks_.clear();
    const std::size_t freed = cached_;
    cached_ = 0;
    return freed;
}

std::size_t BlockCache::cached_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cached_;
}

std::size_t BlockCache::cached_blocks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return blocks_.size();
}

void* allocate_storage(std::size_t bytes) {
    if (bytes == 0) bytes = 1;
    void* p = nullptr;
    if (bytes >= kLargeBlock) {
        const std::size_t capacity = storage_block_capacity(bytes);
        std::size_t got = 0;
        if ((p = cache().take(capacity, got))) {
            live().add(p, got);
            return p;
        }
        // No MADV_HUGEPAGE: on these machines it made first touch 4-5x slower
        // (failed compaction, no huge page granted), so the cache is what helps.
        if (posix_memalign(&p, 64, capacity) != 0) throw std::bad_alloc();
        live().add(p, capacity);
        return p;
    }
    if (posix_memalign(&p, 64, bytes) != 0) throw std::bad_alloc();  // cache-line aligned for SIMD
    return p;
}

void free_storage(void* pointer, std::size_t bytes) noexcept {
    if (!pointer) return;
    if (bytes >= kLargeBlock) {
        const std::size_t capacity = live().remove(pointer, storage_block_capacity(bytes));
        if (cache().keep(pointer, capacity)) return;
    }
    std::free(pointer);
}

std::size_t release_cached_storage() noexcept {
    const std::size_t freed = cache().release_all();
#if defined(__GLIBC__)
    // Large blocks were mmapped and are gone already; this returns the heap's free pages.
    malloc_trim(0);
#endif
    return freed;
}

std::size_t cached_storage_bytes() noexcept { return cache().cached_bytes(); }

void keep_freed_memory_for_reuse() noexcept {
#if defined(__GLIBC__)
    // Blocks up to 64 MiB come from the heap (glibc's default moves this threshold between
    // 128 KiB and 32 MiB as blocks are freed), and free memory at the heap's top is kept.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace attn
