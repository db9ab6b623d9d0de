// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as an ONNX model -> import -> analysis, finding gains and cost -> report. A bad
// model must be an ImportError, from the bytes and from a file holding them alike; anything the importer
// accepts must analyse without an exception, a crash, a hang or a number BpuScope promises never to print
// (checkSession).
#include "FuzzSupport.h"

#include "core/model/ImportError.h"
#include "core/model/ModelImporter.h"

#include <fstream>
#include <string>

using namespace bpu;

namespace {

/// The programs read a model from its file, parsed block by block as it is read (ModelImporter::load);
/// loadBytes parses one buffer. The same bytes must get the same answer both ways: refused by both, or the
/// same graph from both.
void sameFromFile(const std::string& path, const std::string& bytes, const Graph* fromBytes) {
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes;
    }
    try {
        const Graph fromFile = ModelImporter::load(path);
        if (!fromBytes)
            fuzz::fail("load() accepted a model loadBytes() refused");
        if (fromFile.nodes.size() != fromBytes->nodes.size() ||
            fromFile.tensors.size() != fromBytes->tensors.size())
            fuzz::fail("load() and loadBytes() built different graphs");
    } catch (const ImportError& e) {
        if (fromBytes)
            fuzz::fail(std::string("load() refused a model loadBytes() accepted: ") + e.what());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::scratchDir() + "/fuzz.onnx";
    const std::string bytes = fuzz::text(data, size);
    Graph g;
    try {
        g = ModelImporter::loadBytes(path, bytes);
    } catch (const ImportError&) {
        sameFromFile(path, bytes, nullptr);
        return 0; // refused with a message: what a bad file should get
    }
    sameFromFile(path, bytes, &g);
    // Accepted: everything downstream must work. No exception is expected from here on.
    Session s(std::move(g), fuzz::s100());
    s.estimateFindingGains();
    fuzz::checkSession(s, "model");
    fuzz::renderReport(s);
    return 0;
}
