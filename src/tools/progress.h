#pragma once
// A progress bar on standard error for the long-running tools: items done, elapsed
// time and the estimated time left, redrawn in place.

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace arbiter::tools {

class Progress {
public:
    Progress(std::ostream& err, size_t total, std::string unit);
    void update(size_t done);
    // Ends the bar's line.
    void finish();

private:
    std::ostream& err_;
    size_t total_;
    std::string unit_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
    bool drawn_ = false;
};

// Seconds as m:ss, or h:mm:ss from an hour on.
std::string clock_text(double seconds);

}  // namespace arbiter::tools
