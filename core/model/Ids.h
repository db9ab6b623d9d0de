// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>

namespace bpu {

/// Strongly typed index into one of the graph's tables, so a node id cannot be passed where a tensor id is meant.
template <typename Tag>
struct Id {
    static constexpr uint32_t kInvalid = 0xffffffffu;
    uint32_t value = kInvalid;

    constexpr Id() = default;
    constexpr explicit Id(uint32_t v) : value(v) {}
    constexpr bool valid() const { return value != kInvalid; }
    constexpr auto operator<=>(const Id&) const = default;
};

using NodeId = Id<struct NodeTag>;
using TensorId = Id<struct TensorTag>;
using GroupId = Id<struct GroupTag>;

} // namespace bpu

template <typename Tag>
struct std::hash<bpu::Id<Tag>> {
    size_t operator()(const bpu::Id<Tag>& id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
