// ComputeWorker: rebuilds the trace and its display model on a background thread.
// The window posts a request whenever an input changes and keeps drawing the old trace;
// only the newest request is computed (older pending ones are dropped), and a result
// is handed over only if no newer request was posted meanwhile (generation counter).
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/gui/display_model.h"
#include "app/io/problem.h"

namespace attn::gui {

struct ComputeRequest {
    AttentionConfig config;
    io::ProblemSources sources;
    int batch_item = 0;
    int max_extent = 512;  // panel texture side limit (see build_display_model)
    // When set, this problem is used as is (e.g. weights the command line loaded).
    std::shared_ptr<const io::Problem> prebuilt;
    ColourScale colour_scale{};  // how colours map to numbers (the View menu)
    // A trained model's layer on `model_sentence` instead of `config` (null: random weights).
    std::shared_ptr<const Model> model{};
    int model_layer = 0;
    std::string model_sentence{};
};

struct ComputeResult {
    uint64_t generation = 0;
    std::string error;                          // non-empty: nothing else is set
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const DisplayModel> model;
    std::vector<std::string> query_tokens, key_tokens;
    double compute_ms = 0;                      // problem + attention + display model
    double model_ms = 0;                        // of which: building the display model
};

class ComputeWorker {
public:
    ComputeWorker();
    ~ComputeWorker();  // stops and joins the thread
    ComputeWorker(const ComputeWorker&) = delete;
    ComputeWorker& operator=(const ComputeWorker&) = delete;

    // Queues a request (replacing any not yet started); returns its generation.
    uint64_t post(ComputeRequest request);
    // The newest finished result, once; nullopt when none is new.
    std::optional<ComputeResult> take();
    // True while the newest request is not finished.
    bool busy() const { return finished_.load() != posted_.load(); }

    // Does the work of one request on the calling thread (used by snapshot and tests).
    static ComputeResult compute(const ComputeRequest& request, uint64_t generation);
    // Same, for a problem that is already built.
    static ComputeResult compute(const io::Problem& problem, int batch_item, int max_extent,
                                 ColourScale colour_scale = {});

private:
    void run();
    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<ComputeRequest> pending_;
    std::optional<ComputeResult> ready_;
    std::atomic<uint64_t> posted_{0}, finished_{0};
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace attn::gui
