// Inputs given on the command line (files, typed matrices) stay in the window's session:
// the first frame is built from them, and so is every recompute after a control changes.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "app/gui/state/session.h"
#include "app/io/npy.h"
#include "app/io/typed_values.h"
#include "headless_imgui.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// Batch item 0, row 0 of the `input` step after one recompute of the session.
float first_input_value(Session& session) {
    std::optional<ComputeRequest> request = make_request(session);
    REQUIRE_MESSAGE(request.has_value(), english(session.config_message));
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    const Step* input = result.trace->find(StepId::Input);
    REQUIRE(input != nullptr);
    return input->tensor.at({0, 0, 0});
}

}  // namespace

TEST_CASE("typed --query-values survive a recompute in the window") {
    io::ProblemSources sources;
    Result<Mat> typed = io::parse_typed_matrix("0.43, 0.15, 0.89, 0.5; 0.55, 0.87, 0.66, 0.25", "--query-values");
    REQUIRE(typed.ok());
    sources.query_values = typed.value();
    AttentionConfig config;
    config.hidden_dim = 4;
    Result<io::Problem> problem = io::build_problem(config, sources);
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    Session session;
    init_from_problem(session, problem.value());
    session.config.seed = 5;  // any control change recomputes from the session
    CHECK(first_input_value(session) == doctest::Approx(0.43f));
    CHECK(session.config.seq_len == 2);
}

TEST_CASE("a --query file survives a recompute in the window") {
    const std::string path = (std::filesystem::temp_directory_path() / "attnviz_window_query.npy").string();
    std::vector<float> values(12);
    for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f + static_cast<float>(i);
    const Tensor query = Tensor::from_values({1, 3, 4}, {"B", "L", "E"}, values);
    REQUIRE(io::write_npy(path, query).ok());
    io::ProblemSources sources;
    sources.query_path = path;
    AttentionConfig config;
    config.hidden_dim = 4;
    Result<io::Problem> problem = io::build_problem(config, sources);
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    Session session;
    init_from_problem(session, problem.value());
    session.config.seed = 9;
    CHECK(first_input_value(session) == 0.25f);
    std::remove(path.c_str());
}
