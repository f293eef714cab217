// Results: what the window draws, the newest finished trace and its display model, with
// the bookkeeping of the request that produced it. Only accept_result writes here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/compute/decode_run.h"
#include "app/gui/display/display_model.h"
#include "app/gui/display/overview.h"
#include "core/message.h"
#include "core/trace.h"

namespace attn::gui {

struct Results {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const DisplayModel> model;
    std::vector<std::string> query_tokens, key_tokens;
    std::shared_ptr<const ModelOverview> overview;  // every layer's heads, while View > Overview is open
    Message compute_error;         // last failure, shown above the canvas (rendered when drawn)
    double compute_ms = 0;
    bool model_changed = false;    // the window re-bakes textures when set
    uint64_t posted_generation = 0;
    double posted_time = 0;        // when the newest request was posted (for latency)
    double last_latency_ms = 0;    // posted -> drawn, of the last trace
    // With --decode-from P (the token strip, decode_run.h): the steps made so far, which
    // of them `trace` is, and its row beside the whole pass's. Null without a generation.
    // The run is the window's to extend (apply_actions), never a view's.
    std::shared_ptr<DecodeRun> decode;
    int decode_step = 0;
    DecodeRowCompare decode_rows;

    // Step `index` of the trace, or nullptr when there is no trace or no such step.
    const Step* step_at(int index) const {
        if (!trace || index < 0 || index >= static_cast<int>(trace->steps.size())) return nullptr;
        return &trace->steps[static_cast<size_t>(index)];
    }
};

}  // namespace attn::gui
