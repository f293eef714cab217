// Entry points of the fuzz harnesses, one per reader of outside data.
//
// Each takes arbitrary bytes, feeds them to a reader exactly as a file or a command
// line would, and checks what came back (round trips, ranges). A broken invariant
// calls __builtin_trap(), so libFuzzer (make fuzz) reports it as a crash and the
// replay test in the normal suite (tests/test_fuzz_replay.cpp) fails on it.
// Return value: always 0, as libFuzzer expects.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::fuzz {

// A .npy file: decode_npy, then encode and decode again must give the same tensor.
int npy_entry(const uint8_t* data, size_t size);
// A .safetensors file: decode_safetensors, then the weight-name mapping on its tensors,
// then the weights written back must map to the same weights.
int safetensors_entry(const uint8_t* data, size_t size);
// A command line: one argument per line (or NUL-separated), parsed by the window's
// CLI11 options and resolved into a problem (files are not opened; the budget is small).
int cli_config_entry(const uint8_t* data, size_t size);
// A settings.ini: parse_settings must give values within their documented ranges,
// and a saved-then-reread copy must be identical.
int settings_entry(const uint8_t* data, size_t size);
// A lesson file: read_lesson gives a lesson or a one-line message; a lesson written and
// read again is the same lesson; small slides resolve through the command line's parser.
int lesson_entry(const uint8_t* data, size_t size);

}  // namespace attn::fuzz
