// SPDX-License-Identifier: MIT
#include "JobTracker.h"

#include <algorithm>

namespace bpu::ui {

Progress JobTicket::progress(std::function<void(double, std::string_view)> report) const {
    Progress p;
    p.cancel = cancel_.get();
    p.report = std::move(report);
    return p;
}

JobTracker::~JobTracker() {
    for (const auto& lane : live_)
        for (const auto& f : lane)
            f->store(true);
}

JobTicket JobTracker::begin(JobLane lane) {
    const size_t l = size_t(lane);
    for (const auto& f : live_[l])
        f->store(true);
    JobTicket t;
    t.lane_ = lane;
    t.id_ = ++next_;
    t.cancel_ = std::make_shared<std::atomic<bool>>(false);
    newest_[l] = t.id_;
    live_[l].push_back(t.cancel_);
    if (running_[l]++ == 0)
        emit laneBusyChanged(lane, true);
    return t;
}

bool JobTracker::finish(const JobTicket& t, JobOutcome outcome) {
    if (!t.valid())
        return false;
    const size_t l = size_t(t.lane_);
    auto& live = live_[l];
    const auto it = std::find(live.begin(), live.end(), t.cancel_);
    if (it == live.end())
        return false; // finished twice
    live.erase(it);
    const bool current = newest_[l] == t.id_;
    emit jobFinished(t.lane_, outcome);
    if (--running_[l] == 0)
        emit laneBusyChanged(t.lane_, false);
    if (isShown())
        emit shown();
    if (isSettled())
        emit settled();
    return current;
}

void JobTracker::cancel(JobLane lane) {
    for (const auto& f : live_[size_t(lane)])
        f->store(true);
}

bool JobTracker::isCurrent(const JobTicket& t) const {
    return t.valid() && newest_[size_t(t.lane_)] == t.id_;
}

bool JobTracker::isSettled() const {
    return std::all_of(running_.begin(), running_.end(), [](int n) { return n == 0; });
}

bool JobTracker::isShown() const {
    for (size_t l = 0; l < running_.size(); ++l)
        if (running_[l] > 0 && JobLane(l) != JobLane::Sweep)
            return false;
    return true;
}

} // namespace bpu::ui
