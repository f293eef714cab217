// The two Chinese catalogues keep to their own region and script: zh-Hant (Taiwan) never
// writes a mainland-only term (内存, 默认, 代码 ...) and zh-Hans never a Taiwan-only one
// (記憶體, 匯出, 程式碼 ...), and neither uses the other script's form of a character where
// the two scripts differ (这/這, 层/層 ...). The terms come from ../shared/GLOSSARY_zh.md.
// A language file that does not exist yet is skipped; the rules themselves are checked on
// inline strings, so they can fail without the files.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
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

}  // namespace

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
