#include "app/gui/export.h"

#include <stb_image_write.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#if __has_include("app/io/trace_writer.h")
#include "app/io/trace_writer.h"
#define ATTNVIZ_HAVE_TRACE_WRITER 1
#endif

namespace attn::gui {

Status ensure_writable_dir(const std::string& dir) {
    if (dir.empty()) return Status::failure("no folder given; type a folder path");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir, ec)) {
        return Status::failure("cannot create folder '" + dir + "': " + (ec ? ec.message() : "not a folder") +
                               "; choose another folder");
    }
    const std::string probe = dir + "/.attnviz_write_test";
    {
        std::ofstream out(probe);
        if (!out) {
            return Status::failure("cannot write into folder '" + dir + "': " + std::strerror(errno) +
                                   "; choose a folder you can write to");
        }
    }
    std::filesystem::remove(probe, ec);
    return ok_status();
}

Status write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& rgba) {
    if (width <= 0 || height <= 0 || rgba.size() < static_cast<size_t>(width) * height * 4) {
        return Status::failure("nothing to write (empty image) for '" + path + "'");
    }
    if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4)) {
        return Status::failure("cannot write '" + path + "'; check the folder exists and is writable");
    }
    return ok_status();
}

std::string step_csv(const Step& step) {
    const Tensor& t = step.tensor;
    std::ostringstream out;
    out.precision(9);
    for (int d = 0; d < t.rank(); ++d) {
        const auto& names = t.dim_names();
        out << (static_cast<size_t>(d) < names.size() ? names[static_cast<size_t>(d)] : "d" + std::to_string(d)) << ",";
    }
    out << "value\n";
    if (t.empty()) return out.str();
    const std::vector<float> values = t.to_vector();
    std::vector<int64_t> idx(static_cast<size_t>(t.rank()), 0);
    for (size_t n = 0; n < values.size(); ++n) {
        for (int d = 0; d < t.rank(); ++d) out << idx[static_cast<size_t>(d)] << ",";
        out << values[n] << "\n";
        for (int d = t.rank() - 1; d >= 0; --d) {
            const auto du = static_cast<size_t>(d);
            if (++idx[du] < t.dim(d)) break;
            idx[du] = 0;
        }
    }
    return out.str();
}

Status write_step_csv(const Step& step, const std::string& path) {
    std::ofstream out(path);
    if (!out) return Status::failure("cannot write '" + path + "'; choose a writable place");
    out << step_csv(step);
    if (!out) return Status::failure("writing '" + path + "' failed (disk full?)");
    return ok_status();
}

Status write_trace_tensors(const Trace& trace, const std::string& dir) {
#ifdef ATTNVIZ_HAVE_TRACE_WRITER
    return io::write_trace_dir(trace, dir);
#else
    (void)trace;
    (void)dir;
    return Status::failure("tensor export is not available in this build (app/io/trace_writer.h missing)");
#endif
}

PngEncoderPool::~PngEncoderPool() { finish(); }

void PngEncoderPool::submit(std::string path, int width, int height, std::vector<unsigned char> rgba) {
    // Two encoders at a time: the machine has two cores and the frame loop needs one.
    if (threads_.size() >= 2) {
        threads_.front().join();
        threads_.erase(threads_.begin());
    }
    threads_.emplace_back([this, path = std::move(path), width, height, rgba = std::move(rgba)] {
        const Status s = write_png(path, width, height, rgba);
        if (!s.ok()) {
            std::lock_guard<std::mutex> lock(mutex_);
            errors_.push_back(s.error());
        }
    });
}

Status PngEncoderPool::finish() {
    for (auto& t : threads_) t.join();
    threads_.clear();
    if (!errors_.empty()) return Status::failure(errors_.front());
    return ok_status();
}

}  // namespace attn::gui
