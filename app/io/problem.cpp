#include "app/io/problem.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>
#include <sstream>

#include "app/io/npy.h"
#include "app/io/safetensors.h"
#include "app/io/weight_names.h"
#include "core/example_input.h"
#include "core/text_split.h"
#include "core/torch_replay.h"

namespace attn::io {

std::vector<std::string> split_tokens(const std::string& sentence) { return split_text_tokens(sentence); }

std::vector<std::vector<std::string>> split_sentences(const std::string& text) {
    std::vector<std::vector<std::string>> sentences;
    size_t start = 0;
    for (;;) {
        const size_t bar = text.find('|', start);
        sentences.push_back(split_tokens(text.substr(start, bar == std::string::npos ? std::string::npos : bar - start)));
        if (bar == std::string::npos) break;
        start = bar + 1;
    }
    return sentences;
}

const std::vector<std::string>& Problem::query_tokens_of(int b) const {
    if (b >= 0 && b < static_cast<int>(item_tokens.size())) return item_tokens[static_cast<size_t>(b)];
    return query_tokens;
}

const std::vector<std::string>& Problem::key_tokens_of(int b) const {
    return config.is_cross() ? key_tokens : query_tokens_of(b);
}

namespace {


// Reads a (B, N, W) or (N, W) .npy and names its dimensions; with `seq_first` a 3-D file
// is (N, B, W), as nn.MultiheadAttention(batch_first=False) takes it, and is transposed.
// `file_id` names the file in messages: error.problem.file.query / .key / .value ("query file 'q.npy'").
Result<Tensor> read_sequence(const std::string& path, const char* file_id, const char* length_name, const char* width_name,
                             bool seq_first) {
    Result<Tensor> loaded = read_npy(path);
    if (!loaded) return loaded;
    Tensor t = std::move(loaded.value());
    if (seq_first && t.rank() == 3) t = t.transpose(0, 1).contiguous();
    if (t.rank() == 2) t = t.view({1, t.dim(0), t.dim(1)}, {"B", length_name, width_name});
    else if (t.rank() == 3) t = t.view(t.shape(), {"B", length_name, width_name});
    else
        return Result<Tensor>::failure(Message("error.problem.sequence_rank", {{"file", Message(file_id, {{"path", path}})},
                                                                              {"rank", t.rank()},
                                                                              {"length", length_name},
                                                                              {"width", width_name}}));
    return t;
}

std::vector<std::string> numbered(const char* prefix, int count) {
    std::vector<std::string> labels;
    for (int i = 0; i < count; ++i) labels.push_back(prefix + std::to_string(i));
    return labels;
}

// `source_id` names what disagrees with the file: error.problem.source.weights / .query.
Message mismatch(Message what, int64_t got, const char* name, int64_t expected, const char* source_id) {
    return Message("error.problem.mismatch",
                   {{"what", std::move(what)}, {"name", name}, {"got", got}, {"source", Message(source_id)}, {"expected", expected}});
}

// The seeded weights of the last configuration without a weights file. Dragging the
// seq_len slider builds a problem per position with the same weights; drawing them once
// saves 2-3 ms of each redraw at E = 512. Problems are built on the window's compute
// thread and the command line's main thread, hence the lock. Weights above 16 MiB are not
// kept: an idle window must not hold big buffers (E = 2048 would be 64 MiB).
std::shared_ptr<const AttentionWeights> remembered_default_weights(const AttentionConfig& config) {
    constexpr int64_t kMaxRememberedFloats = int64_t{4} << 20;
    static std::mutex lock;
    static std::optional<std::pair<DefaultWeightsKey, std::shared_ptr<const AttentionWeights>>> last;
    const DefaultWeightsKey key = default_weights_key(config);
    {
        std::lock_guard<std::mutex> hold(lock);
        if (last && last->first == key) return last->second;
    }
    auto drawn = std::make_shared<const AttentionWeights>(default_weights(config));
    const int64_t floats = drawn->w_q.size() + drawn->w_k.size() + drawn->w_v.size() + drawn->w_o.size();
    std::lock_guard<std::mutex> hold(lock);
    if (floats <= kMaxRememberedFloats) last.emplace(key, drawn);
    else last.reset();
    return drawn;
}

// `rows` (N, W) copied into every batch item: (B, N, W).
Tensor repeated(const Mat& rows, int batch, std::vector<std::string> names) {
    std::vector<float> values;
    for (int b = 0; b < batch; ++b) values.insert(values.end(), rows.data(), rows.data() + rows.size());
    return Tensor::from_values({batch, rows.rows(), rows.cols()}, std::move(names), values);
}

// `items` blocks of rows stacked in `rows` ((items x N, W)), item b of the batch taking
// block b % items: (B, N, W). One block is copied into every item.
Tensor items_cycled(const Mat& rows, int items, int batch, std::vector<std::string> names) {
    const Eigen::Index n = rows.rows() / items;
    std::vector<float> values;
    for (int b = 0; b < batch; ++b) {
        const Mat block = rows.middleRows((b % items) * n, n);  // (N, W), row-major like the tensor
        values.insert(values.end(), block.data(), block.data() + block.size());
    }
    return Tensor::from_values({batch, n, rows.cols()}, std::move(names), values);
}

}  // namespace

void apply_recipe(const Recipe& recipe, AttentionConfig& config, ProblemSources& sources) {
    const uint64_t budget = config.max_memory_bytes;
    config = recipe.config;
    config.max_memory_bytes = budget;
    sources = ProblemSources{};
}

Status read_mask_file(AttentionConfig& config, const std::string& path) {
    Result<NpyArray> mask = read_npy_array(path);
    if (!mask) return Status::failure(mask.message());
    config.mask_file = std::move(mask->tensor);
    config.mask_file_is_boolean = mask->is_boolean;
    config.mask_file_path = path;
    return ok_status();
}

bool is_mask_file_error(const Message& why) {
    return why.id == "error.mask.file_shape" || why.id == "error.mask.file_not_boolean" || why.id == "error.mask.file_not_finite";
}

Message naming_mask_file(const Message& why, const std::string& path) {
    return is_mask_file_error(why) ? Message("error.problem.in_file", {{"path", path}, {"error", why}}) : why;
}

namespace {

// What build_problem's stages hand on: the configuration as the sources decide it, the
// problem being filled, and what the earlier stages learnt.
struct ProblemDraft {
    AttentionConfig config;
    Problem p;
    bool have_weights = false;  // --weights gave the weights (and decided the widths)
    LoadedWeights loaded;
    std::vector<std::vector<std::string>> sentences;  // one list of words per item, padded to the longest
    std::vector<int> sentence_lengths;               // each sentence's words before padding
    size_t longest = 0;
    bool per_item = false;                 // a sentence per batch item
    const ExampleInput* example = nullptr;  // the recipe's example input, when it is the query
    std::optional<TorchReplay> replay;      // --init torch: the module's construction, replayed
};

// The weights file decides the widths, the biases and the key/value heads.
Status read_weights_file(const ProblemSources& src, ProblemDraft& d) {
    if (src.weights_path.empty()) return ok_status();
    AttentionConfig& config = d.config;
    Result<NamedTensors> tensors = read_safetensors(src.weights_path);
    if (!tensors) return Status::failure(tensors.message());
    Result<LoadedWeights> w = weights_from_tensors(tensors.value(), "'" + src.weights_path + "'");
    if (!w) return Status::failure(w.message());
    d.loaded = std::move(w.value());
    const LoadedWeights& loaded = d.loaded;
    d.have_weights = true;
    // The file decides the widths and whether there are biases.
    config.hidden_dim = loaded.hidden_dim;
    config.input_dim = loaded.input_dim == loaded.hidden_dim ? 0 : loaded.input_dim;
    config.kdim = loaded.kdim == loaded.input_dim ? 0 : loaded.kdim;
    config.vdim = loaded.vdim == loaded.input_dim ? 0 : loaded.vdim;
    config.bias = loaded.bias;
    config.no_qkv_bias = loaded.bias && !loaded.qkv_bias;
    config.no_out_bias = loaded.bias && loaded.out_proj && !loaded.out_bias;
    if (!loaded.out_proj) config.no_out_proj = true;
    config.add_bias_kv = loaded.bias_kv;
    // k_proj's rows are H_kv * d_h: they decide the key/value heads.
    if (config.num_heads > 0 && loaded.hidden_dim % config.num_heads == 0) {
        const int head_dim = loaded.hidden_dim / config.num_heads;
        if (loaded.kv_width % head_dim != 0)
            return Status::failure(Message("error.problem.kv_width",
                                           {{"path", src.weights_path}, {"rows", loaded.kv_width}, {"head_dim", head_dim}}));
        config.num_kv_heads = loaded.kv_width == loaded.hidden_dim ? 0 : loaded.kv_width / head_dim;
    }
    return ok_status();
}

// One sentence for every item, or one sentence per item: either way a list per item.
Status gather_sentences(const ProblemSources& src, ProblemDraft& d) {
    std::vector<std::vector<std::string>>& sentences = d.sentences;
    sentences = src.sentences;
    if (sentences.empty() && !src.tokens.empty()) sentences.push_back(src.tokens);
    for (size_t i = 0; i < sentences.size(); ++i)
        if (sentences[i].empty()) return Status::failure(Message("error.problem.empty_sentence", {{"sentence", i + 1}}));
    d.per_item = sentences.size() > 1;
    for (const auto& words : sentences) {
        d.sentence_lengths.push_back(static_cast<int>(words.size()));
        d.longest = std::max(d.longest, words.size());
    }
    for (auto& words : sentences) words.resize(d.longest, kPadToken);
    return ok_status();
}

// Rows of each typed query item: the typed rows split over their items.
int64_t typed_rows_of(const ProblemSources& src) { return src.query_values.rows() / std::max(1, src.query_value_items); }

// At most one source of the query; the recipe's example input when nothing else gives it.
Status choose_query_source(const ProblemSources& src, ProblemDraft& d) {
    const AttentionConfig& config = d.config;
    const std::vector<std::vector<std::string>>& sentences = d.sentences;
    if (!src.query_path.empty() && !sentences.empty())
        return Status::failure(Message("error.problem.query_and_tokens"));
    const bool typed_query = src.query_values.size() > 0;
    // One word per typed row only labels the rows (the window keeps its sentence's words
    // when a cell of the input is typed into); anything else would be a second query.
    const bool words_label_rows = typed_query && src.sentences.empty() && static_cast<int64_t>(src.tokens.size()) == typed_rows_of(src);
    if (typed_query && (!src.query_path.empty() || (!sentences.empty() && !words_label_rows)))
        return Status::failure(Message("error.problem.typed_query_twice"));
    // A recipe's example input, when nothing else gives the query and its (L, d_in) fits.
    const Recipe* recipe = find_recipe(config.recipe);
    // Its own words as the sentence (the window sends the rows' labels back as one) name it too.
    const ExampleInput* example = recipe ? find_example_input(recipe->example_input) : nullptr;
    bool sentence_is_example = example && !sentences.empty();
    for (const auto& words : sentences) sentence_is_example = sentence_is_example && words == example->tokens;
    if (example && (typed_query || !src.query_path.empty() || (!sentences.empty() && !sentence_is_example) ||
                    (!sentence_is_example && config.L() != example->rows) || config.d_in() != example->cols))
        example = nullptr;
    d.example = example;
    return ok_status();
}

// The query from its file, its typed rows, the recipe's example or the sentences' lengths.
Status read_query(const ProblemSources& src, ProblemDraft& d) {
    AttentionConfig& config = d.config;
    Problem& p = d.p;
    const bool have_weights = d.have_weights;
    if (!src.query_path.empty()) {
        Result<Tensor> q = read_sequence(src.query_path, "error.problem.file.query", "L", "E", config.seq_first);
        if (!q) return Status::failure(q.message());
        const Tensor& t = q.value();
        if (have_weights && t.dim(2) != config.d_in())
            return Status::failure(mismatch(Message("error.problem.file.query", {{"path", src.query_path}}), t.dim(2), config.d_in() == config.E() ? "E" : "d_in",
                                            config.d_in(), "error.problem.source.weights"));
        config.batch = static_cast<int>(t.dim(0));
        config.seq_len = static_cast<int>(t.dim(1));
        if (!have_weights) {  // without weights the file's width is the model width unless --input-dim says otherwise
            if (config.input_dim > 0) config.input_dim = static_cast<int>(t.dim(2));
            else config.hidden_dim = static_cast<int>(t.dim(2));
        }
        p.inputs.query = t;
    } else if (src.query_values.size() > 0) {
        const Mat& rows = src.query_values;  // (L, d_in)
        if (have_weights && rows.cols() != config.d_in())
            return Status::failure(Message("error.problem.typed_query_width", {{"got", rows.cols()}, {"expected", config.d_in()}}));
        config.seq_len = static_cast<int>(typed_rows_of(src));
        if (!have_weights) {  // as for a query file: the width is E unless d_in is its own
            if (config.input_dim > 0) config.input_dim = static_cast<int>(rows.cols());
            else config.hidden_dim = static_cast<int>(rows.cols());
        }
        p.inputs.query = items_cycled(rows, std::max(1, src.query_value_items), config.batch, {"B", "L", config.d_in() == config.E() ? "E" : "d_in"});
    } else if (d.example) {
        config.seq_len = d.example->rows;
        if (d.per_item) config.batch = static_cast<int>(d.sentences.size());
        p.inputs.query = repeated(d.example->matrix(), config.batch, {"B", "L", config.d_in() == config.E() ? "E" : "d_in"});
    } else if (!d.sentences.empty()) {
        config.seq_len = static_cast<int>(d.longest);
        if (d.per_item) config.batch = static_cast<int>(d.sentences.size());
        // Padding positions are keys too: by default the mask hides exactly them.
        if (d.per_item && config.mask == MaskKind::Padding && config.valid_lengths.empty() && !config.is_cross())
            config.valid_lengths = d.sentence_lengths;
    }
    return ok_status();
}

// Keys and values from their files, or typed, for cross-attention.
Status read_keys_and_values(const ProblemSources& src, ProblemDraft& d) {
    AttentionConfig& config = d.config;
    Problem& p = d.p;
    const bool have_weights = d.have_weights;
    const LoadedWeights& loaded = d.loaded;
    if (src.key_path.empty() != src.value_path.empty())
        return Status::failure(Message("error.problem.key_and_value"));
    if (!src.key_path.empty()) {
        Result<Tensor> k = read_sequence(src.key_path, "error.problem.file.key", "S", "kdim", config.seq_first);
        if (!k) return Status::failure(k.message());
        Result<Tensor> v = read_sequence(src.value_path, "error.problem.file.value", "S", "vdim", config.seq_first);
        if (!v) return Status::failure(v.message());
        const Message key_what("error.problem.file.key", {{"path", src.key_path}});
        const Message value_what("error.problem.file.value", {{"path", src.value_path}});
        if (k->dim(1) != v->dim(1))
            return Status::failure(Message("error.problem.kv_lengths", {{"what", value_what}, {"got", v->dim(1)}, {"expected", k->dim(1)}}));
        if (k->dim(0) != config.batch) return Status::failure(mismatch(key_what, k->dim(0), "B", config.batch, "error.problem.source.query"));
        if (v->dim(0) != config.batch) return Status::failure(mismatch(value_what, v->dim(0), "B", config.batch, "error.problem.source.query"));
        if (have_weights && k->dim(2) != loaded.kdim)
            return Status::failure(mismatch(key_what, k->dim(2), "kdim", loaded.kdim, "error.problem.source.weights"));
        if (have_weights && v->dim(2) != loaded.vdim)
            return Status::failure(mismatch(value_what, v->dim(2), "vdim", loaded.vdim, "error.problem.source.weights"));
        config.cross_attention = true;
        config.kv_len = static_cast<int>(k->dim(1));
        config.kdim = k->dim(2) == config.d_in() ? 0 : static_cast<int>(k->dim(2));
        config.vdim = v->dim(2) == config.d_in() ? 0 : static_cast<int>(v->dim(2));
        p.inputs.key = std::move(k.value());
        p.inputs.value = std::move(v.value());
    } else if (src.key_values.size() > 0 || src.value_values.size() > 0) {
        const Mat &keys = src.key_values, &values = src.value_values;  // (S, kdim), (S, vdim)
        if (keys.size() == 0 || values.size() == 0)
            return Status::failure(Message("error.problem.typed_key_and_value"));
        if (keys.rows() != values.rows())
            return Status::failure(Message("error.problem.typed_kv_rows", {{"values", values.rows()}, {"keys", keys.rows()}}));
        if (have_weights && (keys.cols() != loaded.kdim || values.cols() != loaded.vdim))
            return Status::failure(Message("error.problem.typed_kv_widths", {{"kdim", keys.cols()}, {"vdim", values.cols()},
                                                                     {"weights_kdim", loaded.kdim}, {"weights_vdim", loaded.vdim}}));
        config.cross_attention = true;
        config.kv_len = static_cast<int>(keys.rows());
        config.kdim = keys.cols() == config.d_in() ? 0 : static_cast<int>(keys.cols());
        config.vdim = values.cols() == config.d_in() ? 0 : static_cast<int>(values.cols());
        p.inputs.key = repeated(keys, config.batch, {"B", "S", "kdim"});
        p.inputs.value = repeated(values, config.batch, {"B", "S", "vdim"});
    } else if (have_weights && (loaded.kdim != loaded.input_dim || loaded.vdim != loaded.input_dim)) {
        config.cross_attention = true;  // kdim/vdim differ from E: the keys must come from elsewhere
    }
    return ok_status();
}

// The mask file, the recipe's masks at the final sizes, and the configuration's checks.
Status read_mask_and_validate(const ProblemSources& src, ProblemDraft& d) {
    AttentionConfig& config = d.config;
    if (!src.mask_path.empty()) {
        if (Status read = read_mask_file(config, src.mask_path); !read) return Status::failure(read.message());
    }

    // The recipe's valid lengths and key pattern at the final B and S.
    if (Message note = fit_recipe_masks(config); !note.id.empty()) d.p.notes.push_back(std::move(note));
    config.dropout_keep.clear();  // only a torch replay below fills it

    if (Status s = validate(config); !s) {
        // A complaint about the mask file's shape or values names the file it came from.
        return Status::failure(src.mask_path.empty() ? s.message() : naming_mask_file(s.message(), src.mask_path));
    }
    return ok_status();
}

// --init torch: torch.manual_seed(seed) and the module's construction, replayed.
Status replay_torch_init(ProblemDraft& d) {
    AttentionConfig& config = d.config;
    if (config.init != InitKind::Torch || d.have_weights) return ok_status();
    Result<TorchReplay> r = torch_replay(config, d.p.inputs.query.empty() && d.sentences.empty(), config.is_cross() && d.p.inputs.key.empty());
    if (!r) return Status::failure(r.message());
    d.replay = std::move(r.value());
    config.dropout_keep = d.replay->dropout_keep;
    return ok_status();
}

// Whatever no file provided comes from the seed (or from the tokens' text).
Status fill_defaults(ProblemDraft& d) {
    const AttentionConfig& config = d.config;
    Problem& p = d.p;
    const std::vector<std::vector<std::string>>& sentences = d.sentences;
    const bool need_defaults = (p.inputs.query.empty() && sentences.empty()) || (config.is_cross() && p.inputs.key.empty());
    AttentionInputs defaults;
    if (need_defaults && d.replay) defaults = AttentionInputs{d.replay->query, d.replay->key, d.replay->value};
    else if (need_defaults) defaults = default_inputs(config);
    if (p.inputs.query.empty()) {
        if (!sentences.empty()) {
            // (B, L, E): item b embeds sentence b, or the one sentence in every item.
            std::vector<float> stacked;
            for (int b = 0; b < config.batch; ++b) {
                const auto& words = sentences[d.per_item ? static_cast<size_t>(b) : 0];
                const std::vector<float> rows = token_embeddings(words, config.d_in(), config.seed).to_vector();
                stacked.insert(stacked.end(), rows.begin(), rows.end());
            }
            p.inputs.query = Tensor::from_values({config.batch, config.L(), config.d_in()}, {"B", "L", "E"}, stacked);
        } else {
            p.inputs.query = defaults.query;
        }
    }
    if (config.is_cross() && p.inputs.key.empty()) {
        p.inputs.key = defaults.key;
        p.inputs.value = defaults.value;
    }
    if (d.have_weights) p.weights = std::make_shared<const AttentionWeights>(std::move(d.loaded.weights));
    else if (d.replay) p.weights = std::make_shared<const AttentionWeights>(std::move(d.replay->weights));
    else p.weights = remembered_default_weights(config);
    return check_shapes(config, *p.weights, p.inputs);
}

// The rows' and keys' labels, and the configuration and sources the problem was built from.
Problem finish_problem(const ProblemSources& src, ProblemDraft& d) {
    Problem& p = d.p;
    const AttentionConfig& config = d.config;
    const std::vector<std::vector<std::string>>& sentences = d.sentences;
    p.query_tokens = !sentences.empty() && src.query_path.empty() ? sentences.front()
                     : d.example                                 ? d.example->tokens
                                                                 : numbered("t", config.L());
    if (d.per_item) p.item_tokens = sentences;
    p.key_tokens = config.is_cross() ? numbered("k", config.S()) : p.query_tokens;
    p.config = config;
    p.sources = src;
    p.sources.tokens.clear();
    p.sources.sentences.clear();
    return std::move(p);
}

}  // namespace

Result<Problem> build_problem(AttentionConfig config, const ProblemSources& src) {
    ProblemDraft d;
    d.config = std::move(config);
    const auto failed = [](const Status& s) { return Result<Problem>::failure(s.message()); };
    if (Status s = read_weights_file(src, d); !s) return failed(s);       // E, d_in, kdim, vdim, biases, H_kv from --weights
    if (Status s = gather_sentences(src, d); !s) return failed(s);        // --tokens: a padded list of words per item
    if (Status s = choose_query_source(src, d); !s) return failed(s);     // one source of the query at most
    if (Status s = read_query(src, d); !s) return failed(s);              // X (B, L, d_in), or L from the sentences
    if (Status s = read_keys_and_values(src, d); !s) return failed(s);    // cross: X_k (B, S, kdim), X_v (B, S, vdim)
    if (Status s = read_mask_and_validate(src, d); !s) return failed(s);  // the mask file, then validate()
    if (Status s = replay_torch_init(d); !s) return failed(s);            // --init torch: weights as torch makes them
    if (Status s = fill_defaults(d); !s) return failed(s);                // what no source gave, from the seed
    return finish_problem(src, d);                                        // token labels, config, sources
}

}  // namespace attn::io
