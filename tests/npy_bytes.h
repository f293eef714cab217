// The bytes numpy.save writes for a bool array: the magic, a header dict padded to 64
// bytes, then one 0/1 byte per value. For tests that hand the readers a mask file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::testing {

// values: row-major, one byte each (0 or 1, or any byte to test the reader's refusal);
// shape: as Python writes it, "(2, 3)".
inline std::string bool_npy(const std::vector<uint8_t>& values, const std::string& shape) {
    std::string dict = "{'descr': '|b1', 'fortran_order': False, 'shape': " + shape + ", }";
    dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    out += dict;
    out.append(reinterpret_cast<const char*>(values.data()), values.size());
    return out;
}

}  // namespace attn::testing
