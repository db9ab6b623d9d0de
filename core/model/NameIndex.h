// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace bpu {

/// Name -> position for a table that keeps the names itself (the graph's nodes and tensors): open addressing
/// over 8-byte (hash, position) slots; the names are not copied. A std::unordered_map<std::string, Id> held a
/// heap node and a second copy of every name, and each insert walked into them: at 100k nodes those cache
/// misses were the largest part of the import's growth beyond 10x of the 10k import. Here inserting a new
/// name touches only the slot array, and a lookup reads one name, that of the slot whose hash matches.
/// Copying is a copy of the slots: a copied graph's index stays right, since it holds positions, not
/// pointers. Names are never removed or renamed in place (an edit that changes the structure builds a new
/// graph).
class NameIndex {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    /// Room for `count` names without growing.
    void reserve(std::size_t count);
    /// The position stored under `name`, or kNone; `nameOf(p)` is the table's name at position p.
    template <typename NameOf> uint32_t find(std::string_view name, const NameOf& nameOf) const {
        if (slots_.empty())
            return kNone;
        const uint32_t h = hashOf(name);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            const Slot& s = slots_[i];
            if (s.position == kNone)
                return kNone;
            if (s.hash == h && nameOf(s.position) == name)
                return s.position;
        }
    }
    /// Stores `position` under `name` unless the name is there; returns the position stored under it (the
    /// existing one, or `position`). `nameOf` is asked only about positions already stored.
    template <typename NameOf>
    uint32_t insert(std::string_view name, uint32_t position, const NameOf& nameOf) {
        if ((size_ + 1) * 2 > slots_.size())
            rehash(slots_.empty() ? kMinSlots : slots_.size() * 2);
        const uint32_t h = hashOf(name);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& s = slots_[i];
            if (s.position == kNone) {
                s = Slot{h, position};
                ++size_;
                return position;
            }
            if (s.hash == h && nameOf(s.position) == name)
                return s.position;
        }
    }
    std::size_t size() const { return size_; }

private:
    struct Slot {
        uint32_t hash = 0;
        uint32_t position = kNone;
    };
    static constexpr std::size_t kMinSlots = 16;

    static uint32_t hashOf(std::string_view name);
    /// Moves the slots into a table of `slots` (a power of two); the stored hashes place them, no name is
    /// read.
    void rehash(std::size_t slots);

    std::vector<Slot> slots_; ///< a power of two in size, at most half full: probes stay short
    std::size_t size_ = 0;
};

} // namespace bpu
