// Tensor: an n-d float32 view onto shared storage, with named dimensions.
//
// Like a PyTorch tensor, it is (storage, offset, shape, strides). A view or a
// transpose makes a new Tensor over the *same* storage with other strides, so the
// trace can show learners that `.view()` and `.transpose()` copy nothing and that a
// transposed tensor is no longer contiguous (hence `.contiguous()` before `.view()`).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dims.h"
#include "core/storage.h"

namespace attn {

class Tensor {
public:
    Tensor() = default;
    // A fresh contiguous (C order) tensor filled with zeros.
    static Tensor zeros(std::vector<int64_t> shape, std::vector<std::string> dim_names);
    // A fresh contiguous tensor whose values the caller will write (not zeroed: for
    // results that overwrite every element).
    static Tensor uninitialized(std::vector<int64_t> shape, std::vector<std::string> dim_names);
    // A contiguous copy of `values` (size must equal the product of shape).
    static Tensor from_values(std::vector<int64_t> shape, std::vector<std::string> dim_names,
                              const std::vector<float>& values);
    // The same with dimensions given by role; their labels come from dim_label().
    // (Name-taking factories read the role off known labels, Other for the rest.)
    static Tensor uninitialized(std::vector<int64_t> shape, std::vector<DimRole> roles);

    const std::vector<int64_t>& shape() const { return shape_; }
    const std::vector<int64_t>& strides() const { return strides_; }  // in elements
    const std::vector<std::string>& dim_names() const { return dim_names_; }  // display labels
    const std::vector<DimRole>& dim_roles() const { return dim_roles_; }     // what each dimension means
    // The first dimension with this role, or -1.
    int find_dim(DimRole role) const;
    int rank() const { return static_cast<int>(shape_.size()); }
    int64_t dim(int i) const { return shape_[static_cast<size_t>(i)]; }
    int64_t numel() const;
    int64_t offset() const { return offset_; }  // first element, in storage elements
    bool empty() const { return storage_ == nullptr; }

    // True when elements are laid out densely in C order (what `.view()` needs).
    bool is_contiguous() const;
    // True when both tensors read the same storage buffer (a view, not a copy).
    bool shares_storage_with(const Tensor& other) const { return storage_ && storage_ == other.storage_; }
    const Storage* storage() const { return storage_.get(); }
    size_t storage_bytes() const { return storage_ ? storage_->size() * sizeof(float) : 0; }

    // Element access by full index (one entry per dimension).
    float at(const std::vector<int64_t>& index) const;
    // Element offset of `index` from data(): the one place strided index arithmetic lives.
    // Indices beyond rank() are ignored, missing ones count as 0.
    int64_t offset_of(const std::vector<int64_t>& index) const;
    // Element by flat index in logical C order (the order NumPy would print).
    float flat(int64_t logical_index) const;
    // Pointer to the first element; valid only for reading `storage` from offset.
    const float* data() const { return storage_ ? storage_->data() + offset_ : nullptr; }
    float* mutable_data() { return storage_ ? storage_->data() + offset_ : nullptr; }

    // Same storage, new shape. Works for contiguous tensors and for splitting dimensions
    // of strided ones; anything that would need a copy returns an empty Tensor, just as
    // torch raises "view size is not compatible with input tensor's size and stride".
    Tensor view(std::vector<int64_t> shape, std::vector<std::string> dim_names) const;
    Tensor view(std::vector<int64_t> shape, std::vector<DimRole> roles) const;
    // Same storage, two dimensions swapped (shape and strides permuted).
    Tensor transpose(int dim0, int dim1) const;
    // Same storage, dimension `dim` narrowed to [start, start + length).
    Tensor narrow(int dim, int64_t start, int64_t length) const;
    // A new contiguous copy in logical C order (or *this if already contiguous and
    // `force_copy` is false).
    Tensor contiguous(bool force_copy = false) const;
    // The values in logical C order (copies when not contiguous).
    std::vector<float> to_vector() const;

    // "(B=1, L=4, H=2, d_h=3)"
    std::string shape_string() const;
    // False when any element is NaN or +-Inf.
    bool all_finite() const;

private:
    void copy_logical(float* out) const;  // all elements in logical C order

    std::shared_ptr<Storage> storage_;
    int64_t offset_ = 0;
    std::vector<int64_t> shape_;
    std::vector<int64_t> strides_;
    std::vector<std::string> dim_names_;
    std::vector<DimRole> dim_roles_;  // one per dimension, beside the labels
};

// "(2, 3)": a shape without names, for messages.
std::string shape_text(const std::vector<int64_t>& shape);
// {"d0", "d1", ...}: placeholder names for tensors read from files.
std::vector<std::string> numbered_dim_names(size_t rank);

// Strides of a contiguous C-order tensor with this shape.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape);
// Product of `shape` that cannot overflow: false when it would exceed INT64_MAX or a
// dimension is negative. With a zero dimension the product is 0 however large the
// others are, so a caller bounding sizes must also bound the non-zero dimensions.
bool checked_shape_product(const std::vector<int64_t>& shape, int64_t& product);

}  // namespace attn
