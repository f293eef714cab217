#include "core/storage.h"

#include <cstdlib>
#include <deque>
#include <mutex>

namespace attn {

namespace {

// Blocks at least this large go through the cache (smaller ones are cheap to fault in).
constexpr std::size_t kLargeBlock = std::size_t{2} << 20;
// Freed large buffers are kept for the next forward of the same shape: recomputing
// a trace then reuses mapped pages instead of faulting in (and zeroing) fresh ones.
constexpr std::size_t kCacheLimit = std::size_t{768} << 20;

struct Block {
    void* pointer;
    std::size_t bytes;
};

class LargeBlockCache {
public:
    void* take(std::size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = blocks_.begin(); it != blocks_.end(); ++it)
            if (it->bytes == bytes) {
                void* p = it->pointer;
                cached_ -= bytes;
                blocks_.erase(it);
                return p;
            }
        return nullptr;
    }
    // Keeps the block, or returns false when it is too large to keep.
    bool keep(void* pointer, std::size_t bytes) {
        if (bytes > kCacheLimit) return false;
        std::lock_guard<std::mutex> lock(mutex_);
        while (cached_ + bytes > kCacheLimit && !blocks_.empty()) {  // drop the oldest first
            std::free(blocks_.front().pointer);
            cached_ -= blocks_.front().bytes;
            blocks_.pop_front();
        }
        blocks_.push_back({pointer, bytes});
        cached_ += bytes;
        return true;
    }
    ~LargeBlockCache() {
        for (const Block& b : blocks_) std::free(b.pointer);
    }

private:
    std::mutex mutex_;
    std::deque<Block> blocks_;
    std::size_t cached_ = 0;
};

LargeBlockCache& cache() {
    static LargeBlockCache instance;
    return instance;
}

}  // namespace

void* allocate_storage(std::size_t bytes) {
    if (bytes == 0) bytes = 1;
    void* p = nullptr;
    if (bytes >= kLargeBlock) {
        if ((p = cache().take(bytes))) return p;
        // No MADV_HUGEPAGE: on these machines it made first touch 4-5x slower
        // (failed compaction, no huge page granted), so the cache is what helps.
    }
    if (posix_memalign(&p, 64, bytes) != 0) throw std::bad_alloc();  // cache-line aligned for SIMD
    return p;
}

void free_storage(void* pointer, std::size_t bytes) noexcept {
    if (!pointer) return;
    if (bytes >= kLargeBlock && cache().keep(pointer, bytes)) return;
    std::free(pointer);
}

}  // namespace attn
