// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as an ONNX model -> import -> analysis, finding gains and cost -> report. A bad
// model must be an ImportError; anything the importer accepts must analyse without an exception, a crash,
// a hang or a number BpuScope promises never to print (checkSession).
#include "FuzzSupport.h"

#include "core/model/ImportError.h"
#include "core/model/ModelImporter.h"

using namespace bpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Graph g;
    try {
        g = ModelImporter::loadBytes(fuzz::scratchDir() + "/fuzz.onnx", fuzz::text(data, size));
    } catch (const ImportError&) {
        return 0; // refused with a message: what a bad file should get
    }
    // Accepted: everything downstream must work. No exception is expected from here on.
    Session s(std::move(g), fuzz::s100());
    s.estimateFindingGains();
    fuzz::checkSession(s, "model");
    fuzz::renderReport(s);
    return 0;
}
