// The storage strip's picture: which head each part of a step's buffer belongs to,
// and which buffer (numbered in trace order) a step's tensor lives in.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/display/display_model.h"

namespace attn::gui {

// Head of the element at a full tensor index (or -2 when the tensor has no heads).
struct HeadOf {
    int h_dim = -1;        // tensor dimension holding the head
    int group_dim = -1;    // or: the column dimension grouped by d_h
    int head_dim = 1, heads = 1;
    // The dimension the head is read from (-1: none).
    int dim() const { return h_dim >= 0 ? h_dim : group_dim; }
    // The head of index `i` along dim().
    int at(int64_t i) const { return static_cast<int>(h_dim >= 0 ? i : (i / head_dim) % heads); }
    int operator()(const std::vector<int64_t>& idx) const {
        return dim() >= 0 ? at(idx[static_cast<size_t>(dim())]) : -2;
    }
};

// Numbers each distinct storage buffer in trace order and notes which earlier step a
// view shares its buffer with. Sequential: ids depend on the order of first use.
void name_buffer(const Trace& trace, int index, StorageStrip& strip,
                 std::map<const Storage*, std::pair<int, std::string>>& buffers);

// The strip's picture for step `index` (buffer id and sharing are left to name_buffer).
// Independent per step, so it runs on the worker threads with the panels.
StorageStrip make_strip(const Trace& trace, int index, const HeadOf& head_of);

}  // namespace attn::gui
