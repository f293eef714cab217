// The L=4, E=6, H=2 example worked by hand: what view and transpose do to Q.
//
// With W_q = W_k = I and no bias, Q = K = X, and X holds 0..23 row by row:
//   token 0: [ 0  1  2 |  3  4  5]      head 0 takes columns 0..2,
//   token 1: [ 6  7  8 |  9 10 11]      head 1 takes columns 3..5.
//   token 2: [12 13 14 | 15 16 17]
//   token 3: [18 19 20 | 21 22 23]
// view(1, 4, 2, 3) keeps this order; transpose(1, 2) gathers each head's rows:
//   head 0: [0 1 2], [6 7 8], [12 13 14], [18 19 20]
//   head 1: [3 4 5], [9 10 11], [15 16 17], [21 22 23]
// Scores of head 0, row 0: [0 1 2].[0 1 2] = 5, [0 1 2].[6 7 8] = 23,
//   [0 1 2].[12 13 14] = 41, [0 1 2].[18 19 20] = 59; head 1, (0, 0): 9 + 16 + 25 = 50.
#include <doctest/doctest.h>

#include <numeric>

#include "core/attention.h"

using namespace attn;

TEST_CASE("the hand-worked L=4, E=6, H=2 view and transpose example") {
    AttentionConfig c;
    c.seq_len = 4;
    c.hidden_dim = 6;
    c.num_heads = 2;
    c.bias = false;
    AttentionWeights w;
    w.w_q = w.w_k = w.w_v = w.w_o = Mat::Identity(6, 6);
    std::vector<float> x(24);
    std::iota(x.begin(), x.end(), 0.0f);
    AttentionInputs in;
    in.query = Tensor::from_values({1, 4, 6}, {"B", "L", "E"}, x);
    Result<Trace> t = run_attention(c, w, in);
    REQUIRE_MESSAGE(t.ok(), t.error());

    const Tensor& q_split = t->find(attn::StepId::QSplit)->tensor;
    CHECK(q_split.to_vector() == x);  // the view moves nothing
    CHECK(q_split.strides() == std::vector<int64_t>{24, 6, 3, 1});

    const Tensor& q_heads = t->find(attn::StepId::QHeads)->tensor;
    CHECK(q_heads.strides() == std::vector<int64_t>{24, 3, 6, 1});
    const std::vector<float> by_head = {0, 1, 2, 6, 7, 8, 12, 13, 14, 18, 19, 20,
                                        3, 4, 5, 9, 10, 11, 15, 16, 17, 21, 22, 23};
    CHECK(q_heads.to_vector() == by_head);

    const Tensor& scores = t->find(attn::StepId::AttnScores)->tensor;
    CHECK(scores.at({0, 0, 0, 0}) == 5.0f);
    CHECK(scores.at({0, 0, 0, 1}) == 23.0f);
    CHECK(scores.at({0, 0, 0, 2}) == 41.0f);
    CHECK(scores.at({0, 0, 0, 3}) == 59.0f);
    CHECK(scores.at({0, 1, 0, 0}) == 50.0f);
    CHECK(t->find(attn::StepId::AttnScaled)->tensor.at({0, 1, 0, 0}) == doctest::Approx(50.0 / std::sqrt(3.0)));

    // Back to tokens: concat must equal the identity-projected context, row order restored.
    const Tensor& context = t->find(attn::StepId::Context)->tensor;
    const Tensor& concat = t->find(attn::StepId::Concat)->tensor;
    for (int64_t l = 0; l < 4; ++l)
        for (int64_t h = 0; h < 2; ++h)
            for (int64_t d = 0; d < 3; ++d) CHECK(concat.at({0, l, h * 3 + d}) == context.at({0, h, l, d}));
}
