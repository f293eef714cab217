#include "app/gui/export/png_encoder.h"

#include <algorithm>

#include "app/gui/compute/own_threads.h"
#include "app/gui/export/export.h"

namespace attn::gui {

unsigned PngEncoderPool::all_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

unsigned PngEncoderPool::beside_frame_loop() { return std::max(1u, std::thread::hardware_concurrency() - 1); }

PngEncoderPool::PngEncoderPool(unsigned threads) {
    if (!kOwnThreads) return;  // submit() encodes at once (own_threads.h)
    for (unsigned i = 0; i < std::max(1u, threads); ++i) threads_.emplace_back([this] { encode_loop(); });
}

PngEncoderPool::~PngEncoderPool() {
    finish();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    work_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void PngEncoderPool::submit(std::string path, int width, int height, std::vector<unsigned char> rgba) {
    if (threads_.empty()) {
        const Status s = write_png(path, width, height, rgba);
        std::lock_guard<std::mutex> lock(mutex_);
        if (!s.ok()) errors_.push_back(s.message());
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(Job{std::move(path), width, height, std::move(rgba)});
    }
    work_.notify_one();
}

bool PngEncoderPool::has_room() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size() < std::max<size_t>(1, threads_.size());
}

bool PngEncoderPool::idle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.empty() && busy_ == 0;
}

void PngEncoderPool::wait_for_room() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.size() < std::max<size_t>(1, threads_.size()); });
}

Status PngEncoderPool::finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return queue_.empty() && busy_ == 0; });
    if (!errors_.empty()) return Status::failure(errors_.front());
    return ok_status();
}

void PngEncoderPool::encode_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        Job job = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
        lock.unlock();
        const Status s = write_png(job.path, job.width, job.height, job.rgba);
        job.rgba = {};  // give the image's memory back before waiting for the next
        lock.lock();
        if (!s.ok()) errors_.push_back(s.message());
        --busy_;
        done_.notify_all();
    }
}

}  // namespace attn::gui
