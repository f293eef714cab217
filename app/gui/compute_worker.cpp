#include "app/gui/compute_worker.h"

#include "app/io/model_problem.h"

#include <chrono>
#include <exception>
#include <new>

#include <xmmintrin.h>
#include <pmmintrin.h>

namespace attn::gui {

ComputeWorker::ComputeWorker() : thread_([this] { run(); }) {}

ComputeWorker::~ComputeWorker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

uint64_t ComputeWorker::post(ComputeRequest request) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(request);
    const uint64_t generation = ++posted_;
    wake_.notify_all();
    return generation;
}

std::optional<ComputeResult> ComputeWorker::take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<ComputeResult> out = std::move(ready_);
    ready_.reset();
    return out;
}

void ComputeWorker::run() {
    // exp() of very negative scores lands in the denormal range, where x86 arithmetic
    // runs many times slower; flushing them to zero changes no shown digit.
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
    for (;;) {
        ComputeRequest request;
        uint64_t generation = 0;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
            if (stop_) return;
            request = std::move(*pending_);
            pending_.reset();
            generation = posted_.load();
        }
        ComputeResult result = compute(request, generation);
        std::lock_guard<std::mutex> lock(mutex_);
        // A newer request makes this result stale: drop it, the newer one follows.
        if (generation == posted_.load()) ready_ = std::move(result);
        finished_.store(generation);
    }
}

ComputeResult ComputeWorker::compute(const io::Problem& problem, int batch_item, int max_extent,
                                     ColourScale colour_scale) {
    ComputeResult result;
    const auto start = std::chrono::steady_clock::now();
    // No exception may leave the worker: it would end the program from a thread.
    try {
        Result<Trace> trace = io::compute_trace(problem);  // a trained model's layer, or plain attention
        if (!trace.ok()) {
            result.error = trace.error();
            return result;
        }
        auto shared = std::make_shared<const Trace>(std::move(trace.value()));
        const auto model_start = std::chrono::steady_clock::now();
        result.model = std::make_shared<const DisplayModel>(
            build_display_model(*shared, problem.query_tokens_of(batch_item), problem.key_tokens_of(batch_item),
                                batch_item, max_extent, colour_scale));
        result.model_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - model_start).count();
        result.trace = std::move(shared);
        result.query_tokens = problem.query_tokens_of(batch_item);
        result.key_tokens = problem.key_tokens_of(batch_item);
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory for this configuration; choose smaller sizes";
    } catch (const std::exception& e) {
        result.error = std::string("computation failed: ") + e.what();
    }
    result.compute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

ComputeResult ComputeWorker::compute(const ComputeRequest& request, uint64_t generation) {
    const auto start = std::chrono::steady_clock::now();
    ComputeResult result;
    try {
        if (request.prebuilt) {
            result = compute(*request.prebuilt, request.batch_item, request.max_extent, request.colour_scale);
            result.generation = generation;
            return result;
        }
        Result<io::Problem> problem = request.model
                                          ? io::build_model_problem(request.model, request.model_layer, request.model_sentence)
                                          : io::build_problem(request.config, request.sources);
        if (!problem.ok()) {
            result.error = problem.error();
        } else {
            result = compute(problem.value(), request.batch_item, request.max_extent, request.colour_scale);
        }
    } catch (const std::exception& e) {
        result.error = std::string("could not prepare the problem: ") + e.what();
    }
    result.generation = generation;
    result.compute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace attn::gui
