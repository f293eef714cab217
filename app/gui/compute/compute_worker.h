// ComputeWorker: rebuilds the trace and its display model on a background thread.
// The window posts a request whenever an input changes and keeps drawing the old trace;
// only the newest request is computed (older pending ones are dropped), and a result
// is handed over only if no newer request was posted meanwhile (generation counter).
// A result's display model may hold only the step on screen (ComputeRequest::focus_step);
// once the window has drawn it, finish_model() has the worker build the other steps, and
// take_model() hands the complete model over.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/gui/compute/decode_rows.h"
#include "app/gui/display/display_model.h"
#include "app/gui/display/overview.h"
#include "core/message.h"
#include "app/io/problem.h"

namespace attn::gui {

struct DecodeRun;  // decode_run.h

struct ComputeRequest {
    AttentionConfig config;
    io::ProblemSources sources;
    int batch_item = 0;
    int max_extent = 512;  // panel texture side limit (see build_display_model)
    // The step on screen: only it (and what it reads) is built before the result is
    // handed over. None (or a step this forward does not record): every step at once.
    std::optional<StepId> focus_step;
    // When set, this problem is used as is (e.g. weights the command line loaded).
    std::shared_ptr<const io::Problem> prebuilt;
    ColourScale colour_scale{};  // how colours map to numbers (the View menu)
    // A trained model's layer on `model_sentence` instead of `config` (null: random weights).
    std::shared_ptr<const Model> model{};
    int model_layer = 0;
    std::string model_sentence{};
    bool overview = false;  // View > Overview is open: also build every layer's thumbnails (display/overview.h)
    // With --decode-from P: the decode step to show (0 the prefill, k the row P + k - 1).
    int decode_step = 0;
    // With a next-token `model`: tokens to generate after the sentence and how each is drawn
    // (io::Problem::generate); 0: none.
    int generate = 0;
    SamplingSettings sampling{};
};

struct ComputeResult {
    uint64_t generation = 0;
    Message error;                              // non-empty: nothing else is set
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const DisplayModel> model;
    std::vector<std::string> query_tokens, key_tokens;
    std::shared_ptr<const ModelOverview> overview;  // when the request asked for it (display/overview.h)
    double compute_ms = 0;                      // problem + attention + display model
    double model_ms = 0;                        // of which: building the display model
    // With --decode-from P: the steps made so far (the window makes later ones when its
    // token strip asks, decode_run.h) and which of them `trace` is.
    std::shared_ptr<DecodeRun> decode;
    int decode_step = 0;
    DecodeRowCompare decode_rows;  // a decode step's row beside the whole pass's (decode_rows.h)
};

// A display model completed after its result was handed over (same trace).
struct CompletedModel {
    uint64_t generation = 0;                    // of the result it completes
    std::shared_ptr<const Trace> trace;         // that result's trace: adopt only onto it
    std::shared_ptr<const DisplayModel> model;
};

class ComputeWorker {
public:
    // The work of one request; tests pass their own to control timing.
    using ComputeFn = std::function<ComputeResult(const ComputeRequest&, uint64_t generation)>;

    ComputeWorker();
    explicit ComputeWorker(ComputeFn compute_fn);
    ~ComputeWorker();  // stops and joins the thread (when it has one: own_threads.h)
    ComputeWorker(const ComputeWorker&) = delete;
    ComputeWorker& operator=(const ComputeWorker&) = delete;

    // Queues a request (replacing any not yet started); returns its generation.
    uint64_t post(ComputeRequest request);
    // The newest finished result, once; nullopt when none is new.
    std::optional<ComputeResult> take();
    // The window has drawn the newest result: build the rest of its display model now.
    // Does nothing when that model is complete or a newer request is on its way. (After
    // a failed request the window keeps the last good trace, whose model is completed.)
    void finish_model();
    // The completed model of the newest result, once; nullopt when none is new.
    std::optional<CompletedModel> take_model();
    // A result the window made itself (a token strip click, state/decode_choice.h) whose
    // model holds only the step on screen becomes the one finish_model completes, as if
    // this worker had handed it over. Does nothing while a request is on its way.
    void complete_later(std::shared_ptr<const Trace> trace, std::shared_ptr<const DisplayModel> model);
    // True while the newest request, or finishing its model, is not done.
    bool busy() const { return finished_.load() != posted_.load() || finishing_.load(); }
    // Blocks until busy() is false (tests, and callers without a frame loop).
    void wait_until_idle();

    // Does the work of one request on the calling thread (used by snapshot and tests).
    static ComputeResult compute(const ComputeRequest& request, uint64_t generation);
    // Same, for a problem that is already built.
    static ComputeResult compute(const io::Problem& problem, int batch_item, int max_extent,
                                 std::optional<StepId> focus_step = std::nullopt, ColourScale colour_scale = {},
                                 bool overview = false, int decode_step = 0);

private:
    void run();
    // Without threads of its own (own_threads.h, the browser): take() and take_model() do
    // the waiting work on the caller's thread, between two frames.
    void serve_without_thread();
    // One request, or the completion of the newest model, with `lock` held on entry and exit.
    void serve_one_locked(std::unique_lock<std::mutex>& lock);
    // On the worker thread: completes last_model_ (unlocks `lock` while building).
    void complete_model_locked(std::unique_lock<std::mutex>& lock);
    ComputeFn compute_fn_;
    std::mutex mutex_;
    std::condition_variable wake_;   // the worker: a request, finish_model or stop
    std::condition_variable idle_;   // wait_until_idle
    std::optional<ComputeRequest> pending_;
    std::optional<ComputeResult> ready_;
    std::optional<CompletedModel> ready_model_;
    // The newest result handed over, kept to finish its model.
    uint64_t last_generation_ = 0;
    std::shared_ptr<const Trace> last_trace_;
    std::shared_ptr<const DisplayModel> last_model_;
    bool finish_requested_ = false;
    std::atomic<uint64_t> posted_{0}, finished_{0};
    std::atomic<bool> finishing_{false}, has_pending_{false};
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace attn::gui
