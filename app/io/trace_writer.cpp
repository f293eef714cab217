#include "app/io/trace_writer.h"

#include "app/io/staged_folder.h"

#include <cmath>

#include <filesystem>
#include <optional>
#include <random>
#include <type_traits>
#include <variant>

#include "app/io/file_util.h"
#include "app/io/npy.h"
#include "app/io/safetensors.h"
#include "app/io/weight_names.h"
#include "app/text/step_text.h"
#include "core/model/tokenizer.h"

namespace attn::io {

namespace fs = std::filesystem;
using nlohmann::json;

json field_json(const ConfigField& field, const AttentionConfig& config) {
    return std::visit([](const auto& value) -> json {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::monostate>) return nullptr;
        else return value;
    }, field_value(field, config));
}

json config_to_json(const AttentionConfig& c) {
    json j;
    for (const ConfigField& field : config_fields())
        if (*field.manifest_key) j[field.manifest_key] = field_json(field, c);
    // Facts that follow from the fields.
    j["head_dim"] = c.head_dim();
    j["scale_factor"] = c.scale_factor();
    j["mask_file"] = c.mask_file.empty() ? json(nullptr) : json(c.mask_file_path);
    if (!c.mask_file.empty()) {
        j["mask_file_kind"] = c.mask_file_is_boolean ? "boolean (True = masked out)" : "float (added to the scores)";
        j["mask_file_shape"] = c.mask_file.shape();
    }
    return j;
}

namespace {

// A JSON value as a field value; nullopt for what no field holds (objects, mixed lists).
std::optional<FieldValue> value_of(const json& j) {
    if (j.is_null()) return FieldValue(std::monostate{});
    if (j.is_boolean()) return FieldValue(j.get<bool>());
    if (j.is_number_unsigned()) return FieldValue(j.get<uint64_t>());
    if (j.is_number_integer()) return FieldValue(j.get<int64_t>());
    if (j.is_number_float()) return FieldValue(j.get<double>());
    if (j.is_string()) return FieldValue(j.get<std::string>());
    if (!j.is_array()) return std::nullopt;
    std::vector<int> values;
    for (const json& item : j) {
        if (!item.is_number_integer() || item.get<int64_t>() != item.get<int>()) return std::nullopt;
        values.push_back(item.get<int>());
    }
    return FieldValue(std::move(values));
}

}  // namespace

Result<AttentionConfig> config_from_json(const json& j) {
    AttentionConfig c;
    if (!j.is_object()) return Result<AttentionConfig>::failure(Message("error.config_field.bad_value", {{"name", "config"}, {"text", j.dump()}}));
    for (const ConfigField& field : config_fields()) {
        if (!*field.manifest_key || !j.contains(field.manifest_key)) continue;
        const json& item = j.at(field.manifest_key);
        const std::optional<FieldValue> value = value_of(item);
        const bool taken = value && set_field_value(field, *value, c).ok();
        if (!taken) return Result<AttentionConfig>::failure(Message("error.config_field.bad_value", {{"name", field.manifest_key}, {"text", item.dump()}}));
    }
    return c;
}

// What a learner should know about rows with no key left, and what PyTorch does with them.
static std::string fully_masked_note(const Trace& trace) {
    const int rows = trace.count_fully_masked_rows();
    if (rows == 0) return "";
    const std::string count = std::to_string(rows) + " (batch, head, query) rows have no key left. ";
    if (std::isinf(mask_fill_value(trace.config.mask_fill, trace.config.dtype)))
        return count + "With the -inf fill AttnViz gives them all-zero weights (flagged); PyTorch would produce NaN weights "
                       "there, and NaN context, concat and out on those queries.";
    return count + "With a finite fill (" + to_string(trace.config.mask_fill) +
           ") every key gets the same score, so the weights are uniform 1/S over all keys, exactly as in PyTorch.";
}

json trace_manifest(const Trace& trace, const text::Catalogue& words) {
    json steps = json::array();
    for (size_t i = 0; i < trace.steps.size(); ++i) {
        const Step& s = trace.steps[i];
        // Step names stay English identifiers in every language; only the prose follows `words`.
        const text::StepText prose = text::describe_step(s, trace, words);
        std::vector<std::string> sources;
        for (StepId source : s.sources) sources.emplace_back(step_name(source));
        steps.push_back({{"index", i},
                         {"name", s.name()},
                         {"title", prose.title},
                         {"kind", to_string(s.kind)},
                         {"formula", prose.formula},
                         {"explanation", prose.explanation},
                         {"shape", s.tensor.shape()},
                         {"dims", s.tensor.dim_names()},
                         {"strides", s.tensor.strides()},
                         {"storage_offset", s.tensor.offset()},
                         {"contiguous", s.tensor.is_contiguous()},
                         {"is_view", s.is_view},
                         {"sources", sources},
                         {"file", std::string(s.name()) + ".npy"}});
    }
    json manifest = {{"format", "attnviz-trace"},
                     {"version", 1},
                     {"config", config_to_json(trace.config)},
                     {"trace_bytes", trace.storage_bytes()},
                     {"fully_masked_rows", trace.count_fully_masked_rows()},
                     {"fully_masked_note", fully_masked_note(trace)},
                     {"steps", steps}};
    if (trace.block.count > 0) {  // rows against the KV cache (--decode-from): which ones
        manifest["query_rows"] = {{"first", trace.block.first}, {"count", trace.block.count}};
        manifest["decode_position"] = trace.decode_position() >= 0 ? json(trace.decode_position()) : json(nullptr);
    }
    if (trace.model.present()) {
        const TraceModelInfo& m = trace.model;
        // The L (and S) axis labels, and which model and layer the steps belong to.
        manifest["tokens"] = m.tokens;
        manifest["model"] = {{"name", m.name},
                             {"kind", m.kind},
                             {"layer", m.layer},
                             {"layers", m.layers},
                             {"tokens", m.tokens},
                             {"predicted_tokens", m.predicted_tokens},
                             {"vocabulary", m.vocabulary},
                             {"note", english(unknown_words_note(m.unknown_words))}};
    }
    return manifest;
}

// True when `dir` holds only what write_trace_dir writes: an AttnViz manifest and .npy
// files. Anything else in it might be the user's, so it is never replaced.
bool is_trace_folder(const fs::path& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const fs::path name = entry.path().filename();
        const bool ours = name == "manifest.json" || name == "tokens.json" || name == "weights.safetensors" ||
                          name.extension() == ".npy";
        if (!entry.is_regular_file(ec) || !ours) return false;
    }
    Result<std::string> manifest = read_file_bytes((dir / "manifest.json").string());
    if (!manifest) return false;
    const json parsed = json::parse(manifest.value(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_object() && parsed.value("format", "") == "attnviz-trace";
}

// The trace's files into `folder` (a fresh one).
static Status write_trace_files(const Trace& trace, const fs::path& folder, const TraceExtras* extras, const text::Catalogue& words) {
    for (const Step& step : trace.steps)
        if (Status s = write_npy((folder / (std::string(step.name()) + ".npy")).string(), step.tensor); !s) return s;
    if (trace.config.seq_first) {  // the result in the layout the inputs came in: (L, B, E)
        const Step* result = trace.find(StepId::Out) ? trace.find(StepId::Out) : trace.find(StepId::Concat);
        if (result)
            if (Status s = write_npy((folder / "out_seq_first.npy").string(), result->tensor.transpose(0, 1)); !s) return s;
    }
    if (Status s = write_file_bytes((folder / "manifest.json").string(), trace_manifest(trace, words).dump(2) + "\n"); !s) return s;
    if (extras && extras->weights)
        if (Status s = write_safetensors((folder / "weights.safetensors").string(), weights_to_tensors(trace.weights())); !s)
            return s;
    if (extras && (!extras->query_tokens.empty() || !extras->key_tokens.empty())) {
        const json tokens = {{"query_tokens", extras->query_tokens}, {"key_tokens", extras->key_tokens},
                             {"note", "query_tokens label the L axis of every step, key_tokens the S axis"}};
        if (Status s = write_file_bytes((folder / "tokens.json").string(), tokens.dump(2) + "\n"); !s) return s;
    }
    return ok_status();
}

Status write_trace_dir(const Trace& trace, const std::string& dir, const TraceExtras* extras, const text::Catalogue& words) {
    return write_folder_staged(dir, is_trace_folder, "error.trace_dir.not_ours",
                               [&](const fs::path& folder) { return write_trace_files(trace, folder, extras, words); });
}

}  // namespace attn::io
