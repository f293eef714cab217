// the articles' operations against PyTorch fixtures (tests/fixtures/torch_options): RoPE,
// repeat_kv, bfloat16/float16 rounding, nn.MultiheadAttention's extra key rows and the
// head-averaged weights. Masks are in test_mask_parity.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "app/io/safetensors.h"
#include "core/dtype_round.h"
#include "core/extra_keys.h"
#include "core/head_average.h"
#include "core/repeat_kv.h"
#include "core/rope.h"
#include "tests/option_fixture_util.h"

using namespace attn;

namespace {

Tensor table_tensor(const Mat& m) {
    return Tensor::from_values({m.rows(), m.cols()}, {"L", "d_h"}, std::vector<float>(m.data(), m.data() + m.size()));
}

RopeTables tables_for(const nlohmann::json& cfg, int64_t L, int64_t d_h, int64_t offset) {
    const RopeStyle style = parse_rope_style(cfg["rope_style"].get<std::string>()).value();
    const double base = cfg["rope_base"].get<double>();
    REQUIRE(check_rope(d_h, base, offset).ok());
    return rope_tables(L, d_h, base, offset, style);
}

// scores[b, h] = q[b, h] k[b, h / group]^T: (B, H, L, S) from (B, H, L, d_h) and (B, KV, S, d_h).
Tensor dot_scores(const Tensor& q, const Tensor& k) {
    const int64_t B = q.dim(0), H = q.dim(1), L = q.dim(2), d_h = q.dim(3), KV = k.dim(1), S = k.dim(2);
    Tensor out = Tensor::uninitialized({B, H, L, S}, {"B", "H", "L", "S"});
    const Tensor qc = q.contiguous(), kc = k.contiguous();
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h) {
            const ConstMatMap qh(qc.data() + (b * H + h) * L * d_h, L, d_h);
            const ConstMatMap kh(kc.data() + (b * KV + h / (H / KV)) * S * d_h, S, d_h);
            MatMap(out.mutable_data() + (b * H + h) * L * S, L, S) = qh * kh.transpose();
        }
    return out;
}

void check_close(const std::string& what, const Tensor& ours, const Tensor& torch_values, double tolerance) {
    const option_cases::Difference d = option_cases::compare(ours, torch_values);
    INFO(what, ": largest difference ", d.largest, " at ", d.where);
    CHECK(d.largest <= tolerance);
}

void check_bits(const std::string& what, const Tensor& ours, const Tensor& torch_values) {
    const option_cases::Difference d = option_cases::compare_bits(ours, torch_values);
    INFO(what, ": ", d.largest, " elements differ in their bits; first at ", d.where);
    CHECK(d.largest == 0);
}

Tensor named_weight(const std::string& name, const std::string& weight) {
    Result<io::NamedTensors> all = io::read_safetensors((option_cases::fixture_dir(name) / "weights.safetensors").string());
    REQUIRE_MESSAGE(all.ok(), all.error());
    for (const auto& [n, t] : all.value())
        if (n == weight) return t;
    FAIL("no ", weight, " in ", name);
    return {};
}

}  // namespace

// ---------------------------------------------------------------------------- RoPE

TEST_CASE("RoPE tables and rotated q and k match torch on every RoPE fixture") {
    int checked = 0, rope_cases = 0;
    for (const std::string& name : option_cases::all_cases()) {
        const nlohmann::json j = option_cases::case_json(name);
        rope_cases += j["config"]["rope"].get<bool>() ? 1 : 0;
        if (!option_cases::has_step(j, "q_rot")) continue;
        CAPTURE(name);
        const nlohmann::json& cfg = j["config"];
        const DType dtype = parse_dtype(cfg["dtype"].get<std::string>()).value();
        const Tensor q_heads = option_cases::read_fixture(name, "q_heads.npy");  // (B, H, L, d_h)
        const Tensor k_heads = option_cases::read_fixture(name, "k_heads.npy");  // (B, H_kv, S, d_h)
        const int64_t L = q_heads.dim(2), d_h = q_heads.dim(3);
        const RopeStyle style = parse_rope_style(cfg["rope_style"].get<std::string>()).value();
        const RopeTables t = tables_for(cfg, L, d_h, cfg["position_offset"].get<int64_t>());
        if (dtype == DType::Float32) {
            check_close(name + " rope_cos", table_tensor(t.cos), option_cases::read_fixture(name, "rope_cos.npy"), 1e-6);
            check_close(name + " rope_sin", table_tensor(t.sin), option_cases::read_fixture(name, "rope_sin.npy"), 1e-6);
            check_close(name + " q_rot", apply_rope(q_heads, t, style), option_cases::read_fixture(name, "q_rot.npy"), 1e-6);
            check_close(name + " k_rot", apply_rope(k_heads, t, style), option_cases::read_fixture(name, "k_rot.npy"), 1e-6);
        } else {
            // bf16/f16: tables and every partial result rounded; the README says these match to the bit.
            Mat cos = t.cos, sin = t.sin;
            round_to_dtype_in_place(dtype, cos.data(), cos.size());
            round_to_dtype_in_place(dtype, sin.data(), sin.size());
            check_bits(name + " rope_cos", table_tensor(cos), option_cases::read_fixture(name, "rope_cos.npy"));
            check_bits(name + " rope_sin", table_tensor(sin), option_cases::read_fixture(name, "rope_sin.npy"));
            check_bits(name + " q_rot", apply_rope(q_heads, t, style, dtype), option_cases::read_fixture(name, "q_rot.npy"));
            check_bits(name + " k_rot", apply_rope(k_heads, t, style, dtype), option_cases::read_fixture(name, "k_rot.npy"));
        }
        ++checked;
    }
    CHECK(checked == rope_cases);
    CHECK(checked >= 8);  // rope_* (5), llama_gqa_rope, dtype_bf16/f16_llama_rope_gqa, ...
}

TEST_CASE("RoPE keeps the length of every rotated pair") {
    for (const RopeStyle style : {RopeStyle::Half, RopeStyle::Interleaved}) {
        const nlohmann::json cfg = option_cases::case_json("rope_half")["config"];
        const Tensor q = option_cases::read_fixture("rope_half", "q_heads.npy");
        const int64_t d_h = q.dim(3), rows = q.numel() / d_h;
        const RopeTables t = rope_tables(q.dim(2), d_h, 10000.0, 3, style);
        const std::vector<float> before = q.to_vector(), after = apply_rope(q, t, style).to_vector();
        double worst = 0;
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < d_h; ++c) {
                float sign = 0;
                const int64_t p = rope_partner(c, d_h, style, &sign);
                const auto at = [&](const std::vector<float>& v, int64_t col) { return double(v[size_t(r * d_h + col)]); };
                const double n0 = std::hypot(at(before, c), at(before, p)), n1 = std::hypot(at(after, c), at(after, p));
                worst = std::max(worst, std::abs(n0 - n1));
            }
        CAPTURE(to_string(style));
        INFO("largest change of a pair's length: ", worst);
        CHECK(worst < 1e-5);
        CHECK(worst > 0.0 - 1.0);  // (a NaN would fail the line above)
    }
}

TEST_CASE("with RoPE, q . k depends only on the relative position") {
    int checked = 0;
    for (const std::string& name : option_cases::all_cases()) {
        const nlohmann::json j = option_cases::case_json(name);
        if (!j.contains("relative_position_check") || j["config"]["dtype"] != "float32") continue;
        CAPTURE(name);
        const nlohmann::json& cfg = j["config"];
        const RopeStyle style = parse_rope_style(cfg["rope_style"].get<std::string>()).value();
        const Tensor q = option_cases::read_fixture(name, "q_heads.npy"), k = option_cases::read_fixture(name, "k_heads.npy");
        const int64_t L = q.dim(2), d_h = q.dim(3);
        const auto offsets = j["relative_position_check"]["offsets"].get<std::vector<int64_t>>();
        const auto files = j["relative_position_check"]["files"].get<std::vector<std::string>>();
        REQUIRE(offsets.size() == 2);
        Tensor first;
        for (size_t n = 0; n < offsets.size(); ++n) {
            const RopeTables t = tables_for(cfg, L, d_h, offsets[n]);
            const Tensor scores = dot_scores(apply_rope(q, t, style), apply_rope(k, t, style));
            check_close(name + " scores at offset " + std::to_string(offsets[n]), scores, option_cases::read_fixture(name, files[n]), 1e-5);
            if (n == 0) first = scores;
            else check_close(name + " offset 0 vs offset " + std::to_string(offsets[n]), scores, first, 2e-6);
        }
        // ... while the rotated queries themselves do change with the offset.
        const Tensor q0 = apply_rope(q, tables_for(cfg, L, d_h, offsets[0]), style);
        const Tensor q1 = apply_rope(q, tables_for(cfg, L, d_h, offsets[1]), style);
        CHECK(option_cases::compare(q0, q1).largest > 0.01);
        ++checked;
    }
    CHECK(checked >= 1);
}

TEST_CASE("RoPE refuses an odd head width, a non-positive base and a negative offset") {
    CHECK(check_rope(3, 10000, 0).error().find("even") != std::string::npos);
    CHECK(check_rope(3, 10000, 0).error().find("3") != std::string::npos);
    CHECK_FALSE(check_rope(0, 10000, 0).ok());
    CHECK_FALSE(check_rope(4, 0, 0).ok());
    CHECK_FALSE(check_rope(4, std::nan(""), 0).ok());
    CHECK_FALSE(check_rope(4, 10000, -1).ok());
    CHECK(check_rope(2, 500, 5).ok());
    CHECK(parse_rope_style("half").value() == RopeStyle::Half);
    CHECK(parse_rope_style("interleaved").value() == RopeStyle::Interleaved);
    CHECK(parse_rope_style("pairs").error().find("interleaved") != std::string::npos);
}

// ---------------------------------------------------------------------------- GQA

TEST_CASE("repeat_kv matches torch's k_repeated and v_repeated on every grouped-query fixture") {
    int checked = 0;
    for (const std::string& name : option_cases::all_cases()) {
        const nlohmann::json j = option_cases::case_json(name);
        if (!option_cases::has_step(j, "k_repeated")) continue;
        CAPTURE(name);
        const int H = j["config"]["num_heads"].get<int>();
        REQUIRE(check_kv_heads(H, j["config"]["num_kv_heads"].get<int>()).ok());
        const Tensor k_source = option_cases::read_fixture(name, option_cases::has_step(j, "k_rot") ? "k_rot.npy" : "k_heads.npy");
        check_bits(name + " k_repeated", repeat_kv(k_source, H), option_cases::read_fixture(name, "k_repeated.npy"));
        check_bits(name + " v_repeated", repeat_kv(option_cases::read_fixture(name, "v_heads.npy"), H),
                   option_cases::read_fixture(name, "v_repeated.npy"));
        ++checked;
    }
    CHECK(checked >= 4);  // gqa_kv2_h4, mqa_kv1_h4, llama_gqa_rope, dtype_*_llama_rope_gqa
}

TEST_CASE("repeat_kv with as many key heads as query heads changes nothing, and transposed input is read logically") {
    const Tensor v = option_cases::read_fixture("rope_half", "v_heads.npy");  // (B, H, S, d_h) with H_kv == H
    check_bits("identity", repeat_kv(v, static_cast<int>(v.dim(1))), v);
    const Tensor split = option_cases::read_fixture("gqa_kv2_h4", "k_split.npy");  // (B, S, KV, d_h)
    check_bits("from a transposed view", repeat_kv(split.transpose(1, 2), 4), option_cases::read_fixture("gqa_kv2_h4", "k_repeated.npy"));
}

TEST_CASE("which query heads share a key head") {
    CHECK(kv_head_of(3, 4, 2) == 1);
    CHECK(kv_head_of(1, 4, 2) == 0);
    CHECK(kv_head_of(3, 4, 1) == 0);
    CHECK(query_heads_sharing(1, 4, 2) == std::vector<int>{2, 3});
    CHECK(query_heads_sharing(0, 4, 1) == std::vector<int>{0, 1, 2, 3});
    CHECK(query_heads_sharing(2, 4, 4) == std::vector<int>{2});
}

TEST_CASE("num_kv_heads that does not divide num_heads is refused with the valid choices") {
    const Status s = check_kv_heads(6, 4);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().find("num_kv_heads 4 must divide num_heads 6") != std::string::npos);
    CHECK(s.error().find("1, 2, 3, 6") != std::string::npos);
    CHECK_FALSE(check_kv_heads(4, 0).ok());
    CHECK_FALSE(check_kv_heads(4, 8).ok());
    CHECK(check_kv_heads(8, 2).ok());
}

// ---------------------------------------------------------------------------- dtype

TEST_CASE("bfloat16 rounding: known bit patterns, ties to even, overflow, NaN, subnormals") {
    CHECK(bfloat16_bits_from_float(1.0f) == 0x3F80);
    CHECK(bfloat16_bits_from_float(-2.0f) == 0xC000);
    CHECK(bfloat16_bits_from_float(3.14159265f) == 0x4049);  // torch.tensor(3.14159265).bfloat16()
    // Ties: 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to even (1). 1 + 3*2^-8 goes up.
    CHECK(bfloat16_bits_from_float(1.0f + 1.0f / 256) == 0x3F80);
    CHECK(bfloat16_bits_from_float(1.0f + 3.0f / 256) == 0x3F82);
    CHECK(bfloat16_bits_from_float(1.0f + 1.0f / 256 + 1.0f / 65536) == 0x3F81);  // just above the tie
    CHECK(float_from_bfloat16_bits(bfloat16_bits_from_float(std::numeric_limits<float>::max())) ==
          std::numeric_limits<float>::infinity());
    CHECK(bfloat16_bits_from_float(std::numeric_limits<float>::infinity()) == 0x7F80);
    CHECK(bfloat16_bits_from_float(-std::numeric_limits<float>::infinity()) == 0xFF80);
    CHECK(bfloat16_bits_from_float(std::nanf("")) == 0x7FC0);
    CHECK(bfloat16_bits_from_float(-std::nanf("")) == 0x7FC0);
    CHECK(bfloat16_bits_from_float(1e-40f) == 0x0001);  // float32 subnormal 0x000116C2 -> 0x0001
    CHECK(float_from_bfloat16_bits(0x3F81) == 1.0078125f);
    CHECK(dtype_lowest(DType::BFloat16) == -3.3895313892515355e38f);
}

TEST_CASE("float16 rounding: known bit patterns, ties to even, overflow, NaN, subnormals") {
    CHECK(float16_bits_from_float(1.0f) == 0x3C00);
    CHECK(float16_bits_from_float(-2.0f) == 0xC000);
    CHECK(float16_bits_from_float(65504.0f) == 0x7BFF);
    CHECK(float16_bits_from_float(65519.99f) == 0x7BFF);  // below the halfway point to 65536
    CHECK(float16_bits_from_float(65520.0f) == 0x7C00);   // the tie rounds to even: inf
    CHECK(float16_bits_from_float(-1e6f) == 0xFC00);
    CHECK((float16_bits_from_float(std::nanf("")) & 0x7FFF) == 0x7E00);
    CHECK(float16_bits_from_float(1.0f + 1.0f / 2048) == 0x3C00);       // tie -> even
    CHECK(float16_bits_from_float(1.0f + 3.0f / 2048) == 0x3C02);       // tie -> even (up)
    CHECK(float16_bits_from_float(5.960464477539063e-08f) == 0x0001);   // 2^-24, smallest subnormal
    CHECK(float16_bits_from_float(2.98023224e-08f) == 0x0000);          // 2^-25: tie -> even (0)
    CHECK(float16_bits_from_float(4.5e-08f) == 0x0001);                 // above the tie
    CHECK(float16_bits_from_float(6.097555e-05f) == 0x03FF);            // largest subnormal
    CHECK(float16_bits_from_float(6.103515625e-05f) == 0x0400);         // 2^-14, smallest normal
    CHECK(float16_bits_from_float(-0.0f) == 0x8000);
    CHECK(float_from_float16_bits(0x0001) == 5.960464477539063e-08f);
    CHECK(float_from_float16_bits(0x7BFF) == 65504.0f);
    CHECK(std::isinf(float_from_float16_bits(0xFC00)));
    CHECK(std::isnan(float_from_float16_bits(0x7E00)));
    CHECK(float_from_float16_bits(0x3555) == 0.333251953125f);
}

TEST_CASE("rounding through float16 and bfloat16 agrees with the exact decoders of the safetensors reader") {
    // Every 16-bit pattern decodes the same in both implementations and re-encodes to itself.
    int mismatches = 0;
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const auto b16 = static_cast<uint16_t>(bits);
        const float h = float_from_float16_bits(b16), bf = float_from_bfloat16_bits(b16);
        const bool h_same = std::isnan(h) ? std::isnan(io::half_to_float(b16)) : h == io::half_to_float(b16);
        const bool bf_same = std::isnan(bf) ? std::isnan(io::bfloat16_to_float(b16)) : bf == io::bfloat16_to_float(b16);
        const bool h_back = std::isnan(h) || float16_bits_from_float(h) == b16;
        const bool bf_back = std::isnan(bf) || bfloat16_bits_from_float(bf) == b16;
        if (!(h_same && bf_same && h_back && bf_back)) {
            if (mismatches == 0) MESSAGE("first mismatch at bits ", bits);
            ++mismatches;
        }
    }
    CHECK(mismatches == 0);
}

TEST_CASE("the dtype fixtures' inputs, weights and RoPE tables are what rounding float32 gives, bit for bit") {
    for (const char* name : {"dtype_bf16", "dtype_f16", "dtype_bf16_llama_rope_gqa", "dtype_f16_llama_rope_gqa", "dtype_bf16_dh16"}) {
        CAPTURE(name);
        const nlohmann::json j = option_cases::case_json(name);
        const DType dtype = parse_dtype(j["config"]["dtype"].get<std::string>()).value();
        REQUIRE(dtype != DType::Float32);
        // The files hold already rounded values, so rounding must keep every bit ...
        Tensor input = option_cases::read_fixture(name, "input.npy").contiguous(true);
        const Tensor stored = option_cases::read_fixture(name, "input.npy");
        round_to_dtype_in_place(dtype, input.mutable_data(), input.numel());
        check_bits(std::string(name) + " input", input, stored);
        check_bits(std::string(name) + " query.npy", option_cases::read_fixture(name, "query.npy"), stored);
        // A float32 case's input is not on the grid, so the check above can fail.
        Tensor float32_input = option_cases::read_fixture("rope_half", "input.npy").contiguous(true);
        const Tensor before = float32_input.contiguous(true);
        round_to_dtype_in_place(dtype, float32_input.mutable_data(), float32_input.numel());
        CHECK(option_cases::compare_bits(float32_input, before).largest > 0);
        // Weights stored in the low dtype come back from the safetensors reader on the grid too.
        Tensor wq = named_weight(name, "q_proj.weight").contiguous(true);
        const Tensor wq_stored = wq.contiguous(true);
        round_to_dtype_in_place(dtype, wq.mutable_data(), wq.numel());
        check_bits(std::string(name) + " q_proj.weight", wq, wq_stored);
    }
    // The buffer and the scalar paths agree on a sweep of float32 values.
    std::vector<float> sweep = {0.0f, -0.0f, 1e-40f, -1e-45f, 65520.0f, 3e38f, std::numeric_limits<float>::infinity(), std::nanf("")};
    for (int i = -200000; i <= 200000; ++i) sweep.push_back(static_cast<float>(i) * 0.3501f + 1e-3f);
    for (int e = -140; e <= 127; ++e) sweep.push_back(std::ldexp(1.37f, e));
    for (DType d : {DType::BFloat16, DType::Float16}) {
        std::vector<float> buffer = sweep;
        round_to_dtype_in_place(d, buffer.data(), static_cast<int64_t>(buffer.size()));
        int differ = 0;
        for (size_t i = 0; i < sweep.size(); ++i) {
            const float one = round_to_dtype(d, sweep[i]);
            differ += std::memcmp(&buffer[i], &one, sizeof(float)) != 0;
        }
        CHECK(differ == 0);
    }
    CHECK(parse_dtype("float64").error().find("bfloat16") != std::string::npos);
}

// ---------------------------------------------------------------------------- MHA extras

TEST_CASE("bias_k / bias_v rows and the zero row are appended where nn.MultiheadAttention appends them") {
    int bias_cases = 0, zero_cases = 0;
    for (const std::string& name : option_cases::all_cases()) {
        const nlohmann::json j = option_cases::case_json(name);
        const nlohmann::json& cfg = j["config"];
        CAPTURE(name);
        const int64_t S = cfg["kv_len"].get<int64_t>();
        if (cfg["add_bias_kv"].get<bool>()) {
            for (const char* part : {"k", "v"}) {
                const Tensor full = option_cases::read_fixture(name, std::string(part) + ".npy");  // (B, S + 1, E)
                REQUIRE(full.dim(1) == S + 1);
                const Tensor bias = named_weight(name, std::string("bias_") + part);    // (1, 1, E)
                check_bits(name + " " + part, append_bias_row(full.narrow(1, 0, S), bias.to_vector()), full);
            }
            ++bias_cases;
        }
        if (cfg["add_zero_attn"].get<bool>()) {
            for (const char* part : {"k", "v"}) {
                const Tensor split = option_cases::read_fixture(name, std::string(part) + "_split.npy");  // (B, S', H, d_h)
                check_bits(name + " " + part + "_heads", append_zero_row(split.transpose(1, 2)),
                           option_cases::read_fixture(name, std::string(part) + "_heads.npy"));
            }
            ++zero_cases;
        }
    }
    CHECK(bias_cases == 3);
    CHECK(zero_cases == 2);
}

// ---------------------------------------------------------------------------- averaged weights

TEST_CASE("head-averaged weights match torch's attn_weights_avg") {
    int checked = 0;
    for (const std::string& name : option_cases::all_cases()) {
        const nlohmann::json j = option_cases::case_json(name);
        if (!option_cases::has_step(j, "attn_weights_avg")) continue;
        CAPTURE(name);
        const Tensor avg = average_heads(option_cases::read_fixture(name, "attn_weights.npy"));
        check_close(name + " attn_weights_avg", avg, option_cases::read_fixture(name, "attn_weights_avg.npy"), 1e-6);
        CHECK(avg.dim_names() == std::vector<std::string>{"B", "L", "S"});
        ++checked;
    }
    CHECK(checked >= 2);
}
