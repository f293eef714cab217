#include "app/media/handout_pdf.h"

#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "app/io/file_util.h"

namespace attn::media {

namespace {

// A4 portrait in points (1/72 inch), and its margin.
constexpr double kPageW = 595.28, kPageH = 841.89, kMargin = 42.0;
constexpr double kGap = 10.0;  // between the picture and the text, and between paragraphs

struct CairoFree {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
template <typename T>
using CairoPtr = std::unique_ptr<T, CairoFree>;

// The faces for `language`: the script's own CJK face first (Simplified and Traditional
// Chinese differ in glyph forms), DejaVu for Latin text, and fontconfig's fallback after.
std::string families(const std::string& language) {
    if (language == "zh-Hant") return "Noto Sans CJK TC, DejaVu Sans";
    if (language.rfind("zh", 0) == 0) return "Noto Sans CJK SC, DejaVu Sans";
    return "DejaVu Sans, Noto Sans CJK SC";
}

// pango's language tag, which picks line-breaking rules and glyph variants.
const char* pango_tag(const std::string& language) {
    if (language == "zh-Hant") return "zh-tw";
    if (language.rfind("zh", 0) == 0) return "zh-cn";
    return "en";
}

// One paragraph, wrapped at the text width: its layout, ready to measure and draw.
struct Paragraph {
    PangoLayout* layout = nullptr;
    double r = 0.1, g = 0.1, b = 0.1;
    ~Paragraph() {
        if (layout) g_object_unref(layout);
    }
    Paragraph() = default;
    Paragraph(const Paragraph&) = delete;
    Paragraph& operator=(const Paragraph&) = delete;
    Paragraph(Paragraph&& o) noexcept : layout(o.layout), r(o.r), g(o.g), b(o.b) { o.layout = nullptr; }
    double height() const {
        int w = 0, h = 0;
        pango_layout_get_size(layout, &w, &h);
        return static_cast<double>(h) / PANGO_SCALE;
    }
};

Paragraph paragraph(cairo_t* cr, const std::string& text, const std::string& language, const char* weight_and_size,
                    bool monospace = false) {
    Paragraph p;
    p.layout = pango_cairo_create_layout(cr);
    pango_context_set_language(pango_layout_get_context(p.layout), pango_language_from_string(pango_tag(language)));
    const std::string face = (monospace ? "DejaVu Sans Mono, " : "") + families(language) + " " + weight_and_size;
    PangoFontDescription* font = pango_font_description_from_string(face.c_str());
    pango_layout_set_font_description(p.layout, font);
    pango_font_description_free(font);
    pango_layout_set_width(p.layout, static_cast<int>((kPageW - 2 * kMargin) * PANGO_SCALE));
    pango_layout_set_wrap(p.layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_text(p.layout, text.c_str(), -1);
    return p;
}

// The picture as cairo's opaque 32-bit pixels (0xffRRGGBB in native order).
CairoPtr<cairo_surface_t> picture(const HandoutPage& page) {
    CairoPtr<cairo_surface_t> image(cairo_image_surface_create(CAIRO_FORMAT_RGB24, page.width, page.height));
    const int stride = cairo_image_surface_get_stride(image.get());
    unsigned char* data = cairo_image_surface_get_data(image.get());
    for (int y = 0; y < page.height; ++y) {
        auto* row = reinterpret_cast<uint32_t*>(data + static_cast<size_t>(y) * stride);
        const unsigned char* from = page.rgba.data() + static_cast<size_t>(y) * page.width * 4;
        for (int x = 0; x < page.width; ++x, from += 4) row[x] = 0xff000000u | uint32_t{from[0]} << 16 | uint32_t{from[1]} << 8 | from[2];
    }
    cairo_surface_mark_dirty(image.get());
    return image;
}

// One page: the text's paragraphs are laid out first, the picture takes the height left
// (at most the text width at its own aspect), then everything is drawn top down.
void draw_page(cairo_t* cr, const HandoutPage& page, const HandoutWords& words, const std::string& language,
               const std::string& footer) {
    std::vector<Paragraph> text;
    text.push_back(paragraph(cr, page.title, language, "Bold 17"));
    if (!page.note.empty()) text.push_back(paragraph(cr, words.note_label + "  " + page.note, language, "11"));
    text.push_back(paragraph(cr, words.formula_label + "  " + page.formula, language, "10.5", true));
    text.back().r = 0.05, text.back().g = 0.25, text.back().b = 0.55;
    text.push_back(paragraph(cr, page.explanation, language, "10.5"));
    Paragraph foot = paragraph(cr, footer, language, "8");
    foot.r = foot.g = foot.b = 0.45;
    double text_h = 0;
    for (const Paragraph& p : text) text_h += p.height() + kGap;
    const double width = kPageW - 2 * kMargin;
    const double room = kPageH - 2 * kMargin - text_h - foot.height() - kGap;
    const double aspect = page.width > 0 ? static_cast<double>(page.height) / page.width : 0.75;
    const double pic_h = std::max(120.0, std::min(width * aspect, room));
    const double pic_w = pic_h / aspect;
    double y = kMargin;
    if (page.width > 0 && page.height > 0) {
        CairoPtr<cairo_surface_t> image = picture(page);
        cairo_save(cr);
        cairo_translate(cr, kMargin + (width - pic_w) / 2, y);
        cairo_scale(cr, pic_w / page.width, pic_h / page.height);
        cairo_set_source_surface(cr, image.get(), 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint(cr);
        cairo_restore(cr);
    }
    y += pic_h + kGap * 1.5;
    for (const Paragraph& p : text) {
        cairo_set_source_rgb(cr, p.r, p.g, p.b);
        cairo_move_to(cr, kMargin, y);
        pango_cairo_show_layout(cr, p.layout);
        y += p.height() + kGap;
    }
    cairo_set_source_rgb(cr, foot.r, foot.g, foot.b);
    cairo_move_to(cr, kMargin, kPageH - kMargin + kGap - foot.height());
    pango_cairo_show_layout(cr, foot.layout);
    cairo_show_page(cr);
}

}  // namespace

Status write_handout(const std::string& path, const std::string& title, const std::vector<HandoutPage>& pages,
                     const HandoutWords& words, const std::string& language) {
    if (Status s = io::check_writable_target(path); !s) return s;
    const std::string temporary = io::temporary_name_for(path);
    auto write_failed = [&](const std::string& reason) {
        std::remove(temporary.c_str());
        return Status::failure(Message("error.file.write", {{"path", path}, {"reason", reason}}));
    };
    {
        CairoPtr<cairo_surface_t> surface(cairo_pdf_surface_create(temporary.c_str(), kPageW, kPageH));
        if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
            return write_failed(cairo_status_to_string(cairo_surface_status(surface.get())));
        cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_TITLE, title.c_str());
        cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "AttnViz");
        CairoPtr<cairo_t> cr(cairo_create(surface.get()));
        for (size_t i = 0; i < pages.size(); ++i) {
            const std::string footer = title + "   " + std::to_string(i + 1) + " / " + std::to_string(pages.size());
            draw_page(cr.get(), pages[i], words, language, footer);
        }
        cairo_surface_finish(surface.get());
        if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
            return write_failed(cairo_status_to_string(cairo_surface_status(surface.get())));
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) return write_failed(std::strerror(errno));
    return ok_status();
}

}  // namespace attn::media
