// SPDX-License-Identifier: MIT
#include "NameIndex.h"

#include <functional>

namespace bpu {

uint32_t NameIndex::hashOf(std::string_view name) {
    const std::size_t h = std::hash<std::string_view>{}(name);
    // Both halves of the 64-bit hash: the low bits pick the slot, the whole 32 tell names apart in a probe.
    return static_cast<uint32_t>(h ^ (h >> 32));
}

void NameIndex::reserve(std::size_t count) {
    std::size_t slots = kMinSlots;
    while (slots < count * 2)
        slots *= 2;
    if (slots > slots_.size())
        rehash(slots);
}

void NameIndex::rehash(std::size_t slots) {
    std::vector<Slot> old(slots, Slot{});
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (s.position == kNone)
            continue;
        std::size_t i = s.hash & mask;
        while (slots_[i].position != kNone)
            i = (i + 1) & mask;
        slots_[i] = s;
    }
}

} // namespace bpu
