// SPDX-License-Identifier: MIT
// The edit vocabulary: one line per kind. Keep the list sorted by op (findEditKind searches it), and give a
// new kind its own file with a static fromJson.
#include "EditRegistry.h"

#include "ActivationEdits.h"
#include "CutEdits.h"
#include "NormalizationEdits.h"
#include "OptionEdits.h"
#include "ReexportEdit.h"
#include "ShapeEdits.h"
#include "TransformEdits.h"

#include <algorithm>
#include <iterator>

namespace bpu {

namespace {

constexpr EditKind kKinds[] = {
    {"assume_aligned", &AssumeEdit::alignedFromJson},
    {"assume_reexported", &ReexportEdit::fromJson},
    {"assume_removed", &AssumeEdit::removedFromJson},
    {"assume_resident", &AssumeEdit::residentFromJson},
    {"cut_at", &CutAtEdit::fromJson},
    {"filter_outputs", &FilterOutputsEdit::fromJson},
    {"fuse", &FuseEdit::fuseFromJson},
    {"fuse_all", &FuseAllEdit::fromJson},
    {"move_input_normalization", &MoveInputNormalizationEdit::fromJson},
    {"remove_boundary_qdq", &RemoveBoundaryQdqEdit::fromJson},
    {"remove_transform_pair", &RemoveTransformPairEdit::fromJson},
    {"replace_activation", &ReplaceActivationEdit::fromJson},
    {"set_batch", &SetBatchEdit::fromJson},
    {"set_channels", &SetChannelsEdit::fromJson},
    {"set_group", &SetGroupEdit::fromJson},
    {"set_input_shape", &SetInputShapeEdit::fromJson},
    {"set_placement", &SetPlacementEdit::fromJson},
    {"set_precision", &SetPrecisionEdit::fromJson},
    {"unfuse", &FuseEdit::unfuseFromJson},
    {"unfuse_all", &UnfuseAllEdit::fromJson},
};

constexpr bool sorted() {
    for (size_t i = 1; i < std::size(kKinds); ++i)
        if (!(kKinds[i - 1].op < kKinds[i].op))
            return false;
    return true;
}
static_assert(sorted(), "keep kKinds sorted by op, without duplicates");

} // namespace

std::span<const EditKind> editKinds() {
    return kKinds;
}

const EditKind* findEditKind(std::string_view op) {
    const auto it = std::lower_bound(std::begin(kKinds), std::end(kKinds), op,
                                     [](const EditKind& k, std::string_view o) { return k.op < o; });
    return it != std::end(kKinds) && it->op == op ? &*it : nullptr;
}

} // namespace bpu
