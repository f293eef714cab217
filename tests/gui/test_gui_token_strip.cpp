// The token strip's generation (app/gui/compute/decode_run.h, state/decode_choice.h): the
// worker makes the prefill and the steps up to the one asked for; a click makes only the
// missing steps against the kept cache (the prefill is never computed again); the decode
// row equals the whole pass's within float rounding; the strip, the row comparison and the
// memory table are drawn in every language's words.
#include <doctest/doctest.h>

#include <string>

#include "app/gui/compute/decode_run.h"
#include "app/gui/state/decode_choice.h"
#include "app/gui/views/panels/view_decode_notes.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "core/kv_cache.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

// L = 6, the prefill of rows 0..2, then decode steps 1..3 for positions 3, 4 and 5.
AttentionConfig generation(AttentionConfig c = grouped(rotated(causal(sized(6, 8, 4))), 2)) {
    c.decode_from = 3;
    return c;
}

// The window's state after the worker's first result for `c` (decode step `step`).
AppState generation_state(const AttentionConfig& c, int step = 0) {
    AppState state;
    state.session.config = c;
    state.session.decode_step = step;
    recompute_session(state);
    return state;
}

}  // namespace

TEST_CASE("the worker computes the prefill and the decode steps up to the one asked for, and no further") {
    const AppState state = generation_state(generation(), 2);
    REQUIRE(state.results.decode);
    const DecodeRun& run = *state.results.decode;
    CHECK(run.prefill() == 3);
    CHECK(run.step_count() == 3);
    CHECK(run.made() == 2);
    CHECK(run.cache.length() == 5);  // rows 0..4: the prefill's three and two decode rows
    CHECK(state.results.decode_step == 2);
    CHECK(state.results.trace == run.traces[2]);
    CHECK(state.results.trace->decode_position() == 4);
    CHECK(state.results.query_tokens.size() == 1);
    CHECK(state.results.key_tokens.size() == 5);  // the decode step's keys are the first S_t tokens
    CHECK(state.results.query_tokens.front() == run.problem->query_tokens.at(4));
}

TEST_CASE("a click on a later token makes only the missing steps against the kept cache") {
    AppState state = generation_state(generation());
    REQUIRE(state.results.decode);
    const std::shared_ptr<DecodeRun> run = state.results.decode;
    const std::shared_ptr<const Trace> prefill = run->traces.at(0);
    const std::shared_ptr<const Trace> whole = run->whole;
    CHECK(run->made() == 0);
    CHECK(show_decode_step(state, 3, 0.0).empty());
    CHECK(state.results.decode == run);             // the same run, extended
    CHECK(run->traces.at(0) == prefill);            // the prefill was not computed again
    CHECK(run->whole == whole);
    CHECK(run->made() == 3);
    CHECK(run->cache.length() == 6);
    CHECK(state.results.trace->decode_position() == 5);
    CHECK(state.session.decode_step == 3);          // a recomputed trace stays on it
    const std::shared_ptr<const Trace> third = run->traces.at(3);
    // Back to an earlier token: its trace is kept, nothing is made.
    CHECK(show_decode_step(state, 1, 0.0).empty());
    CHECK(run->made() == 3);
    CHECK(run->traces.at(3) == third);
    CHECK(state.results.trace == run->traces.at(1));
    const Step* cache = state.results.trace->find(StepId::KCache);
    REQUIRE(cache != nullptr);
    CHECK(cache->tensor.dim(2) == 4);  // decode step 1 saw the cache of positions 0..3
    CHECK(cache->tensor.dim(1) == 2);  // H_kv heads
    // A click past the last token is clamped to the last step.
    CHECK(show_decode_step(state, 99, 0.0).empty());
    CHECK(state.results.decode_step == 3);
}

TEST_CASE("a click builds the step on screen first; the worker completes the other steps as it does its own") {
    AppState state = generation_state(generation());
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    REQUIRE(show_decode_step(state, 2, 0.0).empty());
    REQUIRE(state.results.model);
    CHECK_FALSE(state.results.model->complete());  // only attn_weights and what it reads
    CHECK(state.results.model->steps[static_cast<size_t>(state.results.trace->index_of(StepId::AttnWeights))].built);
    ComputeWorker worker;
    worker.complete_later(state.results.trace, state.results.model);
    worker.finish_model();
    worker.wait_until_idle();
    const std::optional<CompletedModel> done = worker.take_model();
    REQUIRE(done.has_value());
    CHECK(done->trace == state.results.trace);  // the window adopts it (entry.cpp's take_news)
    CHECK(done->model->complete());
}

TEST_CASE("a decode row equals the whole pass's row within the README's tolerances") {
    for (DType dtype : {DType::Float32, DType::BFloat16}) {
        CAPTURE(static_cast<int>(dtype));
        AppState state = generation_state(generation(in_dtype(grouped(rotated(causal(sized(7, 16, 4)), RopeStyle::Interleaved, 2), 1), dtype)));
        for (int step = 1; step <= 4; ++step) {
            REQUIRE(show_decode_step(state, step, 0.0).empty());
            const DecodeRowCompare& rows = state.results.decode_rows;
            CHECK(rows.position == 2 + step);
            for (StepId id : {StepId::AttnScores, StepId::AttnWeights}) {
                const DecodeRowStep* row = rows.find(id);
                REQUIRE(row != nullptr);
                CHECK(row->decode.size() == 4);                                  // one row per head
                CHECK(row->decode.front().size() == static_cast<size_t>(3 + step));  // keys 0..p
                // float32: below 1e-5 of the row's largest value; bfloat16: a few ulp (as tests/test_decode.cpp).
                CHECK(row->largest_relative <= (dtype == DType::Float32 ? 1e-5f : 1.6e-2f));
            }
        }
    }
}

TEST_CASE("the row comparison reports a difference where the two rows differ") {
    // The check above can fail: a whole pass of other inputs is far from the decode row.
    AppState state = generation_state(generation(), 1);
    AttentionConfig other = generation();
    other.seed += 1;
    other.decode_from = 0;
    const Result<Trace> whole = run_attention(other);
    REQUIRE(whole.ok());
    const DecodeRowCompare rows = compare_decode_row(*state.results.trace, whole.value(), 0);
    REQUIRE(rows.find(StepId::AttnScores) != nullptr);
    CHECK(rows.find(StepId::AttnScores)->largest_relative > 1e-3f);
    CHECK(compare_decode_row(*state.results.decode->traces.at(0), whole.value(), 0).position == -1);  // the prefill is no decode step
}

TEST_CASE("the cache's memory follows 2 x layers x H_kv x d_h x bytes per position") {
    const std::vector<KvMemoryRow> table = kv_memory_table();
    REQUIRE(table.size() == 3);
    CHECK(table[0].kv_heads == 32);  // MHA: every query head has its own keys and values
    CHECK(table[1].kv_heads == 8);   // GQA
    CHECK(table[2].kv_heads == 1);   // MQA
    for (const KvMemoryRow& row : table) CHECK(row.bytes_per_token == int64_t{2} * 32 * row.kv_heads * 128 * 2);
    CHECK(table[0].bytes_per_token == 4 * table[1].bytes_per_token);  // GQA's 8 heads hold a quarter
    const std::string line = kv_memory_line(generation(), 1, 5);
    // 2 x 1 x 2 x 2 x 4 = 32 bytes per position; 5 positions: 160 bytes.
    CHECK(line.find("32 B") != std::string::npos);
    CHECK(line.find("160 B") != std::string::npos);
}

TEST_CASE("a decode step's RoPE tables speak of the row's absolute position") {
    AttentionConfig c = generation(rotated(causal(sized(6, 8, 2)), RopeStyle::Half, 10));
    AppState state = generation_state(c, 2);  // position 4, offset 10: absolute position 14
    const Step* cos = state.results.trace->find(StepId::RopeCos);
    REQUIRE(cos != nullptr);
    const std::string words = text::describe_step(*cos, *state.results.trace, text::english()).explanation;
    CHECK(words.find("14") != std::string::npos);
    CHECK(words.find("10 .. 15") == std::string::npos);  // not the whole pass's positions
    const std::string whole = text::describe_step(*cos, *state.results.decode->whole, text::english()).explanation;
    CHECK(whole.find("10 .. 15") != std::string::npos);
    const Step* prefill_cos = state.results.decode->traces.at(0)->find(StepId::RopeCos);
    const std::string prefill = text::describe_step(*prefill_cos, *state.results.decode->traces.at(0), text::english()).explanation;
    CHECK(prefill.find("10 .. 12") != std::string::npos);
}

TEST_CASE("the window draws the token strip above the canvas, the row comparison and the memory table in every language") {
    for (const char* language : {"en", "zh-Hans", "zh-Hant"}) {
        CAPTURE(language);
        REQUIRE(text::set_language(language));
        HeadlessImGui imgui(1280, 2400);  // tall: the explanation panel shows its notes unscrolled
        AppState state = generation_state(generation(), 2);
        state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
        imgui.frame(state);
        imgui.frame(state);
        const ImGuiWindow* strip = drawn_window("Generation");
        REQUIRE(strip != nullptr);
        const ImGuiWindow* canvas = drawn_window("Canvas");
        REQUIRE(canvas != nullptr);
        CHECK(strip->Pos.y + strip->Size.y <= canvas->Pos.y + 0.5f);  // above the canvas
        const std::string strip_text = drawn_text("Generation");
        CHECK(shows(strip_text, text::tr("strip.prompt")));
        CHECK(shows(strip_text, text::tr("strip.decoded")));
        const std::string explanation = drawn_text(text::label("window.explanation"));
        CHECK(shows(explanation, text::tr("decode.row.whole")));
        CHECK(shows(drawn_text("Generation"), text::tr("strip.row.whole")));  // the strip's short form
        state.ui.playback.set_position(state.results.trace->index_of(StepId::KCache), 1.0f);
        imgui.frame(state);
        imgui.frame(state);
        CHECK(shows(drawn_text(text::label("window.explanation")), text::tr("decode.memory.gqa")));
        CHECK(shows(drawn_text("Generation"), "512 KiB"));  // MHA's cache per position at a real model's sizes
    }
    REQUIRE(text::set_language("en"));
}

TEST_CASE("without a generation there is no token strip") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(causal(sized(6, 8, 2)));
    imgui.frame(state);
    CHECK(drawn_window("Generation") == nullptr);
    CHECK(token_strip_height(state.results, 0) == 0.0f);
}
