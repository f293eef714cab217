// Export as PyTorch: the configuration of a trace as a folder a learner runs with
// python3 (torch and numpy only) and continues from in a notebook:
//   attention.py         the module (assets/code/attention_module.py) followed by the
//                        runner (run_check.py): rebuilds the module, loads the weights,
//                        runs the forward, prints each step's largest difference from
//                        AttnViz's trace and exits 1 when one is above 1e-5
//   attention.json       the module's constructor arguments, the mask recipe, notes
//   weights.safetensors  the weights under the module's state_dict names (float32)
//   input.npy            (B, L, d_in); key_input.npy, value_input.npy for cross-attention
//   mask_file.npy        the --mask-file as read, when there is one
//   trace/               AttnViz's trace of every step (io::write_trace_dir)
#pragma once

#include <string>

#include "core/message.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn::text {
class Catalogue;
}

namespace attn::io {

// Why the script could not reproduce this trace within 1e-5 (a lower compute dtype,
// cells masked by hand); empty when it can.
Message torch_export_refusal(const Trace& trace);

// Writes the folder (refusing as torch_export_refusal says). Written into a temporary
// sibling and renamed, so a failure leaves nothing half-written; an earlier export at
// `dir` is replaced, any other non-empty folder is refused. The script's comments are in
// `language` (English when null); its code is the same in every language.
Status write_torch_export(const Trace& trace, const std::string& dir, const text::Catalogue* language = nullptr);

}  // namespace attn::io
