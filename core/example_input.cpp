#include "core/example_input.h"

namespace attn {

Mat ExampleInput::matrix() const {
    Mat m(rows, cols);
    for (int i = 0; i < rows * cols; ++i) m.data()[i] = values[static_cast<size_t>(i)];
    return m;
}

const std::vector<ExampleInput>& example_inputs() {
    // The LLM-from-scratch series embeds the sentence "Your journey starts with one step"
    // as six 3-d vectors and batches it twice; its stacked and weight-split modules are
    // printed on exactly these numbers.
    static const std::vector<ExampleInput> examples = {
        {"your-journey",
         "\"Your journey starts with one step\": six tokens, 3-d embeddings (LLM-from-scratch series)",
         6,
         3,
         {0.43f, 0.15f, 0.89f,   // Your
          0.55f, 0.87f, 0.66f,   // journey
          0.57f, 0.85f, 0.64f,   // starts
          0.22f, 0.58f, 0.33f,   // with
          0.77f, 0.25f, 0.10f,   // one
          0.05f, 0.80f, 0.55f},  // step
         {"Your", "journey", "starts", "with", "one", "step"}},
    };
    return examples;
}

const ExampleInput* find_example_input(const std::string& name) {
    for (const ExampleInput& e : example_inputs())
        if (e.name == name) return &e;
    return nullptr;
}

}  // namespace attn
