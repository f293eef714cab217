// Tensor views: what .view(), .transpose() and .contiguous() do to storage.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "core/tensor.h"

using attn::Tensor;

static Tensor counting(std::vector<int64_t> shape, std::vector<std::string> names) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> values(static_cast<size_t>(n));
    std::iota(values.begin(), values.end(), 0.0f);
    return Tensor::from_values(std::move(shape), std::move(names), std::move(values));
}

TEST_CASE("a view keeps the same bytes in the same order") {
    const Tensor q = counting({1, 4, 6}, {"B", "L", "E"});
    const Tensor split = q.view({1, 4, 2, 3}, {"B", "L", "H", "d_h"});
    REQUIRE_FALSE(split.empty());
    CHECK(split.shares_storage_with(q));
    CHECK(split.is_contiguous());
    CHECK(split.to_vector() == q.to_vector());
    CHECK(split.at({0, 2, 1, 0}) == q.at({0, 2, 3}));  // head 1, column 0 is E column 3
    CHECK(split.shape_string() == "(B=1, L=4, H=2, d_h=3)");
}

TEST_CASE("a transpose is a bijection that only permutes strides") {
    const Tensor split = counting({2, 5, 3, 4}, {"B", "L", "H", "d_h"});
    const Tensor heads = split.transpose(1, 2);
    CHECK(heads.shares_storage_with(split));
    CHECK_FALSE(heads.is_contiguous());
    CHECK(heads.shape() == std::vector<int64_t>{2, 3, 5, 4});
    CHECK(heads.strides() == std::vector<int64_t>{60, 4, 12, 1});
    // Every element appears exactly once, and transposing back restores the order.
    std::vector<float> values = heads.to_vector();
    std::vector<float> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) REQUIRE(sorted[i] == static_cast<float>(i));
    CHECK(heads.transpose(1, 2).to_vector() == split.to_vector());
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t l = 0; l < 5; ++l)
            for (int64_t h = 0; h < 3; ++h)
                for (int64_t d = 0; d < 4; ++d) {
                    CAPTURE(b); CAPTURE(l); CAPTURE(h); CAPTURE(d);
                    REQUIRE(heads.at({b, h, l, d}) == split.at({b, l, h, d}));
                }
}

TEST_CASE("merging dimensions of a transposed tensor needs contiguous first") {
    const Tensor context = counting({1, 2, 4, 3}, {"B", "H", "L", "d_h"});
    const Tensor back = context.transpose(1, 2);  // (B, L, H, d_h), not contiguous
    CHECK(back.view({1, 4, 6}, {"B", "L", "E"}).empty());
    const Tensor copy = back.contiguous();
    CHECK_FALSE(copy.shares_storage_with(context));
    const Tensor concat = copy.view({1, 4, 6}, {"B", "L", "E"});
    REQUIRE_FALSE(concat.empty());
    // Token 1's row is head 0's row 1 followed by head 1's row 1.
    CHECK(concat.at({0, 1, 0}) == context.at({0, 0, 1, 0}));
    CHECK(concat.at({0, 1, 3}) == context.at({0, 1, 1, 0}));
}

TEST_CASE("splitting the last dimension of a strided slice is still a view") {
    const Tensor qkv = counting({1, 2, 9}, {"B", "L", "3E"});
    const Tensor k = qkv.narrow(2, 3, 3).view({1, 2, 3}, {"B", "L", "E"});
    CHECK_FALSE(k.is_contiguous());
    const Tensor k_split = k.view({1, 2, 3, 1}, {"B", "L", "H", "d_h"});
    REQUIRE_FALSE(k_split.empty());
    CHECK(k_split.shares_storage_with(qkv));
    CHECK(k_split.at({0, 1, 2, 0}) == qkv.at({0, 1, 5}));
    CHECK(k_split.to_vector() == std::vector<float>{3, 4, 5, 12, 13, 14});
}

TEST_CASE("flat indexing follows logical C order on strided tensors") {
    const Tensor t = counting({3, 4}, {"a", "b"}).transpose(0, 1);
    const std::vector<float> values = t.to_vector();
    for (int64_t i = 0; i < t.numel(); ++i) CHECK(t.flat(i) == values[static_cast<size_t>(i)]);
}

TEST_CASE("contiguous strides skip zero dimensions and never overflow int64") {
    CHECK(attn::contiguous_strides({2, 3, 4}) == std::vector<int64_t>{12, 4, 1});
    // PyTorch gives (0, 5) the strides (5, 1): a size-0 dimension counts as 1.
    CHECK(attn::contiguous_strides({5, 0, 7}) == std::vector<int64_t>{7, 7, 1});
    const int64_t big = int64_t{1} << 31;
    CHECK(attn::contiguous_strides({0, big, big}) == std::vector<int64_t>{big * big, big, 1});
    int64_t n = 0;
    CHECK(attn::checked_shape_product({0, big, big, big}, n));
    CHECK(n == 0);
    CHECK_FALSE(attn::checked_shape_product({big, big, big}, n));
    CHECK_FALSE(attn::checked_shape_product({2, -1}, n));
    CHECK(attn::checked_shape_product({big, big}, n));
    CHECK(n == big * big);
}
