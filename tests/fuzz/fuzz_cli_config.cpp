// Fuzz harness: the configuration from command-line arguments, i.e. the CLI11 options
// of app/options/config_options.cpp, then resolve_problem (sizes, masks, lengths, memory
// budget, validation), and for small accepted configurations the forward itself.
#include <stdexcept>
#include <string>
#include <vector>

#include "app/options/config_options.h"
#include "core/attention.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_entries.h"

namespace attn::fuzz {

namespace {

// The memory the harness lets an accepted configuration use: large enough for every
// code path, small enough that libFuzzer's 2 GiB RSS limit is never the finding.
constexpr uint64_t kBudgetBytes = uint64_t{16} << 20;
constexpr uint64_t kForwardBytes = uint64_t{2} << 20;

// One argument per line (or per NUL), at most 32 of them.
std::vector<std::string> split_arguments(const uint8_t* data, size_t size) {
    std::vector<std::string> args;
    std::string current;
    for (size_t i = 0; i < size && args.size() < 32; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n' || c == '\0') {
            args.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty() && args.size() < 32) args.push_back(current);
    return args;
}

}  // namespace

int cli_config_entry(const uint8_t* data, size_t size) {
    CLI::App app{"attnviz (fuzz)"};
    cli::ConfigOptions options;
    cli::add_config_options(app, options);
    std::vector<std::string> args = split_arguments(data, size);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        // main() prints e.what() as its one-line error (--help exits 0 with the help).
        const std::string message = e.what();
        FUZZ_CHECK(e.get_exit_code() == 0 || (!message.empty() && message.find('\n') == std::string::npos));
        return 0;
    }
    // Files have their own harnesses; paths from fuzz input would read the host's files.
    options.sources = io::ProblemSources{};
    options.config.max_memory_bytes = kBudgetBytes;
    std::string& max_memory = options.text("max_memory_bytes");
    if (!max_memory.empty()) {
        const Result<uint64_t> asked = cli::parse_byte_size(max_memory);
        if (asked && asked.value() > kBudgetBytes) max_memory = std::to_string(kBudgetBytes);
    }
    const Result<io::Problem> problem = cli::resolve_problem(options);
    if (!problem) {
        FUZZ_CHECK(!problem.error().empty());
        return 0;
    }
    const io::Problem& p = problem.value();
    const AttentionConfig& c = p.config;
    FUZZ_CHECK(validate(c).ok());
    FUZZ_CHECK(c.batch >= 1 && c.L() >= 1 && c.S() >= 1 && c.E() >= 1 && c.H() >= 1 && c.E() % c.H() == 0);
    FUZZ_CHECK(estimate_peak_bytes(c) <= c.max_memory_bytes);
    FUZZ_CHECK(p.inputs.query.shape() == (std::vector<int64_t>{c.batch, c.L(), c.E()}));
    FUZZ_CHECK(static_cast<int>(p.query_tokens.size()) == c.L() && static_cast<int>(p.key_tokens.size()) == c.S());
    FUZZ_CHECK(p.weights->w_q.rows() == c.E() && p.weights->w_k.cols() == c.key_dim() && p.weights->w_v.cols() == c.value_dim());
    if (estimate_peak_bytes(c) <= kForwardBytes) {
        const Result<Trace> trace = run_attention(c, p.weights, p.inputs);
        // Seeded inputs are finite, so an accepted configuration must compute.
        FUZZ_CHECK(trace.ok());
        FUZZ_CHECK(!trace->steps.empty());
    }
    return 0;
}

}  // namespace attn::fuzz

#ifdef ATTNVIZ_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return attn::fuzz::cli_config_entry(data, size); }
#endif
