// The code panel's recipe classes (assets/code/recipe_modules.py): a recipe's
// configuration shows its own class, as its article writes it (without the self.keep
// calls that record the steps), whose step markers cover every step AttnViz records for
// it, in every case of tests/fixtures/recipes (the cases that class wrote); the texts of
// the steps that rejoin the heads follow the class's code.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "app/io/torch_code.h"
#include "app/text/step_text.h"
#include "core/attention.h"
#include "core/kv_cache.h"
#include "core/recipe.h"
#include "tests/recipe_fixture_util.h"

using namespace attn;

namespace {

// The first line that is not blank.
std::string first_code(const std::vector<io::CodeLine>& lines) {
    for (const io::CodeLine& line : lines)
        if (!line.code.empty()) return line.code;
    return {};
}

bool shows_line(const std::vector<io::CodeLine>& lines, const std::string& start) {
    for (const io::CodeLine& line : lines)
        if (line.code.rfind(start, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("a recipe's configuration shows its own class; others show the generic module") {
    for (const Recipe& r : recipes()) {
        CAPTURE(r.name);
        CHECK(io::code_class_for(r.config) == r.torch_class);
        const std::vector<io::CodeLine>& lines = io::code_lines_for(r.config);
        REQUIRE_FALSE(lines.empty());
        CHECK(shows_line(lines, "class " + r.torch_class + "("));
        CHECK(&lines != &io::torch_module_lines());
        // One class (and its helpers), not the whole file nor the generic module.
        int classes = 0;
        for (const io::CodeLine& line : lines) classes += line.code.rfind("class ", 0) == 0 ? 1 : 0;
        CHECK(classes == (r.torch_class == "ScratchStacked" ? 2 : 1));
        CHECK_FALSE(shows_line(lines, "class Traced("));
    }
    // Helpers the class builds or calls come first, then the class itself.
    const std::vector<io::CodeLine>& stacked = io::recipe_class_lines("ScratchStacked");
    CHECK(first_code(stacked) == "class ScratchCausalHead(nn.Module):");
    CHECK(shows_line(stacked, "class ScratchStacked(nn.Module):"));
    const std::vector<io::CodeLine>& llama = io::recipe_class_lines("LlamaAttention");
    CHECK(first_code(llama) == "def rotate_half(x):");
    CHECK(first_code(io::recipe_class_lines("ScratchMha")) == "class ScratchMha(nn.Module):");
    CHECK_FALSE(shows_line(io::recipe_class_lines("ScratchMha"), "class SelfAttV1("));
    CHECK(io::recipe_class_lines("NoSuchClass").empty());

    AttentionConfig plain;
    CHECK(io::code_class_for(plain).empty());
    CHECK(&io::code_lines_for(plain) == &io::torch_module_lines());
    plain.recipe = "no-such-recipe";  // an unknown name (a hand-edited settings file) falls back
    CHECK(&io::code_lines_for(plain) == &io::torch_module_lines());
}

TEST_CASE("every step of every recipe case is produced by a marked line of its class that runs") {
    // Steps AttnViz records for a recipe that its class does not compute on a line of its
    // own: the four single-head levels (SelfAttV1..V4) never split into heads, so the
    // head-axis views AttnViz shows (q_split ... v_heads with H = 1, context_split, and
    // concat, which equals their context) have no line; make_recipe_fixtures.py's
    // trace_layout adds them to the fixtures. The panel says so for these steps. Every
    // other step of every case is a marked `self.keep` of its class. The list is exact:
    // a step listed here must have no line.
    const std::set<StepId> head_axis = {StepId::QSplit, StepId::KSplit,       StepId::VSplit, StepId::QHeads,
                                        StepId::KHeads, StepId::VHeads,       StepId::ContextSplit, StepId::Concat};
    const std::map<std::string, std::set<StepId>> outside_the_class = {
        {"SelfAttV1", head_axis}, {"SelfAttV2", head_axis}, {"SelfAttV3", head_axis}, {"SelfAttV4", head_axis}};
    const std::vector<std::string> cases = recipe_fixtures::all_cases();
    REQUIRE(cases.size() >= 54);
    std::map<std::string, std::set<StepId>> recorded_by_class;  // over all cases of a class
    const auto check_lines = [&](const Trace& trace, const std::string& recipe) {
        const std::string cls = io::code_class_for(trace.config);
        REQUIRE(cls == find_recipe(recipe)->torch_class);
        const std::vector<io::CodeLine>& lines = io::code_lines_for(trace.config);
        for (const Step& step : trace.steps) {
            CAPTURE(step.name());
            recorded_by_class[cls].insert(step.id);
            const auto outside = outside_the_class.find(cls);
            const bool has_no_line = outside != outside_the_class.end() && outside->second.count(step.id) == 1;
            CHECK(io::lines_of_step_run(lines, step.id, trace.config).empty() == has_no_line);
        }
    };
    for (const std::string& name : cases) {
        CAPTURE(name);
        const nlohmann::json j = recipe_fixtures::case_json(name);
        Result<io::Problem> problem = recipe_fixtures::problem_from_args(j["args"].get<std::vector<std::string>>());
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        Result<Trace> trace = run_attention(problem->config, problem->weights, problem->inputs);
        REQUIRE_MESSAGE(trace.ok(), trace.error());
        check_lines(trace.value(), j["recipe"].get<std::string>());
    }
    // The decode paths (tests/fixtures/recipes_decode): the prefill and one decode step of
    // each case, against the cache, whose k_cache and v_cache lines run there.
    for (const std::string& name : recipe_fixtures::decode_cases()) {
        CAPTURE(name);
        const nlohmann::json j = recipe_fixtures::decode_case_json(name);
        Result<io::Problem> problem = recipe_fixtures::problem_from_args(j["args"].get<std::vector<std::string>>());
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        KvCache cache;
        const int P = problem->config.decode_from;
        for (const QueryBlock block : {QueryBlock{0, P}, QueryBlock{P, 1}}) {
            Result<Trace> trace = run_attention_block(problem->config, problem->weights, problem->inputs, cache, block);
            REQUIRE_MESSAGE(trace.ok(), trace.error());
            check_lines(trace.value(), j["recipe"].get<std::string>());
        }
    }
    // And no marker of a class names a step none of its cases records (a stale marker
    // would highlight nothing and dim its line for no reason).
    for (const auto& cls_recorded : recorded_by_class) {  // no structured bindings: clang 14 cannot CAPTURE them
        const std::string& cls = cls_recorded.first;
        const std::set<StepId>& recorded = cls_recorded.second;
        CAPTURE(cls);
        for (const io::CodeLine& line : io::recipe_class_lines(cls))
            for (StepId id : line.steps) {
                CAPTURE(line.code);
                CHECK(recorded.count(id) == 1);
            }
    }
    CHECK(recorded_by_class.size() == recipes().size());
}

TEST_CASE("recipe_modules.py's markers parse, a misspelled one fails, and its conditions are known") {
    const std::string source(io::recipe_modules_source());
    REQUIRE(io::parse_step_markers(source).ok());
    const std::size_t at = source.find("# step: attn_scores (B, H, L, S)");
    REQUIRE(at != std::string::npos);
    std::string broken = source;
    broken.replace(at, std::string("# step: attn_scores").size(), "# step: attn_score");
    const auto parsed = io::parse_step_markers(broken);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().find("attn_score'") != std::string::npos);
    const int line = 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<long>(at), '\n'));
    CHECK(parsed.error().find("line " + std::to_string(line)) != std::string::npos);

    // Every `if` of every recipe class is in torch_code.cpp's condition table, so the
    // panel dims exactly the branches the configuration skips.
    for (const Recipe& r : recipes()) {
        CAPTURE(r.name);
        CHECK(io::unknown_conditions(io::code_lines_for(r.config)) == std::vector<std::string>{});
    }
    // torch-mha's projection: the packed in_proj_weight runs when kdim = vdim = E, the
    // separate q/k/v weights otherwise.
    const Recipe* torch_mha = find_recipe("torch-mha");
    REQUIRE(torch_mha);
    AttentionConfig self_attention = torch_mha->config;
    self_attention.kdim = self_attention.vdim = self_attention.hidden_dim;
    AttentionConfig cross = self_attention;
    cross.kdim = cross.hidden_dim + 1;
    const std::vector<io::CodeLine>& lines = io::code_lines_for(cross);
    int packed = -1, separate = -1;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].code.find("m.in_proj_weight[:E]") != std::string::npos) packed = static_cast<int>(i);
        if (lines[i].code.find("m.q_proj_weight,") != std::string::npos) separate = static_cast<int>(i);
    }
    REQUIRE(packed >= 0);
    REQUIRE(separate >= 0);
    const std::vector<bool> packed_runs = io::lines_run(lines, self_attention);
    CHECK(packed_runs[static_cast<std::size_t>(packed)]);
    CHECK_FALSE(packed_runs[static_cast<std::size_t>(separate)]);
    const std::vector<bool> cross_runs = io::lines_run(lines, cross);
    CHECK_FALSE(cross_runs[static_cast<std::size_t>(packed)]);
    CHECK(cross_runs[static_cast<std::size_t>(separate)]);
}

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The first shown line that makes `step`, or null.
const io::CodeLine* line_of(const std::vector<io::CodeLine>& lines, StepId step) {
    const std::vector<int> found = io::lines_of_step(lines, step);
    return found.empty() ? nullptr : &lines[static_cast<size_t>(found.front())];
}

}  // namespace

TEST_CASE("the code panel shows each recipe's class as its article writes it, with every step on a line") {
    for (const Recipe& r : recipes()) {
        CAPTURE(r.name);
        const std::vector<io::CodeLine>& lines = io::code_lines_for(r.config);
        REQUIRE_FALSE(lines.empty());
        for (const io::CodeLine& line : lines) {
            CAPTURE(line.code);
            // The recording AttnViz adds for its checks is not shown.
            CHECK_FALSE(has(line.code, "self.keep"));
            CHECK_FALSE(has(line.code, "Traced"));
            CHECK_FALSE(has(line.code, "trace-only"));
            CHECK_FALSE(has(line.code, "article:"));
            // A line that makes a step has a margin tag naming it, and a shape for each step.
            CHECK(line.step_shapes.size() == line.steps.size());
            if (!line.steps.empty()) CHECK(has(io::step_tag(line), step_name(line.steps.front())));
        }
        CHECK(shows_line(lines, "class " + r.torch_class + "(nn.Module):"));
    }
    // Lines as the articles write them, and the steps of hidden lines on the line that made
    // the kept value: the `def` for a forward's input, the assignment for RoPE's tables.
    const std::vector<io::CodeLine>& mha = io::recipe_class_lines("ScratchMha");
    CHECK(shows_line(mha, "        q = self.Wq(x)"));
    CHECK(shows_line(mha, "        context = context.contiguous().view(b, n, self.d_out)"));
    CHECK(line_of(mha, StepId::Input)->code == "    def forward(self, x):");
    const std::vector<io::CodeLine>& llama = io::recipe_class_lines("LlamaAttention");
    const io::CodeLine* tables = line_of(llama, StepId::RopeCos);
    REQUIRE(tables);
    CHECK(tables->code == "        cos, sin = self.rotary(past, q_len)");
    CHECK(tables == line_of(llama, StepId::RopeSin));
    CHECK(io::shape_of(*tables, StepId::RopeSin) == "(L, d_h)");
    const std::vector<io::CodeLine>& torch_mha = io::recipe_class_lines("TorchMha");
    const io::CodeLine* inputs = line_of(torch_mha, StepId::KeyInput);
    REQUIRE(inputs);
    CHECK(inputs->code == "    def forward(self, query, key, value):");
    CHECK(io::shape_of(*inputs, StepId::Input) == "(B, L, E)");
    CHECK(io::shape_of(*inputs, StepId::KeyInput) == "(B, S, kdim)");
    CHECK(io::step_tag(*inputs) == "input +2");
    // SelfAttV2's split makes q, k and v on one line; its bare keeps of them are gone.
    const std::vector<io::CodeLine>& v2 = io::recipe_class_lines("SelfAttV2");
    CHECK(io::step_tag(*line_of(v2, StepId::K)) == "q k v");
    // The stacked heads: the article's torch.cat of the heads, no loop that stacks their parts.
    const std::vector<io::CodeLine>& stacked = io::recipe_class_lines("ScratchStacked");
    CHECK(line_of(stacked, StepId::Concat)->code == "        return torch.cat([head(x) for head in self.heads], dim=-1)");
    CHECK(shows_line(stacked, "        return context"));
    CHECK_FALSE(shows_line(stacked, "        parts = "));
    CHECK_FALSE(shows_line(stacked, "        for step in"));
}

TEST_CASE("article_lines unwraps self.keep, hides bare keeps and moves their steps to the line that made the value") {
    const Result<std::vector<io::CodeLine>> parsed = io::parse_step_markers(
        "class M(Traced):\n"
        "    def forward(self, x, mask=None):\n"
        "        self.keep(\"input\", x)  # step: input (B, L, E)\n"
        "        q = self.keep(\"q\", self.Wq(x))  # step: q (B, L, E)\n"
        "        a, b = q.chunk(2, dim=-1)\n"
        "        y = q + 1\n"
        "        self.keep(\"k\", b), self.keep(\"v\", a)  # step: k, v (B, L, E/2)\n"
        "        self.keep(\"out\", torch.zeros(1))  # step: out (1)\n"
        "        self.note(y)  # trace-only\n"
        "        return y  # article: return q + 1\n");
    REQUIRE(parsed.ok());
    const std::vector<io::CodeLine> lines = io::article_lines(parsed.value());
    REQUIRE(lines.size() == 6);
    CHECK(lines[0].code == "class M(nn.Module):");
    CHECK(lines[1].steps == std::vector<StepId>{StepId::Input});  // the def taking x
    CHECK(lines[2].code == "        q = self.Wq(x)");
    CHECK(lines[3].code == "        a, b = q.chunk(2, dim=-1)");
    CHECK(lines[3].steps == std::vector<StepId>{StepId::K, StepId::V});  // the tuple that made a and b
    CHECK(io::shape_of(lines[3], StepId::V) == "(B, L, E/2)");
    // A value no line makes (an expression) goes to the nearest line above.
    CHECK(lines[4].code == "        y = q + 1");
    CHECK(lines[4].steps == std::vector<StepId>{StepId::Out});
    CHECK(lines[5].code == "        return q + 1");
}

TEST_CASE("a recipe's texts for rejoining the heads follow its code, and say where AttnViz's trace copies instead") {
    // The storage facts are the trace's (a transposed view at context_split, a copy at
    // concat); the recipe's code may copy one step earlier (.contiguous() on the transpose).
    for (const Recipe& r : recipes()) {
        CAPTURE(r.name);
        const std::vector<io::CodeLine>& lines = io::code_lines_for(r.config);
        const io::CodeLine* split = line_of(lines, StepId::ContextSplit);
        const io::CodeLine* concat = line_of(lines, StepId::Concat);
        if (!split) {  // the single-head levels have no head shuffle in their code
            CHECK(r.head_join == HeadJoinCode::CopyAtConcat);
            continue;
        }
        REQUIRE(concat);
        CAPTURE(split->code);
        CAPTURE(concat->code);
        // The recipe table's column is the code's.
        const bool copies_at_split = has(split->code, ".contiguous()");
        CHECK(copies_at_split == (r.head_join != HeadJoinCode::CopyAtConcat));
        if (r.head_join == HeadJoinCode::CopyAtSplitThenReshape) CHECK(has(concat->code, ".reshape("));
        if (r.head_join == HeadJoinCode::CopyAtSplitThenView) CHECK(has(concat->code, ".view("));
        if (copies_at_split) CHECK_FALSE(has(concat->code, ".contiguous()"));

        // Each step's formula names the calls its line makes.
        Result<Trace> trace = run_attention(r.config);
        REQUIRE_MESSAGE(trace.ok(), trace.error());
        for (const auto& [id, line] : {std::make_pair(StepId::ContextSplit, split), std::make_pair(StepId::Concat, concat)}) {
            const Step* step = trace->find(id);
            REQUIRE(step);
            const text::StepText words = text::describe_step(*step, trace.value());
            CAPTURE(words.formula);
            for (const char* call : {".contiguous()", ".view(", ".reshape(", "torch.cat("})
                CHECK(has(words.formula, call) == has(line->code, call));
            // Where the code's copy and the trace's storage differ, the texts say so.
            const bool code_copies = has(line->code, ".contiguous()") || has(line->code, "torch.cat(");
            const bool trace_copies = !step->is_view;
            CHECK(text::code_copy_note(id, trace->config).empty() == (code_copies == trace_copies));
        }
    }
}

TEST_CASE("the generic module's concat step is titled by the call its code makes (reshape, a copy)") {
    // Without a recipe (and for a trained model's layer) the panel shows attention_module.py,
    // which rejoins the heads with one .reshape() of the transposed context.
    AttentionConfig c;
    const std::vector<io::CodeLine>& lines = io::code_lines_for(c);
    const io::CodeLine* concat = line_of(lines, StepId::Concat);
    REQUIRE(concat);
    CAPTURE(concat->code);
    Result<Trace> trace = run_attention(c);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    const Step* step = trace->find(StepId::Concat);
    REQUIRE(step);
    const text::StepText words = text::describe_step(*step, trace.value());
    CAPTURE(words.title);
    CAPTURE(words.formula);
    for (const char* call : {".contiguous()", ".view(", ".reshape("}) {
        CHECK(has(words.title, std::string(call).substr(1, std::string(call).find('(') - 1)) == has(concat->code, call));
        CHECK(has(words.formula, call) == has(concat->code, call));
    }
    CHECK(has(text::copy_badge(StepId::Concat, trace->config), ".reshape()") == has(concat->code, ".reshape("));
    // A recipe that writes .contiguous().view() keeps those words.
    const Recipe* split = find_recipe("scratch-mha");
    REQUIRE(split);
    CHECK(has(text::step_title(StepId::Concat, split->config), "contiguous + view"));
}
