#include "app/io/model_loader.h"

#include <algorithm>
#include <sys/stat.h>

#include "app/io/embedded_models.h"
#include "app/io/file_util.h"
#include "app/io/model_card.h"
#include "app/io/safetensors.h"
#include "app/io/weight_names.h"

namespace attn::io {

namespace {

const embedded::EmbeddedFile* embedded_file(const std::string& name) {
    for (size_t i = 0; i < embedded::kModelFilesCount; ++i)
        if (name == embedded::kModelFiles[i].name) return &embedded::kModelFiles[i];
    return nullptr;
}

std::string bytes_of(const embedded::EmbeddedFile& file) {
    return std::string(file.text());
}

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// The tensor `name` with exactly `shape`, or a message.
class TensorFinder {
public:
    TensorFinder(const NamedTensors& tensors, std::string what) : tensors_(tensors), what_(std::move(what)) {}
    // Sets `error` (once) and returns an empty matrix when missing or misshapen.
    Mat matrix(const std::string& name, int64_t rows, int64_t cols) {
        const Tensor* t = find(name, {rows, cols});
        if (!t) return Mat();
        const std::vector<float> values = t->to_vector();
        return ConstMatMap(values.data(), rows, cols);
    }
    Vec vector(const std::string& name, int64_t size) {
        const Tensor* t = find(name, {size});
        if (!t) return Vec();
        const std::vector<float> values = t->to_vector();
        return Eigen::Map<const Vec>(values.data(), size);
    }
    const Message& error() const { return error_; }

private:
    const Tensor* find(const std::string& name, const std::vector<int64_t>& shape) {
        if (!error_.empty()) return nullptr;
        for (const auto& [key, tensor] : tensors_) {
            if (key != name) continue;
            if (tensor.shape() != shape) {
                error_ = Message("error.card.tensor_shape",
                                 {{"what", what_}, {"name", name}, {"shape", shape_text(tensor.shape())}, {"expected", shape_text(shape)}});
                return nullptr;
            }
            return &tensor;
        }
        error_ = Message("error.card.tensor_missing", {{"what", what_}, {"name", name}});
        return nullptr;
    }
    const NamedTensors& tensors_;
    std::string what_;
    Message error_;
};

// The embedded cards, parsed: the language model first, then by name.
std::vector<ModelSpec> parse_embedded_cards() {
    std::vector<ModelSpec> specs;
    for (size_t i = 0; i < embedded::kModelFilesCount; ++i) {
        const std::string name = embedded::kModelFiles[i].name;
        if (!ends_with(name, ".json")) continue;
        Result<ModelSpec> spec = parse_model_card(bytes_of(embedded::kModelFiles[i]), name);
        if (spec) specs.push_back(std::move(spec.value()));
    }
    // The language model first: it is the one the window starts with.
    std::sort(specs.begin(), specs.end(), [](const ModelSpec& a, const ModelSpec& b) {
        const bool a_lm = a.kind == ModelKind::Language, b_lm = b.kind == ModelKind::Language;
        return a_lm != b_lm ? a_lm : a.name < b.name;
    });
    return specs;
}

// Layer `prefix`'s attention, through the same name lookup as a single-layer file: (D, D)
// projections with biases, or for a grouped-query model without biases W_k and W_v of
// (H_kv d_h, D), as the card says.
Result<AttentionWeights> layer_attention(const NamedTensors& tensors, const std::string& prefix, const ModelSpec& s,
                                         const std::string& what) {
    using R = Result<AttentionWeights>;
    Result<LoadedWeights> attention = weights_from_tensors_under(tensors, prefix + "attn.", what);
    if (!attention) return R::failure(attention.message());
    const int64_t D = s.hidden_dim, kv_width = static_cast<int64_t>(s.kv_head_count()) * s.head_dim();
    const AttentionWeights& w = attention->weights;
    if (attention->hidden_dim != D || w.w_k.rows() != kv_width || w.w_v.rows() != kv_width || w.w_k.cols() != D ||
        attention->bias != s.bias)
        return R::failure(Message(s.bias ? "error.card.layer_attention_kv" : "error.card.layer_attention_kv_no_bias",
                                  {{"what", what}, {"layer", prefix + "attn"}, {"width", D}, {"kv_rows", kv_width}}));
    return std::move(attention->weights);
}

}  // namespace

Result<Model> model_from_bytes(const std::string& card_json, const std::string& safetensors_bytes, const std::string& what) {
    using R = Result<Model>;
    Result<ModelSpec> spec = parse_model_card(card_json, what);
    if (!spec) return R::failure(spec.message());
    Result<NamedTensors> tensors = decode_safetensors(safetensors_bytes, what + " weights");
    if (!tensors) return R::failure(tensors.message());

    Model model;
    model.spec = std::move(spec.value());
    const ModelSpec& s = model.spec;
    const int64_t V = s.vocab_size, D = s.hidden_dim, F = s.mlp_dim;
    TensorFinder get(tensors.value(), what);
    ModelWeights& w = model.weights;
    // A model without biases (the card's architecture says so) has no bias tensors at all.
    const auto bias = [&](const std::string& name, int64_t size) { return s.bias ? get.vector(name, size) : Vec(); };
    const auto norm = [&](const std::string& name) { return NormWeights{get.vector(name + ".weight", D), bias(name + ".bias", D)}; };
    w.token_embedding = get.matrix("tok_emb.weight", V, D);
    if (!s.rope) w.position_embedding = get.matrix("pos_emb.weight", s.max_len, D);
    for (int i = 0; i < s.layers && get.error().empty(); ++i) {
        const std::string layer = "layers." + std::to_string(i) + ".";
        LayerWeights lw;
        lw.ln1 = norm(layer + "ln1");
        Result<AttentionWeights> attention = layer_attention(tensors.value(), layer, s, what);
        if (!attention) return R::failure(attention.message());
        lw.attn = std::move(attention.value());
        if (s.mlp) {
            lw.ln2 = norm(layer + "ln2");
            lw.fc1 = get.matrix(layer + "mlp.fc1.weight", F, D);
            lw.fc1_bias = bias(layer + "mlp.fc1.bias", F);
            lw.fc2 = get.matrix(layer + "mlp.fc2.weight", D, F);
            lw.fc2_bias = bias(layer + "mlp.fc2.bias", D);
        }
        w.layers.push_back(std::move(lw));
    }
    w.final_norm = norm("ln_f");
    w.lm_head = get.matrix("lm_head.weight", V, D);
    if (!get.error().empty()) return R::failure(get.error());
    return model;
}

const std::vector<ModelSpec>& list_models() {
    // The cards are compiled in: parse them once (thread-safe static initialisation).
    static const std::vector<ModelSpec> specs = parse_embedded_cards();
    return specs;
}


std::string model_names_text() {
    std::string names;
    for (const ModelSpec& spec : list_models()) names += (names.empty() ? "" : ", ") + spec.name;
    return names;
}

Result<std::shared_ptr<const Model>> load_model(const std::string& name_or_path) {
    using R = Result<std::shared_ptr<const Model>>;
    const auto shared = [](Result<Model> model) -> R {
        if (!model) return R::failure(model.message());
        return std::shared_ptr<const Model>(std::make_shared<Model>(std::move(model.value())));
    };
    struct stat info {};
    const bool is_file = ::stat(name_or_path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
    if (is_file || ends_with(name_or_path, ".json")) {
        if (!ends_with(name_or_path, ".json"))
            return R::failure(Message("error.model.not_a_card", {{"path", name_or_path}, {"models", model_names_text()}}));
        Result<std::string> card = read_file_bytes(name_or_path, 16u << 20);
        if (!card) return R::failure(card.message());
        const std::string weights_path = name_or_path.substr(0, name_or_path.size() - 5) + ".safetensors";
        Result<std::string> weights = read_file_bytes(weights_path);
        if (!weights) return R::failure(Message("error.model.weights_beside_card", {{"error", weights.message()}}));
        return shared(model_from_bytes(card.value(), weights.value(), name_or_path));
    }
    const embedded::EmbeddedFile* card = embedded_file(name_or_path + ".json");
    const embedded::EmbeddedFile* weights = embedded_file(name_or_path + ".safetensors");
    if (!card || !weights)
        return R::failure(Message("error.model.no_such_model", {{"name", name_or_path}, {"models", model_names_text()}}));
    return shared(model_from_bytes(bytes_of(*card), bytes_of(*weights), name_or_path));
}

}  // namespace attn::io
