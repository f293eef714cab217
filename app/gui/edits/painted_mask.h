// PaintedMask: the (L, S) boolean mask the user paints on the canvas's score and weight
// steps (one query/key cell, a query row or a key column per click). It is part of the
// configuration through the core's one mask path: make_request merges it into the
// request's AttentionConfig::mask_file (boolean, True = masked out) with the label
// painted_mask_label(), so presets, the fill rule, the manifest and the fully-masked-row
// flag treat it like a --mask-file. Pure data: no GL, no ImGui.
#pragma once

#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/message.h"

namespace attn::gui {

// The manifest's mask_file entry for a painted mask alone ("painted in the window"), and
// after a file's path or "mask file" ("pad.npy + painted in the window"). The manifest
// keeps English words: mask_file_path holds english() of these.
Message painted_mask_label();
Message file_and_painted_label(const std::string& file_path);

// Where the configuration's mask file came from, for the window: the label of a painted
// mask or a recipe's key pattern in the language in use, else the file's path as it is.
Message mask_file_label(const AttentionConfig& config);

// What one click paints.
enum class PaintReach {
    Cell,    // the (query, key) cell under the mouse
    Row,     // every key of that query
    Column,  // that key for every query
};

struct PaintedMask {
    int rows = 0, cols = 0;        // L, S when last painted (a size change keeps the overlap)
    std::vector<uint8_t> cells;    // (rows, cols) row-major, 1 = masked out
    bool any() const;
    int count() const;             // masked cells
    // 1 when cell (i, j) is painted; 0 outside the painted area.
    bool at(int i, int j) const;
    bool operator==(const PaintedMask& o) const { return rows == o.rows && cols == o.cols && cells == o.cells; }
};

// The same cells within an (L, S) frame: cells outside it are dropped, new ones unmasked.
PaintedMask fitted(const PaintedMask& mask, int L, int S);

// One click at query `row`, key `col` of an (L, S) map. A cell flips; a row or column is
// masked unless all of it already is, in which case it is unmasked (so a second click
// undoes the first). Out-of-range clicks change nothing. Returns true when a cell changed.
bool paint(PaintedMask& mask, int L, int S, int row, int col, PaintReach reach);

// Why painting cannot be used with this configuration (empty when it can): a float
// --mask-file (its addends and a boolean paint are different kinds of mask).
Message painting_blocked(const AttentionConfig& config);

// Merges the painted cells (fitted to config's L and S) into config.mask_file: alone as
// an (L, S) boolean mask, or OR-ed with a boolean file (broadcast to (B_f, H_f, L, S),
// where B_f and H_f are the file's own batch and head sizes). The label in
// mask_file_path says where it came from. Nothing changes when no cell is painted or
// painting is blocked.
void merge_painted_mask(AttentionConfig& config, const PaintedMask& painted);

// True when `config`'s mask file holds painted cells (its mask_file_path is one of the
// labels merge_painted_mask writes).
bool has_painted_part(const AttentionConfig& config);

// The two parts a painted boolean mask is merged from, as the session holds them: the
// mask file of its configuration (before the merge; empty: none) and the painted cells.
struct MaskOrigins {
    const AttentionConfig* config = nullptr;
    const PaintedMask* painted = nullptr;
};
// Which part hides cell (b, h, i, j) of the mask of a trace computed with `trace_config`:
// the file (broadcast to the trace's (B, H, L, S) as the core reads it), the painted
// cells, or both. Both false when that mask has no painted part or `origins` is empty.
struct MaskedBy {
    bool file = false;
    bool painted = false;
};
MaskedBy masked_by(const MaskOrigins& origins, const AttentionConfig& trace_config, int64_t b, int64_t h, int64_t i, int64_t j);

}  // namespace attn::gui
