// Trace -> DisplayModel. Runs on the compute worker; see display_model.h.
#include "app/gui/display/display_model.h"

#include "app/gui/display/colour_ranges.h"
#include "app/gui/display/panel_pixels.h"
#include "app/gui/display/step_notes.h"
#include "app/gui/display/projection.h"
#include "app/gui/display/storage_strip.h"
#include "app/text/token_script.h"
#include "core/masked_score.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace attn::gui {
namespace {

// Is this rank-2 (per batch item) step later cut into heads by a View or Slice?
bool feeds_head_split(const Trace& trace, int index) {
    const StepId id = trace.steps[static_cast<size_t>(index)].id;
    for (size_t j = static_cast<size_t>(index) + 1; j < trace.steps.size(); ++j) {
        const Step& later = trace.steps[j];
        if ((later.kind == StepKind::View || later.kind == StepKind::Slice) &&
            later.has_primary_source() && later.primary_source() == id) {
            return true;
        }
    }
    return false;
}

AxisLabels labels_for(DimRole role) {
    if (role == DimRole::QueryPos) return AxisLabels::QueryTokens;
    if (role == DimRole::KeyPos) return AxisLabels::KeyTokens;
    return AxisLabels::Indices;
}

}  // namespace

std::vector<int64_t> cell_index(const Panel& panel, int row, int col) {
    std::vector<int64_t> idx = panel.origin;
    if (panel.row_dim >= 0) idx[static_cast<size_t>(panel.row_dim)] += row;
    if (panel.col_dim >= 0) idx[static_cast<size_t>(panel.col_dim)] += col;
    return idx;
}

float cell_value(const Tensor& tensor, const Panel& panel, int row, int col) {
    if (tensor.empty()) return 0.0f;
    return tensor.data()[tensor.offset_of(cell_index(panel, row, col))];
}

int bake_cell_px(const Panel& panel) {
    // One vectorised pass settles the usual panel; only one with NaN or +-inf is read again.
    if (all_finite(panel.values)) return 1;
    const bool masked = std::any_of(panel.values.begin(), panel.values.end(), [](float v) { return std::isinf(v); });
    if (!masked) return 1;
    const int side = std::max({panel.tex_rows, panel.tex_cols, 1});
    return std::clamp(512 / side, 1, 16);
}

bool is_probability_step(StepKind kind) {
    return kind == StepKind::Softmax || kind == StepKind::Dropout;
}

int panel_texture_cap(int panel_count, int max_extent) {
    if (panel_count <= 1) return max_extent;
    if (panel_count <= 4) return std::max(64, max_extent / 2);
    return std::max(64, max_extent / 4);
}

namespace {

// The Mask step whose cells say which keys a step's cells hide: the step itself (a Mask
// step), the Mask a scale follows (--mask-before-scale), or the one a probability step
// descends from (softmax <- mask, dropout <- softmax <- mask), when it has the same
// shape; null when there is none (a scale before the mask reaches none).
const Tensor* mask_behind(const Trace& trace, int index) {
    const Tensor& t = trace.steps[static_cast<size_t>(index)].tensor;
    for (int hops = 0; hops < 4 && index >= 0; ++hops) {
        const Step& s = trace.steps[static_cast<size_t>(index)];
        if (s.kind == StepKind::Mask) return s.tensor.shape() == t.shape() && s.tensor.dim_roles() == t.dim_roles() ? &s.tensor : nullptr;
        index = s.has_primary_source() ? trace.index_of(s.primary_source()) : -1;
    }
    return nullptr;
}

// How one step is cut into panels: everything but the pixels. Cheap (no pass over the
// values), so it is made for every step up front.
struct StepPlan {
    std::vector<Panel> cuts;       // panels with origin, sizes and labels; `values` still empty
    const Tensor* mask = nullptr;  // the Mask step behind a masked-score or probability step (see mask_behind)
    float fill = -std::numeric_limits<float>::infinity();  // what the mask writes (is_masked_score)
    bool scores = false;           // the step holds masked scores (hidden keys hatched), not weights
    int cap = 0;                   // panel texture side limit (panel_texture_cap)
    HeadOf head_of;                // for the storage strip
};

// The axes a step's panels cut: its row, column and head dimensions (-1 when absent),
// the panel's size, and the cell every panel starts from (the shown batch item).
struct PanelAxes {
    int row_dim, col_dim, h_dim;
    int rows, cols;
    DimRole col_role;
    std::vector<int64_t> origin;
};

// The step's panels: one per head, one per head's column group of a wide (B, L, E) tensor
// that is split into heads or joined from them, or one for the whole.
void cut_panels(const Trace& trace, int index, const DisplayModel& model, const PanelAxes& axes, StepDisplay& sd, StepPlan& plan) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    const Tensor& t = step.tensor;
    HeadOf& head_of = plan.head_of;
    const int row_dim = axes.row_dim, col_dim = axes.col_dim, h_dim = axes.h_dim, rows = axes.rows, cols = axes.cols;
    const DimRole col_role = axes.col_role;
    const std::vector<int64_t>& origin = axes.origin;
    const auto cut = [&](int head, int cut_cols, std::string label) {
        Panel p;
        p.head = head;
        p.label = std::move(label);
        p.rows = rows;
        p.cols = cut_cols;
        p.origin = origin;
        p.row_dim = row_dim;
        p.col_dim = col_dim;
        return p;
    };
    std::vector<Panel>& cuts = plan.cuts;
    if (h_dim >= 0) {
        head_of.h_dim = h_dim;
        sd.arrangement = (row_dim >= 0 && h_dim > row_dim) ? Arrangement::ColumnGroups : Arrangement::Grid;
        for (int h = 0; h < static_cast<int>(t.dim(h_dim)); ++h) {
            cuts.push_back(cut(h, cols, ""));
            cuts.back().origin[static_cast<size_t>(h_dim)] = h;
        }
    } else {
        const bool wide = col_role == DimRole::Embedding || col_role == DimRole::FusedQkv;
        const bool grouped = model.heads > 1 && wide && col_dim >= 0 && cols % model.head_dim == 0 &&
                             (step.kind == StepKind::Concat || feeds_head_split(trace, sd.step));
        if (grouped) {
            head_of.group_dim = col_dim;
            sd.arrangement = Arrangement::ColumnGroups;
            sd.joined = true;
            for (int g = 0; g < cols / model.head_dim; ++g) {
                std::string label;
                if (col_role == DimRole::FusedQkv) {
                    // Fused projection: Q's heads, then K's, then V's.
                    const char* part[] = {"q", "k", "v"};
                    label = std::string(part[std::min(2, g / model.heads)]) + " h" + std::to_string(g % model.heads);
                }
                cuts.push_back(cut(g % model.heads, model.head_dim, std::move(label)));
                cuts.back().origin[static_cast<size_t>(col_dim)] = static_cast<int64_t>(g) * model.head_dim;
            }
        } else {
            cuts.push_back(cut(-1, cols, ""));
        }
    }
}

// One step's axis meaning and its cuts into panels; independent of every other step.
StepDisplay build_step(const Trace& trace, int index, const DisplayModel& model, int max_extent, StepPlan& plan) {
    HeadOf& head_of = plan.head_of;
    const Step& step = trace.steps[static_cast<size_t>(index)];
    const Tensor& t = step.tensor;
    StepDisplay sd;
    sd.step = index;
    sd.from_step = step.has_primary_source() ? trace.index_of(step.primary_source()) : -1;
    // Probabilities (the weights, their head mean, the next-word distribution) on the honest 0..1 scale.
    const StepInfo& info = step_info(step.id);
    const bool token_ids = info.token_ids();
    const bool probabilities = info.probability();
    sd.colormap = token_ids ? ColormapKind::Neutral : probabilities ? ColormapKind::Sequential : ColormapKind::Diverging;
    // Differences from float32 are sizes (>= 0): one sequential scale, 0..the step's largest.
    if (model.colour_scale.difference_from_float32 && !token_ids) sd.colormap = ColormapKind::Sequential;
    head_of.heads = model.heads;
    head_of.head_dim = model.head_dim;
    if (t.empty() || t.rank() == 0) {
        sd.built = sd.ranged = true;  // nothing to draw
        return sd;
    }

    const int b_dim = t.find_dim(DimRole::Batch);
    const int h_dim = t.find_dim(DimRole::Head);
    std::vector<int> rest;  // dimensions other than batch and head, in order
    for (int d = 0; d < t.rank(); ++d) {
        if (d != b_dim && d != h_dim) rest.push_back(d);
    }
    const int row_dim = rest.size() >= 2 ? rest[rest.size() - 2] : -1;
    const int col_dim = rest.empty() ? -1 : rest.back();
    const int rows = row_dim >= 0 ? static_cast<int>(t.dim(row_dim)) : 1;
    const int cols = col_dim >= 0 ? static_cast<int>(t.dim(col_dim)) : 1;
    sd.row_name = row_dim >= 0 ? t.dim_names()[static_cast<size_t>(row_dim)] : "";
    sd.col_name = col_dim >= 0 ? t.dim_names()[static_cast<size_t>(col_dim)] : "";
    const DimRole col_role = col_dim >= 0 ? t.dim_roles()[static_cast<size_t>(col_dim)] : DimRole::Other;
    sd.row_labels = labels_for(row_dim >= 0 ? t.dim_roles()[static_cast<size_t>(row_dim)] : DimRole::Other);
    sd.col_labels = labels_for(col_role);
    // The next-word distribution's columns are the vocabulary's words, in id order.
    if (col_role == DimRole::Vocabulary && !trace.model.vocabulary.empty()) sd.col_labels = AxisLabels::Vocabulary;

    std::vector<int64_t> origin(static_cast<size_t>(t.rank()), 0);
    if (b_dim >= 0) origin[static_cast<size_t>(b_dim)] = std::min<int64_t>(model.batch_item, t.dim(b_dim) - 1);

    const PanelAxes axes{row_dim, col_dim, h_dim, rows, cols, col_role, std::move(origin)};
    cut_panels(trace, index, model, axes, sd, plan);
    std::vector<Panel>& cuts = plan.cuts;
    plan.cap = panel_texture_cap(static_cast<int>(cuts.size()), max_extent);
    // Masked scores (the Mask step, and a scale after it) and the weights after them know
    // their hidden keys from the Mask step, whatever the fill (-inf, -1e20, finfo.min).
    plan.scores = step.kind == StepKind::Mask || step.kind == StepKind::Scale;
    plan.mask = plan.scores || is_probability_step(step.kind) ? mask_behind(trace, index) : nullptr;
    if (trace.config.has_mask()) plan.fill = masked_score_fill(trace.config.mask_spec().fill, trace.config.dtype);
    for (Panel& p : cuts) {
        p.tex_rows = std::min(rows, plan.cap);
        p.tex_cols = std::min(p.cols, plan.cap);
    }
    return sd;
}

// Calls visit(value, masked_key) for every cell of `p`, in row-major order, straight
// from the tensor's strides (no copy). masked_key: the Mask step hides that key there
// (-inf or the fill `fill`, is_masked_score).
template <typename Visit>
void for_each_cell(const Tensor& t, const Tensor* mask, float fill, const Panel& p, Visit&& visit) {
    const auto start_of = [&](const Tensor& x) { return x.offset_of(p.origin); };
    const auto stride = [&](const Tensor& x, int dim) { return dim >= 0 ? x.strides()[static_cast<size_t>(dim)] : 0; };
    const float* base = t.data() + start_of(t);
    const int64_t rs = stride(t, p.row_dim), cs = stride(t, p.col_dim);
    const float* mbase = mask ? mask->data() + start_of(*mask) : nullptr;
    const int64_t mrs = mask ? stride(*mask, p.row_dim) : 0, mcs = mask ? stride(*mask, p.col_dim) : 0;
    for (int r = 0; r < p.rows; ++r) {
        const float* row = base + r * rs;
        const float* mrow = mbase ? mbase + r * mrs : nullptr;
        for (int c = 0; c < p.cols; ++c) visit(row[c * cs], mrow && is_masked_score(mrow[c * mcs], fill));
    }
}

// A step's value range and masked-cell counts, gathered cell by cell or run by run.
struct RangeScan {
    float lo = std::numeric_limits<float>::infinity(), hi = -std::numeric_limits<float>::infinity();
    int64_t masked_cells = 0, masked_zero_cells = 0;

    // A masked score is -inf or a finite fill (-1e20, finfo.min), a stand-in for -inf 1e20
    // times larger than any score: in the range it would stretch the symmetric scale until
    // every score is white. Masked scores stay out of the range and are hatched (fill_step),
    // with their real number.
    void add(float v, bool masked_key, bool scores) {
        if (v == -std::numeric_limits<float>::infinity() || (masked_key && scores)) {
            ++masked_cells;
            return;
        }
        if (masked_key && v == 0.0f) ++masked_zero_cells;
        // NaN fails both comparisons and is ignored; +inf is not expected.
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    // n adjacent values with no mask behind them.
    void add_run(const float* v, int n) { scan_run(v, n, lo, hi, masked_cells); }
    // Another part of the same step's cells, scanned on its own.
    void add(const RangeScan& part) {
        lo = std::min(lo, part.lo);
        hi = std::max(hi, part.hi);
        masked_cells += part.masked_cells;
        masked_zero_cells += part.masked_zero_cells;
    }
    void store(StepDisplay& sd) const {
        const bool any = lo <= hi;
        sd.data_min = any ? lo : 0.0f;
        sd.data_max = any ? hi : 0.0f;
        sd.masked_cells = masked_cells;
        sd.masked_zero_cells = masked_zero_cells;
        sd.ranged = true;
    }
};

// One panel's value range and masked-cell counts, read in place.
void scan_panel(const Tensor& t, const StepPlan& plan, const Panel& p, RangeScan& range) {
    const bool contiguous_rows = p.col_dim < 0 || t.strides()[static_cast<size_t>(p.col_dim)] == 1;
    if (!plan.mask && contiguous_rows) {
        const int64_t start = t.offset_of(p.origin);
        const int64_t rs = p.row_dim >= 0 ? t.strides()[static_cast<size_t>(p.row_dim)] : 0;
        for (int r = 0; r < p.rows; ++r) range.add_run(t.data() + start + r * rs, p.cols);
        return;
    }
    for_each_cell(t, plan.mask, plan.fill, p, [&](float v, bool masked_key) { range.add(v, masked_key, plan.scores); });
}

// The step's value range and masked-cell counts, from every panel's cells.
void scan_ranges(const Trace& trace, const StepPlan& plan, StepDisplay& sd) {
    const Tensor& t = trace.steps[static_cast<size_t>(sd.step)].tensor;
    RangeScan range;
    for (const Panel& p : plan.cuts) scan_panel(t, plan, p, range);
    range.store(sd);
}

// True when the step shows exactly its first source's values for the shown batch item:
// a view or transpose of the same buffer that keeps the batch dimension in front. Its
// range is then copied instead of read again.
bool same_values_as_source(const Trace& trace, int index) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    if ((step.kind != StepKind::View && step.kind != StepKind::Transpose) || !step.has_primary_source()) return false;
    const int s = trace.index_of(step.primary_source());
    if (s < 0 || s >= index) return false;
    const Tensor& t = step.tensor;
    const Tensor& src = trace.steps[static_cast<size_t>(s)].tensor;
    if (t.empty() || src.empty() || t.storage() != src.storage() || t.numel() != src.numel()) return false;
    if (t.offset() != src.offset() || t.find_dim(DimRole::Batch) != 0 || src.find_dim(DimRole::Batch) != 0) return false;
    // Same batch stride and count: each item covers the same span of the buffer in both.
    return t.dim(0) == src.dim(0) && t.strides()[0] == src.strides()[0];
}

// True when `p` is pooled straight from the tensor, row by row (fill_panel).
bool pooled_in_place(const Tensor& t, const StepPlan& plan, const Panel& p) {
    const bool pooled = p.tex_rows != p.rows || p.tex_cols != p.cols;
    return pooled && !plan.mask && (p.col_dim < 0 || t.strides()[static_cast<size_t>(p.col_dim)] == 1);
}

// One panel's pixels (its values pooled to display size), its range read on the way
// with `scan`. A panel pooled in place (pooled_in_place) hands each of its rows to
// `also_read` too while the row is in the cache.
void fill_panel(const Tensor& t, const StepPlan& plan, Panel& p, bool scan, RangeScan& range,
                const RowRead& also_read = nullptr) {
    const bool pooled = p.tex_rows != p.rows || p.tex_cols != p.cols;
    if (pooled_in_place(t, plan, p)) {
        // Adjacent columns, nothing masked: pooled straight from the tensor, no copy, each
        // row's range read as it is pooled.
        const float* first = t.data() + t.offset_of(p.origin);
        const int64_t rs = p.row_dim >= 0 ? t.strides()[static_cast<size_t>(p.row_dim)] : 0;
        const RowRead read_row = [&](const float* row, int n) {
            if (scan) range.add_run(row, n);
            if (also_read) also_read(row, n);
        };
        p.values = pool_max_abs(first, rs, p.rows, p.cols, p.tex_rows, p.tex_cols,
                                scan || also_read ? read_row : RowRead());
        return;
    }
    std::vector<float> full = read_slice(t, p.origin, p.row_dim, p.col_dim, p.rows, p.cols);
    if (plan.mask) {
        // The texture marks hidden keys so the shader hatches them (numbers still come
        // from the tensor): masked scores as -inf whatever the fill, and weights that
        // are exactly 0 because their key was masked as +inf, so the mask stays visible
        // after the softmax.
        const float infinity = std::numeric_limits<float>::infinity();
        size_t n = 0;
        for_each_cell(t, plan.mask, plan.fill, p, [&](float v, bool masked_key) {
            if (scan) range.add(v, masked_key, plan.scores);
            if (masked_key && plan.scores) full[n] = -infinity;
            else if (masked_key && v == 0.0f) full[n] = infinity;
            ++n;
        });
    } else if (scan) {
        range.add_run(full.data(), static_cast<int>(full.size()));  // the copy is in the cache now
    }
    p.values = pooled ? pool_max_abs(full, p.rows, p.cols, p.tex_rows, p.tex_cols) : std::move(full);
}

// True when every panel of a (B, H, L, S) weight step is head k's whole (L, S) map of the
// shown batch item, in head order, pooled in place: its rows can be measured for "how
// peaked" while pooling reads them (weight_focus' figures, read once).
bool focus_read_while_pooled(const Tensor& t, const StepPlan& plan, int batch_item) {
    if (t.rank() != 4 || static_cast<int64_t>(plan.cuts.size()) != t.dim(1)) return false;
    for (size_t k = 0; k < plan.cuts.size(); ++k) {
        const Panel& p = plan.cuts[k];
        const bool whole_head = p.row_dim == 2 && p.col_dim == 3 && p.rows == t.dim(2) && p.cols == t.dim(3) &&
                                p.origin.size() == 4 && p.origin[0] == batch_item &&
                                p.origin[1] == static_cast<int64_t>(k) && p.origin[2] == 0 && p.origin[3] == 0;
        if (!whole_head || !pooled_in_place(t, plan, p)) return false;
    }
    return true;
}

// The panels' pixels and, for the softmax's weights, how peaked each row is (weight_focus).
void fill_panels(const Tensor& t, const DisplayModel& model, const StepPlan& plan, StepKind kind, StepDisplay& sd,
                 bool scan, RangeScan& range) {
    std::vector<Panel> panels = plan.cuts;
    // "How peaked" only where rows are distributions: the softmax's weights, not dropout's
    // rescaled survivors (rows no longer sum to 1) nor their differences from float32.
    const bool wants_focus = kind == StepKind::Softmax && !model.colour_scale.difference_from_float32;
    // Each head's rows measured while pooling holds them in the cache: the weights are
    // read once, not twice (half a million of them at 256 x 256 x 8).
    const bool focus_while_pooling = wants_focus && focus_read_while_pooled(t, plan, model.batch_item);
    const int count = static_cast<int>(panels.size());
    std::vector<RangeScan> parts(panels.size());                        // (panels)
    if (focus_while_pooling) sd.focus.assign(panels.size(), HeadFocus{});  // (H)
    // The panels (a head each for the weights) as tasks: a thread of the team that has read
    // its own steps (read_steps) takes some at the loop's barrier, so the step on screen,
    // the longest of them, is not left to one thread. default(shared): a task would
    // otherwise copy this function's locals (firstprivate), and its results with them.
#pragma omp taskloop grainsize(1) if (count > 1) default(shared)
    for (int k = 0; k < count; ++k) {
        const auto panel = static_cast<size_t>(k);
        std::vector<RowFocus> rows;  // (L), when measured while pooling
        const RowRead measure_row = [&rows](const float* row, int n) { rows.push_back(row_focus(row, nullptr, n)); };
        fill_panel(t, plan, panels[panel], scan, parts[panel], focus_while_pooling ? measure_row : RowRead());
        if (focus_while_pooling) sd.focus[panel] = summarise_head(k, std::move(rows));
    }
    for (const RangeScan& part : parts) range.add(part);
    if (wants_focus && !focus_while_pooling) sd.focus = weight_focus(t, plan.mask, model.batch_item, plan.fill);  // the mask the plan already found
    sd.panels = std::move(panels);
}

// The pixels: each panel's values, projection weights and the storage strip's picture.
// The expensive part, done first for the step on screen. With `scan`, the step's range is
// taken from the same reads (scan_ranges' figures).
void fill_step(const Trace& trace, const DisplayModel& model, const StepPlan& plan, StepDisplay& sd, bool scan) {
    const Step& step = trace.steps[static_cast<size_t>(sd.step)];
    const Tensor& t = step.tensor;
    RangeScan range;
    fill_panels(t, model, plan, step.kind, sd, scan, range);
    if (step.kind == StepKind::Projection) {
        build_weight_panels(projection_weights(trace, sd.step), sd, model.head_dim, plan.cap, sd.weight_panels,
                            sd.bias_panels, sd.weight_vmin, sd.weight_vmax);
    }
    StorageStrip picture = make_strip(trace, sd.step, plan.head_of);
    picture.buffer_id = sd.strip.buffer_id;  // named for every step up front (name_buffer)
    picture.shares_with = std::move(sd.strip.shares_with);
    sd.strip = std::move(picture);
    if (scan) range.store(sd);
    sd.built = true;
}

// The steps drawn together with `focus`: itself and the steps it reads (the canvas shows
// its source while animating, a projection's input, a product's operands).
std::vector<int> steps_drawn_with(const Trace& trace, int focus) {
    std::vector<int> out{focus};
    for (StepId source : trace.steps[static_cast<size_t>(focus)].sources) {
        const int s = trace.index_of(source);
        if (s >= 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    return out;
}

// The steps whose ranges the colours of the `fill` steps depend on (colour_scale_groups),
// and for a step that copies its source's range (same_values_as_source) that source too.
std::vector<char> ranges_needed(const Trace& trace, const DisplayModel& model, const std::vector<char>& fill) {
    const std::vector<int> groups = colour_scale_groups(trace, model, model.colour_scale);
    const size_t n = model.steps.size();
    std::vector<char> group_needed(n, 0), needed(n, 0);
    for (size_t i = 0; i < n; ++i)
        if (fill[i]) group_needed[static_cast<size_t>(groups[i])] = 1;
    for (size_t i = 0; i < n; ++i) needed[i] = group_needed[static_cast<size_t>(groups[i])];
    for (size_t i = n; i-- > 0;) {  // backwards: a view of a view reaches the first source
        if (needed[i] && same_values_as_source(trace, static_cast<int>(i)))
            needed[static_cast<size_t>(trace.index_of(trace.steps[i].primary_source()))] = 1;
    }
    return needed;
}

// A view's range is its source's (same_values_as_source), copied once the source has one;
// in order, so a view of a view copies a copied range.
void copy_view_ranges(const Trace& trace, DisplayModel& model) {
    for (size_t i = 0; i < model.steps.size(); ++i) {
        StepDisplay& sd = model.steps[i];
        if (sd.ranged || !same_values_as_source(trace, static_cast<int>(i))) continue;
        const StepDisplay& from = model.steps[static_cast<size_t>(trace.index_of(trace.steps[i].primary_source()))];
        if (!from.ranged) continue;
        sd.data_min = from.data_min;
        sd.data_max = from.data_max;
        sd.masked_cells = from.masked_cells;
        sd.ranged = true;
    }
}

// The pixels of the `fill` steps not built yet (their ranges read on the way) and the ranges
// of the other `needed` steps. Steps are independent: they are shared out on OpenMP's
// threads, the same team that just computed the trace (a separate std::thread would compete
// with those threads while they still spin-wait after the forward; the team has one thread
// when another process holds the second core, free_core_team.h). Below 4 MiB of reads one
// thread is sooner than waking a team. The weights on screen at 256/512/8 read 6 MiB (the
// weights, the scaled scores beside them, the scores for their shared colour scale): about
// 2.2 ms on one thread, 1.6-2.0 ms on two.
void read_steps(const Trace& trace, DisplayModel& model, const std::vector<StepPlan>& plans, const std::vector<char>& fill,
                const std::vector<char>& needed) {
    std::vector<int> work;  // the steps to fill first: they take longest
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < model.steps.size(); ++i) {
            const StepDisplay& sd = model.steps[i];
            const bool to_fill = fill[i] && !sd.built;
            const bool to_scan = needed[i] && !sd.ranged && !same_values_as_source(trace, static_cast<int>(i));
            if (pass == 0 ? to_fill : (!to_fill && to_scan)) work.push_back(static_cast<int>(i));
        }
    }
    // The bytes these steps read, not the trace's: a decode step's trace views a cache of
    // many megabytes while the step on screen reads a few kilobytes of it.
    std::uint64_t work_bytes = 0;
    for (int i : work) work_bytes += static_cast<std::uint64_t>(trace.steps[static_cast<size_t>(i)].tensor.numel()) * sizeof(float);
    // Read only by the pragma: unused where OpenMP is off (the browser build, clang warns).
    [[maybe_unused]] const bool parallel = work_bytes >= (std::uint64_t{4} << 20);
    const int m = static_cast<int>(work.size());
#pragma omp parallel for schedule(dynamic) if (parallel)
    for (int k = 0; k < m; ++k) {
        const auto i = static_cast<size_t>(work[static_cast<size_t>(k)]);
        StepDisplay& sd = model.steps[i];
        const bool scan = !sd.ranged && !same_values_as_source(trace, static_cast<int>(i));
        if (fill[i] && !sd.built) fill_step(trace, model, plans[i], sd, scan);
        else scan_ranges(trace, plans[i], sd);
    }
    copy_view_ranges(trace, model);
}

}  // namespace

DisplayModel build_display_model(const Trace& trace, std::vector<std::string> query_tokens,
                                 std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                 int focus_step, ColourScale scale) {
    DisplayModel model;
    model.query_tokens = std::move(query_tokens);
    model.vocabulary = trace.model.vocabulary;
    model.script_forms = trace.model.script_forms;
    model.key_tokens = std::move(key_tokens);
    model.heads = std::max(1, trace.config.H());
    model.head_dim = std::max(1, trace.config.head_dim());
    const int batch = std::max(1, trace.config.batch);
    model.batch_item = std::clamp(batch_item, 0, batch - 1);
    model.max_extent = max_extent;
    model.colour_scale = scale;  // build_step reads it (the difference from float32)

    // Every step's plan, axes and buffer: cheap, no pass over the values.
    const int n = static_cast<int>(trace.steps.size());
    model.steps.resize(static_cast<size_t>(n));
    std::vector<StepPlan> plans(static_cast<size_t>(n));
    std::map<const Storage*, std::pair<int, std::string>> buffers;
    for (int i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[static_cast<size_t>(i)];
        sd = build_step(trace, i, model, max_extent, plans[static_cast<size_t>(i)]);
        const Step& step = trace.steps[static_cast<size_t>(i)];
        if (!step.tensor.empty() && step.tensor.rank() > 0) name_buffer(trace, i, sd.strip, buffers);
        sd.notes = step_notes(trace, i, model.batch_item);
    }
    // The pixels of the step on screen and what it reads (or of every step), and the value
    // ranges their colour scales are shared with: only those are read now.
    std::vector<char> fill(static_cast<size_t>(n), focus_step >= 0 && focus_step < n ? 0 : 1);
    if (focus_step >= 0 && focus_step < n)
        for (int i : steps_drawn_with(trace, focus_step)) fill[static_cast<size_t>(i)] = 1;
    read_steps(trace, model, plans, fill, ranges_needed(trace, model, fill));
    share_colour_ranges(trace, model, scale);
    return model;
}

bool complete_display_model(const Trace& trace, DisplayModel& model, const std::function<bool()>& cancelled) {
    const size_t n = std::min(model.steps.size(), trace.steps.size());
    for (size_t i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[i];
        if (sd.built) continue;
        if (cancelled && cancelled()) return false;
        // The plan is rebuilt (it is cheap); a range already read stays as it is.
        StepPlan plan;
        const StepDisplay planned = build_step(trace, static_cast<int>(i), model, model.max_extent, plan);
        (void)planned;
        fill_step(trace, model, plan, sd, !sd.ranged && !same_values_as_source(trace, static_cast<int>(i)));
    }
    // Every step is read now: the scales of the groups no built step was in are complete
    // (the others come out as they were).
    copy_view_ranges(trace, model);
    share_colour_ranges(trace, model, model.colour_scale);
    return true;
}

const std::string& DisplayModel::shown_token(const std::string& token) const {
    return text::shown_token(script_forms, token);
}

bool DisplayModel::complete() const {
    return std::all_of(steps.begin(), steps.end(), [](const StepDisplay& sd) { return sd.built; });
}

}  // namespace attn::gui
