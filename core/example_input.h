// Named example inputs: small (L, d_in) matrices the articles print, with a label per row.
#pragma once

#include <string>
#include <vector>

#include "core/dims.h"

namespace attn {

struct ExampleInput {
    std::string name;                 // "your-journey"
    std::string description;          // one line for a menu or `attnviz recipes`
    int rows = 0, cols = 0;           // L, d_in
    std::vector<float> values;        // rows * cols, row-major
    std::vector<std::string> tokens;  // one label per row
    Mat matrix() const;               // (rows, cols)
};

// Every example, in a fixed order.
const std::vector<ExampleInput>& example_inputs();
// The example called `name`, or null.
const ExampleInput* find_example_input(const std::string& name);

}  // namespace attn
