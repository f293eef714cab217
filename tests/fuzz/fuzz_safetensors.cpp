// Fuzz harness: the safetensors reader (app/io/safetensors.cpp) together with the
// mapping of checkpoint names onto attention weights (app/io/weight_names.cpp).
#include <cstring>
#include <string>

#include "app/io/safetensors.h"
#include "app/io/weight_names.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_entries.h"

namespace attn::fuzz {

namespace {

bool same_bits(const Mat& a, const Mat& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(float)) == 0);
}
bool same_bits(const Vec& a, const Vec& b) {
    return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<size_t>(a.size()) * sizeof(float)) == 0);
}

}  // namespace

int safetensors_entry(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const Result<io::NamedTensors> decoded = io::decode_safetensors(bytes, "fuzz.safetensors");
    if (!decoded) return 0;
    for (const auto& [name, tensor] : decoded.value()) {
        int64_t count = 0;
        FUZZ_CHECK(checked_shape_product(tensor.shape(), count));
        FUZZ_CHECK(count == tensor.numel());
        FUZZ_CHECK(tensor.is_contiguous());
    }
    const Result<io::LoadedWeights> loaded = io::weights_from_tensors(decoded.value(), "fuzz.safetensors");
    if (!loaded) {
        FUZZ_CHECK(!loaded.error().empty());
        return 0;
    }
    const io::LoadedWeights& w = loaded.value();
    const int E = w.hidden_dim;
    // The articles' shapes: W_q is (E, d_in), W_k / W_v have H_kv * d_h rows dividing E, W_o may be absent.
    FUZZ_CHECK(E > 0 && w.kdim > 0 && w.vdim > 0 && w.input_dim > 0 && w.kv_width > 0 && E % w.kv_width == 0);
    FUZZ_CHECK(w.weights.w_q.rows() == E && w.weights.w_q.cols() == w.input_dim);
    FUZZ_CHECK(w.weights.w_k.rows() == w.kv_width && w.weights.w_k.cols() == w.kdim);
    FUZZ_CHECK(w.weights.w_v.rows() == w.kv_width && w.weights.w_v.cols() == w.vdim);
    FUZZ_CHECK(w.out_proj ? (w.weights.w_o.rows() == E && w.weights.w_o.cols() == E) : w.weights.w_o.size() == 0);
    // Written back under PyTorch's names, the file must map to the very same weights.
    const Result<io::NamedTensors> again =
        io::decode_safetensors(io::encode_safetensors(io::weights_to_tensors(w.weights)), "re-encoded");
    FUZZ_CHECK(again.ok());
    const Result<io::LoadedWeights> reloaded = io::weights_from_tensors(again.value(), "re-encoded");
    FUZZ_CHECK(reloaded.ok());
    const AttentionWeights& a = w.weights;
    const AttentionWeights& b = reloaded->weights;
    FUZZ_CHECK(same_bits(a.w_q, b.w_q) && same_bits(a.w_k, b.w_k) && same_bits(a.w_v, b.w_v) && same_bits(a.w_o, b.w_o));
    FUZZ_CHECK(a.has_bias() == b.has_bias());
    if (a.has_bias()) FUZZ_CHECK(same_bits(a.b_q, b.b_q) && same_bits(a.b_k, b.b_k) && same_bits(a.b_v, b.b_v));
    FUZZ_CHECK(same_bits(a.b_o, b.b_o) && same_bits(a.bias_k, b.bias_k) && same_bits(a.bias_v, b.bias_v));
    return 0;
}

}  // namespace attn::fuzz

#ifdef ATTNVIZ_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return attn::fuzz::safetensors_entry(data, size); }
#endif
