// The block cache behind tensor storage: which freed block serves which request, what
// is dropped past the limit, and that release gives everything back (the window calls
// it when idle). Driven directly, no timing.
#include <doctest/doctest.h>

#include <cstdlib>

#include "core/storage.h"

namespace {

void* block(std::size_t bytes) { return std::malloc(bytes); }

}  // namespace

TEST_CASE("a freed block serves the next request of its size class") {
    attn::BlockCache cache(1000);
    void* a = block(100);
    REQUIRE(cache.keep(a, 100));
    CHECK(cache.cached_bytes() == 100);
    std::size_t got = 0;
    CHECK(cache.take(100, got) == a);
    CHECK(got == 100);
    CHECK(cache.cached_bytes() == 0);
    CHECK(cache.take(100, got) == nullptr);  // taken once only
    std::free(a);
}

TEST_CASE("the smallest block that fits is taken, never one more than twice the request") {
    attn::BlockCache cache(10000);
    void* big = block(900);
    void* mid = block(300);
    void* small = block(100);
    REQUIRE(cache.keep(big, 900));
    REQUIRE(cache.keep(mid, 300));
    REQUIRE(cache.keep(small, 100));
    std::size_t got = 0;
    CHECK(cache.take(120, got) == nullptr);  // 300 > 2 x 120, 100 too small
    CHECK(cache.take(200, got) == mid);      // 300 fits, 900 would waste too much
    CHECK(got == 300);
    CHECK(cache.take(500, got) == big);
    CHECK(got == 900);
    CHECK(cache.cached_blocks() == 1);
    CHECK(cache.cached_bytes() == 100);
    std::free(mid);
    std::free(big);
}

TEST_CASE("past the limit the oldest blocks are freed first, and a block over the limit is refused") {
    attn::BlockCache cache(1000);
    void* first = block(400);
    void* second = block(400);
    void* third = block(400);
    REQUIRE(cache.keep(first, 400));
    REQUIRE(cache.keep(second, 400));
    REQUIRE(cache.keep(third, 400));  // frees `first`
    CHECK(cache.cached_bytes() == 800);
    CHECK(cache.cached_blocks() == 2);
    std::size_t got = 0;
    CHECK(cache.take(400, got) == second);  // equal sizes: the oldest kept one
    void* huge = block(16);
    CHECK_FALSE(cache.keep(huge, 1001));    // the caller frees it
    CHECK(cache.cached_bytes() == 400);
    std::free(huge);
    std::free(second);
}

TEST_CASE("release gives back every cached block and leaves the cache usable") {
    attn::BlockCache cache(std::size_t{1} << 30);
    for (int i = 0; i < 5; ++i) REQUIRE(cache.keep(block(1000), 1000));
    CHECK(cache.cached_bytes() == 5000);
    CHECK(cache.release_all() == 5000);
    CHECK(cache.cached_bytes() == 0);
    CHECK(cache.cached_blocks() == 0);
    std::size_t got = 0;
    CHECK(cache.take(1000, got) == nullptr);
    CHECK(cache.release_all() == 0);
    REQUIRE(cache.keep(block(64), 64));
    CHECK(cache.cached_blocks() == 1);
}  // the destructor frees the last block (the sanitizer build checks for leaks)

TEST_CASE("large requests round up to eight size classes per octave") {
    const std::size_t mib = std::size_t{1} << 20;
    CHECK(attn::storage_block_capacity(100) == 100);          // small: exact, malloc's heap
    CHECK(attn::storage_block_capacity(mib) == mib);
    CHECK(attn::storage_block_capacity(4 * mib) == 4 * mib);  // a class boundary stays put
    CHECK(attn::storage_block_capacity(4 * mib + 1) == 4 * mib + mib / 2);
    for (std::size_t bytes = 200000; bytes < 300 * mib; bytes = bytes * 7 / 5 + 12345) {
        CAPTURE(bytes);
        const std::size_t c = attn::storage_block_capacity(bytes);
        CHECK(c >= bytes);
        CHECK(c <= bytes + bytes / 8);
        CHECK(attn::storage_block_capacity(c) == c);  // classes are fixed points
    }
}

TEST_CASE("storage of a freed tensor goes to the process cache until it is released") {
    attn::release_cached_storage();
    const std::size_t bytes = (std::size_t{3} << 20) + 1000;  // inside a size class, not on its edge
    {
        attn::Storage s(bytes / sizeof(float));
        s[0] = 1.0f;
    }
    CHECK(attn::cached_storage_bytes() >= bytes);
    {
        attn::Storage again(bytes / sizeof(float) + 7);  // a little larger: same size class
        again[0] = 2.0f;
        CHECK(attn::cached_storage_bytes() == 0);
    }
    CHECK(attn::release_cached_storage() >= bytes);
    CHECK(attn::cached_storage_bytes() == 0);
}
