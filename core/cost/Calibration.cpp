// SPDX-License-Identifier: MIT
#include "Calibration.h"

#include "CostModel.h"
#include "core/analysis/Analyzer.h"
#include "core/model/ModelImporter.h"
#include "core/util/OutputFile.h"
#include "core/util/PrintableText.h"
#include "core/util/SafeFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace bpu {

namespace {

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted) {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r')
            cur += c;
    }
    out.push_back(cur);
    return out;
}

Param* paramByKey(TargetProfile& t, const std::string& key) {
    for (const auto& p : t.parameters())
        if (p.key == key)
            return const_cast<Param*>(p.param);
    return nullptr;
}

} // namespace

const std::vector<CalibrationSet::FreeParam>& CalibrationSet::freeParams() {
    static const std::vector<FreeParam> params{
        {"dense_conv_efficiency", 0.05, 1.0},  {"group_conv_efficiency", 0.01, 1.0},
        {"layer_fixed_cycles", 0.0, 40000.0},  {"vector_elements_per_cycle", 16, 4096},
        {"load_compute_overlap", 0.0, 1.0},    {"runtime_fixed_us", 0.0, 1000.0},
        {"matmul_act_efficiency", 0.005, 1.0}, {"thread_overlap", 0.0, 1.0},
    };
    return params;
}

bool Measurement::staticEstimate() const {
    return kind.find("static estimate") != std::string::npos;
}

bool Measurement::ratioOnly() const {
    return kind.find("ratio only") != std::string::npos;
}

std::vector<Measurement> loadMeasurements(const std::string& csvPath) {
    std::istringstream in(readUserFile(csvPath, {"measurements file", file_limits::kText}));
    std::string line;
    if (!std::getline(in, line))
        throw std::runtime_error(csvPath + ": empty");
    auto header = splitCsv(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < header.size(); ++i)
        col[header[i]] = i;
    for (const char* need : {"model", "file", "target", "latency_ms", "fps"})
        if (!col.count(need))
            throw std::runtime_error(csvPath + ": missing column '" + need + "'");
    const auto folder = std::filesystem::path(csvPath).parent_path();
    std::vector<Measurement> out;
    int lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line[0] == '#')
            continue;
        auto f = splitCsv(line);
        auto get = [&](const char* k) {
            return col.count(k) && col[k] < f.size() ? f[col[k]] : std::string();
        };
        Measurement m;
        m.model = get("model");
        m.file = (folder / get("file")).lexically_normal().string();
        m.target = get("target");
        m.input = get("input");
        m.kind = get("kind");
        m.scenario = get("scenario");
        try {
            const std::string threads = get("threads");
            m.threads = threads.empty() ? 1 : std::stoi(threads);
            if (m.threads < 1 || m.threads > 2)
                throw std::invalid_argument(threads);
        } catch (const std::exception&) {
            throw std::runtime_error(csvPath + ":" + std::to_string(lineNo) + ": threads must be 1 or 2");
        }
        // A measured time is a positive finite number: 0, -1, nan or inf would turn every error into nan.
        auto positive = [&](const char* key) {
            const std::string text = get(key);
            double v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v) || v <= 0 ||
                v > 1e9)
                throw std::runtime_error(csvPath + ":" + std::to_string(lineNo) + ": " + key + " is '" +
                                         printable(text, 40) + "'; it must be a positive number");
            return v;
        };
        m.latencyMs = positive("latency_ms");
        m.fps = positive("fps");
        out.push_back(m);
    }
    return out;
}

AnalysisOptions scenarioOptions(const std::string& scenario) {
    AnalysisOptions o;
    std::stringstream ss(scenario);
    std::string part;
    while (std::getline(ss, part, '+')) {
        if (part == "bpu_only" || part == "board")
            o.deploy = DeploySettings::fastPerf();
        else if (part == "keep_io_qdq")
            o.deploy = DeploySettings::keepIoQdq();
        else if (part == "unfused")
            o.fuse = false;
        else if (!part.empty())
            throw std::runtime_error("unknown calibration scenario '" + part + "'");
    }
    return o;
}

CalibrationSet::CalibrationSet(std::vector<Measurement> measurements)
    : measurements_(std::move(measurements)) {
    std::map<std::string, size_t> loaded;
    for (const auto& m : measurements_) {
        if (loaded.count(m.file))
            continue;
        loaded[m.file] = graphs_.size();
        graphs_.push_back(ModelImporter::load(m.file));
    }
}

CalibrationResult CalibrationSet::evaluate(const TargetProfile& profile) const {
    return evaluate(std::vector<const TargetProfile*>{&profile});
}

CalibrationResult CalibrationSet::evaluate(const std::vector<const TargetProfile*>& profiles) const {
    CalibrationResult r;
    std::map<std::string, const Graph*> byFile;
    for (const auto& g : graphs_)
        byFile[g.path] = &g;
    double sumSq = 0, sumSqThreads = 0;
    std::map<std::string, std::pair<double, double>> fused,
        unfused; // model stem -> (measured fps, predicted)
    for (const auto& m : measurements_) {
        const TargetProfile* profile = nullptr;
        for (const TargetProfile* p : profiles)
            if (p->name == m.target)
                profile = p;
        if (!profile)
            continue;
        const Graph& g = *byFile.at(m.file);
        AnalysisOptions o = scenarioOptions(m.scenario);
        AnalysisResult a = Analyzer::analyze(g, *profile, o);
        CostEstimate e = CostModel::estimate(g, a, *profile, o.deploy);
        CalibrationRow row;
        row.m = m;
        if (m.threads == 2) {
            // Throughput with two threads: compared as FPS (hrt_model_exec's FPS column).
            row.figure = "2-thread FPS";
            row.predictedFps = e.fpsByThreads[1];
            // Each inference's latency with both threads busy: two in flight at this throughput (Little's
            // law).
            row.predictedMs = row.predictedFps > 0 ? 2.0 * 1000.0 * e.batch / row.predictedFps : 0;
            row.errorPct = (row.predictedFps - m.fps) / m.fps * 100.0;
            sumSqThreads += std::pow(std::log(row.predictedFps / m.fps), 2);
            r.threadRows.push_back(row);
            continue;
        }
        // The toolchain's static estimate is the BPU's time alone; a board measurement (hrt_model_exec) is
        // the whole deployed model with the runtime's overhead.
        row.figure = m.staticEstimate() ? "static ms" : "board ms";
        row.predictedMs = m.staticEstimate() ? e.bpuMs : e.latencyMs;
        row.predictedFps = row.predictedMs > 0 ? e.batch * 1000.0 / row.predictedMs : 0;
        row.errorPct = (row.predictedMs - m.latencyMs) / m.latencyMs * 100.0;
        (o.fuse ? fused : unfused)[m.file] = {m.fps, e.fps};
        // A reconstructed graph (the guide's FCOS pair) calibrates only the fused/unfused ratio.
        if (m.ratioOnly())
            continue;
        sumSq += std::pow(std::log(row.predictedMs / m.latencyMs), 2);
        r.rows.push_back(row);
    }
    for (const auto& [file, u] : unfused)
        if (auto it = fused.find(file); it != fused.end()) {
            r.measuredFuseRatio = it->second.first / u.first;
            r.predictedFuseRatio = it->second.second / u.second;
            r.fuseRatioModel = std::filesystem::path(file).stem().string();
        }
    r.rmsLogError = r.rows.empty() ? 0 : std::sqrt(sumSq / double(r.rows.size()));
    r.rmsLogErrorThreads = r.threadRows.empty() ? 0 : std::sqrt(sumSqThreads / double(r.threadRows.size()));
    if (!profiles.empty())
        for (const auto& fp : freeParams())
            for (const auto& p : profiles.front()->parameters())
                if (p.key == fp.key)
                    r.fitted.emplace_back(p.key, p.param->value);
    return r;
}

CalibrationResult CalibrationSet::fit(const std::vector<TargetProfile*>& profiles, int iterations) const {
    std::vector<const TargetProfile*> constProfiles(profiles.begin(), profiles.end());
    const auto& fps = freeParams();
    const size_t n = fps.size();
    // Work in an unbounded space: logit of the position inside each parameter's bounds.
    auto toX = [&](size_t i, double v) {
        double u = std::clamp((v - fps[i].lo) / (fps[i].hi - fps[i].lo), 1e-4, 1 - 1e-4);
        return std::log(u / (1 - u));
    };
    auto fromX = [&](size_t i, double x) {
        return fps[i].lo + (fps[i].hi - fps[i].lo) / (1 + std::exp(-x));
    };
    auto apply = [&](const std::vector<double>& x) {
        for (size_t i = 0; i < n; ++i)
            for (TargetProfile* p : profiles)
                paramByKey(*p, fps[i].key)->value = fromX(i, x[i]);
    };
    auto objective = [&](const std::vector<double>& x) {
        apply(x);
        CalibrationResult r = evaluate(constProfiles);
        double f = r.rmsLogError * r.rmsLogError * double(r.rows.size()) +
                   r.rmsLogErrorThreads * r.rmsLogErrorThreads * double(r.threadRows.size());
        if (r.measuredFuseRatio && r.predictedFuseRatio)
            f += 10.0 * std::pow(std::log(*r.predictedFuseRatio / *r.measuredFuseRatio), 2);
        return f;
    };
    std::vector<std::vector<double>> simplex(n + 1, std::vector<double>(n));
    for (size_t i = 0; i < n; ++i)
        simplex[0][i] = toX(i, paramByKey(*profiles.front(), fps[i].key)->value);
    for (size_t k = 1; k <= n; ++k) {
        simplex[k] = simplex[0];
        simplex[k][k - 1] += 0.8;
    }
    std::vector<double> val(n + 1);
    for (size_t k = 0; k <= n; ++k)
        val[k] = objective(simplex[k]);
    for (int it = 0; it < iterations; ++it) {
        std::vector<size_t> order(n + 1);
        for (size_t k = 0; k <= n; ++k)
            order[k] = k;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return val[a] < val[b]; });
        const size_t best = order[0], worst = order[n], second = order[n - 1];
        std::vector<double> centroid(n, 0);
        for (size_t k = 0; k <= n; ++k)
            if (k != worst)
                for (size_t i = 0; i < n; ++i)
                    centroid[i] += simplex[k][i] / double(n);
        auto along = [&](double t) {
            std::vector<double> p(n);
            for (size_t i = 0; i < n; ++i)
                p[i] = centroid[i] + t * (simplex[worst][i] - centroid[i]);
            return p;
        };
        auto reflected = along(-1.0);
        double fr = objective(reflected);
        if (fr < val[best]) {
            auto expanded = along(-2.0);
            double fe = objective(expanded);
            if (fe < fr) {
                simplex[worst] = expanded;
                val[worst] = fe;
            } else {
                simplex[worst] = reflected;
                val[worst] = fr;
            }
        } else if (fr < val[second]) {
            simplex[worst] = reflected;
            val[worst] = fr;
        } else {
            auto contracted = along(0.5);
            double fc = objective(contracted);
            if (fc < val[worst]) {
                simplex[worst] = contracted;
                val[worst] = fc;
            } else {
                for (size_t k = 0; k <= n; ++k)
                    if (k != best) {
                        for (size_t i = 0; i < n; ++i)
                            simplex[k][i] = simplex[best][i] + 0.5 * (simplex[k][i] - simplex[best][i]);
                        val[k] = objective(simplex[k]);
                    }
            }
        }
    }
    size_t best = std::min_element(val.begin(), val.end()) - val.begin();
    apply(simplex[best]);
    // Round to 3 significant digits so the committed profile reads cleanly and reproduces exactly.
    for (const auto& fp : fps)
        for (TargetProfile* profile : profiles) {
            Param* p = paramByKey(*profile, fp.key);
            if (p->value != 0) {
                // Through the decimal text, so the value is the double nearest to what is written (0.412, not
                // 0.41200000000000003).
                char text[32];
                std::snprintf(text, sizeof text, "%.3g", p->value);
                p->value = std::strtod(text, nullptr);
            }
        }
    return evaluate(constProfiles);
}

std::string ParamIdentity::why() const {
    char buf[160];
    switch (verdict) {
    case Verdict::AtBound:
        std::snprintf(buf, sizeof buf, "at its %s bound (%g, in the fit's range %g..%g)",
                      value - lo < hi - value ? "lower" : "upper", value, lo, hi);
        return buf;
    case Verdict::NotExercised:
        return "no calibration row exercises it";
    case Verdict::Identified:
        break;
    }
    std::snprintf(buf, sizeof buf, "%d calibration row(s) exercise it, inside its range %g..%g",
                  rowsExercising, lo, hi);
    return buf;
}

std::vector<ParamIdentity> CalibrationSet::identify(const std::vector<const TargetProfile*>& profiles) const {
    std::vector<ParamIdentity> out;
    if (profiles.empty())
        return out;
    // Every prediction the fit compares, in one list: the one-thread rows, the two-thread rows, the fuse
    // ratio.
    auto predictions = [this](const std::vector<const TargetProfile*>& ps) {
        const CalibrationResult r = evaluate(ps);
        std::vector<double> v;
        for (const auto& row : r.rows)
            v.push_back(row.predictedMs);
        for (const auto& row : r.threadRows)
            v.push_back(row.predictedFps);
        v.push_back(r.predictedFuseRatio.value_or(0));
        return v;
    };
    const std::vector<double> base = predictions(profiles);
    for (const auto& fp : freeParams()) {
        ParamIdentity id;
        id.key = fp.key;
        id.lo = fp.lo;
        id.hi = fp.hi;
        for (const auto& p : profiles.front()->parameters())
            if (p.key == fp.key)
                id.value = p.param->value;
        const double u = (id.value - fp.lo) / (fp.hi - fp.lo);
        // Moved a quarter of its range, away from the nearer bound, on every profile (the value is shared).
        std::vector<TargetProfile> moved;
        moved.reserve(profiles.size());
        for (const TargetProfile* p : profiles) {
            moved.push_back(*p);
            paramByKey(moved.back(), fp.key)->value = id.value + (u < 0.5 ? 0.25 : -0.25) * (fp.hi - fp.lo);
        }
        std::vector<const TargetProfile*> movedPtrs;
        for (const auto& p : moved)
            movedPtrs.push_back(&p);
        const std::vector<double> after = predictions(movedPtrs);
        for (size_t i = 0; i < base.size() && i < after.size(); ++i)
            id.rowsExercising += std::abs(after[i] - base[i]) > 1e-9 * std::max(1.0, std::abs(base[i]));
        if (id.rowsExercising == 0)
            id.verdict = ParamIdentity::Verdict::NotExercised;
        else if (u < ParamIdentity::kBoundMargin || u > 1 - ParamIdentity::kBoundMargin)
            id.verdict = ParamIdentity::Verdict::AtBound;
        out.push_back(id);
    }
    return out;
}

std::string calibrationMarkdown(const CalibrationResult& r, const std::vector<const TargetProfile*>& profiles,
                                const std::vector<ParamIdentity>& identity) {
    std::ostringstream os;
    char buf[512];
    os << "| model | target | scenario | compared | measured ms | measured FPS | predicted ms | predicted "
          "FPS | "
          "error |\n";
    os << "|---|---|---|---|---|---|---|---|---|\n";
    auto line = [&](const CalibrationRow& row) {
        std::snprintf(buf, sizeof buf, "| %s | %s | %s | %s | %.3f | %.1f | %.3f | %.1f | %+.1f%% |\n",
                      row.m.model.c_str(), row.m.target.c_str(),
                      row.m.scenario.empty() ? "-" : row.m.scenario.c_str(), row.figure, row.m.latencyMs,
                      row.m.fps, row.predictedMs, row.predictedFps, row.errorPct);
        os << buf;
    };
    for (const auto& row : r.rows)
        line(row);
    for (const auto& row : r.threadRows)
        line(row);
    if (r.measuredFuseRatio) {
        std::snprintf(buf, sizeof buf,
                      "\nFuse ratio (%s, fused FPS / unfused FPS): measured %.3fx, predicted %.3fx\n",
                      r.fuseRatioModel.c_str(), *r.measuredFuseRatio, r.predictedFuseRatio.value_or(0));
        os << buf;
    }
    std::string names;
    for (const TargetProfile* p : profiles)
        names += (names.empty() ? "" : ", ") + p->name + " " + p->version;
    std::snprintf(
        buf, sizeof buf,
        "\nRMS log error: %.3f (one-thread and static rows), %.3f (two-thread rows). Fitted parameters "
        "(%s):\n\n",
        r.rmsLogError, r.rmsLogErrorThreads, names.c_str());
    os << buf;
    for (const auto& [k, v] : r.fitted) {
        std::snprintf(buf, sizeof buf, "- `%s` = %g", k.c_str(), v);
        os << buf;
        for (const ParamIdentity& id : identity)
            if (id.key == k)
                os << (id.identified() ? " (identified: " : " (**not identified**: ") << id.why() << ")";
        os << "\n";
    }
    return os.str();
}

void writeFittedProfile(const std::string& sourceJson, const std::string& outPath, const CalibrationResult& r,
                        const std::vector<ParamIdentity>& identity) {
    // Ordered: the profile keeps its key order and reads as before, only the fitted values change. (The
    // source was loaded and validated as a profile just before.)
    nlohmann::ordered_json doc =
        nlohmann::ordered_json::parse(readUserFile(sourceJson, {"target profile", file_limits::kJson}));
    for (const auto& [k, v] : r.fitted) {
        auto& p = doc["params"][k];
        p["value"] = v;
        std::string note = p.contains("estimate") ? p["estimate"].get<std::string>() : std::string();
        if (note.find("fitted") == std::string::npos)
            p["estimate"] = note + " (fitted by bpuscope-cli calibrate; docs/calibration.md)";
        p.erase("identified");
        for (const ParamIdentity& id : identity)
            if (id.key == k && !id.identified())
                p["identified"] = false;
    }
    OutputFile::resolve(outPath).write(doc.dump(1) + "\n");
}

} // namespace bpu
