// Typed input matrices: "0.43,0.15,0.89; 0.55,0.87,0.66" (rows separated by semicolons,
// values by commas) as given to --query-values, --key-values and --value-values.
#pragma once

#include <string>

#include "core/dims.h"
#include "core/result.h"

namespace attn::io {

// Parses `text` into a (rows, cols) matrix. Every row must have the same number of
// finite numbers; spaces around values are ignored. `flag` names the option in the one-line
// message ("--query-values: row 2 has 2 values, row 1 has 3").
Result<Mat> parse_typed_matrix(const std::string& text, const std::string& flag);

// The matrix written back in the same syntax ("0.43,0.15; 0.55,0.87"), shortest exact floats.
std::string format_typed_matrix(const Mat& m);

}  // namespace attn::io
