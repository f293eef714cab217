// DisplayModel: what the canvas needs to draw a Trace, prepared once per trace on the
// compute worker (never per frame): every step cut into 2-D panels, reduced to display
// resolution, with colour ranges, axis meaning and a picture of the storage buffer.
// Pure data: no GL, no ImGui. Driven only by Step.kind, shapes, strides and dim_names.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/display/panel_pixels.h"  // pool_max_abs
#include "app/gui/display/weight_focus.h"
#include "core/trace.h"

namespace attn::gui {

// How the panels of one step sit on the canvas.
enum class Arrangement {
    Single,        // one matrix, e.g. out (L, E)
    ColumnGroups,  // heads side by side, e.g. q_split (L, H, d_h): H panels of (L, d_h)
    Grid,          // small multiples, e.g. attn_weights (H, L, S): H panels of (L, S)
};

// Which labels an axis gets.
// What an axis's labels are: the query or key tokens, the model's vocabulary words (the
// next-word distribution's columns), or plain indices.
enum class AxisLabels { QueryTokens, KeyTokens, Vocabulary, Indices };

// One 2-D slice of a step's tensor.
struct Panel {
    int head = -1;            // head colour, -1 when the slice belongs to no head
    std::string label;        // "q h0" for a fused QKV group; "" = "head <head>"
    int rows = 0, cols = 0;   // logical cells
    int tex_rows = 0, tex_cols = 0;  // size of `values` after reduction (<= rows, cols)
    std::vector<float> values;       // (tex_rows, tex_cols) row-major; max-|v| pooled. -inf is a
                                     // masked score; +inf marks a probability that is exactly 0
                                     // because its key was masked (drawn faintly hatched)
    // Where cell (r, c) lives in the tensor: full index = `origin` with
    // index[row_dim] += r and index[col_dim] += c (col_dim may be -1 for rank-1 slices).
    std::vector<int64_t> origin;
    int row_dim = -1, col_dim = -1;
};

// The storage buffer under a tensor, drawn as a 1-D strip.
struct StorageStrip {
    int buffer_id = 0;               // 1, 2, ...: same id = same storage (a view)
    int64_t storage_elements = 0;    // floats in the buffer (all batch items)
    std::vector<int8_t> bins;        // per bin: head id, -1 = not part of this tensor, -2 = no head,
                                     // -3 = several heads (too fine to show at this size)
    std::vector<int64_t> first_positions;  // storage positions of the first logical elements
    std::vector<int64_t> strides;    // in elements
    int64_t offset = 0;
    bool contiguous = true;
    std::string shares_with;         // earlier step with the same buffer ("" = own buffer)
};

struct StepDisplay {
    int step = -1;                   // index into Trace::steps
    // False until the pixels are made (panels, weight panels, the strip's picture): a
    // model is first built for the step on screen only (see build_display_model). The
    // axes, arrangement and buffer id are set for every step from the start; the ranges
    // (data_min .. vmax) when `ranged`.
    bool built = false;
    // True once data_min, data_max and the masked counts are read from the values: at first
    // only for the steps that share a colour scale with the built ones (colour_ranges.h).
    bool ranged = false;
    Arrangement arrangement = Arrangement::Single;
    bool joined = false;             // ColumnGroups drawn without gaps (a plain (L, E) matrix)
    std::vector<Panel> panels;
    std::string row_name, col_name;  // "L", "d_h"
    AxisLabels row_labels = AxisLabels::Indices, col_labels = AxisLabels::Indices;
    ColormapKind colormap = ColormapKind::Diverging;
    float vmin = -1, vmax = 1;       // colour range, shared (see share_colour_ranges): probabilities
                                     // 0..1 (or more after dropout's rescale), signed values one
                                     // symmetric range per chain of steps that keep their source's scale
    float data_min = 0, data_max = 0;  // finite values actually present
    int64_t masked_cells = 0;        // -inf cells in the shown batch item
    int64_t masked_zero_cells = 0;   // probabilities that are 0 because their key was masked
    int from_step = -1;              // the step this one animates from (its first source)
    // Projection steps only: W^T (in, cols) and b (1, cols) cut into the same column
    // groups as `panels` (see projection.h), with their own symmetric colour range.
    std::vector<Panel> weight_panels, bias_panels;
    float weight_vmin = -1, weight_vmax = 1;
    StorageStrip strip;
    bool stretched = false;          // probabilities drawn on 0..their own maximum (ColourScale)
    // Compare mode's A − B (compare_difference.h) holds only float32 rounding here: the
    // colour range is that rounding's size, so noise such as 6e-8 stays pale.
    bool rounding_only = false;
    // Weight steps only (attention weights, after dropout): how peaked each row is, per
    // head, for the shown batch item (weight_focus.h); set when the step is built.
    std::vector<HeadFocus> focus;
    // Trained models: a few lines under the canvas (step_notes.h): why repeated words differ,
    // what the model predicts. Empty for most steps.
    std::vector<std::string> notes;
};

// How colours map to numbers; the View menu's choices, kept in the settings.
struct ColourScale {
    // Probabilities on 0..(largest value of this step) instead of the honest 0..1: shows
    // small differences, but near-uniform rows then look confident. Labelled "stretched".
    bool stretch_probabilities = false;
    // One range for every step of a colormap instead of one per chain of steps, so any
    // change of magnitude between steps (a projection, the sqrt(d_h) division, dropout's
    // 1/(1-p)) shows as a change of colour.
    bool one_scale_across_steps = false;
    // The trace holds |x - x_fp32| (fp32_difference.h): every step on its own 0..max scale.
    // Asked for by View > Difference from float32; the worker makes such a trace only when
    // the configuration computes in bfloat16 or float16.
    bool difference_from_float32 = false;
    bool operator==(const ColourScale& o) const {
        return stretch_probabilities == o.stretch_probabilities && one_scale_across_steps == o.one_scale_across_steps &&
               difference_from_float32 == o.difference_from_float32;
    }
};

struct DisplayModel {
    std::vector<StepDisplay> steps;  // same order as Trace::steps
    std::vector<std::string> query_tokens, key_tokens;
    std::vector<std::string> vocabulary;  // a trained model's words, by id ("" for random weights)
    ScriptForms script_forms;             // the model card's tokens per script (text/token_script.h)
    int batch_item = 0;
    ColourScale colour_scale;        // the choice the ranges were made with
    int heads = 1;
    int head_dim = 1;
    int max_extent = 512;            // panel texture side limit it was built with
    // Compare mode's A − B (compare_difference.h): signed, each step on its own symmetric scale.
    bool signed_difference = false;
    // True when every step is built (complete_display_model has nothing left to do).
    bool complete() const;
    // `token` (a row, column or vocabulary label) as drawn in the language in use: a
    // two-script model's token in that language's script.
    const std::string& shown_token(const std::string& token) const;
};

// Builds every step when `focus_step` is kAllSteps.
constexpr int kAllSteps = -1;

// Largest side of a panel texture before pooling, chosen from the panel count so the
// whole step stays near display resolution.
int panel_texture_cap(int panel_count, int max_extent);

// Cuts every step into panels for `batch_item` (clamped to the batch). `max_extent`
// bounds a panel texture side (e.g. 512); larger slices are max-|v| pooled. With a
// `focus_step`, only that step and the steps it reads are built (a setting change
// redraws sooner), and only the steps whose colour scale they share are read for their
// ranges (colour_ranges.h): a built step's colours are final, so completing the model
// later changes nothing that is already built. Every step gets its axes and buffer id.
// `scale` chooses the colour ranges (see ColourScale).
DisplayModel build_display_model(const Trace& trace, std::vector<std::string> query_tokens,
                                 std::vector<std::string> key_tokens, int batch_item,
                                 int max_extent = 512, int focus_step = kAllSteps, ColourScale scale = {});
// Builds the steps that are not built yet, one at a time, stopping early (false) when
// `cancelled` says so between steps (a newer trace is on its way); then gives the steps
// that had none their colour ranges.
bool complete_display_model(const Trace& trace, DisplayModel& model,
                            const std::function<bool()>& cancelled = {});

// Full tensor index of cell (row, col) of `panel`.
std::vector<int64_t> cell_index(const Panel& panel, int row, int col);
// The exact value of that cell, read from the tensor (not the pooled texture).
float cell_value(const Tensor& tensor, const Panel& panel, int row, int col);

// Picture texels per cell side when a panel is coloured (gl/colorizer.h): 1, or up to 16
// for a small panel with masked (+-inf) cells, so the shader can draw the hatching inside
// each cell while the picture stays within 512 texels a side.
int bake_cell_px(const Panel& panel);

// True when the colormap for this kind of step is sequential (probabilities).
bool is_probability_step(StepKind kind);

}  // namespace attn::gui
