// SPDX-License-Identifier: MIT
// libFuzzer target (issue 64): bytes as an hb_compile YAML config (--deploy CONFIG.yaml). A bad config must
// be a std::runtime_error naming the file and the key, never a crash or a hang. An accepted one is checked
// against the model (checkDeployNames), analysed (the session's numbers must stay sane), and written back
// by the config writer: what it writes must read back (the writer may refuse, naming why, but never writes
// a file its own reader rejects).
#include "FuzzSupport.h"

#include "core/deploy/DeployImport.h"
#include "core/deploy/DeployYaml.h"
#include "core/deploy/DeployYamlWriter.h"

#include <stdexcept>

using namespace bpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    DeploySettings d;
    try {
        d = parseDeployYaml(fuzz::text(data, size), "fuzz.yaml");
    } catch (const std::runtime_error&) {
        return 0;
    }
    Session s = fuzz::baseSession();
    try {
        checkDeployNames(d, s.graph());
    } catch (const std::runtime_error&) {
        return 0; // names the model lacks: refused before any analysis, as the CLI does
    }
    s.setDeploy(d);
    fuzz::checkSession(s, "deploy");
    std::string written;
    try {
        written = deployToYaml(d, s.graph(), {"fuzz.onnx", "", ""});
    } catch (const std::invalid_argument&) {
        return 0; // a name no YAML can hold, or a normalisation without values: refused, said why
    }
    try {
        parseDeployYaml(written, "written.yaml");
    } catch (const std::exception& e) {
        fuzz::fail(std::string("the config writer wrote a file its reader rejects: ") + e.what() + "\n" +
                   written);
    }
    return 0;
}
