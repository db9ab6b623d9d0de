// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as an edit list (the --edits file, docs/edits.md) applied to a what-if session on
// mobilenet_v2. A bad list must be a FileError/EditError; every edit that applies must leave sane numbers,
// and reverting the applied edits in reverse order must give back the baseline latency exactly (what undo
// promises).
#include "FuzzSupport.h"

#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/UndoToken.h"
#include "core/util/JsonFile.h"

#include <cmath>

using namespace bpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    EditList edits;
    try {
        edits = editListFromJson(parseJsonText(fuzz::text(data, size), "fuzz.json"));
    } catch (const FileError&) {
        return 0;
    } catch (const EditError&) {
        return 0;
    }
    Session s = fuzz::baseSession();
    const double base = s.cost().totalUs;
    std::vector<UndoToken> applied;
    for (auto& e : edits) {
        try {
            applied.push_back(e->apply(s));
        } catch (const EditError&) {
            continue; // refused, the session untouched: the next edit sees the same state
        }
        (void)e->toJson();
        (void)e->describe();
    }
    fuzz::checkSession(s, "edits");
    for (auto it = applied.rbegin(); it != applied.rend(); ++it)
        it->revert(s);
    const double back = s.cost().totalUs;
    if (std::fabs(back - base) > 1e-9 * base)
        fuzz::fail("reverting the applied edits gives " + std::to_string(back) + " us, not the baseline " +
                   std::to_string(base) + " us");
    return 0;
}
