#include "tools/progress.h"

#include <fmt/format.h>

#include <ostream>

namespace arbiter::tools {

Progress::Progress(std::ostream& err, size_t total, std::string unit)
        : err_(err), total_(total), unit_(std::move(unit)), start_(std::chrono::steady_clock::now()) {}

std::string clock_text(double seconds) {
    const long s = long(seconds + 0.5);
    if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

void Progress::update(size_t done) {
    if (total_ == 0) return;
    constexpr size_t Width = 30;
    const auto now = std::chrono::steady_clock::now();
    // Redrawn at most four times a second, and always at the start and the end.
    if (drawn_ && done < total_ && now - last_draw_ < std::chrono::milliseconds(250)) return;
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const size_t filled = done * Width / total_;
    const std::string eta = done == 0 ? "?" : clock_text(elapsed * double(total_ - done) / double(done));
    err_ << fmt::format("\r[{}{}] {}/{} {}  {} elapsed  ETA {}   ", std::string(filled, '#'),
                        std::string(Width - filled, '.'), done, total_, unit_, clock_text(elapsed), eta);
    err_.flush();
    drawn_ = true;
}

void Progress::finish() {
    if (drawn_) err_ << '\n';
    err_.flush();
    drawn_ = false;
}

}  // namespace arbiter::tools
