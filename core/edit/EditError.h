// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace bpu {

/// An edit that cannot be applied; what() says why. The session is left exactly as it was.
class EditError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    /// An edit refused because a node downstream of the change no longer infers (GraphPatch::reinfer):
    /// `brokenNode` names it, for whoever traces why (a size the export baked in, BakedSizes.h).
    EditError(const std::string& what, std::string brokenNode)
        : std::runtime_error(what)
        , brokenNode_(std::move(brokenNode)) {}
    /// The downstream node the change breaks; empty when the edit was refused for another reason.
    const std::string& brokenNode() const { return brokenNode_; }

private:
    std::string brokenNode_;
};

} // namespace bpu
