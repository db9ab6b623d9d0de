// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"
#include "core/analysis/AnalysisOptions.h"

#include <memory>
#include <string>
#include <vector>

namespace bpu {

/// Many edits as one command: an edit list (an --edits file, a project's edits, a finding's fix) applied
/// in the GUI as one undo step. Its option edits (the thousands in practice: placement overrides,
/// assume_* lists) change the options without a re-estimate or a saved copy of the options each (20,000
/// placement overrides would otherwise re-estimate 20,000 times and copy 20,000 growing sets); its shape
/// edits apply as they come, since each must re-infer the shapes it changes. One re-estimate ends the list.
/// apply() is all or nothing: an edit that does not apply rolls back the ones before it and throws
/// EditError naming it. revert() restores the graph edit by edit, in reverse, and the options as they were
/// before the list, with one re-estimate.
class EditBatch final : public Edit {
public:
    EditBatch(std::vector<std::shared_ptr<Edit>> edits, std::string title);

    void apply(Session& s) override;
    void revert(Session& s) override;
    /// {"edits": [...]}, the form editsFromJson reads back.
    nlohmann::json toJson() const override;
    /// "<title> (N edits)".
    std::string describe() const override;

    const std::vector<std::shared_ptr<Edit>>& edits() const { return edits_; }

private:
    /// Reverts the first `count` edits' graph changes (in reverse) and restores the options.
    void rollBack(Session& s, size_t count);

    std::vector<std::shared_ptr<Edit>> edits_;
    std::string title_;
    AnalysisOptions saved_;
};

} // namespace bpu
