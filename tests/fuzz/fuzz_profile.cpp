// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as a target profile (resources/targets/*.json). A bad profile must be refused
// naming the key; a profile the loader accepts must give mobilenet_v2 a finite, positive latency (no
// "inf ms", no null in the JSON) and an HTML report whose roofline axes end.
#include "FuzzSupport.h"

#include "core/util/JsonFile.h"

#include <stdexcept>

using namespace bpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::shared_ptr<const TargetProfile> profile;
    try {
        profile = std::make_shared<const TargetProfile>(
            parseTargetProfile(parseJsonText(fuzz::text(data, size), "fuzz.json"), "fuzz.json"));
    } catch (const std::runtime_error&) {
        return 0; // FileError or the loader's "key '...': ..." error
    }
    Session s = fuzz::baseSession();
    s.setTarget(profile);
    fuzz::checkSession(s, "profile");
    fuzz::renderReport(s);
    return 0;
}
