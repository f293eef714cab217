#include "app/cli/config_options.h"

#include "app/io/model_loader.h"
#include "app/io/model_problem.h"
#include "app/io/typed_values.h"
#include "core/recipe.h"
#include "core/text_split.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace attn::cli {

Result<uint64_t> parse_byte_size(const std::string& text) {
    std::istringstream in(text);
    double number = 0;
    std::string unit;
    if (!(in >> number) || !(number > 0))
        return Result<uint64_t>::failure("--max-memory '" + text + "' is not a positive size (examples: 2GiB, 512MiB, 1000000)");
    in >> unit;
    if (std::string rest; in >> rest)
        return Result<uint64_t>::failure("--max-memory '" + text + "' has extra text after the unit");
    double scale = 1;
    if (unit.empty() || unit == "B") scale = 1;
    else if (unit == "K" || unit == "KiB" || unit == "KB") scale = 1024.0;
    else if (unit == "M" || unit == "MiB" || unit == "MB") scale = 1024.0 * 1024;
    else if (unit == "G" || unit == "GiB" || unit == "GB") scale = 1024.0 * 1024 * 1024;
    else return Result<uint64_t>::failure("--max-memory '" + text + "' has an unknown unit (use B, KiB, MiB or GiB)");
    const double bytes = number * scale;
    if (bytes < 1024) return Result<uint64_t>::failure("--max-memory '" + text + "' is below 1 KiB; no trace fits");
    if (bytes >= 1.8e19) return Result<uint64_t>::failure("--max-memory '" + text + "' is too large");
    return static_cast<uint64_t>(std::llround(bytes));
}

void add_config_options(CLI::App& app, ConfigOptions& o, bool score_scale) {
    AttentionConfig& c = o.config;
    o.score_scale = score_scale;
    const size_t options_before = app.get_options().size();
    // 0 in kv_len/kdim/vdim means "same as L / E", so only real defaults are shown.
    const auto sized = [&](const char* flags, const char* flag, int AttentionConfig::*field,
                           int (AttentionConfig::*resolved)() const, const char* help) {
        CLI::Option* opt = app.add_option(flags, c.*field, help)->check(CLI::Range(1, 1 << 20));
        if (c.*field > 0) opt->capture_default_str();
        o.size_options.push_back({opt, flag, field, resolved});
    };
    sized("--seq-len,-L", "--seq-len", &AttentionConfig::seq_len, &AttentionConfig::L, "query length L");
    sized("--kv-len,-S", "--kv-len", &AttentionConfig::kv_len, &AttentionConfig::S, "key/value length S (cross-attention; default L)");
    sized("--hidden-dim,-E", "--hidden-dim", &AttentionConfig::hidden_dim, &AttentionConfig::E, "hidden_dim E (embed_dim)");
    sized("--kdim", "--kdim", &AttentionConfig::kdim, &AttentionConfig::key_dim, "key input width (default E)");
    sized("--vdim", "--vdim", &AttentionConfig::vdim, &AttentionConfig::value_dim, "value input width (default E)");
    sized("--batch,-B", "--batch", &AttentionConfig::batch, &AttentionConfig::batch_size, "batch size B");
    app.add_option("--num-heads,-H", c.num_heads, "number of heads H (must divide E)")->check(CLI::Range(1, 1 << 20))->capture_default_str();
    app.add_option("--seed", c.seed, "seed for default weights and inputs")->capture_default_str();
    sized("--input-dim", "--input-dim", &AttentionConfig::input_dim, &AttentionConfig::d_in,
          "query input width d_in (default E); W_q is (E, d_in), e.g. --input-dim 3 -E 4");
    sized("--num-kv-heads", "--num-kv-heads", &AttentionConfig::num_kv_heads, &AttentionConfig::H_kv,
          "key/value heads H_kv dividing H (grouped-query; 1 = multi-query; default H), e.g. -H 8 --num-kv-heads 2");
    o.mask_option = app.add_option("--mask", o.mask,
                                   "mask presets, combined with commas: none, causal, padding (right, by --valid-lengths), "
                                   "left-padding (by --valid-lengths), window (--window N); e.g. --mask causal,left-padding")
                        ->capture_default_str();
    app.add_option("--valid-lengths", o.valid_lengths, "padding / left-padding: real keys per batch item (0 allowed), e.g. 6,4,0");
    app.add_option("--window", c.window, "window preset: each query sees its N latest keys (causal), e.g. --mask window --window 3")
        ->check(CLI::Range(1, 1 << 20));
    app.add_option("--mask-file", o.sources.mask_path,
                   "mask .npy broadcasting to (B,H,L,S): numpy bool = True means MASKED OUT (nn.MultiheadAttention's "
                   "convention), float = ADDED to the scores (Hugging Face / torch float masks); shapes (S), (L,S), "
                   "(B,1,1,S), (B,1,L,S), (B,L,S), (B,H,L,S); e.g. --mask-file pad.npy");
    app.add_option("--mask-fill", o.mask_fill,
                   "what boolean masks write into the scores: -inf, -1e20, min (the dtype's lowest, as Hugging Face) or a "
                   "number; with -inf a row with no key left is zeros here (NaN in PyTorch), with the others it is uniform; "
                   "e.g. --mask-fill -1e20")
        ->capture_default_str();
    if (score_scale)
        app.add_option("--scale", o.scale,
                       "score scale: head = 1/sqrt(d_h), hidden = 1/sqrt(E) (the classic bug), none, or a number multiplied "
                       "in; e.g. --scale hidden")
            ->capture_default_str();
    app.add_flag("--mask-before-scale", c.mask_before_scale, "mask the raw scores, then scale (the from-scratch order; the fill is scaled too)");
    app.add_flag("--rope", c.rope, "rotary position embedding on q and k after the head split (needs an even d_h), e.g. --rope");
    app.add_option("--rope-base", c.rope_base, "RoPE base, e.g. --rope --rope-base 500")->capture_default_str();
    app.add_option("--rope-style", o.rope_style,
                   "half (Hugging Face's rotate_half: column c pairs with c + d_h/2) or interleaved (adjacent pairs, the paper)")
        ->check(CLI::IsMember({"half", "interleaved"}))
        ->capture_default_str();
    app.add_option("--position-offset", c.position_offset, "RoPE positions start here (N .. N+L-1), e.g. --rope --position-offset 5")
        ->check(CLI::Range(0, 1 << 30))
        ->capture_default_str();
    o.no_qkv_bias_option = app.add_flag("--no-qkv-bias", c.no_qkv_bias, "q/k/v projections without bias (the output keeps its bias)");
    o.no_out_bias_option = app.add_flag("--no-out-bias", c.no_out_bias, "output projection without bias");
    o.no_out_proj_option = app.add_flag("--no-out-proj", c.no_out_proj, "no output projection: the trace ends at concat");
    o.add_bias_kv_option = app.add_flag("--add-bias-kv", c.add_bias_kv,
                                        "nn.MultiheadAttention's learned key/value column (S+1); a weights file's bias_k/bias_v decide it");
    app.add_flag("--add-zero-attn", c.add_zero_attn, "nn.MultiheadAttention's zero key/value column (one more key, never masked)");
    app.add_flag("--seq-first", c.seq_first,
                 "input .npy files are (L, B, E) as batch_first=False reads them; out_seq_first.npy is written (L, B, E) too");
    app.add_flag("--average-weights", c.average_weights, "also record attn_weights_avg (B, L, S), the mean over heads");
    app.add_option("--dtype", o.dtype,
                   "emulated precision: float32, bfloat16 or float16 (rounding after every op; softmax in float32 then cast), "
                   "e.g. --dtype bfloat16")
        ->capture_default_str();
    app.add_option("--dropout", c.dropout, "dropout probability p in [0, 1)")->capture_default_str();
    app.add_option("--dropout-seed", c.dropout_seed, "seed for the dropout mask")->capture_default_str();
    app.add_flag("--no-bias", o.no_bias, "projections without bias (q/k/v and output)");
    app.add_flag("--cross", c.cross_attention, "cross-attention with its own key/value inputs");
    app.add_option("--variant", o.variant, "split, stacked or fused")->check(CLI::IsMember({"split", "stacked", "fused"}))->capture_default_str();
    app.add_option("--max-memory", o.max_memory, "refuse traces estimated above this size (default 2GiB)");
    o.sentence_option = app.add_option("--tokens,--sentence", o.sentence,
                   "a sentence whose words become the sequence; several sentences separated by '|' "
                   "give one batch item each (shorter ones padded with <pad> and, by default, masked)");
    app.add_option("--weights", o.sources.weights_path, "weights .safetensors (PyTorch MHA or Hugging Face names)");
    app.add_option("--query", o.sources.query_path, "query input .npy, (B,L,E) or (L,E)");
    app.add_option("--key", o.sources.key_path, "key input .npy, (B,S,kdim) or (S,kdim)");
    app.add_option("--value", o.sources.value_path, "value input .npy, (B,S,vdim) or (S,vdim)");
    app.add_option("--model", o.model,
                   "a trained example model (tiny-lm, tiny-lm-zh, reverse, sort; see attnviz models) or the path of a model card .json; "
                   "default: random (untrained) weights");
    o.layer_option = app.add_option("--layer", o.layer, "with --model: the layer whose attention is shown (from 0)")->capture_default_str();
    o.recipe_option = app.add_option("--recipe", o.recipe,
                                     "start from an article's system (see attnviz recipes): " + recipe_names() +
                                         "; other options override its values, e.g. --recipe scratch-mha --seed 123");
    app.add_option("--init", o.init,
                   "where weights and drawn inputs come from: torch (torch.manual_seed(seed) + the module's construction, "
                   "replayed; the default with --recipe) or attnviz (AttnViz's own streams; the default otherwise)")
        ->check(CLI::IsMember({"torch", "attnviz"}));
    o.typed_value_options[0] = app.add_option("--query-values", o.query_values,
                   "the query input typed as an (L, d_in) matrix every batch item gets: rows separated by ';', values by ',', "
                   "e.g. --query-values \"0.43,0.15,0.89; 0.55,0.87,0.66\"");
    o.typed_value_options[1] = app.add_option("--key-values", o.key_values, "cross-attention: the key input typed as an (S, kdim) matrix (with --value-values)");
    o.typed_value_options[2] = app.add_option("--value-values", o.value_values, "cross-attention: the value input typed as an (S, vdim) matrix (with --key-values)");
    const std::vector<CLI::Option*> options = app.get_options();
    o.all_options.assign(options.begin() + static_cast<std::ptrdiff_t>(options_before), options.end());
}

// With --model the model fixes sizes, weights, inputs and mask: options that would set
// them are refused by name rather than silently ignored.
static Result<io::Problem> resolve_model_problem(const ConfigOptions& o) {
    using R = Result<io::Problem>;
    for (const ConfigOptions::SizeOption& size : o.size_options)
        if (size.option->count() > 0)
            return R::failure(std::string(size.flag) + " cannot be combined with --model: the model '" + o.model + "' fixes its sizes");
    const std::pair<bool, const char*> refused[] = {
        {!o.sources.weights_path.empty(), "--weights"}, {!o.sources.query_path.empty(), "--query"},
        {!o.sources.key_path.empty(), "--key"},         {!o.sources.value_path.empty(), "--value"},
        {o.mask_option && o.mask_option->count() > 0, "--mask"}, {!o.valid_lengths.empty(), "--valid-lengths"},
        {o.config.cross_attention, "--cross"},          {o.no_bias, "--no-bias"},
        {o.config.dropout != 0.0f, "--dropout"}};
    for (const auto& [given, flag] : refused)
        if (given) return R::failure(std::string(flag) + " cannot be combined with --model: the model '" + o.model + "' fixes it");
    // With a model, '|' is not a batch separator: it is a word like any other (the sort
    // model's separator), looked up in the vocabulary.
    Result<std::shared_ptr<const Model>> model = io::load_model(o.model);
    if (!model) return R::failure(model.error());
    const bool sentence_given = o.sentence_option && o.sentence_option->count() > 0;
    R problem = io::build_model_problem(model.value(), o.layer, sentence_given ? o.sentence : model.value()->spec.example);
    if (!problem) return problem;
    problem->config.variant = parse_variant(o.variant).value();
    if (!o.max_memory.empty()) {
        Result<uint64_t> bytes = parse_byte_size(o.max_memory);
        if (!bytes) return R::failure(bytes.error());
        problem->config.max_memory_bytes = bytes.value();
    }
    return problem;
}

static Result<std::vector<int>> parse_lengths(const std::string& text) {
    std::vector<int> lengths;
    std::istringstream in(text);
    if (!text.empty() && text.back() == ',') return Result<std::vector<int>>::failure("--valid-lengths '" + text + "' ends with a comma");
    for (std::string item; std::getline(in, item, ',');) {
        try {
            size_t used = 0;
            const int value = std::stoi(item, &used);
            if (used != item.size()) throw std::invalid_argument(item);
            lengths.push_back(value);
        } catch (const std::exception&) {
            return Result<std::vector<int>>::failure("--valid-lengths '" + text + "' must be whole numbers separated by commas, e.g. 6,4,1");
        }
    }
    return lengths;
}

static Result<io::Problem> resolve_without_recipe(ConfigOptions o) {
    using R = Result<io::Problem>;
    if (!o.model.empty()) return resolve_model_problem(o);
    if (o.layer_option && o.layer_option->count() > 0)
        return R::failure("--layer needs --model (the random weights have a single layer); see attnviz models");
    AttentionConfig& c = o.config;
    // One legacy preset keeps its old field; anything else goes to the presets.
    if (Result<MaskKind> legacy = parse_mask(o.mask); legacy) {
        c.mask = legacy.value();
    } else {
        Result<MaskPresets> presets = parse_mask_presets(o.mask);
        if (!presets) return R::failure("--mask: " + presets.error());
        c.mask = MaskKind::None;
        c.mask_presets = presets.value();
    }
    {
        Result<MaskFill> fill = parse_mask_fill(o.mask_fill);
        if (!fill) return R::failure("--mask-fill: " + fill.error());
        c.mask_fill = fill.value();
        Result<ScaleChoice> scale = parse_scale(o.scale);
        if (!scale) return R::failure("--scale: " + scale.error());
        c.scale = scale.value();
        Result<RopeStyle> style = parse_rope_style(o.rope_style);
        if (!style) return R::failure("--rope-style: " + style.error());
        c.rope_style = style.value();
        Result<DType> dtype = parse_dtype(o.dtype);
        if (!dtype) return R::failure("--dtype: " + dtype.error());
        c.dtype = dtype.value();
    }
    c.variant = parse_variant(o.variant).value();
    c.bias = !o.no_bias;
    if (!o.init.empty()) c.init = parse_init(o.init).value();
    // Typed matrices: an option given with empty text is an error, not "not given".
    const struct { const std::string& text; const CLI::Option* option; const char* flag; Mat& target; } typed[] = {
        {o.query_values, o.typed_value_options[0], "--query-values", o.sources.query_values},
        {o.key_values, o.typed_value_options[1], "--key-values", o.sources.key_values},
        {o.value_values, o.typed_value_options[2], "--value-values", o.sources.value_values}};
    for (const auto& t : typed) {
        if (t.text.empty() && (t.option == nullptr || t.option->count() == 0)) continue;
        Result<Mat> values = io::parse_typed_matrix(t.text, t.flag);
        if (!values) return R::failure(values.error());
        t.target = std::move(values.value());
    }
    if (!o.valid_lengths.empty()) {
        Result<std::vector<int>> lengths = parse_lengths(o.valid_lengths);
        if (!lengths) return R::failure(lengths.error());
        c.valid_lengths = lengths.value();
    }
    if (!o.max_memory.empty()) {
        Result<uint64_t> bytes = parse_byte_size(o.max_memory);
        if (!bytes) return R::failure(bytes.error());
        c.max_memory_bytes = bytes.value();
    }
    if (!o.sentence.empty()) {
        if (const std::optional<size_t> bad = first_invalid_utf8(o.sentence))
            return R::failure(Message("error.text.invalid_utf8", {{"byte", *bad}}));
        std::vector<std::vector<std::string>> sentences = io::split_sentences(o.sentence);
        for (size_t i = 0; i < sentences.size(); ++i) {
            if (!sentences[i].empty()) continue;
            if (sentences.size() == 1) return R::failure("--tokens is empty; give at least one word");
            return R::failure("--tokens: sentence " + std::to_string(i + 1) + " of " + std::to_string(sentences.size()) +
                              " has no words (sentences are separated by '|')");
        }
        if (sentences.size() == 1) {
            o.sources.tokens = sentences.front();
        } else {
            // Unequal sentences are padded; unless a mask was chosen, the padding mask hides the pads.
            bool unequal = false;
            for (const auto& words : sentences) unequal |= words.size() != sentences.front().size();
            const bool mask_given = o.mask_option != nullptr && o.mask_option->count() > 0;
            if (unequal && !mask_given) c.mask = MaskKind::Padding;
            o.sources.sentences = std::move(sentences);
        }
    }

    R problem = io::build_problem(c, o.sources);
    if (!problem) return problem;
    // Files decide sizes; an explicit option that disagrees is an error, not silently ignored.
    const AttentionConfig& got = problem->config;
    for (const ConfigOptions::SizeOption& size : o.size_options) {
        if (size.option->count() == 0) continue;
        const int given = o.config.*size.given, actual = (got.*size.resolved)();
        if (given != actual)
            return R::failure(std::string(size.flag) + " " + std::to_string(given) +
                              " disagrees with the inputs (files or --tokens), which give " + std::to_string(actual));
    }
    if (o.no_bias && got.bias) return R::failure("--no-bias disagrees with the weights file, which has biases");
    if (!o.sources.weights_path.empty()) {
        if (o.no_qkv_bias_option->count() && got.qkv_bias())
            return R::failure("--no-qkv-bias disagrees with the weights file, which has q/k/v biases");
        if (o.no_out_bias_option->count() && got.out_bias())
            return R::failure("--no-out-bias disagrees with the weights file, which has an output bias");
        if (o.no_out_proj_option->count() && !got.no_out_proj)
            return R::failure("--no-out-proj disagrees with the weights file, which has an output projection");
        if (o.add_bias_kv_option->count() && !got.add_bias_kv)
            return R::failure("--add-bias-kv disagrees with the weights file, which has no bias_k/bias_v");
    }
    return problem;
}

}  // namespace attn::cli

namespace attn::cli {

// The options of a recipe in the command line's own terms (the text options are parsed
// again by resolve_without_recipe).
static void set_from_recipe(const Recipe& recipe, ConfigOptions& o) {
    const AttentionConfig& c = recipe.config;
    o.config = c;
    o.mask = c.mask != MaskKind::None ? to_string(c.mask) : to_string(c.mask_presets);
    o.variant = to_string(c.variant);
    o.valid_lengths.clear();
    for (size_t i = 0; i < c.valid_lengths.size(); ++i) o.valid_lengths += (i ? "," : "") + std::to_string(c.valid_lengths[i]);
    o.mask_fill = to_string(c.mask_fill);
    o.scale = to_string(c.scale);
    o.rope_style = to_string(c.rope_style);
    o.dtype = to_string(c.dtype);
    o.no_bias = !c.bias;
}

Result<io::Problem> resolve_problem(ConfigOptions o) {
    using R = Result<io::Problem>;
    const bool recipe_given = !o.recipe.empty() || (o.recipe_option != nullptr && o.recipe_option->count() > 0);
    if (!recipe_given) return resolve_without_recipe(std::move(o));
    const Recipe* recipe = find_recipe(o.recipe);
    if (recipe == nullptr) return R::failure("unknown recipe '" + o.recipe + "'; the recipes are " + recipe_names() + " (see attnviz recipes)");
    if (!o.model.empty()) return R::failure("--recipe cannot be combined with --model: a recipe is an untrained module of its own");
    // The recipe first, then every option that was given, parsed again on top of it.
    CLI::App replay;
    ConfigOptions merged;
    set_from_recipe(*recipe, merged);
    add_config_options(replay, merged, o.score_scale);
    std::vector<std::string> args;
    for (const CLI::Option* opt : o.all_options) {
        if (opt == o.recipe_option || opt->count() == 0) continue;
        const std::string name = opt->get_lnames().empty() ? "-" + opt->get_snames().front() : "--" + opt->get_lnames().front();
        if (opt->get_type_size() == 0) {  // a flag: given `count` times
            for (size_t i = 0; i < opt->count(); ++i) args.push_back(name);
            continue;
        }
        for (const std::string& value : opt->results()) args.push_back(name + "=" + value);
    }
    try {
        std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
        replay.parse(args);
    } catch (const CLI::ParseError& e) {
        return R::failure(std::string("--recipe ") + recipe->name + ": " + e.what());
    }
    merged.recipe.clear();
    return resolve_without_recipe(std::move(merged));
}

}  // namespace attn::cli
