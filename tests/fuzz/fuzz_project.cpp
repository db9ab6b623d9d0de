// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as a .bpuscope project. A bad project must be a FileError naming the key; the
// edit list of an accepted one is parsed like an --edits file.
#include "FuzzSupport.h"

#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/UndoToken.h"
#include "core/io/ProjectJson.h"
#include "core/util/JsonFile.h"

using namespace bpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ProjectData p;
    try {
        p = parseProject(parseJsonText(fuzz::text(data, size), "fuzz.bpuscope"), "fuzz.bpuscope");
    } catch (const FileError&) {
        return 0;
    }
    try {
        auto edits = editListFromJson(p.edits);
        for (const ProjectKeptEdit& k : p.kept) // tried again at open, after the edits
            edits.push_back(editFromJson(k.edit));
        Session s = fuzz::baseSession();
        for (auto& e : edits)
            try {
                e->apply(s);
            } catch (const EditError&) {
            }
        fuzz::checkSession(s, "project");
    } catch (const EditError&) {
    }
    return 0;
}
