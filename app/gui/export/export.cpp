#include "app/gui/export/export.h"

#include <stb_image_write.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <algorithm>
#include <random>

#include "app/io/trace_writer.h"

namespace attn::gui {

Status ensure_writable_dir(const std::string& dir) {
    if (dir.empty()) return Status::failure(Message("export.no_folder"));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir, ec)) {
        return Status::failure(Message("export.cannot_create_folder",
                                       {{"folder", dir}, {"reason", ec ? Message::plain(ec.message()) : Message("export.not_a_folder")}}));
    }
    const std::string probe = dir + "/.attnviz_write_test";
    {
        std::ofstream out(probe);
        if (!out) {
            return Status::failure(Message("export.cannot_write_folder", {{"folder", dir}, {"reason", std::strerror(errno)}}));
        }
    }
    std::filesystem::remove(probe, ec);
    return ok_status();
}

Status write_file_atomic(const std::string& path, const std::string& bytes) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(std::random_device{}()));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return Status::failure(Message("export.cannot_write_file", {{"path", path}, {"reason", std::strerror(errno)}}));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            fs::remove(temp, ec);
            return Status::failure(Message("export.write_failed", {{"path", path}}));
        }
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        return Status::failure(Message("export.cannot_replace", {{"path", path}, {"reason", ec.message()}}));
    }
    return ok_status();
}

Status write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    if (width <= 0 || height <= 0 || rgba.size() < static_cast<size_t>(width) * height * 4) {
        return Status::failure(Message("export.empty_image", {{"path", path}}));
    }
    std::string encoded;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &encoded, width, height, 4, rgba.data(), width * 4) || encoded.empty()) {
        return Status::failure(Message("export.encode_failed", {{"path", path}}));

    }
    return write_file_atomic(path, encoded);
}

namespace {

// The label of entry `i` of an axis with this role: its token on query and key axes, else i.
std::string axis_entry(DimRole role, int64_t i, const TokenLabels& tokens) {
    const std::vector<std::string>* list =
        role == DimRole::QueryPos ? &tokens.query : (role == DimRole::KeyPos ? &tokens.key : nullptr);
    if (list && i >= 0 && static_cast<size_t>(i) < list->size()) return (*list)[static_cast<size_t>(i)];
    return std::to_string(i);
}

// A CSV field: quoted when it holds a comma, quote or line break (RFC 4180).
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

DimRole role_of(const Tensor& t, int d) {
    const auto& roles = t.dim_roles();
    return static_cast<size_t>(d) < roles.size() ? roles[static_cast<size_t>(d)] : DimRole::Other;
}

std::string dim_name(const Tensor& t, int d) {
    const auto& names = t.dim_names();
    return static_cast<size_t>(d) < names.size() && !names[static_cast<size_t>(d)].empty() ? names[static_cast<size_t>(d)]
                                                                                           : "d" + std::to_string(d);
}

}  // namespace

std::string step_csv(const Step& step, const TokenLabels& tokens) {
    const Tensor& t = step.tensor;
    std::ostringstream out;
    out.precision(9);
    out << "# " << step.name() << " " << t.shape_string() << "\n";
    if (t.empty() || t.rank() == 0) return out.str();
    const std::vector<float> values = t.to_vector();  // row-major over the shape
    const int rank = t.rank();
    // A vector is one row; otherwise the last two dims are the rows and columns of each block.
    const int row_dim = rank >= 2 ? rank - 2 : -1;
    const int col_dim = rank - 1;
    const int64_t rows = row_dim >= 0 ? t.dim(row_dim) : 1;
    const int64_t cols = t.dim(col_dim);
    const int64_t blocks = static_cast<int64_t>(values.size()) / std::max<int64_t>(1, rows * cols);
    const std::string corner = (row_dim >= 0 ? dim_name(t, row_dim) : std::string()) + "\\" + dim_name(t, col_dim);
    for (int64_t b = 0; b < blocks; ++b) {
        if (rank > 2) {
            // Which block: the leading indices, last one fastest.
            std::string label;
            int64_t rest = b;
            std::vector<int64_t> idx(static_cast<size_t>(rank - 2));
            for (int d = rank - 3; d >= 0; --d) {
                idx[static_cast<size_t>(d)] = rest % t.dim(d);
                rest /= t.dim(d);
            }
            for (int d = 0; d < rank - 2; ++d) label += (d ? ", " : "") + dim_name(t, d) + "=" + std::to_string(idx[static_cast<size_t>(d)]);
            out << (b ? "\n" : "") << "# " << label << "\n";
        }
        out << csv_field(corner);
        for (int64_t j = 0; j < cols; ++j) out << "," << csv_field(axis_entry(role_of(t, col_dim), j, tokens));
        out << "\n";
        for (int64_t i = 0; i < rows; ++i) {
            out << csv_field(row_dim >= 0 ? axis_entry(role_of(t, row_dim), i, tokens) : std::string());
            for (int64_t j = 0; j < cols; ++j) out << "," << values[static_cast<size_t>((b * rows + i) * cols + j)];
            out << "\n";
        }
    }
    return out.str();
}

Status write_step_csv(const Step& step, const std::string& path, const TokenLabels& tokens) {
    return write_file_atomic(path, step_csv(step, tokens));
}

Status write_trace_tensors(const Trace& trace, const std::string& dir, const TokenLabels& tokens) {
    io::TraceExtras extras;
    extras.weights = true;
    extras.query_tokens = tokens.query;
    extras.key_tokens = tokens.key;
    return io::write_trace_dir(trace, dir, &extras);
}

}  // namespace attn::gui
