// Masks as data (core/mask_spec.h) against PyTorch: every fixture case with an
// attn_masked step, plus validation messages and the npy bool reader.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "app/io/npy.h"
#include "core/mask_spec.h"
#include "core/softmax.h"
#include "tests/npy_bytes.h"
#include "tests/option_fixture_util.h"

using namespace attn;

namespace {

MaskSpec spec_from_case(const std::string& name, const nlohmann::json& cfg) {
    MaskSpec spec;
    Result<MaskPresets> presets = parse_mask_presets(cfg["mask"].get<std::string>());
    REQUIRE_MESSAGE(presets.ok(), presets.error());
    spec.presets = presets.value();
    spec.valid_lengths = cfg["valid_lengths"].get<std::vector<int>>();
    spec.window = cfg["window"].get<int>();
    Result<MaskFill> fill = parse_mask_fill(cfg["mask_fill"].get<std::string>());
    REQUIRE_MESSAGE(fill.ok(), fill.error());
    spec.fill = fill.value();
    if (cfg["mask_file"].is_string()) {
        Result<io::NpyArray> file = io::read_npy_array((option_cases::fixture_dir(name) / cfg["mask_file"].get<std::string>()).string());
        REQUIRE_MESSAGE(file.ok(), file.error());
        spec.file = file->tensor;
        spec.file_is_boolean = file->is_boolean;
    }
    return spec;
}

// Applies the mask to the step before attn_masked, compares with attn_masked, then the
// project's softmax of the step before attn_weights with attn_weights (NaN rows: zeros).
void check_mask_case(const std::string& name) {
    const nlohmann::json j = option_cases::case_json(name);
    const nlohmann::json& cfg = j["config"];
    Result<DType> dtype = parse_dtype(cfg["dtype"].get<std::string>());
    REQUIRE(dtype.ok());
    std::vector<std::string> order;
    for (const auto& s : j["steps"]) order.push_back(s["name"].get<std::string>());
    const auto at = std::find(order.begin(), order.end(), "attn_masked");
    REQUIRE(at != order.end());
    const std::string before_mask = *(at - 1);
    const std::string before_softmax = *(std::find(order.begin(), order.end(), "attn_weights") - 1);

    const Tensor input = option_cases::read_fixture(name, before_mask + ".npy");       // (B, H, L, S_all)
    const Tensor torch_masked = option_cases::read_fixture(name, "attn_masked.npy");   // (B, H, L, S_all)
    const Tensor logits = option_cases::read_fixture(name, before_softmax + ".npy");   // (B, H, L, S_all)
    const Tensor torch_weights = option_cases::read_fixture(name, "attn_weights.npy"); // (B, H, L, S_all)
    const int64_t B = input.dim(0), H = input.dim(1), L = input.dim(2), S_all = input.dim(3);
    const MaskSizes sizes{B, H, L, cfg["kv_len"].get<int64_t>()};
    Result<BoundMask> mask = BoundMask::bind(spec_from_case(name, cfg), sizes, dtype.value());
    REQUIRE_MESSAGE(mask.ok(), mask.error());

    std::set<std::vector<int64_t>> torch_rows;
    for (const auto& r : j["fully_masked_rows"]) torch_rows.insert(r.get<std::vector<int64_t>>());
    const bool torch_nan = j["torch_fully_masked_result"] == "nan";

    Tensor ours_masked = Tensor::uninitialized(input.shape(), input.dim_names());
    Tensor ours_weights = Tensor::uninitialized(input.shape(), input.dim_names());
    Tensor expected_weights = torch_weights.contiguous(true);
    std::set<std::vector<int64_t>> our_rows;
    std::vector<uint8_t> flags(static_cast<size_t>(L));
    const int64_t block = L * S_all;
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h) {
            const int64_t off = (b * H + h) * block;
            ConstMatMap scores(input.data() + off, L, S_all);
            MatMap masked(ours_masked.mutable_data() + off, L, S_all);
            mask->apply(scores, b, h, masked, flags.data());
            round_to_dtype_in_place(dtype.value(), masked.data(), block);
            for (int64_t i = 0; i < L; ++i)
                if (flags[static_cast<size_t>(i)]) our_rows.insert({b, h, i});
            std::vector<uint8_t> softmax_flags(static_cast<size_t>(L));
            masked_softmax_rows(logits.data() + off, ours_weights.mutable_data() + off, static_cast<int>(L),
                                static_cast<int>(S_all), softmax_flags.data());
            round_to_dtype_in_place(dtype.value(), ours_weights.mutable_data() + off, block);
            for (int64_t i = 0; i < L; ++i) {
                if (!torch_nan || !torch_rows.count({b, h, i})) continue;
                // torch: NaN; the project: zeros, and the softmax flags the row too.
                CHECK(softmax_flags[static_cast<size_t>(i)] == 1);
                for (int64_t c = 0; c < S_all; ++c) {
                    REQUIRE(std::isnan(expected_weights.mutable_data()[off + i * S_all + c]));
                    expected_weights.mutable_data()[off + i * S_all + c] = 0.0f;
                }
            }
        }
    CHECK_MESSAGE(our_rows == torch_rows, name, ": fully masked rows differ (ours ", our_rows.size(), ", torch ",
                  torch_rows.size(), ")");
    const double tolerance = dtype.value() == DType::Float32 ? 1e-6 : 0.0;
    const option_cases::Difference dm = option_cases::compare(ours_masked, torch_masked);
    INFO(name, " attn_masked (from ", before_mask, "): largest difference ", dm.largest, " at ", dm.where);
    CHECK(dm.largest <= tolerance);
    if (dtype.value() == DType::Float32) {
        const option_cases::Difference dw = option_cases::compare(ours_weights, expected_weights);
        INFO(name, " attn_weights: largest difference ", dw.largest, " at ", dw.where);
        CHECK(dw.largest <= 1e-6);
    }
}

}  // namespace

TEST_CASE("masks from presets and files match torch's attn_masked and attn_weights on every masked fixture") {
    int checked = 0;
    for (const std::string& name : option_cases::all_cases()) {
        if (!option_cases::has_step(option_cases::case_json(name), "attn_masked")) continue;
        CAPTURE(name);
        check_mask_case(name);
        ++checked;
    }
    CHECK(checked >= 63);  // every mask_*, preset_*, scale_*, dim_*, rope, gqa, mha and dtype case with a mask
}

TEST_CASE("a boolean mask replaces cells by the fill after the float mask is added, and extra key columns stay visible") {
    MaskSpec spec;
    spec.presets.causal = true;
    spec.file = Tensor::from_values({2}, {"S"}, {0.5f, -2.0f});  // float (S)
    spec.fill = MaskFill{MaskFillKind::Value, -7.0f};
    Result<BoundMask> mask = BoundMask::bind(spec, MaskSizes{1, 1, 2, 2});
    REQUIRE_MESSAGE(mask.ok(), mask.error());
    Mat scores(2, 3);  // (L, S + 1): one bias_k column
    scores << 1, 2, 3, 4, 5, 6;
    Mat masked(2, 3);
    uint8_t flags[2] = {9, 9};
    CHECK(mask->apply(scores, 0, 0, masked, flags) == 0);
    CHECK(masked(0, 0) == 1.5f);
    CHECK(masked(0, 1) == -7.0f);  // causal: replaced, not added to
    CHECK(masked(0, 2) == 3.0f);   // the extra column is never masked
    CHECK(masked(1, 0) == 4.5f);
    CHECK(masked(1, 1) == 3.0f);
    CHECK(flags[0] == 0);
    CHECK(flags[1] == 0);
}

TEST_CASE("valid length 0 and left padding leave rows with no key, flagged") {
    MaskSpec spec;
    spec.presets.left_padding = true;
    spec.presets.causal = true;
    spec.valid_lengths = {3, 1};
    Result<BoundMask> mask = BoundMask::bind(spec, MaskSizes{2, 1, 3, 3});
    REQUIRE_MESSAGE(mask.ok(), mask.error());
    const Mat scores = Mat::Zero(3, 3);
    Mat masked(3, 3);
    uint8_t flags[3];
    CHECK(mask->apply(scores, 0, 0, masked, flags) == 0);
    CHECK(mask->apply(scores, 1, 0, masked, flags) == 2);  // item 1: only key 2 is real; queries 0, 1 see nothing
    CHECK(flags[0] == 1);
    CHECK(flags[1] == 1);
    CHECK(flags[2] == 0);
    CHECK(std::isinf(masked(0, 0)));
}

TEST_CASE("the window preset keeps the N latest keys up to the query") {
    MaskSpec spec;
    spec.presets.window = true;
    spec.window = 2;
    Result<BoundMask> mask = BoundMask::bind(spec, MaskSizes{1, 1, 4, 4});
    REQUIRE(mask.ok());
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            CAPTURE(i);
            CAPTURE(j);
            CHECK(mask->is_masked(0, 0, i, j) == !(j <= i && j >= i - 1));
        }
}

TEST_CASE("mask settings that cannot apply are refused with a message saying what is accepted") {
    const MaskSizes sizes{2, 2, 3, 5};
    SUBCASE("a file of the wrong shape names the shape given and the accepted ones") {
        MaskSpec spec;
        spec.file = Tensor::zeros({3, 4}, {"d0", "d1"});
        Result<BoundMask> m = BoundMask::bind(spec, sizes);
        REQUIRE_FALSE(m.ok());
        CHECK(m.error().find("(3, 4)") != std::string::npos);
        CHECK(m.error().find("(B, 1, L, S) = (2, 1, 3, 5)") != std::string::npos);
        CHECK(m.error().find("(L, S) = (3, 5)") != std::string::npos);
    }
    SUBCASE("rank 5 is refused") {
        MaskSpec spec;
        spec.file = Tensor::zeros({1, 2, 2, 3, 5}, {"a", "b", "c", "d", "e"});
        CHECK_FALSE(BoundMask::bind(spec, sizes).ok());
    }
    SUBCASE("(B, L, S) is read as (B, 1, L, S), so (H, L, S) with H != B does not fit") {
        MaskSpec spec;
        spec.file = Tensor::zeros({2, 3, 5}, {"B", "L", "S"});
        CHECK(BoundMask::bind(spec, sizes).ok());
        CHECK_FALSE(BoundMask::bind(spec, MaskSizes{1, 2, 3, 5}).ok());
    }
    SUBCASE("padding needs one valid length per item, each within 0..S") {
        MaskSpec spec;
        spec.presets.padding = true;
        spec.valid_lengths = {5};
        CHECK(BoundMask::bind(spec, sizes).error().find("one valid length per batch item") != std::string::npos);
        spec.valid_lengths = {5, 6};
        CHECK(BoundMask::bind(spec, sizes).error().find("outside 0..5") != std::string::npos);
        spec.valid_lengths = {0, 5};
        CHECK(BoundMask::bind(spec, sizes).ok());
    }
    SUBCASE("window needs N >= 1") {
        MaskSpec spec;
        spec.presets.window = true;
        CHECK(BoundMask::bind(spec, sizes).error().find("--window") != std::string::npos);
    }
    SUBCASE("a NaN in a float mask, or 2 in a boolean one, is refused") {
        MaskSpec spec;
        spec.file = Tensor::from_values({5}, {"S"}, {0, 0, std::nanf(""), 0, 0});
        CHECK(BoundMask::bind(spec, sizes).error().find("NaN") != std::string::npos);
        spec.file = Tensor::from_values({5}, {"S"}, {0, 2, 0, 0, 0});
        spec.file_is_boolean = true;
        CHECK(BoundMask::bind(spec, sizes).error().find("boolean") != std::string::npos);
    }
    SUBCASE("unknown presets and fills") {
        CHECK(parse_mask_presets("causal,diagonal").error().find("diagonal") != std::string::npos);
        CHECK_FALSE(parse_mask_fill("-1e20x").ok());
        CHECK_FALSE(parse_mask_fill("nan").ok());
        CHECK(parse_mask_fill("-1e9")->value == -1e9f);
        CHECK(to_string(parse_mask_presets("window,causal").value()) == "causal,window");
    }
}

TEST_CASE("fill values: -1e20, and min is the compute dtype's own lowest value") {
    CHECK(mask_fill_value(MaskFill{MaskFillKind::Negative1e20, 0}, DType::Float32) == -1e20f);
    CHECK(mask_fill_value(MaskFill{MaskFillKind::DtypeLowest, 0}, DType::Float32) == -3.4028234663852886e38f);
    CHECK(mask_fill_value(MaskFill{MaskFillKind::DtypeLowest, 0}, DType::BFloat16) == -3.3895313892515355e38f);
    CHECK(mask_fill_value(MaskFill{MaskFillKind::DtypeLowest, 0}, DType::Float16) == -65504.0f);
    CHECK(std::isinf(mask_fill_value(MaskFill{}, DType::Float16)));
}

namespace {
using testing::bool_npy;
}  // namespace

TEST_CASE("npy bool arrays read as 0/1 with is_boolean, and only masks may be boolean") {
    const std::vector<uint8_t> values = {1, 0, 0, 1, 1, 0};
    Result<io::NpyArray> a = io::decode_npy_array(bool_npy(values, "(2, 3)"), "m");
    REQUIRE_MESSAGE(a.ok(), a.error());
    CHECK(a->is_boolean);
    CHECK(a->tensor.shape() == std::vector<int64_t>{2, 3});
    CHECK(a->tensor.to_vector() == std::vector<float>{1, 0, 0, 1, 1, 0});
    CHECK(io::decode_npy(bool_npy(values, "(2, 3)"), "q").error().find("booleans") != std::string::npos);
    // A float file through the same reader is not boolean.
    Result<io::NpyArray> f = io::decode_npy_array(io::encode_npy(a->tensor), "f");
    REQUIRE(f.ok());
    CHECK_FALSE(f->is_boolean);
    CHECK(f->tensor.to_vector() == a->tensor.to_vector());
    // numpy's own file agrees with the bits we expect: mask_bool_S has some True and some False.
    Result<io::NpyArray> numpy_file = io::read_npy_array((option_cases::fixture_dir("mask_bool_S_neginf") / "mask.npy").string());
    REQUIRE_MESSAGE(numpy_file.ok(), numpy_file.error());
    CHECK(numpy_file->is_boolean);
    CHECK(numpy_file->tensor.shape() == std::vector<int64_t>{5});
}

TEST_CASE("hostile npy bool files are refused: bytes other than 0/1, truncation, huge shapes") {
    CHECK(io::decode_npy_array(bool_npy({0, 7, 1}, "(3,)"), "m").error().find("byte 7") != std::string::npos);
    CHECK(io::decode_npy_array(bool_npy({0, 1}, "(3,)"), "m").error().find("truncated") != std::string::npos);
    CHECK_FALSE(io::decode_npy_array(bool_npy({0}, "(99999999999,)"), "m").ok());
    CHECK_FALSE(io::decode_npy_array(bool_npy({0}, "(4294967296, 4294967296)"), "m").ok());
}

TEST_CASE("every combination of presets masks exactly the keys the README's formulas name") {
    const int64_t L = 4, S = 6;
    const std::vector<int> lengths = {6, 3, 0};
    for (int combo = 0; combo < 16; ++combo)
        for (int window = 1; window <= 3; ++window) {
            MaskSpec spec;
            spec.presets = MaskPresets{(combo & 1) != 0, (combo & 2) != 0, (combo & 4) != 0, (combo & 8) != 0};
            spec.valid_lengths = lengths;
            spec.window = window;
            Result<BoundMask> mask = BoundMask::bind(spec, MaskSizes{3, 1, L, S});
            REQUIRE_MESSAGE(mask.ok(), mask.error());
            CAPTURE(to_string(spec.presets));
            CAPTURE(window);
            for (int64_t b = 0; b < 3; ++b) {
                const Mat scores = Mat::Constant(L, S, 2.0f);
                Mat masked(L, S);
                uint8_t flags[L];
                mask->apply(scores, b, 0, masked, flags);
                for (int64_t i = 0; i < L; ++i) {
                    int visible = 0;
                    for (int64_t j = 0; j < S; ++j) {
                        const int v = lengths[static_cast<size_t>(b)];
                        const bool expected = (spec.presets.causal && j > i) || (spec.presets.padding && j >= v) ||
                                              (spec.presets.left_padding && j < S - v) ||
                                              (spec.presets.window && (j > i || j <= i - window));
                        CAPTURE(b);
                        CAPTURE(i);
                        CAPTURE(j);
                        CHECK(mask->is_masked(b, 0, i, j) == expected);
                        CHECK(std::isinf(masked(i, j)) == expected);
                        visible += expected ? 0 : 1;
                    }
                    CHECK((flags[i] == 1) == (visible == 0));
                }
            }
        }
}
