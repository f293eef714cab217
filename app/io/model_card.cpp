#include "app/io/model_card.h"

#include <nlohmann/json.hpp>

#include "core/recipe.h"

#include <algorithm>
#include <map>
#include <type_traits>

namespace attn::io {

using nlohmann::json;

namespace {

// A prose field of the card: a string (English), or an object of texts by language code
// whose "en" is required ({"en": "...", "zh-Hans": "..."}), so a translation is a field.
Result<Message> written_text(const json& value, const char* key, const std::string& what) {
    if (value.is_string()) return Message::written(value.get<std::string>());
    const auto english_text = value.is_object() ? value.find("en") : value.end();
    if (!value.is_object() || english_text == value.end() || !english_text->is_string())
        return Result<Message>::failure(Message("error.card.text_field", {{"what", what}, {"key", key}}));
    std::map<std::string, std::string> others;
    for (const auto& [code, text] : value.items()) {
        if (!text.is_string()) return Result<Message>::failure(Message("error.card.text_not_text", {{"what", what}, {"key", std::string(key) + "." + code}}));
        if (code != "en") others.emplace(code, text.get<std::string>());
    }
    return Message::written(english_text->get<std::string>(), std::move(others));
}

// The field `key` of `object` as T, or a message naming the card and the field.
template <typename T>
Result<T> field(const json& object, const char* key, const std::string& what) {
    const auto it = object.find(key);
    if (it == object.end()) return Result<T>::failure(Message("error.card.missing", {{"what", what}, {"key", key}}));
    if constexpr (std::is_same_v<T, Message>) {
        return written_text(*it, key, what);
    } else {
        try {
            return it->get<T>();
        } catch (const json::exception&) {
            return Result<T>::failure(Message("error.card.wrong_type", {{"what", what}, {"key", key}}));
        }
    }
}

// The card's "token_unit" ("word" when it says nothing) and "script_forms": for each
// language, tokens and the same token in that language's script, both in the vocabulary
// (so the window has their glyphs and a test can hold every form to the vocabulary).
Result<bool> read_vocabulary_facts(const json& card, ModelSpec& spec, const std::string& what) {
    using R = Result<bool>;
    const auto unit = card.find("token_unit");
    if (unit != card.end()) {
        const std::string name = unit->is_string() ? unit->get<std::string>() : "";
        if (name == to_string(TokenUnit::Word)) spec.token_unit = TokenUnit::Word;
        else if (name == to_string(TokenUnit::Character)) spec.token_unit = TokenUnit::Character;
        else return R::failure(Message("error.card.token_unit", {{"what", what}}));
    }
    const auto forms = card.find("script_forms");
    if (forms == card.end()) return true;
    const auto known = [&](const std::string& token) {
        return std::find(spec.vocabulary.begin(), spec.vocabulary.end(), token) != spec.vocabulary.end();
    };
    try {
        for (const auto& [language, table] : forms->get<std::map<std::string, std::map<std::string, std::string>>>())
            for (const auto& [token, form] : table) {
                if (!known(token) || !known(form))
                    return R::failure(Message("error.card.script_form_unknown",
                                              {{"what", what}, {"language", language}, {"token", token}, {"form", form}}));
                spec.script_forms[language][token] = form;
            }
    } catch (const json::exception&) {
        return R::failure(Message("error.card.script_forms", {{"what", what}}));
    }
    return true;
}

// The card's "kind" and "architecture": exactly the architecture of assets/models/README.md.
Status read_architecture(const json& card, const std::string& kind, ModelSpec& spec, const std::string& what) {
    if (!card.contains("architecture") || !card["architecture"].is_object())
        return Status::failure(Message("error.card.no_architecture", {{"what", what}}));
    const json& arch = card["architecture"];
    const auto arch_text = [&](const char* key) { return arch.contains(key) && arch[key].is_string() ? arch[key].get<std::string>() : std::string(); };
    const auto arch_flag = [&](const char* key, bool fallback) { return arch.contains(key) && arch[key].is_boolean() ? arch[key].get<bool>() : fallback; };
    spec.causal = arch_flag("causal", false);
    spec.mlp = arch_flag("mlp", false);
    if (arch.contains("norm_eps") && arch["norm_eps"].is_number()) spec.norm_eps = arch["norm_eps"].get<float>();

    if (kind == "language") spec.kind = ModelKind::Language;
    else if (kind == "algorithmic") spec.kind = ModelKind::Algorithmic;
    else return Status::failure(Message("error.card.kind", {{"what", what}, {"kind", kind}}));
    // The two architectures of assets/models/README.md: the GPT-style one (LayerNorm, learned
    // positions, biases) and the Llama-style one (RMSNorm, RoPE with the half-split pairing,
    // grouped-query heads, no biases); anything else is refused by name.
    const bool llama = arch_text("norm") == "rmsnorm";
    const std::pair<const char*, std::string> expected[] = {{"norm", llama ? "rmsnorm" : "layernorm"},
                                                            {"norm_placement", "pre"},
                                                            {"position_embedding", llama ? "rope" : "learned"},
                                                            {"attention_scale", "1/sqrt(head_dim)"}};
    for (const auto& [key, value] : expected)
        if (arch_text(key) != value)
            return Status::failure(Message("error.card.architecture", {{"what", what}, {"key", key}, {"value", arch_text(key)}, {"expected", value}}));
    if (spec.mlp && arch_text("gelu") != "erf")
        return Status::failure(Message("error.card.gelu", {{"what", what}, {"value", arch_text("gelu")}}));
    if (arch_flag("qkv_bias", true) != !llama || arch_flag("out_bias", true) != !llama || !arch_flag("final_norm", true) ||
        arch_flag("tied_unembedding", false) || arch_flag("unembedding_bias", false))
        return Status::failure(Message("error.card.flags", {{"what", what}}));
    if (!llama) return ok_status();
    spec.norm = NormKind::RmsNorm;
    spec.rope = true;
    spec.bias = false;
    if (arch_text("rope_pairing") != "half")
        return Status::failure(Message("error.card.architecture", {{"what", what}, {"key", "rope_pairing"}, {"value", arch_text("rope_pairing")}, {"expected", "half"}}));
    if (arch.contains("rope_base") && arch["rope_base"].is_number()) spec.rope_base = arch["rope_base"].get<double>();
    if (arch.contains("kv_heads") && arch["kv_heads"].is_number_integer()) spec.kv_heads = arch["kv_heads"].get<int>();
    return ok_status();
}

// The sizes agree with each other and stay within what AttnViz loads.
Status check_card_sizes(const ModelSpec& spec, const std::string& what) {
    const auto positive = [](int v) { return v > 0 && v <= (1 << 16); };
    if (!positive(spec.layers) || !positive(spec.heads) || !positive(spec.hidden_dim) || !positive(spec.vocab_size) ||
        !positive(spec.max_len) || spec.mlp_dim < 0 || spec.mlp_dim > (1 << 20))
        return Status::failure(Message("error.card.sizes", {{"what", what}}));
    if (spec.hidden_dim % spec.heads != 0)
        return Status::failure(Message("error.card.heads_divide", {{"what", what}, {"hidden_dim", spec.hidden_dim}, {"heads", spec.heads}}));
    if (spec.kv_heads < 0 || (spec.kv_heads > 0 && spec.heads % spec.kv_heads != 0))
        return Status::failure(Message("error.card.kv_heads", {{"what", what}, {"kv_heads", spec.kv_heads}, {"heads", spec.heads}}));
    if (spec.mlp && spec.mlp_dim == 0) return Status::failure(Message("error.card.mlp_dim", {{"what", what}}));
    if (static_cast<int>(spec.vocabulary.size()) != spec.vocab_size)
        return Status::failure(Message("error.card.vocabulary", {{"what", what}, {"words", spec.vocabulary.size()}, {"size", spec.vocab_size}}));
    return ok_status();
}

// What the card claims each head does, with the figure that measured it.
Status read_head_claims(const json& card, ModelSpec& spec, const std::string& what) {
    if (!card.contains("head_claims") || !card["head_claims"].is_array()) return ok_status();
    for (const json& c : card["head_claims"]) {
        HeadClaim claim;
        try {
            claim.layer = c.at("layer").get<int>();
            claim.head = c.at("head").get<int>();
            Result<Message> said = written_text(c.at("claim"), "claim", what);
            if (!said) return Status::failure(said.message());
            claim.claim = said.value();
            claim.metric = c.at("metric").get<std::string>();
            claim.measured = c.at("measured").get<double>();
            claim.threshold = c.at("threshold").get<double>();
            if (c.contains("shown_by")) {
                Result<Message> sentence = written_text(c.at("shown_by").at("sentence"), "shown_by.sentence", what);
                if (!sentence) return Status::failure(sentence.message());
                claim.shown_by = sentence.value();
            }
        } catch (const json::exception&) {
            return Status::failure(Message("error.card.head_claim", {{"what", what}}));
        }
        spec.head_claims.push_back(std::move(claim));
    }
    return ok_status();
}

// The training figures the card reports (all optional).
void read_training(const json& card, ModelSpec& spec) {
    if (!card.contains("training") || !card["training"].is_object()) return;
    const json& training = card["training"];
    if (training.contains("final_train_loss") && training["final_train_loss"].is_number())
        spec.final_train_loss = training["final_train_loss"].get<double>();
    if (training.contains("attention_entropy_penalty") && training["attention_entropy_penalty"].is_array())
        for (const json& factor : training["attention_entropy_penalty"])
            spec.attention_entropy_penalty.push_back(factor.is_number() ? factor.get<double>() : 0.0);
    if (training.contains("heldout") && training["heldout"].is_object())
        for (const auto& [name, value] : training["heldout"].items())
            if (value.is_number()) spec.heldout_figures.emplace_back(name, value.get<double>());
}

}  // namespace

Result<ModelSpec> parse_model_card(const std::string& json_text, const std::string& what) {
    using R = Result<ModelSpec>;
    const json card = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (card.is_discarded() || !card.is_object()) return R::failure(Message("error.card.not_json", {{"what", what}}));
#define ATTNVIZ_CARD_FIELD(target, type, key)                         \
    do {                                                              \
        Result<type> value_ = field<type>(card, key, what);           \
        if (!value_) return R::failure(value_.message());             \
        target = value_.value();                                      \
    } while (false)

    ModelSpec spec;
    std::string kind;
    ATTNVIZ_CARD_FIELD(spec.name, std::string, "name");
    ATTNVIZ_CARD_FIELD(kind, std::string, "kind");
    ATTNVIZ_CARD_FIELD(spec.description, Message, "description");
    ATTNVIZ_CARD_FIELD(spec.layers, int, "layers");
    ATTNVIZ_CARD_FIELD(spec.heads, int, "heads");
    ATTNVIZ_CARD_FIELD(spec.hidden_dim, int, "hidden_dim");
    ATTNVIZ_CARD_FIELD(spec.mlp_dim, int, "mlp_dim");
    ATTNVIZ_CARD_FIELD(spec.vocab_size, int, "vocab_size");
    ATTNVIZ_CARD_FIELD(spec.max_len, int, "max_len");
    ATTNVIZ_CARD_FIELD(spec.vocabulary, std::vector<std::string>, "vocabulary");
    ATTNVIZ_CARD_FIELD(spec.prepend_bos, bool, "prepend_bos");
    if (Result<bool> facts = read_vocabulary_facts(card, spec, what); !facts) return R::failure(facts.message());
    ATTNVIZ_CARD_FIELD(spec.example, std::string, "example");
    for (const auto& [key, value] : card.items())  // "example_zh-Hant": the example in that language
        if (key.rfind("example_", 0) == 0 && value.is_string()) spec.example_by_language[key.substr(8)] = value.get<std::string>();
    if (card.contains("reading_the_output")) ATTNVIZ_CARD_FIELD(spec.reading_the_output, Message, "reading_the_output");
    if (card.contains("note_key")) ATTNVIZ_CARD_FIELD(spec.note_key, std::string, "note_key");
    if (card.contains("code_recipe")) {
        ATTNVIZ_CARD_FIELD(spec.code_recipe, std::string, "code_recipe");
        if (!find_recipe(spec.code_recipe))
            return R::failure(Message("error.card.code_recipe", {{"what", what}, {"recipe", spec.code_recipe}, {"recipes", recipe_names()}}));
    }
#undef ATTNVIZ_CARD_FIELD

    if (Status s = read_architecture(card, kind, spec, what); !s) return R::failure(s.message());
    if (Status s = check_card_sizes(spec, what); !s) return R::failure(s.message());
    if (Status s = read_head_claims(card, spec, what); !s) return R::failure(s.message());
    read_training(card, spec);
    return spec;
}

}  // namespace attn::io
