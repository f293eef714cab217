// File formats: .npy and safetensors round trips, conversions, and malformed files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "app/io/npy.h"
#include "app/io/safetensors.h"
#include "app/io/weight_names.h"
#include "core/weights.h"

using namespace attn;
using namespace attn::io;

static Tensor sample(std::vector<int64_t> shape) {
    std::vector<std::string> names;
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) { names.push_back("d" + std::to_string(i)); n *= shape[i]; }
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * float(i) - 3.25f;
    return Tensor::from_values(std::move(shape), std::move(names), std::move(v));
}

TEST_CASE("npy round trip keeps shape and values, and writes views in logical order") {
    const Tensor t = sample({2, 3, 4});
    Result<Tensor> back = decode_npy(encode_npy(t), "test");
    REQUIRE_MESSAGE(back.ok(), back.error());
    CHECK(back->shape() == t.shape());
    CHECK(back->to_vector() == t.to_vector());
    const Tensor transposed = t.transpose(0, 2);
    Result<Tensor> tb = decode_npy(encode_npy(transposed), "test");
    REQUIRE(tb.ok());
    CHECK(tb->shape() == std::vector<int64_t>{4, 3, 2});
    CHECK(tb->to_vector() == transposed.to_vector());
    const std::string bytes = encode_npy(sample({5}));
    CHECK(bytes.find("'shape': (5,)") != std::string::npos);
    CHECK((bytes.size() - 5 * 4) % 64 == 0);  // data starts on a 64-byte boundary
}

TEST_CASE("malformed npy files are refused with a reason") {
    const std::string good = encode_npy(sample({2, 2}));
    SUBCASE("bad magic") { CHECK(decode_npy("hello world!", "f").error().find("not a .npy") != std::string::npos); }
    SUBCASE("truncated data") { CHECK(decode_npy(good.substr(0, good.size() - 3), "f").error().find("truncated") != std::string::npos); }
    SUBCASE("integer dtype") {
        std::string bad = good;
        bad.replace(bad.find("<f4"), 3, "<i4");
        CHECK(decode_npy(bad, "f").error().find("only float32") != std::string::npos);
    }
    SUBCASE("a hostile header with 40000 spaces is refused, not a stack overflow") {
        std::string bad = good;
        const size_t at = bad.find("(2, 2)");
        bad.insert(at + 1, std::string(40000, ' '));
        CHECK_FALSE(decode_npy(bad, "f").ok());
    }
    SUBCASE("shapes must be whole positive numbers separated by commas") {
        for (const char* shape : {"(2, -2)", "(2 2)  ", "(1.5, 2)", "(a, 2)  "}) {
            std::string bad = good;
            bad.replace(bad.find("(2, 2)"), 6, shape);
            CAPTURE(shape);
            CHECK(decode_npy(bad, "f").error().find("malformed shape") != std::string::npos);
        }
    }
    SUBCASE("a shape whose product overflows is too large, not wrapped") {
        std::string bad = good;
        const std::string huge = "(1048576, 1048576, 16777216)";
        bad.replace(bad.find("(2, 2)"), 6, huge);
        CHECK(decode_npy(bad, "f").error().find("too large") != std::string::npos);
    }
    SUBCASE("a header that is not one closed dict, as numpy.load refuses it") {
        const size_t close = good.find('}');
        REQUIRE(close != std::string::npos);
        std::string unterminated = good;
        unterminated[close] = ' ';  // numpy: "EOF in multi-line statement"
        std::string trailing = good;
        trailing[close + 1] = 'x';  // text after the dict
        std::string no_open = good;
        no_open[no_open.find('{')] = ' ';
        for (const std::string& bad : {unterminated, trailing, no_open}) {
            const Result<Tensor> read = decode_npy(bad, "f");
            REQUIRE_FALSE(read.ok());
            CHECK(read.message().id == "error.npy.header_not_dict");
        }
        std::string brace_in_string = good;  // a '}' inside quotes or a tuple does not close it
        brace_in_string.replace(brace_in_string.find("<f4"), 3, "}f4");
        CHECK(decode_npy(brace_in_string, "f").message().id == "error.npy.dtype");
    }
    SUBCASE("fortran order") {
        std::string bad = good;
        bad.replace(bad.find("False"), 5, "True ");
        CHECK(decode_npy(bad, "f").error().find("Fortran") != std::string::npos);
    }
}

TEST_CASE("half and bfloat16 convert exactly") {
    CHECK(half_to_float(0x3c00) == 1.0f);
    CHECK(half_to_float(0xc000) == -2.0f);
    CHECK(half_to_float(0x3555) == doctest::Approx(0.33325195));
    CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));  // smallest subnormal
    CHECK(std::isinf(half_to_float(0x7c00)));
    CHECK(bfloat16_to_float(0x3f80) == 1.0f);
    CHECK(bfloat16_to_float(0xc040) == -3.0f);
}

TEST_CASE("safetensors round trip through the PyTorch names") {
    AttentionConfig c;
    c.hidden_dim = 8;
    c.num_heads = 2;
    SUBCASE("self-attention with bias uses in_proj_weight") {}
    SUBCASE("kdim and vdim use separate projections") { c.kdim = 3; c.vdim = 5; }
    SUBCASE("no bias") { c.bias = false; }
    const AttentionWeights w = default_weights(c);
    const NamedTensors named = weights_to_tensors(w);
    Result<NamedTensors> back = decode_safetensors(encode_safetensors(named), "test");
    REQUIRE_MESSAGE(back.ok(), back.error());
    Result<LoadedWeights> loaded = weights_from_tensors(back.value(), "test");
    REQUIRE_MESSAGE(loaded.ok(), loaded.error());
    CHECK(loaded->hidden_dim == 8);
    CHECK(loaded->kdim == c.key_dim());
    CHECK(loaded->vdim == c.value_dim());
    CHECK(loaded->bias == c.bias);
    CHECK(loaded->weights.w_q == w.w_q);
    CHECK(loaded->weights.w_k == w.w_k);
    CHECK(loaded->weights.w_v == w.w_v);
    CHECK(loaded->weights.w_o == w.w_o);
    if (c.bias) CHECK(loaded->weights.b_k == w.b_k);
}

static Tensor matrix(int64_t rows, int64_t cols) { return sample({rows, cols}); }

TEST_CASE("Hugging Face names are found under a layer prefix, and a missing bias is zero") {
    NamedTensors named = {{"model.layers.0.self_attn.q_proj.weight", matrix(4, 4)},
                          {"model.layers.0.self_attn.k_proj.weight", matrix(4, 4)},
                          {"model.layers.0.self_attn.v_proj.weight", matrix(4, 4)},
                          {"model.layers.0.self_attn.o_proj.weight", matrix(4, 4)},
                          {"model.layers.0.self_attn.q_proj.bias", sample({4})}};
    Result<LoadedWeights> loaded = weights_from_tensors(named, "test");
    REQUIRE_MESSAGE(loaded.ok(), loaded.error());
    CHECK(loaded->naming == "huggingface");
    CHECK(loaded->bias);
    CHECK(loaded->weights.b_o == Vec::Zero(4));
    SUBCASE("two layers in one file are ambiguous") {
        named.emplace_back("model.layers.1.self_attn.q_proj.weight", matrix(4, 4));
        CHECK(weights_from_tensors(named, "test").error().find("several tensors") != std::string::npos);
    }
    SUBCASE("a wrong shape is named") {
        named[1].second = matrix(4, 3);
        named[2].second = matrix(3, 4);
        CHECK(weights_from_tensors(named, "test").error().find("value projection has shape (3, 4)") != std::string::npos);
    }
}

TEST_CASE("PyTorch's add_bias_kv weights are refused rather than silently ignored") {
    AttentionConfig c;
    NamedTensors named = weights_to_tensors(default_weights(c));
    named.emplace_back("bias_k", sample({1, 1, 6}));
    CHECK(weights_from_tensors(named, "test").error().find("bias_k") != std::string::npos);
}

TEST_CASE("malformed safetensors files are refused with a reason") {
    const std::string good = encode_safetensors({{"x", sample({2, 3})}});
    uint64_t header_len = 0;
    std::memcpy(&header_len, good.data(), 8);
    const std::string header = good.substr(8, header_len);
    const auto with_header = [&](std::string h) {
        const uint64_t n = h.size();
        std::string out(reinterpret_cast<const char*>(&n), 8);
        return out + h + good.substr(8 + header_len);
    };
    SUBCASE("too short") { CHECK(decode_safetensors("abc", "f").error().find("too short") != std::string::npos); }
    SUBCASE("header length past the end") {
        std::string bad = good;
        bad[6] = 1;
        CHECK(decode_safetensors(bad, "f").error().find("runs past the end") != std::string::npos);
    }
    SUBCASE("bad JSON") { CHECK(decode_safetensors(with_header("{\"x\": [1,"), "f").error().find("malformed") != std::string::npos); }
    SUBCASE("unsupported dtype") {
        std::string h = header;
        h.replace(h.find("F32"), 3, "I32");
        CHECK(decode_safetensors(with_header(h), "f").error().find("dtype I32") != std::string::npos);
    }
    SUBCASE("offsets out of range") {
        std::string h = header;
        h.replace(h.find("[0,24]"), 6, "[8,32]");
        CHECK(decode_safetensors(with_header(h), "f").error().find("outside") != std::string::npos);
    }
    SUBCASE("offsets disagree with the shape") {
        std::string h = header;
        h.replace(h.find("[0,24]"), 6, "[0,20]");
        CHECK(decode_safetensors(with_header(h), "f").error().find("need 24") != std::string::npos);
    }
    SUBCASE("dimensions whose product overflows are refused") {
        std::string h = header;
        h.replace(h.find("[2,3]"), 5, "[4294967296,4294967296]");
        CHECK(decode_safetensors(with_header(h), "f").error().find("malformed shape") != std::string::npos);
        h = header;
        h.replace(h.find("[2,3]"), 5, "[65536,65536,65536]");
        CHECK(decode_safetensors(with_header(h), "f").error().find("too large") != std::string::npos);
    }
    SUBCASE("a zero dimension does not hide huge ones (their strides would overflow int64)") {
        // Found by UBSan: count 0 passed, then contiguous_strides multiplied 2^93 out.
        const std::string h = R"({"x":{"dtype":"F32","shape":[0,2147483648,2147483648,2147483648],"data_offsets":[0,0]}})";
        const auto r = decode_safetensors(with_header(h), "f");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().find("too large") != std::string::npos);
    }
    SUBCASE("a zero dimension with small others reads as an empty tensor") {
        const std::string h = R"({"x":{"dtype":"F32","shape":[0,3],"data_offsets":[0,0]}})";
        const auto r = decode_safetensors(with_header(h), "f");
        REQUIRE(r.ok());
        CHECK(r->front().second.numel() == 0);
        CHECK(r->front().second.is_contiguous());
    }
    SUBCASE("the good file reads") { CHECK(decode_safetensors(good, "f").ok()); }
}
