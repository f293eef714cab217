// Trace -> DisplayModel. Runs on the compute worker; see display_model.h.
#include "app/gui/display_model.h"

#include "app/gui/projection.h"

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

// Reads the (rows, cols) slice of `t` starting at `origin`, stepping row_dim and col_dim.
std::vector<float> read_slice(const Tensor& t, const std::vector<int64_t>& origin, int row_dim,
                              int col_dim, int rows, int cols) {
    const float* base = t.data();
    const auto& strides = t.strides();
    int64_t start = 0;
    for (size_t i = 0; i < origin.size(); ++i) start += origin[i] * strides[i];
    const int64_t rs = row_dim >= 0 ? strides[static_cast<size_t>(row_dim)] : 0;
    const int64_t cs = col_dim >= 0 ? strides[static_cast<size_t>(col_dim)] : 0;
    std::vector<float> out(static_cast<size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r) {
        const float* row = base + start + r * rs;
        float* dst = &out[static_cast<size_t>(r) * cols];
        if (cs == 1) {
            std::copy(row, row + cols, dst);
        } else {
            for (int c = 0; c < cols; ++c) dst[c] = row[c * cs];
        }
    }
    return out;
}

// Head of the element at a full tensor index (or -2 when the tensor has no heads).
struct HeadOf {
    int h_dim = -1;        // tensor dimension holding the head
    int group_dim = -1;    // or: the column dimension grouped by d_h
    int head_dim = 1, heads = 1;
    int operator()(const std::vector<int64_t>& idx) const {
        if (h_dim >= 0) return static_cast<int>(idx[static_cast<size_t>(h_dim)]);
        if (group_dim >= 0) return static_cast<int>((idx[static_cast<size_t>(group_dim)] / head_dim) % heads);
        return -2;
    }
};

// Numbers each distinct storage buffer in trace order and notes which earlier step a
// view shares its buffer with. Sequential: ids depend on the order of first use.
void name_buffer(const Trace& trace, int index, StorageStrip& strip,
                 std::map<const Storage*, std::pair<int, std::string>>& buffers) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    auto found = buffers.find(step.tensor.storage());
    if (found == buffers.end()) {
        const int id = static_cast<int>(buffers.size()) + 1;
        found = buffers.emplace(step.tensor.storage(), std::make_pair(id, std::string(step.name()))).first;
    } else {
        strip.shares_with = found->second.second;
    }
    strip.buffer_id = found->second.first;
}

// The strip's picture (which head each part of the buffer belongs to). Independent
// per step, so it runs on the worker threads with the panels.
StorageStrip make_strip(const Trace& trace, int index, const HeadOf& head_of) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    const Tensor& t = step.tensor;
    StorageStrip strip;
    const Storage* storage = t.storage();
    strip.storage_elements = storage ? static_cast<int64_t>(storage->size()) : 0;
    strip.strides = t.strides();
    strip.offset = t.offset();
    strip.contiguous = t.is_contiguous();
    if (strip.storage_elements == 0) return strip;

    const int bins = static_cast<int>(std::min<int64_t>(strip.storage_elements, 1024));
    strip.bins.assign(static_cast<size_t>(bins), -1);
    const auto& shape = t.shape();
    const auto& strides = t.strides();
    // Storage position -> logical index: walk the dimensions from the largest stride
    // down (views, transposes and slices keep strides a permutation of a dense layout).
    std::vector<int> order;
    for (int d = 0; d < t.rank(); ++d) {
        if (shape[static_cast<size_t>(d)] > 1) order.push_back(d);
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return strides[static_cast<size_t>(a)] > strides[static_cast<size_t>(b)]; });
    std::vector<int64_t> idx(shape.size(), 0);
    const auto head_at = [&](int64_t pos) {
        int64_t rem = pos - t.offset();
        if (rem < 0) return -1;
        std::fill(idx.begin(), idx.end(), 0);
        for (int d : order) {
            const auto du = static_cast<size_t>(d);
            idx[du] = strides[du] > 0 ? rem / strides[du] : 0;
            rem -= idx[du] * strides[du];
            if (idx[du] >= shape[du]) return -1;
        }
        if (rem != 0) return -1;
        const int h = head_of(idx);
        return h >= 0 ? std::min(h, 127) : -2;
    };
    // Several samples per bin: a bin that covers more than one head is drawn as mixed
    // instead of pretending to be whichever head its centre fell on.
    const int64_t per_bin = std::max<int64_t>(1, strip.storage_elements / bins);
    const int samples = static_cast<int>(std::min<int64_t>(per_bin, 16));
    for (int bin = 0; bin < bins; ++bin) {
        const int64_t begin = static_cast<int64_t>(bin) * strip.storage_elements / bins;
        int value = head_at(begin);
        for (int k = 1; k < samples; ++k) {
            if (head_at(begin + per_bin * k / samples) != value) {
                value = -3;
                break;
            }
        }
        strip.bins[static_cast<size_t>(bin)] = static_cast<int8_t>(value);
    }
    // The storage positions of the first logical elements, in logical (C) order.
    const int64_t first = std::min<int64_t>(t.numel(), 16);
    for (int64_t n = 0; n < first; ++n) {
        int64_t r = n, p = t.offset();
        for (int d = t.rank() - 1; d >= 0; --d) {
            const auto du = static_cast<size_t>(d);
            p += (r % shape[du]) * strides[du];
            r /= shape[du];
        }
        strip.first_positions.push_back(p);
    }
    return strip;
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

std::vector<float> pool_max_abs(const std::vector<float>& values, int rows, int cols, int out_rows,
                                int out_cols) {
    if (out_rows >= rows && out_cols >= cols) return values;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    std::vector<float> out(static_cast<size_t>(out_rows) * out_cols, neg_inf);
    std::vector<unsigned char> has_finite(out.size(), 0);
    std::vector<int> ocol_of(static_cast<size_t>(cols));  // one division per column, not per cell
    for (int c = 0; c < cols; ++c) ocol_of[static_cast<size_t>(c)] = static_cast<int>(static_cast<int64_t>(c) * out_cols / cols);
    for (int r = 0; r < rows; ++r) {
        const int orow = static_cast<int>(static_cast<int64_t>(r) * out_rows / rows);
        const float* in_row = values.data() + static_cast<size_t>(r) * cols;
        const size_t out_row = static_cast<size_t>(orow) * out_cols;
        for (int c = 0; c < cols; ++c) {
            const size_t o = out_row + static_cast<size_t>(ocol_of[static_cast<size_t>(c)]);
            const float v = in_row[c];
            if (std::isinf(v)) {  // masked: shown only where nothing finite shares the block
                if (!has_finite[o]) out[o] = v;
                continue;
            }
            if (!has_finite[o] || std::fabs(v) > std::fabs(out[o])) out[o] = v;
            has_finite[o] = 1;
        }
    }
    return out;
}

namespace {

// The Mask step a probability step descends from (softmax <- mask, dropout <- softmax
// <- mask), when it has the same shape; null when there is none.
const Tensor* mask_behind(const Trace& trace, int index) {
    const Tensor& t = trace.steps[static_cast<size_t>(index)].tensor;
    for (int hops = 0; hops < 4 && index >= 0; ++hops) {
        const Step& s = trace.steps[static_cast<size_t>(index)];
        if (s.kind == StepKind::Mask) return s.tensor.shape() == t.shape() && s.tensor.dim_roles() == t.dim_roles() ? &s.tensor : nullptr;
        index = s.has_primary_source() ? trace.index_of(s.primary_source()) : -1;
    }
    return nullptr;
}

// One step's panels, ranges and axis meaning; independent of every other step, so
// steps can be built in parallel. `head_of` is filled for the storage strip.
StepDisplay build_step(const Trace& trace, int index, const DisplayModel& model, int max_extent, HeadOf& head_of) {
    const Step& step = trace.steps[static_cast<size_t>(index)];
    const Tensor& t = step.tensor;
    StepDisplay sd;
    sd.step = index;
    sd.from_step = step.has_primary_source() ? trace.index_of(step.primary_source()) : -1;
    sd.colormap = is_probability_step(step.kind) ? ColormapKind::Sequential : ColormapKind::Diverging;
    head_of.heads = model.heads;
    head_of.head_dim = model.head_dim;
    if (t.empty() || t.rank() == 0) return sd;

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

    std::vector<int64_t> origin(static_cast<size_t>(t.rank()), 0);
    if (b_dim >= 0) origin[static_cast<size_t>(b_dim)] = std::min<int64_t>(model.batch_item, t.dim(b_dim) - 1);

    struct Cut { int head; std::vector<int64_t> origin; int cols; std::string label; };
    std::vector<Cut> cuts;
    if (h_dim >= 0) {
        head_of.h_dim = h_dim;
        sd.arrangement = (row_dim >= 0 && h_dim > row_dim) ? Arrangement::ColumnGroups : Arrangement::Grid;
        for (int h = 0; h < static_cast<int>(t.dim(h_dim)); ++h) {
            Cut cut{h, origin, cols, ""};
            cut.origin[static_cast<size_t>(h_dim)] = h;
            cuts.push_back(cut);
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
                Cut cut{g % model.heads, origin, model.head_dim, ""};
                if (col_role == DimRole::FusedQkv) {
                    // Fused projection: Q's heads, then K's, then V's.
                    const char* part[] = {"q", "k", "v"};
                    cut.label = std::string(part[std::min(2, g / model.heads)]) + " h" + std::to_string(g % model.heads);
                }
                cut.origin[static_cast<size_t>(col_dim)] = static_cast<int64_t>(g) * model.head_dim;
                cuts.push_back(cut);
            }
        } else {
            cuts.push_back(Cut{-1, origin, cols, ""});
        }
    }

    const int cap = panel_texture_cap(static_cast<int>(cuts.size()), max_extent);
    const Tensor* mask = is_probability_step(step.kind) ? mask_behind(trace, index) : nullptr;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    float lo = std::numeric_limits<float>::infinity(), hi = neg_inf;
    for (const Cut& cut : cuts) {
        Panel p;
        p.head = cut.head;
        p.label = cut.label;
        p.rows = rows;
        p.cols = cut.cols;
        p.origin = cut.origin;
        p.row_dim = row_dim;
        p.col_dim = col_dim;
        std::vector<float> full = read_slice(t, cut.origin, row_dim, col_dim, rows, cut.cols);
        for (float v : full) {
            if (v == neg_inf) {
                ++sd.masked_cells;
                continue;
            }
            // NaN fails both comparisons and is ignored; +inf is not expected.
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        if (mask) {
            // Weights of masked keys are exactly 0; the texture marks them so the mask
            // stays visible after the softmax (numbers still come from the tensor).
            const std::vector<float> m = read_slice(*mask, cut.origin, row_dim, col_dim, rows, cut.cols);
            for (size_t n = 0; n < full.size(); ++n) {
                if (m[n] == neg_inf && full[n] == 0.0f) {
                    full[n] = std::numeric_limits<float>::infinity();
                    ++sd.masked_zero_cells;
                }
            }
        }
        p.tex_rows = std::min(rows, cap);
        p.tex_cols = std::min(cut.cols, cap);
        p.values = (p.tex_rows == rows && p.tex_cols == cut.cols)
                       ? std::move(full)
                       : pool_max_abs(full, rows, cut.cols, p.tex_rows, p.tex_cols);
        sd.panels.push_back(std::move(p));
    }
    if (step.kind == StepKind::Projection) {
        build_weight_panels(projection_weights(trace, index), sd, model.head_dim, cap, sd.weight_panels,
                            sd.bias_panels, sd.weight_vmin, sd.weight_vmax);
    }
    if (!(lo <= hi)) lo = hi = 0.0f;
    sd.data_min = lo;
    sd.data_max = hi;
    if (sd.colormap == ColormapKind::Sequential) {
        sd.vmin = 0.0f;
        sd.vmax = hi > 0.0f ? hi : 1.0f;
    } else {
        const float m = std::max({std::fabs(lo), std::fabs(hi), 1e-6f});
        sd.vmin = -m;
        sd.vmax = m;
    }
    return sd;
}

// Steps that only move, rescale or mix their source's values share its colour scale.
bool keeps_source_scale(StepKind kind) {
    switch (kind) {
    case StepKind::Slice:
    case StepKind::View:
    case StepKind::Transpose:
    case StepKind::Scale:        // the learner sees the scores shrink instead of a re-normalised copy
    case StepKind::Mask:
    case StepKind::WeightedSum:  // each output row is an average of V's rows
    case StepKind::Concat:
    case StepKind::Rotation:  // pairs turned: same lengths, same scale
    case StepKind::RepeatKv:  // copies
        return true;
    case StepKind::Input:
    case StepKind::RopeTable:
    case StepKind::HeadMean:
    case StepKind::Projection:
    case StepKind::Scores:
    case StepKind::Softmax:
    case StepKind::Dropout:
        return false;
    }
    return false;
}

// One colour scale per family of steps, so a colour means the same number across a step
// and the sources drawn beside it: probabilities (softmax, dropout) on 0..1 (higher only
// when dropout's 1/(1-p) lifts a survivor past 1), and signed values on one symmetric
// range per chain of steps that keep their source's scale.
void share_colour_ranges(const Trace& trace, DisplayModel& model) {
    const size_t n = model.steps.size();
    float top = 1.0f;
    for (size_t i = 0; i < n; ++i)
        if (model.steps[i].colormap == ColormapKind::Sequential) top = std::max(top, model.steps[i].data_max);
    std::vector<size_t> group(n);
    for (size_t i = 0; i < n; ++i) group[i] = i;
    const auto root = [&](size_t i) {
        while (group[i] != i) i = group[i] = group[group[i]];
        return i;
    };
    for (size_t i = 0; i < n; ++i) {
        const Step& step = trace.steps[i];
        if (model.steps[i].colormap != ColormapKind::Diverging || !keeps_source_scale(step.kind)) continue;
        for (StepId source : step.sources) {
            const int s = trace.index_of(source);
            if (s < 0 || model.steps[static_cast<size_t>(s)].colormap != ColormapKind::Diverging) continue;
            group[root(i)] = root(static_cast<size_t>(s));
        }
    }
    std::vector<float> extent(n, 1e-6f);
    for (size_t i = 0; i < n; ++i) {
        const StepDisplay& sd = model.steps[i];
        extent[root(i)] = std::max({extent[root(i)], std::fabs(sd.data_min), std::fabs(sd.data_max)});
    }
    for (size_t i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[i];
        if (sd.colormap == ColormapKind::Sequential) {
            sd.vmin = 0.0f;
            sd.vmax = top;
        } else {
            sd.vmin = -extent[root(i)];
            sd.vmax = extent[root(i)];
        }
    }
}

}  // namespace

DisplayModel build_display_model(const Trace& trace, std::vector<std::string> query_tokens,
                                 std::vector<std::string> key_tokens, int batch_item,
                                 int max_extent) {
    DisplayModel model;
    model.query_tokens = std::move(query_tokens);
    model.key_tokens = std::move(key_tokens);
    model.heads = std::max(1, trace.config.H());
    model.head_dim = std::max(1, trace.config.head_dim());
    const int batch = std::max(1, trace.config.batch);
    model.batch_item = std::clamp(batch_item, 0, batch - 1);

    // Steps are independent. They are shared out on OpenMP's threads, the same team
    // that just computed the trace: a separate std::thread would compete with those
    // threads while they still spin-wait after the forward (measured: 17-19 ms vs 11-13).
    const int n = static_cast<int>(trace.steps.size());
    model.steps.resize(static_cast<size_t>(n));
    std::vector<HeadOf> heads(static_cast<size_t>(n));
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[static_cast<size_t>(i)];
        sd = build_step(trace, i, model, max_extent, heads[static_cast<size_t>(i)]);
        const Tensor& t = trace.steps[static_cast<size_t>(i)].tensor;
        if (!t.empty() && t.rank() > 0) sd.strip = make_strip(trace, i, heads[static_cast<size_t>(i)]);
    }

    std::map<const Storage*, std::pair<int, std::string>> buffers;
    for (int i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[static_cast<size_t>(i)];
        const Step& step = trace.steps[static_cast<size_t>(i)];
        if (!step.tensor.empty() && step.tensor.rank() > 0) name_buffer(trace, i, sd.strip, buffers);
    }
    share_colour_ranges(trace, model);
    return model;
}

}  // namespace attn::gui
