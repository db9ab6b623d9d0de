// SPDX-License-Identifier: MIT
#include "FuzzSupport.h"

#include "core/io/AnalysisJson.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportBuilder.h"
#include "core/report/ReportRenderers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace bpu::fuzz {

void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz property violated: %s\n", why.c_str());
    std::abort();
}

std::shared_ptr<const TargetProfile> s100() {
    static const auto t = std::make_shared<const TargetProfile>(loadTargetProfile("s100"));
    return t;
}

const report::GuideRules& rules() {
    static const report::GuideRules r = report::loadGuideRules();
    return r;
}

const Session& baseSession() {
    static const Session s(ModelImporter::load(std::string(BPUSCOPE_SAMPLES) + "/mobilenet_v2.onnx"), s100());
    return s;
}

std::string text(const uint8_t* data, size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

const std::string& scratchDir() {
    static const std::string dir = [] {
        const std::string d =
            std::filesystem::temp_directory_path().string() + "/bpuscope-fuzz-" + std::to_string(::getpid());
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

namespace {

void checkNumber(const nlohmann::json& v, const std::string& where, bool count) {
    if (!v.is_number())
        fail(where + " is " + v.dump() + ", not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x) || (count && x < 0))
        fail(where + " is " + v.dump());
}

} // namespace

void checkSession(Session& s, const char* what) {
    const CostEstimate& c = s.cost();
    for (double v : {c.latencyMs, c.fps, c.totalUs, c.bpuUs, c.bpuMs, c.cpuUs, c.qdqUs, c.transitionUs,
                     c.runtimeUs, c.fpsByThreads[0], c.fpsByThreads[1]})
        if (!std::isfinite(v) || v < 0)
            fail(std::string(what) + ": a latency figure is " + std::to_string(v));
    if (!(c.latencyMs > 0))
        fail(std::string(what) + ": latency is not positive");
    const nlohmann::json doc = sessionJson(s, c, EditList{});
    const auto& sum = doc["summary"];
    for (const char* k : {"latency_ms", "fps", "bpu_ms"})
        checkNumber(sum[k], std::string("summary.") + k, true);
    for (const auto& n : doc["nodes"]) {
        for (const char* k : {"macs", "padded_macs", "ops", "input_bytes", "output_bytes", "weight_bytes",
                              "ddr_bytes", "padding_waste_bytes"})
            checkNumber(n[k], n["name"].get<std::string>() + "." + k, true);
        for (const char* k : {"latency_us", "compute_us", "memory_us", "intensity"})
            checkNumber(n[k], n["name"].get<std::string>() + "." + k, true);
    }
}

void renderReport(const Session& s) {
    report::ReportInput in;
    in.session = &s;
    in.calibration = false;
    in.rules = rules();
    in.generatedAt = "fuzz";
    const report::ReportDocument doc = report::buildReport(in);
    (void)report::renderMarkdown(doc);
    (void)report::renderHtml(doc);
    const nlohmann::json j = report::reportJson(doc);
    (void)j.dump();
}

} // namespace bpu::fuzz
