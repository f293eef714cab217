#include "app/gui/compute/compute_worker.h"
#include "app/gui/compute/free_core_team.h"
#include "app/gui/compute/decode_run.h"
#include "app/gui/compute/own_threads.h"

#include "app/gui/display/fp32_difference.h"
#include "app/io/model_problem.h"

#include <chrono>
#include <exception>
#include <new>

namespace attn::gui {

namespace {

// The model overview of `problem`: a trained model's every layer from the run that
// already computed them (build_model_problem ran all layers), else the trace on screen.
std::shared_ptr<const ModelOverview> overview_of(const io::Problem& problem, const Trace& shown, int batch_item) {
    std::vector<const Trace*> layers;
    if (problem.model && problem.model_run)
        for (const LayerRun& layer : problem.model_run->layers) layers.push_back(&layer.attention);
    else
        layers.push_back(&shown);
    return std::make_shared<const ModelOverview>(
        build_overview(layers, problem.model ? problem.model_layer : 0, batch_item, problem.model ? &problem.model->spec : nullptr));
}

}  // namespace

ComputeWorker::ComputeWorker()
    : ComputeWorker([](const ComputeRequest& request, uint64_t generation) { return compute(request, generation); }) {}

ComputeWorker::ComputeWorker(ComputeFn compute_fn) : compute_fn_(std::move(compute_fn)) {
    if (kOwnThreads) thread_ = std::thread([this] { run(); });
}

ComputeWorker::~ComputeWorker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

uint64_t ComputeWorker::post(ComputeRequest request) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(request);
    has_pending_.store(true);
    const uint64_t generation = ++posted_;
    wake_.notify_all();
    return generation;
}

std::optional<ComputeResult> ComputeWorker::take() {
    serve_without_thread();
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<ComputeResult> out = std::move(ready_);
    ready_.reset();
    return out;
}

void ComputeWorker::finish_model() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finishing_.load() || !last_model_ || last_model_->complete() || finished_.load() != posted_.load()) return;
    finish_requested_ = true;
    finishing_.store(true);
    wake_.notify_all();
}

std::optional<CompletedModel> ComputeWorker::take_model() {
    serve_without_thread();
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<CompletedModel> out = std::move(ready_model_);
    ready_model_.reset();
    return out;
}

void ComputeWorker::complete_later(std::shared_ptr<const Trace> trace, std::shared_ptr<const DisplayModel> model) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_.has_value() || finished_.load() != posted_.load()) return;  // a newer trace is coming
    last_generation_ = posted_.load();
    last_trace_ = std::move(trace);
    last_model_ = std::move(model);
}

void ComputeWorker::wait_until_idle() {
    while (!kOwnThreads && busy()) serve_without_thread();
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return !busy(); });
}

void ComputeWorker::run() {
    // No denormal flushing here: the forward sets it in its own threads (attention.cpp),
    // and the display model must read values exactly as snapshots do on other threads.
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stop_ || pending_.has_value() || finish_requested_; });
        if (stop_) return;
        serve_one_locked(lock);
    }
}

void ComputeWorker::serve_without_thread() {
    if (kOwnThreads) return;
    std::unique_lock<std::mutex> lock(mutex_);
    if (pending_.has_value() || finish_requested_) serve_one_locked(lock);
}

void ComputeWorker::serve_one_locked(std::unique_lock<std::mutex>& lock) {
    if (pending_) {
        ComputeRequest request = std::move(*pending_);
        pending_.reset();
        has_pending_.store(false);
        const uint64_t generation = posted_.load();
        lock.unlock();
        ComputeResult result = compute_fn_(request, generation);
        lock.lock();
        // A newer request makes this result stale: drop it, the newer one follows.
        if (generation == posted_.load()) {
            if (result.error.empty() && result.model) {
                last_generation_ = generation;
                last_trace_ = result.trace;
                last_model_ = result.model;
            }
            ready_ = std::move(result);
        }
        finished_.store(generation);
        idle_.notify_all();
        return;
    }
    finish_requested_ = false;
    complete_model_locked(lock);
    finishing_.store(false);
    idle_.notify_all();
}

void ComputeWorker::complete_model_locked(std::unique_lock<std::mutex>& lock) {
    if (!last_model_ || last_model_->complete() || pending_.has_value()) return;
    const uint64_t generation = last_generation_;
    const std::shared_ptr<const Trace> trace = last_trace_;
    auto model = std::make_shared<DisplayModel>(*last_model_);  // the window keeps drawing its copy
    lock.unlock();
    bool done = false;
    try {
        // Stops between steps as soon as a newer request is posted: that one comes first.
        done = complete_display_model(*trace, *model, [this] { return has_pending_.load(); });
    } catch (const std::exception&) {
        done = false;  // e.g. out of memory: the window keeps the partial model
    }
    lock.lock();
    // last_trace_ too: the window may have handed over a model of its own meanwhile (complete_later).
    if (done && !pending_.has_value() && last_generation_ == generation && last_trace_ == trace) {
        last_model_ = model;
        ready_model_ = CompletedModel{generation, trace, std::move(model)};
    }
}

ComputeResult ComputeWorker::compute(const io::Problem& problem, int batch_item, int max_extent,
                                     std::optional<StepId> focus_step, ColourScale colour_scale, bool overview, int decode_step) {
    FreeCoreTeam team;
    ComputeResult result;
    const auto start = std::chrono::steady_clock::now();
    // No exception may leave the worker: it would end the program from a thread.
    try {
        const bool generating = problem.model && problem.generate > 0;
        if ((problem.config.decode_from > 0 && !problem.model) || generating) {
            // --decode-from: the whole pass, the prefill and the steps up to the one shown;
            // a model's generation: every token drawn and decoded, the shown layer's steps (decode_run.h).
            auto shared = std::make_shared<const io::Problem>(problem);
            Result<std::shared_ptr<DecodeRun>> run = generating ? start_generation_run(shared, problem.generate, problem.sampling, decode_step)
                                                                : start_decode_run(shared, decode_step);
            if (!run) {
                result.error = run.message();
                return result;
            }
            result = decode_step_result(run.value(), decode_step, batch_item, max_extent, colour_scale, focus_step);
            result.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            return result;
        }
        Result<Trace> trace = io::compute_trace(problem);  // a trained model's layer, or plain attention
        if (!trace.ok()) {
            result.error = trace.message();
            return result;
        }
        if (colour_scale.difference_from_float32) {
            // The core's forward once more in float32; the trace on screen becomes the difference.
            if (problem.config.dtype != DType::Float32 && !problem.model) {
                io::Problem reference = problem;
                reference.config.dtype = DType::Float32;
                Result<Trace> float32 = io::compute_trace(reference);
                const Message mismatch = float32.ok() ? make_difference_trace(trace.value(), float32.value()) : float32.message();
                if (!mismatch.empty()) {
                    result.error = mismatch;
                    return result;
                }
            } else {
                colour_scale.difference_from_float32 = false;  // nothing to compare: the plain trace
            }
        }
        auto shared = std::make_shared<const Trace>(std::move(trace.value()));
        team.grow_if_cores_freed();
        const auto model_start = std::chrono::steady_clock::now();
        const int focus = focus_step ? shared->index_of(*focus_step) : kAllSteps;  // -1 (absent) = all
        result.model = std::make_shared<const DisplayModel>(
            build_display_model(*shared, problem.query_tokens_of(batch_item), problem.key_tokens_of(batch_item),
                                batch_item, max_extent, focus, colour_scale));
        result.model_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - model_start).count();
        if (overview) result.overview = overview_of(problem, *shared, batch_item);
        result.trace = std::move(shared);
        result.query_tokens = problem.query_tokens_of(batch_item);
        result.key_tokens = problem.key_tokens_of(batch_item);
    } catch (const std::bad_alloc&) {
        result.error = Message("canvas.out_of_memory");
    } catch (const std::exception& e) {
        result.error = Message("canvas.computation_failed", {{"reason", e.what()}});
    }
    result.compute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

ComputeResult ComputeWorker::compute(const ComputeRequest& request, uint64_t generation) {
    const FreeCoreTeam team;
    const auto start = std::chrono::steady_clock::now();
    ComputeResult result;
    try {
        if (request.prebuilt) {
            result = compute(*request.prebuilt, request.batch_item, request.max_extent, request.focus_step,
                             request.colour_scale, request.overview, request.decode_step);
            result.generation = generation;
            return result;
        }
        Result<io::Problem> problem = request.model
                                          ? io::build_model_problem(request.model, request.model_layer, request.model_sentence)
                                          : io::build_problem(request.config, request.sources);
        if (!problem.ok()) {
            result.error = problem.message();
        } else {
            if (request.model) {  // the controls' Generate (0: the sentence alone)
                problem.value().generate = request.generate;
                problem.value().sampling = request.sampling;
            }
            result = compute(problem.value(), request.batch_item, request.max_extent, request.focus_step,
                             request.colour_scale, request.overview, request.decode_step);
        }
    } catch (const std::exception& e) {
        result.error = Message("canvas.prepare_failed", {{"reason", e.what()}});

    }
    result.generation = generation;
    result.compute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace attn::gui
