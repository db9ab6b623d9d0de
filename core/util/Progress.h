// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace bpu {

/// Thrown by long-running core work when its cancel flag is raised.
class Cancelled : public std::runtime_error {
public:
    Cancelled()
        : std::runtime_error("cancelled") {}
};

/// Progress sink and stop flag handed to long core work; both optional. The callback may be called from
/// a worker thread: the GUI forwards it with a queued signal.
struct Progress {
    std::function<void(double fraction, std::string_view stage)> report;
    const std::atomic<bool>* cancel = nullptr;

    void operator()(double fraction, std::string_view stage) const {
        if (report)
            report(fraction, stage);
    }
    void checkCancel() const {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw Cancelled();
    }
};

} // namespace bpu
