// The message catalogue: named parameters, the English fallback, every key the code
// uses present in English, and step texts that say the right things for a configuration.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "app/io/trace_writer.h"
#include "app/text/embedded_languages.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "app/text/text_join.h"
#include "core/attention.h"
#include "tests/lang/pseudo_language.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::text;
using namespace attn::test_configs;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("named parameters are substituted by name, in any order") {
    CHECK(fill_template("{heads} heads of {head_dim} numbers", {{"head_dim", 2}, {"heads", 4}}) == "4 heads of 2 numbers");
    CHECK(fill_template("{a}{a}-{b}", {{"a", "x"}, {"b", 7}}) == "xx-7");
    // Unused values are fine; text without parameters is returned as it is.
    CHECK(fill_template("plain", {{"unused", 1}}) == "plain");
    // Braces that are not a lower-case name are literal: formulas keep theirs.
    CHECK(fill_template("torch.cat([head_0, ..., head_{H-1}]) {x y} {", {}) == "torch.cat([head_0, ..., head_{H-1}]) {x y} {");
    CHECK(template_parameters("{letter}_h = X W_{lower},h^T, head_{H-1}, {letter}") ==
          std::vector<std::string>{"letter", "lower"});
    CHECK(fixed(1.41421356, 3) == "1.414");
    CHECK(fixed(0.1, 2) == "0.10");
}

TEST_CASE("a missing parameter or key shows a visible marker and is counted") {
    const uint64_t before = markers_produced();
    CHECK(fill_template("{heads} heads of {head_dim}", {{"heads", 4}}) == "4 heads of \u27E6head_dim\u27E7");
    CHECK(std::string(english().text("no.such.key")) == "\u27E6no.such.key\u27E7");
    // As a label the ImGui ID is still the key.
    CHECK(std::string(english().label("no.such.key")) == "\u27E6no.such.key\u27E7###no.such.key");
    CHECK(markers_produced() == before + 3);
}

TEST_CASE("a label is the text with the key as its ImGui ID") {
    CHECK(std::string(english().label("menu.file")) == "File###menu.file");
    CHECK(std::string(english().text("menu.file")) == "File");
}

TEST_CASE("a language file that is not a flat object of strings is refused with a reason") {
    std::string error;
    CHECK_FALSE(Catalogue::from_json("xx", "[1, 2]", error));
    CHECK(contains(error, "xx.json"));
    CHECK_FALSE(Catalogue::from_json("xx", "{\"a\": 3}", error));
    CHECK(contains(error, "\"a\""));
    CHECK_FALSE(Catalogue::from_json("xx", "{\"a\": ", error));
    CHECK_FALSE(register_language("bad", "{", error));
    CHECK(find_language("bad") == nullptr);
}

TEST_CASE("English is embedded, first and the fallback of other languages") {
    REQUIRE(kEmbeddedLanguagesCount >= 1);
    // Each embedded file is byte for byte the shipped one (byte arrays, not literals: no size cap).
    for (std::size_t i = 0; i < kEmbeddedLanguagesCount; ++i) {
        const std::string path = std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lang/" + kEmbeddedLanguages[i].name + ".json";
        std::ifstream in(path, std::ios::binary);
        const std::string shipped((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(kEmbeddedLanguages[i].text() == shipped);
        CHECK(kEmbeddedLanguages[i].data[kEmbeddedLanguages[i].size] == 0);
    }
    const std::vector<std::string> codes = language_codes();
    REQUIRE_FALSE(codes.empty());
    CHECK(codes.front() == "en");
    CHECK(std::string(english().name()) == "English");
    CHECK(english().fallback() == nullptr);
    // Every shipped file is a language of the binary.
    for (const auto& entry : std::filesystem::directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lang")) {
        CAPTURE(entry.path().string());
        const Catalogue* c = find_language(entry.path().stem().string());
        REQUIRE(c);
        if (c != &english()) CHECK(c->fallback() == &english());
    }
    CHECK_FALSE(set_language("zz"));
    CHECK(&active() == &english());
}

TEST_CASE("keys missing in a language fall back to English") {
    test::register_pseudo_language();
    const Catalogue* pseudo = find_language("pseudo");
    REQUIRE(pseudo);
    CHECK(std::string(pseudo->text("menu.file")) == "[File]");
    CHECK_FALSE(pseudo->has_own("menu.file.quit"));
    CHECK(std::string(pseudo->text("menu.file.quit")) == "Quit");
    // The label keeps the same ID in both languages.
    CHECK(std::string(pseudo->label("menu.file")) == "[File]###menu.file");
    CHECK(std::string(pseudo->label("menu.file.quit")) == "Quit###menu.file.quit");
    CHECK(pseudo->format("canvas.head", {{"head", 3}}) == "[head 3]");
    CHECK(pseudo->format("canvas.head_short", {{"head", 3}}) == "h3");
    {
        test::LanguageScope scope("pseudo");
        CHECK(std::string(tr("status.ready")) == "[ready]");
    }
    CHECK(std::string(tr("status.ready")) == "ready");
}

TEST_CASE("no language uses a parameter its English text does not have") {
    test::register_pseudo_language();
    for (const std::string& code : language_codes()) {
        const Catalogue* c = find_language(code);
        if (c == &english()) continue;
        c->for_each([&](const std::string& key, const std::string& pattern) {
            CAPTURE(code);
            CAPTURE(key);
            const std::string* source = english().find(key);
            REQUIRE_MESSAGE(source, "a key English does not have");
            const std::vector<std::string> allowed = template_parameters(*source);
            for (const std::string& name : template_parameters(pattern)) {
                CAPTURE(name);
                CHECK(std::find(allowed.begin(), allowed.end(), name) != allowed.end());
            }
        });
    }
}

TEST_CASE("every key literal in the app's sources exists in English") {
    // Top-level parts of the English keys ("menu", "step", ...): a string literal in the
    // sources that starts with one of them and looks like a key must be an English key.
    std::set<std::string> prefixes;
    english().for_each([&](const std::string& key, const std::string&) { prefixes.insert(key.substr(0, key.find('.'))); });
    REQUIRE(prefixes.size() > 5);
    const std::regex literal("\"([a-z_]+)\\.([a-z0-9_.]*[a-z0-9_])\"");
    int keys_seen = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/app")) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".h") continue;
        const std::string source = read_file(entry.path());
        for (auto it = std::sregex_iterator(source.begin(), source.end(), literal); it != std::sregex_iterator(); ++it) {
            if (!prefixes.count((*it)[1].str())) continue;
            const std::string key = (*it)[1].str() + "." + (*it)[2].str();
            CAPTURE(entry.path().string());
            CAPTURE(key);
            CHECK(english().has_own(key));
            ++keys_seen;
        }
    }
    CHECK(keys_seen > 200);  // the scan really read the views
}

TEST_CASE("every call with named parameters gives exactly the parameters its English text uses") {
    // trf("key", {{"a", ...}, {"b", ...}}) and catalogue.format("key", {...}) in the app's
    // sources: a parameter the text needs but the call omits would show as a marker, one
    // the call gives but the text lacks means the text lost a number.
    const std::regex call("(?:trf|format)\\(\\s*\"([a-z_]+\\.[a-z0-9_.]+)\"\\s*,\\s*\\{([\\s\\S]*?)\\}\\)");
    const std::regex given_name("\\{\\s*\"([a-z_][a-z0-9_]*)\"\\s*,");
    int calls = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/app")) {
        if (entry.path().extension() != ".cpp") continue;
        const std::string source = read_file(entry.path());
        for (auto it = std::sregex_iterator(source.begin(), source.end(), call); it != std::sregex_iterator(); ++it) {
            const std::string key = (*it)[1].str(), arguments = (*it)[2].str();
            CAPTURE(entry.path().string());
            CAPTURE(key);
            const std::string* pattern = english().find(key);
            REQUIRE(pattern);
            std::set<std::string> given;
            for (auto g = std::sregex_iterator(arguments.begin(), arguments.end(), given_name); g != std::sregex_iterator(); ++g)
                given.insert((*g)[1].str());
            const std::vector<std::string> used = template_parameters(*pattern);
            CHECK(std::set<std::string>(used.begin(), used.end()) == given);
            ++calls;
        }
    }
    CHECK(calls > 50);  // the scan found the calls
}

TEST_CASE("every step has its English text in every variant, mask and input kind") {

    const uint64_t before = markers_produced();
    for (Variant variant : {Variant::Split, Variant::Stacked, Variant::Fused}) {
        for (MaskKind mask : {MaskKind::None, MaskKind::Causal, MaskKind::Padding}) {
            for (bool cross : {false, true}) {
                AttentionConfig c = sized(5, 12, 3);
                c.variant = variant;
                c.mask = mask;
                c.cross_attention = cross;
                c.kv_len = 7;
                c.dropout = 0.1f;
                for (StepId id : kAllStepIds) {
                    CAPTURE(step_name(id));
                    const StepText t = describe_step(id, c, english());
                    CHECK(t.title.size() > 3);
                    CHECK_FALSE(t.formula.empty());
                    CHECK(t.explanation.size() > 40);
                    CHECK(step_title(id, c, english()) == t.title);
                }
            }
        }
    }
    CHECK(markers_produced() == before);  // no key and no parameter was missing
}

TEST_CASE("step explanations quote the configuration's real sizes") {
    SUBCASE("splitting Q at H=4, E=8 gives d_h = 2 and head 0 owns columns 0..1") {
        const StepText t = describe_step(StepId::QSplit, sized(5, 8, 4), english());
        CHECK(t.title == "Split Q into heads (view)");
        CHECK(t.formula == "Q.view(B, L, H, d_h)");
        CHECK(contains(t.explanation, "E = 8 as (H = 4 heads) x (d_h = 2)"));
        CHECK(contains(t.explanation, "Columns 0..1 of Q now belong to head 0, the next 2 to head 1"));
    }
    SUBCASE("scaling at d_h = 4 divides by sqrt(4) = 2.000") {
        const StepText t = describe_step(StepId::AttnScaled, sized(5, 8, 2), english());
        CHECK(contains(t.explanation, "Dividing by sqrt(4) = 2.000"));
    }
    SUBCASE("the mask says which mask") {
        AttentionConfig c = sized(5, 8, 2);
        c.mask = MaskKind::Causal;
        CHECK(describe_step(StepId::AttnMasked, c, english()).explanation.rfind("Causal mask: query i may only look at keys j <= i", 0) == 0);
        c.mask = MaskKind::Padding;
        CHECK(describe_step(StepId::AttnMasked, c, english()).explanation.rfind("Key padding mask:", 0) == 0);
    }
    SUBCASE("dropout quotes p and 1/(1-p)") {
        AttentionConfig c = sized(5, 8, 2);
        c.dropout = 0.2f;
        CHECK(contains(describe_step(StepId::AttnDropped, c, english()).explanation, "p = 0.20, and survivors are multiplied by 1/(1-p) = 1.250"));
    }
    SUBCASE("the stacked variant names its own per-head modules and torch.cat") {
        AttentionConfig c = sized(5, 6, 2);
        c.variant = Variant::Stacked;
        const StepText heads = describe_step(StepId::KHeads, c, english());
        CHECK(heads.title == "Per-head K (stacked modules)");
        CHECK(heads.formula == "K_h = X W_k,h^T  for h = 0..H-1");
        CHECK(contains(heads.explanation, "H = 2 separate single-head modules"));
        CHECK(contains(heads.explanation, "(d_h x E) = (3 x 6)"));
        const StepText concat = describe_step(StepId::Concat, c, english());
        CHECK(concat.formula == "torch.cat([head_0, ..., head_{H-1}], dim = -1)");
        CHECK(contains(concat.explanation, "H = 2 blocks of d_h = 3 columns make the E = 6 columns"));
        CHECK(copy_badge(StepId::Concat, c, english()) == "a copy: torch.cat writes a new buffer");
        c.variant = Variant::Split;
        // The generic module (assets/code/attention_module.py) rejoins with one .reshape().
        CHECK(copy_badge(StepId::Concat, c, english()) == "a copy: .reshape() of a non-contiguous tensor writes a new buffer");
        CHECK(copy_badge(StepId::QHeads, c, english()).empty());
    }
    SUBCASE("projections: the input width, cross-attention rows and the fused slice") {
        AttentionConfig c = sized(5, 8, 2);
        c.cross_attention = true;
        c.kv_len = 7;
        c.kdim = 3;
        const std::string k = describe_step(StepId::K, c, english()).explanation;
        CHECK(k.rfind("Every token's 3-number vector is multiplied by a learned matrix to give its key:", 0) == 0);
        CHECK(contains(k, "(3 -> 8)"));
        CHECK(contains(k, "separate key input (cross-attention), so it has S = 7 rows."));
        CHECK_FALSE(contains(describe_step(StepId::Q, c, english()).explanation, "cross-attention"));
        c.cross_attention = false;
        c.variant = Variant::Fused;
        CHECK(contains(describe_step(StepId::V, c, english()).explanation, "a slice of the qkv tensor"));
    }
    SUBCASE("the transpose quotes the batch of products and the new stride") {
        AttentionConfig c = sized(5, 8, 2);
        c.batch = 3;
        const std::string t = describe_step(StepId::KHeads, c, english()).explanation;
        CHECK(contains(t, "(B, S, H, d_h) becomes (B, H, S, d_h)"));
        CHECK(contains(t, "B x H = 6 separate per-head products"));
        CHECK(contains(t, "now jumps 8 floats"));
    }
}

TEST_CASE("the notes on scaling and fully masked rows read the trace's numbers") {
    AttentionConfig c = sized(4, 4, 2);
    Result<Trace> run = run_attention(c);
    REQUIRE(run.ok());
    Trace t = std::move(run.value());
    CHECK(fully_masked_row_note(t, 0, 1, 2, english()).empty());
    t.fully_masked_rows[(0 * 2 + 1) * 4 + 2] = 1;  // (b=0, h=1, row 2)
    const std::string note = fully_masked_row_note(t, 0, 1, 2, english());
    CHECK(note.rfind("Query row 2 has every key masked", 0) == 0);
    CHECK(contains(note, "set to all zeros instead"));

    ScalingEffect e;
    e.valid = true;
    e.largest_score = 3.0f;
    e.max_weight_scaled = 0.62f;
    e.max_weight_unscaled = 0.95f;
    const std::string effect = describe_scaling_effect(e, 4, english());
    CHECK(effect == "In this row the largest score is 3.00. Its largest softmax weight is 0.62 after dividing by sqrt(4), "
                    "and would be 0.95 without. Without the division this row would be nearly one-hot.");
    e.max_weight_unscaled = 0.3f;
    CHECK(contains(describe_scaling_effect(e, 4, english()), "changes little"));
    CHECK(describe_scaling_effect(ScalingEffect{}, 4, english()).empty());
}

TEST_CASE("the trace manifest keeps English words whatever the window's language") {
    test::register_pseudo_language();
    Result<Trace> run = run_attention(sized(4, 4, 2));
    REQUIRE(run.ok());
    test::LanguageScope scope("pseudo");
    REQUIRE(describe_step(StepId::Input, run->config).title == "[Input tokens]");
    const nlohmann::json manifest = io::trace_manifest(run.value());
    CHECK(manifest["steps"][0]["title"] == "Input tokens");
    CHECK(manifest["steps"][0]["formula"] == "X");
    CHECK(contains(manifest["steps"][0]["explanation"].get<std::string>(), "4 token(s)"));
}

TEST_CASE("the input and query projection texts give d_in when it differs from hidden_dim") {
    AttentionConfig c;
    c.seq_len = 6;
    c.input_dim = 3;
    c.hidden_dim = 4;
    c.num_heads = 2;
    const std::string input = describe_step(StepId::Input, c, english()).explanation;
    CHECK(input.find("d_in = 3") != std::string::npos);
    CHECK(input.find("hidden_dim = 4 numbers") == std::string::npos);  // the vector is 3 wide, not 4
    CHECK(describe_step(StepId::Q, c, english()).explanation.find("3") != std::string::npos);
    c.input_dim = 0;
    CHECK(describe_step(StepId::Input, c, english()).explanation.find("hidden_dim = 4 numbers") != std::string::npos);
}

TEST_CASE("sentences and lists are joined in the catalogue's punctuation: no ASCII space after 。") {
    const Catalogue* hans = find_language("zh-Hans");
    REQUIRE(hans);
    CHECK(join_list({"a", "b", "c"}, english()) == "a, b, c");
    CHECK(join_list({"甲", "", "乙"}, *hans) == "甲、乙");  // an empty item is left out
    CHECK(join_clauses({"甲", "乙"}, *hans) == "甲；乙");
    CHECK(join_sentences("One.", "Two.", english()) == "One. Two.");
    CHECK(join_sentences("一。", "二。", *hans) == "一。二。");
    // The mask step's explanation is two sentences joined in code (why the mask, what it does).
    AttentionConfig c = sized(5, 8, 2);
    c.mask = MaskKind::Causal;
    for (const std::string code : {"zh-Hans", "zh-Hant"}) {
        CAPTURE(code);
        const std::string text = describe_step(StepId::AttnMasked, c, *find_language(code)).explanation;
        CHECK(text.find("。 ") == std::string::npos);
        CHECK(text.find("。exp(-inf)") != std::string::npos);
    }
    CHECK(describe_step(StepId::AttnMasked, c, english()).explanation.find(". exp(-inf)") != std::string::npos);
}
