#include "app/io/generation_writer.h"

#include <cstdio>
#include <filesystem>

#include "app/io/file_util.h"
#include "app/io/staged_folder.h"

namespace attn::io {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// True when `dir` is a folder write_generation_dir wrote: its generation.json says so.
bool is_generation_folder(const fs::path& dir) {
    Result<std::string> text = read_file_bytes((dir / "generation.json").string());
    if (!text) return false;
    const json parsed = json::parse(text.value(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_object() && parsed.value("format", "") == "attnviz-generation";
}

// The positions a trace's query rows stand at.
std::vector<int> positions_of(const Trace& trace) {
    std::vector<int> positions;
    for (int i = 0; i < trace.block.count; ++i) positions.push_back(trace.block.first + i);
    return positions;
}

// A trace's tokens.json: the tokens of its query rows, and of the cached keys it read.
TraceExtras labels_of(const Generation& g, const Trace& trace) {
    TraceExtras labels;
    const Step* cache = trace.find(StepId::KCache);
    const size_t keys = cache ? static_cast<size_t>(cache->tensor.dim(2)) : 0;
    for (int position : positions_of(trace))
        if (static_cast<size_t>(position) < g.tokens.size()) labels.query_tokens.push_back(g.tokens[static_cast<size_t>(position)]);
    for (size_t j = 0; j < keys && j < g.tokens.size(); ++j) labels.key_tokens.push_back(g.tokens[j]);
    return labels;
}

// A generation's "sampling" settings (temperature 0: greedy) and its "generated" tokens.
json sampling_fields(const Generation& g) {
    json generated = json::array();
    for (const GeneratedToken& t : g.generated)
        generated.push_back({{"position", t.position},
                             {"token", t.token},
                             {"id", t.id},
                             {"probability", t.probability},
                             {"model_probability", t.model_probability},
                             {"chosen_after", t.chosen_after}});
    const SamplingSettings& s = g.settings;
    return {{"sampling", {{"temperature", s.temperature}, {"greedy", s.greedy()}, {"top_k", s.top_k}, {"top_p", s.top_p},
                          {"seed", s.seed}, {"order", "temperature, top-k, top-p"}}},
            {"generated", generated}};
}

}  // namespace

std::string generation_folder_name(size_t index) {
    if (index == 0) return "prefill";
    char name[32];
    std::snprintf(name, sizeof name, "decode_%03zu", index);
    return name;
}

json generation_manifest(const Generation& g) {
    json steps = json::array();
    for (size_t i = 0; i < g.traces.size(); ++i) {
        const Trace& t = g.traces[i];
        const Step* cache = t.find(StepId::KCache);
        steps.push_back({{"folder", generation_folder_name(i)},
                         {"positions", positions_of(t)},
                         {"decode_position", t.decode_position() >= 0 ? json(t.decode_position()) : json(nullptr)},
                         {"cache_size", cache ? cache->tensor.dim(2) : 0}});
    }
    const AttentionConfig& c = g.traces.front().config;
    json manifest = {{"format", "attnviz-generation"},
                     {"version", 1},
                     {"seq_len", c.L()},
                     {"decode_from", g.traces.front().block.count},
                     {"tokens", g.tokens},
                     {"cache_layout", "(B, H_kv, S_t, d_h), keys after RoPE"},
                     {"steps", steps}};
    if (!g.model.empty()) manifest["model"] = g.model;
    if (g.sampled) manifest.update(sampling_fields(g));
    return manifest;
}

Status write_generation_dir(const Generation& g, const std::string& dir, bool labelled, const text::Catalogue& words) {
    return write_folder_staged(dir, is_generation_folder, "error.decode.folder_not_generation", [&](const fs::path& folder) {
        for (size_t i = 0; i < g.traces.size(); ++i) {
            const TraceExtras labels = labels_of(g, g.traces[i]);
            const fs::path trace_dir = folder / generation_folder_name(i);
            if (Status s = write_trace_dir(g.traces[i], trace_dir.string(), labelled ? &labels : nullptr, words); !s) return s;
        }
        return write_file_bytes((folder / "generation.json").string(), generation_manifest(g).dump(2) + "\n");
    });
}

}  // namespace attn::io
