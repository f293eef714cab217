// The compute worker: results are handed over once, the newest request wins, stale
// results are dropped, a failed recompute keeps the old trace, and a model built
// around the step on screen is completed later. Deterministic: the worker's work is
// held at a gate the test opens, and the test waits with wait_until_idle (no sleeps).
#include <doctest/doctest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/compute/compute_worker.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::test_configs;

namespace {

ComputeRequest request_for(const AttentionConfig& c, std::optional<StepId> focus = std::nullopt) {
    ComputeRequest r;
    r.config = c;
    r.focus_step = focus;
    return r;
}

// A ComputeFn that records which generations it ran and holds the listed ones until
// `open(g)`; `wait_started(g)` returns once generation g has begun.
class GatedCompute {
public:
    explicit GatedCompute(std::vector<uint64_t> held) : held_(std::move(held)) {}
    ComputeResult operator()(const ComputeRequest& request, uint64_t generation) {
        std::unique_lock<std::mutex> lock(mutex_);
        ran_.push_back(generation);
        changed_.notify_all();
        changed_.wait(lock, [&] { return !contains(held_, generation); });
        lock.unlock();
        return ComputeWorker::compute(request, generation);
    }
    void wait_started(uint64_t generation) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return contains(ran_, generation); });
    }
    void open(uint64_t generation) {
        std::lock_guard<std::mutex> lock(mutex_);
        held_.erase(std::remove(held_.begin(), held_.end(), generation), held_.end());
        changed_.notify_all();
    }
    std::vector<uint64_t> ran() {
        std::lock_guard<std::mutex> lock(mutex_);
        return ran_;
    }

private:
    static bool contains(const std::vector<uint64_t>& v, uint64_t g) { return std::find(v.begin(), v.end(), g) != v.end(); }
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<uint64_t> ran_;
    std::vector<uint64_t> held_;
};

}  // namespace

TEST_CASE("a posted request's result is taken once, with its generation") {
    ComputeWorker worker;
    CHECK_FALSE(worker.take().has_value());
    const uint64_t g = worker.post(request_for(sized(5, 8, 2)));
    worker.wait_until_idle();
    CHECK_FALSE(worker.busy());
    std::optional<ComputeResult> r = worker.take();
    REQUIRE(r.has_value());
    CHECK(r->generation == g);
    CHECK(r->error.empty());
    REQUIRE(r->trace);
    REQUIRE(r->model);
    CHECK(r->trace->config.seq_len == 5);
    CHECK(r->model->complete());  // no focus step: every step built at once
    CHECK_FALSE(worker.take().has_value());  // handed over once
}

TEST_CASE("the newest request wins: requests replaced before they start never run, stale results are dropped") {
    auto gate = std::make_shared<GatedCompute>(std::vector<uint64_t>{1, 3});
    ComputeWorker worker([gate](const ComputeRequest& r, uint64_t g) { return (*gate)(r, g); });
    const uint64_t first = worker.post(request_for(sized(3, 8, 2)));
    gate->wait_started(first);                                            // the worker is inside generation 1
    const uint64_t replaced = worker.post(request_for(sized(4, 8, 2)));  // pending, then replaced
    const uint64_t newest = worker.post(request_for(sized(6, 8, 2)));
    REQUIRE(newest == 3);
    CHECK(worker.busy());
    gate->open(first);
    gate->wait_started(newest);  // generation 1 is finished and handled by now
    CHECK_FALSE(worker.take().has_value());  // ...and its stale result was dropped
    CHECK(worker.busy());
    gate->open(newest);
    worker.wait_until_idle();
    std::optional<ComputeResult> r = worker.take();
    REQUIRE(r.has_value());
    CHECK(r->generation == newest);
    CHECK(r->trace->config.seq_len == 6);
    CHECK_FALSE(worker.take().has_value());
    const std::vector<uint64_t> ran = gate->ran();
    CHECK(ran == std::vector<uint64_t>{first, newest});  // generation 2 never ran
    CHECK(replaced == first + 1);
}

TEST_CASE("a failed recompute keeps the old trace and shows why") {
    ComputeWorker worker;
    AppState state;
    worker.post(request_for(sized(5, 8, 2), StepId::AttnWeights));  // the other steps follow later
    worker.wait_until_idle();
    std::optional<ComputeResult> good = worker.take();
    REQUIRE(good.has_value());
    accept_result(state, std::move(*good), 0.0);
    REQUIRE(state.results.trace);
    const std::shared_ptr<const Trace> old_trace = state.results.trace;
    const std::shared_ptr<const DisplayModel> old_model = state.results.model;

    AttentionConfig bad = sized(5, 8, 2);
    bad.num_heads = 3;  // 8 is not divisible by 3
    worker.post(request_for(bad));
    worker.wait_until_idle();
    std::optional<ComputeResult> failed = worker.take();
    REQUIRE(failed.has_value());
    CHECK_FALSE(failed->error.empty());
    CHECK_FALSE(failed->trace);
    const Message why = failed->error;
    accept_result(state, std::move(*failed), 1.0);
    CHECK(state.results.trace == old_trace);  // still drawn
    CHECK(state.results.model == old_model);
    CHECK(state.results.compute_error == why);  // the canvas shows it under the picture

    // The trace still on screen gets the rest of its display model all the same.
    REQUIRE_FALSE(state.results.model->complete());
    worker.finish_model();
    worker.wait_until_idle();
    std::optional<CompletedModel> done = worker.take_model();
    REQUIRE(done.has_value());
    CHECK(done->trace == state.results.trace);
    CHECK(done->model->complete());

    worker.post(request_for(sized(7, 8, 2)));
    worker.wait_until_idle();
    std::optional<ComputeResult> again = worker.take();
    REQUIRE(again.has_value());
    accept_result(state, std::move(*again), 2.0);
    CHECK(state.results.compute_error.empty());
    CHECK(state.results.trace->config.seq_len == 7);
}

TEST_CASE("a result built around the step on screen is completed once the window asks") {
    ComputeWorker worker;
    const uint64_t g = worker.post(request_for(sized(5, 8, 2), StepId::AttnWeights));
    worker.wait_until_idle();
    std::optional<ComputeResult> r = worker.take();
    REQUIRE(r.has_value());
    const int focus = r->trace->index_of(StepId::AttnWeights);
    REQUIRE(focus >= 0);
    CHECK(r->model->steps[static_cast<size_t>(focus)].built);
    CHECK_FALSE(r->model->complete());
    CHECK_FALSE(worker.take_model().has_value());  // nothing until asked

    worker.finish_model();
    worker.wait_until_idle();
    std::optional<CompletedModel> done = worker.take_model();
    REQUIRE(done.has_value());
    CHECK(done->generation == g);
    CHECK(done->trace == r->trace);
    CHECK(done->model->complete());
    CHECK(done->model->steps[static_cast<size_t>(focus)].panels[0].values ==
          r->model->steps[static_cast<size_t>(focus)].panels[0].values);
    CHECK_FALSE(r->model->complete());  // the window's copy was never touched
    worker.finish_model();              // complete already: nothing to do
    worker.wait_until_idle();
    CHECK_FALSE(worker.take_model().has_value());
}

TEST_CASE("finishing a model is skipped when a newer request is posted") {
    auto gate = std::make_shared<GatedCompute>(std::vector<uint64_t>{2});
    ComputeWorker worker([gate](const ComputeRequest& r, uint64_t g) { return (*gate)(r, g); });
    worker.post(request_for(sized(5, 8, 2), StepId::AttnWeights));
    worker.wait_until_idle();
    REQUIRE(worker.take().has_value());
    const uint64_t newer = worker.post(request_for(sized(6, 8, 2), StepId::AttnWeights));
    gate->wait_started(newer);
    worker.finish_model();  // for generation 1, which is stale now
    gate->open(newer);
    worker.wait_until_idle();
    CHECK_FALSE(worker.take_model().has_value());
    std::optional<ComputeResult> r = worker.take();
    REQUIRE(r.has_value());
    CHECK(r->generation == newer);
}
