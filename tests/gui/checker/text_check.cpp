// attnviz_text_check: judges the text the real window drew (ATTNVIZ_TEST_TEXT, see
// app/gui/kit/test_hook.h) by tests/gui/latin_words.h's rule, for monkey/chinese_window_test.py.
//
// usage: attnviz_text_check FILE [WORDS...]
//   FILE   lines "x<TAB>y<TAB>window<TAB>cut<TAB>text"
//   WORDS  texts whose words the window may show as they are (typed sentences, a folder)
// Prints one line per English word or missing glyph (the code panel's runs aside) and exits
// 1 when there is one, 2 when FILE cannot be read.
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "app/text/languages.h"
#include "tests/gui/latin_words.h"

int main(int argc, char** argv) {
    using namespace attn::gui::testing;
    if (argc < 2) {
        std::fprintf(stderr, "usage: attnviz_text_check FILE [WORDS...]\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "attnviz_text_check: cannot read %s\n", argv[1]);
        return 2;
    }
    attn::text::install_english_messages();
    std::set<std::string> names = shown_names();
    for (int i = 2; i < argc; ++i)
        for (const std::string& w : words_of(argv[i])) names.insert(w);
    std::set<std::string> problems;
    int runs = 0;
    for (std::string line; std::getline(in, line);) {
        std::string field[5];
        size_t from = 0;
        for (int f = 0; f < 4; ++f) {
            const size_t tab = line.find('\t', from);
            if (tab == std::string::npos) break;
            field[f] = line.substr(from, tab - from);
            from = tab + 1;
        }
        field[4] = line.substr(from);
        const std::string& window = field[2];
        const std::string& cut = field[3];
        const std::string& text = field[4];
        ++runs;
        if (window.find("###window.code") != std::string::npos) continue;  // the code panel's words are code
        if (text.find("\xEF\xBF\xBD") != std::string::npos) problems.insert("missing glyph in: " + text + "  (" + window + ")");
        for (const std::string& word : english_words(text, names, cut.find('<') != std::string::npos, cut.find('>') != std::string::npos))
            problems.insert("English: " + word + "  (in: " + text + ")  (" + window + ")");
    }
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    std::printf("%d runs of text, %zu problems\n", runs, problems.size());
    return problems.empty() ? 0 : 1;
}
