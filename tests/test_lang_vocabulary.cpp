// The two Chinese catalogues keep to their own region and script: zh-Hant (Taiwan) never
// writes a mainland-only term (内存, 默认, 代码 ...) and zh-Hans never a Taiwan-only one
// (記憶體, 匯出, 程式碼 ...), and neither uses the other script's form of a character where
// the two scripts differ (这/這, 层/層 ...). The terms come from ../shared/GLOSSARY_zh.md.
// A language file that does not exist yet is skipped; the rules themselves are checked on
// inline strings, so they can fail without the files.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <filesystem>
#include <regex>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/text/catalogue.h"
#include "app/text/languages.h"

using namespace attn;

namespace {

// Mainland words that Taiwan writes otherwise (in both character forms where they differ):
// memory, default, export, import, mask, code, program, video, batch, concatenate,
// data, information, settings, screen, mouse, cache, function, implementation, window,
// menu, dialog, normalisation, and the converter's 引數 for "parameter".
const std::vector<std::string> kMainlandOnly = {
    "内存", "內存", "默认", "默認", "导出", "導出", "导入", "導入", "掩码", "掩碼", "代码", "代碼",
    "程序", "视频", "視頻", "批量", "拼接", "数据", "數據", "信息", "設置", "屏幕", "鼠標", "緩存",
    "函數", "實現", "窗口", "菜單", "對話框", "歸一化", "引數"};

// Taiwan words that the mainland writes otherwise, in both character forms.
const std::vector<std::string> kTaiwanOnly = {
    "記憶體", "记忆体", "預設", "匯出", "汇出", "匯入", "汇入", "遮罩", "程式碼", "程式码", "函式",
    "實作", "实作", "檔案", "档案", "螢幕", "萤幕", "滑鼠", "快取", "視窗", "视窗", "正規化", "正规化"};

// Common characters whose Simplified and Traditional forms differ: {Simplified, Traditional}.
// Only pairs where neither form is correct in the other script.
const std::vector<std::pair<std::string, std::string>> kCharacterPairs = {
    {"这", "這"}, {"张", "張"}, {"维", "維"}, {"头", "頭"}, {"数", "數"}, {"码", "碼"}, {"层", "層"},
    {"为", "為"}, {"个", "個"}, {"时", "時"}, {"们", "們"}, {"来", "來"}, {"说", "說"}, {"对", "對"},
    {"过", "過"}, {"还", "還"}, {"进", "進"}, {"开", "開"}, {"关", "關"}, {"问", "問"}, {"间", "間"},
    {"题", "題"}, {"实", "實"}, {"现", "現"}, {"应", "應"}, {"该", "該"}, {"让", "讓"}, {"设", "設"},
    {"计", "計"}, {"从", "從"}, {"动", "動"}, {"点", "點"}, {"图", "圖"}, {"选", "選"}, {"网", "網"},
    {"导", "導"}, {"换", "換"}, {"见", "見"}, {"视", "視"}, {"记", "記"}, {"语", "語"}, {"读", "讀"},
    {"请", "請"}, {"转", "轉"}, {"输", "輸"}, {"错", "錯"}, {"误", "誤"}, {"变", "變"}, {"处", "處"},
    {"写", "寫"}, {"单", "單"}, {"权", "權"}, {"阵", "陣"}, {"键", "鍵"}, {"询", "詢"}, {"积", "積"},
    {"缩", "縮"}, {"参", "參"}, {"归", "歸"}, {"内", "內"}, {"后", "後"}, {"与", "與"}, {"发", "發"}};

enum class Script { Traditional, Simplified };

// What in `text` belongs to the other region or script: each word or character found.
std::vector<std::string> foreign_usage(const std::string& text, Script script) {
    std::vector<std::string> found;
    for (const std::string& word : script == Script::Traditional ? kMainlandOnly : kTaiwanOnly)
        if (text.find(word) != std::string::npos) found.push_back(word);
    for (const auto& [simplified, traditional] : kCharacterPairs) {
        const std::string& other = script == Script::Traditional ? simplified : traditional;
        if (text.find(other) != std::string::npos) found.push_back(other);
    }
    return found;
}

std::string joined(const std::vector<std::string>& words) {
    std::string all;
    for (const std::string& w : words) all += (all.empty() ? "" : " ") + w;
    return all;
}

std::string read_all(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The shipped catalogue for `code` parsed on its own (no fallback), or nullptr when the
// file is not there yet.
std::unique_ptr<text::Catalogue> shipped(const std::string& code) {
    const std::filesystem::path path = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets/lang" / (code + ".json");
    if (!std::filesystem::exists(path)) return nullptr;
    std::ifstream in(path, std::ios::binary);
    std::stringstream json;
    json << in.rdbuf();
    std::string error;
    auto catalogue = text::Catalogue::from_json(code, json.str(), error);
    REQUIRE_MESSAGE(catalogue, error);
    return catalogue;
}

void check_catalogue_script(const std::string& code, Script script) {
    const auto catalogue = shipped(code);
    if (!catalogue) {
        MESSAGE(code << ".json does not exist yet: skipped");
        return;
    }
    catalogue->for_each([&](const std::string& key, const std::string& pattern) {
        CAPTURE(key);
        CAPTURE(pattern);
        const std::vector<std::string> found = foreign_usage(pattern, script);
        CHECK_MESSAGE(found.empty(), "other region or script: " << joined(found));
    });
}

// ---- The decisions at the end of ../shared/GLOSSARY_zh.md: one rendering per concept and
// script, in the catalogues, the lessons and the model cards.

// Renderings of a concept the glossary decided against, per script. A word in `allowed_in`
// is a longer word that holds the forbidden one and is right (隱藏維度 holds 隱藏 "hide").
struct Rejected {
    const char* concept;                  // the glossary row
    std::string word;                     // the rendering not to use
    std::vector<std::string> allowed_in;  // longer words that hold it and are fine
};

const std::vector<Rejected> kRejectedHans = {
    {"93/94 trace is 计算记录, Follow 追踪 (both were 跟踪)", "跟踪", {}},
    {"92 to mask is 屏蔽; the noun stays 掩码", "被掩码", {}},
    {"92 to mask is 屏蔽", "已掩码", {}},
    {"92 to mask is 屏蔽", "先掩码", {}},
    {"92 to mask is 屏蔽", "再掩码", {}},
    {"92 to mask is 屏蔽", "做掩码", {}},
    {"92 to mask is 屏蔽", "遮住", {}},
    {"92 to mask is 屏蔽", "遮蔽", {}},
    {"92 to mask is 屏蔽", "掩蔽", {}},
    {"96 hidden size is 隐藏维度 (隐藏 alone reads as Hide)", "隐藏", {"隐藏维度"}},
    {"Chinese puts no ASCII space after 。", "。 ", {}},
    {"Chinese lists join with 、 or ，", "， ", {}},
};
const std::vector<Rejected> kRejectedHant = {
    {"91 token stays token (詞元 was mixed in)", "詞元", {}},
    {"93/94 trace is 計算紀錄, Follow 跟隨 (both were 追蹤)", "追蹤", {}},
    {"93/94 trace is 計算紀錄, Follow 跟隨", "跟蹤", {}},
    {"92 to mask is 遮住; the noun stays 遮罩", "被遮罩", {}},
    {"92 to mask is 遮住", "屏蔽", {}},
    {"92 to mask is 遮住", "遮蔽", {}},
    {"96 hidden size is 隱藏維度; to mask is 遮住 (隱藏 alone reads as Hide)", "隱藏", {"隱藏維度"}},
    {"81 open is 開啟", "打開", {}},
    {"Chinese puts no ASCII space after 。", "。 ", {}},
    {"Chinese lists join with 、 or ，", "， ", {}},
};

// The deliberate exceptions: (catalogue key, word) pairs where a rejected word is right.
// controls.tab.hide and canvas.numbers_hidden do mean "hide" / "hidden".
const std::vector<std::pair<std::string, std::string>> kRejectedAllowed = {
    {"controls.tab.hide", "隐藏"}, {"canvas.numbers_hidden", "隐藏"},
    {"controls.tab.hide", "隱藏"}, {"canvas.numbers_hidden", "隱藏"}};

// The rejected words `text` uses, each once, leaving out those inside an allowed longer word.
std::vector<std::string> rejected_usage(const std::string& text, Script script, const std::string& key = "") {
    std::vector<std::string> found;
    for (const Rejected& r : script == Script::Traditional ? kRejectedHant : kRejectedHans) {
        if (std::find(kRejectedAllowed.begin(), kRejectedAllowed.end(), std::make_pair(key, r.word)) != kRejectedAllowed.end()) continue;
        std::string rest = text;
        for (const std::string& longer : r.allowed_in)
            for (size_t at = rest.find(longer); at != std::string::npos; at = rest.find(longer)) rest.erase(at, longer.size());
        if (rest.find(r.word) != std::string::npos && std::find(found.begin(), found.end(), r.word) == found.end())
            found.push_back(r.word);
    }
    return found;
}

// A concept whose English word or key decides the rendering: every key whose English
// matches `english` (and whose key matches `key`) uses `hans` / `hant`.
struct Required {
    const char* concept;
    const char* english;  // regex on the English text
    const char* key;      // regex on the key
    const char* hans;
    const char* hant;
};
const Required kRequired[] = {
    {"93 trace", R"(\btraces?\b)", ".", "计算记录", "計算紀錄"},
    {"94 Follow", R"(\b[Ff]ollow)", R"(^follow\.)", "追踪", "跟隨"},
    {"95 video frame (格 is a heatmap cell)", R"(\bframes?\b)", ".", "帧", "影格"},
    {"96 hidden size", R"(\(hidden\))", ".", "隐藏维度", "隱藏維度"},
    {"98 data folder (資料夾 is any folder)", R"(data folder)", ".", "数据文件夹", "資料目錄"},
    {"99 algorithmic task", R"(^algorithmic$)", ".", "算法任务", "演算法任務"},
    {"97 next token of a character model", R"(.)", R"(next_token_probs\.characters\.title|next_character|character_row)", "字", "字"},
};
// overview.hint_mean's "frame" is the bright border round a map, not a video frame.
const std::vector<std::pair<std::string, std::string>> kRequiredExceptions = {{"overview.hint_mean", "95 video frame (格 is a heatmap cell)"}};

// Every text of `language` the product ships outside the catalogue: the lessons' files and
// each model card's per-language prose, as (where, text).
std::vector<std::pair<std::string, std::string>> lesson_and_card_texts(const std::string& language) {
    std::vector<std::pair<std::string, std::string>> texts;
    const std::filesystem::path assets = std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets";
    for (const auto& entry : std::filesystem::directory_iterator(assets / "lessons"))
        if (entry.path().filename().string().find("." + language + ".") != std::string::npos)
            texts.emplace_back(entry.path().filename().string(), read_all(entry.path()));
    for (const auto& entry : std::filesystem::directory_iterator(assets / "models")) {
        if (entry.path().extension() != ".json") continue;
        std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& node) {
            if (node.is_object())
                for (const auto& [name, value] : node.items()) {
                    if (name == language && value.is_string()) texts.emplace_back(entry.path().filename().string(), value.get<std::string>());
                    walk(value);
                }
            if (node.is_array())
                for (const nlohmann::json& value : node) walk(value);
        };
        walk(nlohmann::json::parse(read_all(entry.path())));
    }
    return texts;
}

void check_glossary_decisions(const std::string& code, Script script) {
    const auto catalogue = shipped(code);
    REQUIRE(catalogue);
    catalogue->for_each([&](const std::string& key, const std::string& pattern) {
        CAPTURE(key);
        CAPTURE(pattern);
        const std::vector<std::string> found = rejected_usage(pattern, script, key);
        CHECK_MESSAGE(found.empty(), "a rendering the glossary decided against: " << joined(found));
    });
    int rules_applied = 0;
    for (const Required& rule : kRequired) {
        const std::regex english(rule.english), key(rule.key);
        text::english().for_each([&](const std::string& k, const std::string& source) {
            if (!std::regex_search(source, english) || !std::regex_search(k, key)) return;
            if (std::find(kRequiredExceptions.begin(), kRequiredExceptions.end(), std::make_pair(k, std::string(rule.concept))) !=
                kRequiredExceptions.end())
                return;
            ++rules_applied;
            const std::string concept_name = rule.concept;  // the text, not the pointer
            CAPTURE(concept_name);
            CAPTURE(k);
            const std::string* own = catalogue->find(k);
            REQUIRE(own);
            CHECK(own->find(script == Script::Traditional ? rule.hant : rule.hans) != std::string::npos);
        });
    }
    CHECK(rules_applied >= 30);  // the trace, Follow and frame keys alone are more
    for (const auto& where_text : lesson_and_card_texts(code)) {  // no structured bindings: clang 14 cannot CAPTURE them
        const auto& where = where_text.first;
        const auto& text = where_text.second;
        CAPTURE(where);
        const std::vector<std::string> found = rejected_usage(text, script);
        CHECK_MESSAGE(found.empty(), "a rendering the glossary decided against: " << joined(found));
    }
}

}  // namespace

TEST_CASE("the glossary's decisions find a rejected rendering and let the allowed exceptions pass") {
    CHECK(joined(rejected_usage("所有键都被掩码了，跟踪一个单元格", Script::Simplified)) == "跟踪 被掩码");
    CHECK(rejected_usage("所有键都被屏蔽了，追踪此格", Script::Simplified).empty());
    CHECK(joined(rejected_usage("停在第一個詞元 <bos> 上。 追蹤", Script::Traditional)) == "詞元 追蹤 。 ");
    CHECK(joined(rejected_usage("1/sqrt(E)（隱藏）", Script::Traditional)) == "隱藏");
    CHECK(rejected_usage("1/sqrt(E)（隱藏維度）", Script::Traditional).empty());
    CHECK(rejected_usage("隱藏控制項", Script::Traditional, "controls.tab.hide").empty());
    CHECK(joined(rejected_usage("隱藏控制項", Script::Traditional, "menu.file")) == "隱藏");
}

TEST_CASE("zh-Hans keeps one rendering per concept in the catalogue, the lessons and the model cards") {
    check_glossary_decisions("zh-Hans", Script::Simplified);
}

TEST_CASE("zh-Hant keeps one rendering per concept in the catalogue, the lessons and the model cards") {
    check_glossary_decisions("zh-Hant", Script::Traditional);
}

TEST_CASE("the zh vocabulary rules find the other region's words and the other script's characters") {
    // Taiwan text: clean as Traditional, caught as Simplified.
    const std::string taiwan = "預設的遮罩存在記憶體中，匯出程式碼";
    CHECK(foreign_usage(taiwan, Script::Traditional).empty());
    CHECK(joined(foreign_usage(taiwan, Script::Simplified)) == "記憶體 預設 匯出 遮罩 程式碼 碼 設 記");
    // Mainland text: clean as Simplified, caught as Traditional.
    const std::string mainland = "默认的掩码保存在内存中，导出代码";
    CHECK(foreign_usage(mainland, Script::Simplified).empty());
    CHECK(joined(foreign_usage(mainland, Script::Traditional)) == "内存 默认 导出 掩码 代码 码 导 内");
    // A character conversion without the vocabulary is still caught on the words.
    CHECK(joined(foreign_usage("默認參數", Script::Traditional)) == "默認");
    CHECK(joined(foreign_usage("这个张量的维度", Script::Traditional)) == "这 张 维 个");
    CHECK(joined(foreign_usage("這個張量的維度", Script::Simplified)) == "這 張 維 個");
    // Code and formulas are the same in both.
    CHECK(foreign_usage("Q.transpose(1, 2), head_{H-1}, softmax", Script::Traditional).empty());
    CHECK(foreign_usage("Q.transpose(1, 2), head_{H-1}, softmax", Script::Simplified).empty());
}

TEST_CASE("zh-Hant.json has no mainland-only term and no Simplified character") {
    check_catalogue_script("zh-Hant", Script::Traditional);
}

TEST_CASE("zh-Hans.json has no Taiwan-only term and no Traditional character") {
    check_catalogue_script("zh-Hans", Script::Simplified);
}

// The shipped lessons' titles and notes (assets/lessons/<name>.<language>.json) keep the same rules.
TEST_CASE("the Chinese lessons keep to their own region and script") {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets/lessons")) {
        const std::string name = entry.path().filename().string();
        const bool hant = name.find(".zh-Hant.") != std::string::npos, hans = name.find(".zh-Hans.") != std::string::npos;
        if (!hant && !hans) continue;
        ++files;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        CAPTURE(name);
        const std::vector<std::string> found = foreign_usage(text.str(), hant ? Script::Traditional : Script::Simplified);
        CHECK_MESSAGE(found.empty(), "other region or script: " << joined(found));
    }
    CHECK(files >= 2);
}

TEST_CASE("zh-Hant.json has every English key with exactly its parameters") {
    const auto zh_hant = shipped("zh-Hant");
    if (!zh_hant) {
        MESSAGE("zh-Hant.json does not exist yet: skipped");
        return;
    }
    CHECK(std::string(zh_hant->name()) == "繁體中文");
    text::english().for_each([&](const std::string& key, const std::string& english) {
        CAPTURE(key);
        const std::string* own = zh_hant->find(key);
        REQUIRE_MESSAGE(own, "key missing in zh-Hant.json");
        std::vector<std::string> own_names = text::template_parameters(*own);
        std::vector<std::string> english_names = text::template_parameters(english);
        std::sort(own_names.begin(), own_names.end());  // a translation may reorder them
        std::sort(english_names.begin(), english_names.end());
        CHECK(own_names == english_names);
    });
    zh_hant->for_each([&](const std::string& key, const std::string&) {
        CAPTURE(key);
        CHECK_MESSAGE(text::english().find(key), "a key English does not have");
    });
}
