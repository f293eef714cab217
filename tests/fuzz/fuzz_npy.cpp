// Fuzz harness: the .npy reader (app/io/npy.cpp).
#include <cstring>
#include <string>

#include "app/io/npy.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_entries.h"

namespace attn::fuzz {

int npy_entry(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const Result<Tensor> decoded = io::decode_npy(bytes, "fuzz.npy");
    if (!decoded) {
        FUZZ_CHECK(!decoded.error().empty());
        return 0;
    }
    const Tensor& t = decoded.value();
    int64_t count = 0;
    FUZZ_CHECK(checked_shape_product(t.shape(), count));
    FUZZ_CHECK(count == t.numel() && count > 0);
    FUZZ_CHECK(t.is_contiguous());
    // What we write must read back bit for bit (float64 input was narrowed once already).
    const Result<Tensor> again = io::decode_npy(io::encode_npy(t), "re-encoded");
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->shape() == t.shape());
    const std::vector<float> a = t.to_vector(), b = again->to_vector();
    FUZZ_CHECK(a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    return 0;
}

}  // namespace attn::fuzz

#ifdef ATTNVIZ_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return attn::fuzz::npy_entry(data, size); }
#endif
