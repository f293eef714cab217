#include "app/io/torch_export.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "app/io/file_util.h"
#include "app/io/npy.h"
#include "app/io/safetensors.h"
#include "app/io/torch_code.h"
#include "app/io/trace_writer.h"
#include "app/text/languages.h"
#include "core/recipe.h"

namespace attn::io {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "attnviz-torch-export";

Tensor tensor_of(const float* data, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<std::string> names;
    for (size_t i = 0; i < shape.size(); ++i) names.push_back("d" + std::to_string(i));
    return Tensor::from_values(std::move(shape), std::move(names), std::vector<float>(data, data + n));
}

// The weights under the names of the module's state_dict (assets/code/attention_module.py).
NamedTensors module_weights(const AttentionConfig& c, const AttentionWeights& w) {
    NamedTensors out;
    const auto matrix = [&](const char* name, const Mat& m) {
        out.emplace_back(name, tensor_of(m.data(), {m.rows(), m.cols()}));
    };
    const auto vector = [&](const char* name, const Vec& v) {
        if (v.size() > 0) out.emplace_back(name, tensor_of(v.data(), {v.size()}));
    };
    if (c.variant == Variant::Fused) {  // qkv_proj: W_q, W_k, W_v stacked by rows
        Mat w_qkv(w.w_q.rows() + w.w_k.rows() + w.w_v.rows(), w.w_q.cols());
        w_qkv << w.w_q, w.w_k, w.w_v;
        matrix("qkv_proj.weight", w_qkv);
        if (w.has_bias()) {
            Vec b_qkv(w.b_q.size() + w.b_k.size() + w.b_v.size());
            b_qkv << w.b_q, w.b_k, w.b_v;
            vector("qkv_proj.bias", b_qkv);
        }
    } else {
        matrix("q_proj.weight", w.w_q);
        matrix("k_proj.weight", w.w_k);
        matrix("v_proj.weight", w.w_v);
        vector("q_proj.bias", w.b_q);
        vector("k_proj.bias", w.b_k);
        vector("v_proj.bias", w.b_v);
    }
    if (c.add_bias_kv) {  // (1, 1, H_kv * d_h), as nn.MultiheadAttention keeps them
        out.emplace_back("bias_k", tensor_of(w.bias_k.data(), {1, 1, w.bias_k.size()}));
        out.emplace_back("bias_v", tensor_of(w.bias_v.data(), {1, 1, w.bias_v.size()}));
    }
    if (!c.no_out_proj) {
        matrix("out_proj.weight", w.w_o);
        vector("out_proj.bias", w.b_o);
    }
    return out;
}

// The keyword arguments of Attention(...) for this configuration: the fields with an
// export name (core/config_fields.h), then the arguments derived from several fields.
json module_args(const AttentionConfig& c) {
    json args;
    for (const ConfigField& field : config_fields()) {
        if (!*field.export_key) continue;
        const json value = field_json(field, c);
        args[field.export_key] = field.has(kExportNegated) ? json(!value.get<bool>()) : value;
    }
    const float fill = mask_fill_value(c.mask_fill, c.dtype);
    json rope = nullptr;
    if (c.rope) rope = {{"style", to_string(c.rope_style)}, {"base", c.rope_base}, {"offset", c.position_offset}};
    args["out_bias"] = c.out_bias();
    args["fused"] = c.variant == Variant::Fused;
    args["scale"] = c.scale_factor();
    // JSON has no infinity: Python's float() reads the text "-inf".
    args["mask_fill"] = std::isinf(fill) ? json("-inf") : json(fill);
    args["rope"] = rope;
    return args;
}

// How the runner rebuilds the mask: the presets, their lengths and window, the file.
json mask_recipe(const AttentionConfig& c) {
    if (!c.has_mask()) return nullptr;
    const MaskSpec spec = c.mask_spec();
    json presets = json::array();
    if (spec.presets.causal) presets.push_back("causal");
    if (spec.presets.padding) presets.push_back("padding");
    if (spec.presets.left_padding) presets.push_back("left-padding");
    if (spec.presets.window) presets.push_back("window");
    return {{"presets", presets},
            {"valid_lengths", spec.presets.reads_valid_lengths() ? json(spec.valid_lengths) : json::array()},
            {"window", spec.window},
            {"file", c.mask_file.empty() ? json(nullptr) : json("mask_file.npy")},
            {"file_is_boolean", c.mask_file_is_boolean}};
}

// What a reader of the script should know (English: a file format, like the manifest).
json notes_of(const Trace& trace) {
    const AttentionConfig& c = trace.config;
    json notes = json::array();
    if (trace.model.present())
        notes.push_back("the trace shows layer " + std::to_string(trace.model.layer) + " of the model '" +
                        trace.model.name +
                        "'; this module reproduces its attention, not the embeddings, norm, residual or prediction");
    if (const Recipe* recipe = find_recipe(c.recipe))
        notes.push_back("the configuration of the recipe '" + recipe->name + "' (" + (recipe->article.empty() ? recipe->source_file : recipe->article) +
                        "); the generic module below computes its steps (the article-style class is " +
                        recipe->torch_class + " in AttnViz's assets/code/recipe_modules.py)");
    if (c.variant == Variant::Stacked)
        notes.push_back(
            "AttnViz ran the stacked variant (one small module per head); one projection split into heads "
            "computes the same numbers");
    if (c.dropout > 0.0f && !c.dropout_keep.empty())
        notes.push_back(
            "dropout replays the mask of the trace (trace/attn_dropped.npy), which --init torch drew as "
            "torch.manual_seed and the module's dropout do");
    else if (c.dropout > 0.0f)
        notes.push_back(
            "dropout replays AttnViz's own draw (read from trace/attn_dropped.npy); torch's generator "
            "would drop other cells");
    if (trace.count_fully_masked_rows() > 0 && std::isinf(mask_fill_value(c.mask_fill, c.dtype)))
        notes.push_back(
            "some queries have every key masked with -inf: softmax gives NaN there, shown as zeros as AttnViz does");
    return notes;
}

bool is_earlier_export(const fs::path& dir) {
    Result<std::string> text = read_file_bytes((dir / "attention.json").string());
    if (!text) return false;
    const json parsed = json::parse(text.value(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_object() && parsed.value("format", "") == kFormat;
}

Status write_contents(const Trace& trace, const fs::path& dir, const text::Catalogue& language) {
    const AttentionConfig& c = trace.config;
    const Step* input = trace.find(StepId::Input);
    if (!input) return Status::failure(Message::internal("the trace has no input step"));
    const std::string script = torch_script(language);
    if (Status s = write_file_bytes((dir / "attention.py").string(), script); !s) return s;
    if (Status s = write_safetensors((dir / "weights.safetensors").string(), module_weights(c, trace.weights())); !s)
        return s;
    if (Status s = write_npy((dir / "input.npy").string(), input->tensor); !s) return s;
    const bool cross = trace.find(StepId::KeyInput) != nullptr;
    if (cross) {
        if (Status s = write_npy((dir / "key_input.npy").string(), trace.find(StepId::KeyInput)->tensor); !s) return s;
        if (Status s = write_npy((dir / "value_input.npy").string(), trace.find(StepId::ValueInput)->tensor); !s)
            return s;
    }
    if (!c.mask_file.empty())
        if (Status s = write_npy((dir / "mask_file.npy").string(), c.mask_file); !s) return s;
    const json description = {{"format", kFormat},
                              {"version", 1},
                              {"run", "python3 attention.py"},
                              {"module_args", module_args(c)},
                              {"cross_attention", cross},
                              {"B", c.batch},
                              {"L", c.L()},
                              {"S", c.S()},
                              {"S_total", c.S_total()},
                              {"mask", mask_recipe(c)},
                              {"dropout_replay", c.dropout > 0.0f},
                              {"notes", notes_of(trace)}};
    if (Status s = write_file_bytes((dir / "attention.json").string(), description.dump(2) + "\n"); !s) return s;
    return write_trace_dir(trace, (dir / "trace").string());
}

}  // namespace

Message torch_export_refusal(const Trace& trace) {
    const AttentionConfig& c = trace.config;
    if (c.dtype != DType::Float32) return Message("error.torch_export.dtype", {{"dtype", to_string(c.dtype)}});
    const Step* masked = trace.find(StepId::AttnMasked);
    if (masked && masked->provenance.custom_mask) return Message("error.torch_export.custom_mask");
    return {};
}

Status write_torch_export(const Trace& trace, const std::string& dir, const text::Catalogue* language) {
    if (Message refusal = torch_export_refusal(trace); !refusal.empty()) return Status::failure(std::move(refusal));
    std::error_code ec;
    fs::path target = fs::path(dir).lexically_normal();
    if (!target.empty() && !target.has_filename()) target = target.parent_path();  // "out/" -> "out"
    if (target.empty() || target == "." || target == "..")
        return Status::failure(Message("error.torch_export.no_name"));
    const bool exists = fs::exists(target, ec);
    if (exists && !fs::is_directory(target, ec))
        return Status::failure(Message("error.trace_dir.not_folder", {{"path", dir}}));
    if (exists && !fs::is_empty(target, ec) && !is_earlier_export(target))
        return Status::failure(Message("error.torch_export.not_ours", {{"path", dir}}));
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::exists(parent, ec) && !fs::create_directories(parent, ec))
        return Status::failure(
            Message("error.trace_dir.cannot_create", {{"path", parent.string()}, {"reason", ec.message()}}));
    const std::string tag = std::to_string(std::random_device{}());
    const fs::path temp = parent / ("." + target.filename().string() + ".tmp-" + tag);
    if (!fs::create_directory(temp, ec))
        return Status::failure(
            Message("error.trace_dir.cannot_write", {{"path", parent.string()}, {"reason", ec.message()}}));
    if (Status s = write_contents(trace, temp, language ? *language : text::english()); !s) {
        fs::remove_all(temp, ec);
        return s;
    }
    // Swap in: an earlier export is only removed once the new one is complete.
    const fs::path old = parent / ("." + target.filename().string() + ".old-" + tag);
    if (exists) {
        fs::rename(target, old, ec);
        if (ec) {
            fs::remove_all(temp, ec);
            return Status::failure(
                Message("error.trace_dir.cannot_replace", {{"path", dir}, {"reason", ec.message()}}));
        }
    }
    fs::rename(temp, target, ec);
    if (ec) {
        if (exists) fs::rename(old, target, ec);
        fs::remove_all(temp, ec);
        return Status::failure(Message("error.trace_dir.cannot_swap", {{"path", dir}}));
    }
    if (exists) fs::remove_all(old, ec);
    return ok_status();
}

}  // namespace attn::io
