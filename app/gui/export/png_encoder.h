// PngEncoderPool: encodes PNG files on background threads (encoding is slow: seconds for
// large images), so neither the frame loop nor an export waits on it. `submit` never
// blocks; a caller that makes images faster than they are encoded checks `has_room()`
// (the window, between frames) or calls `wait_for_room()` (the command line) first, so
// at most about two images per encoder are held in memory.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "core/message.h"
#include <vector>

#include "core/result.h"

namespace attn::gui {

class PngEncoderPool {
public:
    // Encoders for a caller that has nothing else to do meanwhile: one per core.
    static unsigned all_cores();
    // Encoders beside a frame loop: one core stays with the window (and llvmpipe).
    static unsigned beside_frame_loop();

    explicit PngEncoderPool(unsigned threads = all_cores());
    ~PngEncoderPool();  // waits for every queued image
    PngEncoderPool(const PngEncoderPool&) = delete;
    PngEncoderPool& operator=(const PngEncoderPool&) = delete;

    // Queues an RGBA8 image (top row first) to be written to `path`; returns at once.
    void submit(std::string path, int width, int height, std::vector<unsigned char> rgba);
    // True while fewer images wait than there are encoders (submitting adds no backlog).
    bool has_room() const;
    // True when every image is written (finish() then returns at once).
    bool idle() const;
    // Blocks until has_room().
    void wait_for_room();
    // Waits for all images; returns the first failure (or ok).
    Status finish();

private:
    struct Job {
        std::string path;
        int width = 0, height = 0;
        std::vector<unsigned char> rgba;
    };
    void encode_loop();
    mutable std::mutex mutex_;
    std::condition_variable work_;  // encoders: a job or stop
    std::condition_variable done_;  // callers: a job finished
    std::deque<Job> queue_;
    int busy_ = 0;                  // jobs being encoded
    bool stop_ = false;
    std::vector<Message> errors_;
    std::vector<std::thread> threads_;
};

}  // namespace attn::gui
