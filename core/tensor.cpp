#include "core/tensor.h"

#include "core/dims.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

namespace attn {

bool checked_shape_product(const std::vector<int64_t>& shape, int64_t& product) {
    product = 1;
    for (int64_t d : shape)
        if (d < 0 || __builtin_mul_overflow(product, d, &product)) return false;
    return true;
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
    // A size-0 dimension counts as 1, as in PyTorch: the strides of (0, 2^31, 2^31, 2^31)
    // must not multiply 2^93 out of the other dimensions. The readers bound the non-zero
    // dimensions; should a caller not, the stride saturates instead of overflowing (UB).
    std::vector<int64_t> strides(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) {
        const auto d = static_cast<size_t>(i);
        const int64_t next = std::max<int64_t>(shape[d + 1], 1);
        if (__builtin_mul_overflow(strides[d + 1], next, &strides[d])) {
            assert(false && "shape too large for int64 strides");
            strides[d] = std::numeric_limits<int64_t>::max();
        }
    }
    return strides;
}

static int64_t product(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    [[maybe_unused]] const bool fits = checked_shape_product(shape, n);
    assert(fits && "tensor shape overflows int64");
    return n;
}

Tensor Tensor::zeros(std::vector<int64_t> shape, std::vector<std::string> dim_names) {
    Tensor t = uninitialized(std::move(shape), std::move(dim_names));
    std::fill(t.storage_->begin(), t.storage_->end(), 0.0f);
    return t;
}

Tensor Tensor::uninitialized(std::vector<int64_t> shape, std::vector<std::string> dim_names) {
    assert(dim_names.size() == shape.size() && "one name per dimension");
    Tensor t;
    t.storage_ = std::make_shared<Storage>(static_cast<size_t>(product(shape)));  // default-initialised floats
    t.strides_ = contiguous_strides(shape);
    t.shape_ = std::move(shape);
    t.dim_names_ = std::move(dim_names);
    for (const std::string& name : t.dim_names_) t.dim_roles_.push_back(dim_role_of_label(name));
    return t;
}

Tensor Tensor::uninitialized(std::vector<int64_t> shape, std::vector<DimRole> roles) {
    Tensor t = uninitialized(std::move(shape), dim_labels(roles));
    t.dim_roles_ = std::move(roles);
    return t;
}

int Tensor::find_dim(DimRole role) const {
    for (size_t i = 0; i < dim_roles_.size(); ++i)
        if (dim_roles_[i] == role) return static_cast<int>(i);
    return -1;
}

Tensor Tensor::from_values(std::vector<int64_t> shape, std::vector<std::string> dim_names,
                           const std::vector<float>& values) {
    assert(static_cast<int64_t>(values.size()) == product(shape) && "values must fill the shape");
    Tensor t = uninitialized(std::move(shape), std::move(dim_names));
    std::copy(values.begin(), values.end(), t.storage_->begin());
    return t;
}

int64_t Tensor::numel() const { return empty() ? 0 : product(shape_); }

bool Tensor::is_contiguous() const {
    // Dimensions of size 1 may have any stride, as in PyTorch; a tensor without
    // elements is contiguous (and its other sizes must not be multiplied out).
    if (numel() == 0) return true;
    int64_t expected = 1;
    for (int i = rank() - 1; i >= 0; --i) {
        const auto d = static_cast<size_t>(i);
        if (shape_[d] != 1 && strides_[d] != expected) return false;
        expected *= shape_[d];
    }
    return true;
}

int64_t Tensor::offset_of(const std::vector<int64_t>& index) const {
    int64_t pos = 0;
    for (size_t d = 0; d < index.size() && d < strides_.size(); ++d) pos += index[d] * strides_[d];
    return pos;
}

float Tensor::at(const std::vector<int64_t>& index) const {
    assert(static_cast<int>(index.size()) == rank() && "one index per dimension");
    return (*storage_)[static_cast<size_t>(offset_ + offset_of(index))];
}

float Tensor::flat(int64_t logical_index) const {
    int64_t pos = offset_;
    for (int i = rank() - 1; i >= 0; --i) {
        const auto d = static_cast<size_t>(i);
        pos += (logical_index % shape_[d]) * strides_[d];
        logical_index /= shape_[d];
    }
    return (*storage_)[static_cast<size_t>(pos)];
}

// A view exists when the new shape can be read with strides alone. Two cases are
// enough for attention: any reshape of a contiguous tensor, and splitting dimensions
// of a strided one (e.g. E -> (H, d_h) on a slice of a fused QKV buffer), which is
// always possible because each piece just inherits a multiple of the old stride.
Tensor Tensor::view(std::vector<int64_t> shape, std::vector<std::string> dim_names) const {
    if (empty() || product(shape) != numel()) return Tensor();
    Tensor t = *this;
    if (is_contiguous()) {
        t.strides_ = contiguous_strides(shape);
    } else {
        std::vector<int64_t> strides(shape.size());
        size_t next = 0;
        for (size_t d = 0; d < shape_.size(); ++d) {
            // Consume new dimensions until their product equals old dimension d.
            int64_t covered = 1;
            const size_t first = next;
            if (next == shape.size()) return Tensor();
            do covered *= shape[next++];  // at least one, so size-1 dimensions pair up too
            while (next < shape.size() && covered < shape_[d]);
            if (covered != shape_[d]) return Tensor();  // would merge dimensions: needs a copy
            int64_t stride = strides_[d];
            for (size_t k = next; k-- > first;) {
                strides[k] = stride;
                stride *= shape[k];
            }
        }
        for (; next < shape.size(); ++next) {  // trailing size-1 dimensions
            if (shape[next] != 1) return Tensor();
            strides[next] = 1;
        }
        t.strides_ = std::move(strides);
    }
    t.shape_ = std::move(shape);
    t.dim_names_ = std::move(dim_names);
    t.dim_roles_.clear();
    for (const std::string& name : t.dim_names_) t.dim_roles_.push_back(dim_role_of_label(name));
    return t;
}

Tensor Tensor::view(std::vector<int64_t> shape, std::vector<DimRole> roles) const {
    Tensor t = view(std::move(shape), dim_labels(roles));
    if (!t.empty()) t.dim_roles_ = std::move(roles);
    return t;
}

Tensor Tensor::transpose(int dim0, int dim1) const {
    Tensor t = *this;
    std::swap(t.shape_[static_cast<size_t>(dim0)], t.shape_[static_cast<size_t>(dim1)]);
    std::swap(t.strides_[static_cast<size_t>(dim0)], t.strides_[static_cast<size_t>(dim1)]);
    std::swap(t.dim_names_[static_cast<size_t>(dim0)], t.dim_names_[static_cast<size_t>(dim1)]);
    std::swap(t.dim_roles_[static_cast<size_t>(dim0)], t.dim_roles_[static_cast<size_t>(dim1)]);
    return t;
}

Tensor Tensor::narrow(int dim, int64_t start, int64_t length) const {
    Tensor t = *this;
    t.offset_ += start * strides_[static_cast<size_t>(dim)];
    t.shape_[static_cast<size_t>(dim)] = length;
    return t;
}

void Tensor::copy_logical(float* out) const {
    const int64_t n = numel();
    if (is_contiguous()) {
        std::copy(data(), data() + n, out);
        return;
    }
    // Walk the logical index like an odometer instead of dividing per element; when
    // the last dimension is unit-stride (every view in attention), copy whole rows.
    const int64_t row = !strides_.empty() && strides_.back() == 1 ? shape_.back() : 1;
    const int outer_rank = row > 1 ? rank() - 1 : rank();
    std::vector<int64_t> index(static_cast<size_t>(rank()), 0);
    int64_t pos = offset_;
    for (int64_t i = 0; i < n; i += row) {
        std::copy_n(storage_->data() + pos, row, out + i);
        for (int d = outer_rank - 1; d >= 0; --d) {
            const auto u = static_cast<size_t>(d);
            pos += strides_[u];
            if (++index[u] < shape_[u]) break;
            pos -= strides_[u] * shape_[u];
            index[u] = 0;
        }
    }
}

std::vector<float> Tensor::to_vector() const {
    std::vector<float> out(static_cast<size_t>(numel()));
    if (!empty()) copy_logical(out.data());
    return out;
}

Tensor Tensor::contiguous(bool force_copy) const {
    if (is_contiguous() && !force_copy) return *this;
    Tensor t = uninitialized(shape_, dim_names_);
    t.dim_roles_ = dim_roles_;
    copy_logical(t.storage_->data());
    return t;
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + ")";
}

std::vector<std::string> numbered_dim_names(size_t rank) {
    std::vector<std::string> names;
    for (size_t i = 0; i < rank; ++i) names.push_back("d" + std::to_string(i));
    return names;
}

bool Tensor::all_finite() const {
    if (is_contiguous()) return attn::all_finite(data(), numel());
    const std::vector<float> values = to_vector();
    return attn::all_finite(values.data(), static_cast<Eigen::Index>(values.size()));
}

std::string Tensor::shape_string() const {
    std::ostringstream out;
    out << '(';
    for (int i = 0; i < rank(); ++i) {
        if (i) out << ", ";
        out << dim_names_[static_cast<size_t>(i)] << '=' << shape_[static_cast<size_t>(i)];
    }
    out << ')';
    return out.str();
}

}  // namespace attn
