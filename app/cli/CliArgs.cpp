// SPDX-License-Identifier: MIT
#include "CliArgs.h"

#include "core/util/OutputFile.h"

#include "core/target/TargetProfile.h"
#include "core/util/SafeFile.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace bpu::cli {

CliArgs CliArgs::parse(int argc, char** argv, int first, const std::vector<std::string>& valued,
                       const std::vector<std::string>& knownFlags) {
    CliArgs a;
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() > 2 && arg.rfind("--", 0) == 0) {
            std::string key = arg.substr(2), value;
            bool inlineValue = false;
            if (auto eq = key.find('='); eq != std::string::npos) {
                value = key.substr(eq + 1);
                key = key.substr(0, eq);
                inlineValue = true;
            }
            if (std::find(valued.begin(), valued.end(), key) != valued.end()) {
                if (!inlineValue) {
                    if (i + 1 >= argc)
                        throw UsageError("--" + key + " needs a value");
                    value = argv[++i];
                }
                a.options.emplace(key, value);
            } else if (std::find(knownFlags.begin(), knownFlags.end(), key) != knownFlags.end()) {
                a.flags.push_back(key);
            } else {
                throw UsageError("unknown option --" + key);
            }
        } else if (arg == "-o") {
            if (i + 1 >= argc)
                throw UsageError("-o needs a value");
            a.options.emplace("output", argv[++i]);
        } else {
            a.positional.push_back(arg);
        }
    }
    return a;
}

std::optional<std::string> CliArgs::get(const std::string& key) const {
    auto range = options.equal_range(key);
    if (range.first == range.second)
        return std::nullopt;
    return std::prev(range.second)->second;
}

std::vector<std::string> CliArgs::all(const std::string& key) const {
    std::vector<std::string> out;
    auto range = options.equal_range(key);
    for (auto it = range.first; it != range.second; ++it)
        out.push_back(it->second);
    return out;
}

bool CliArgs::has(const std::string& flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

ImportOptions CliArgs::importOptions() const {
    ImportOptions o;
    if (auto b = get("batch")) {
        int64_t v = 0;
        auto [p, ec] = std::from_chars(b->data(), b->data() + b->size(), v);
        if (ec != std::errc{} || p != b->data() + b->size() || v <= 0 || v > kMaxBatch)
            throw UsageError("--batch expects an integer in 1.." + std::to_string(kMaxBatch) + ", got '" +
                             *b + "'");
        o.batch = v;
    }
    for (const auto& s : all("input-shape")) {
        try {
            auto [name, dims] = parseInputShapeArg(s);
            o.inputShapes[name] = dims;
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    return o;
}

void writeOutput(const std::string& target, const std::string& text) {
    OutputFile::resolve(target).write(text);
}

void writeOutput(const std::string& target,
                 const std::function<void(const std::function<void(std::string_view)>&)>& produce) {
    OutputFile::resolve(target).write(produce);
}

namespace {
const char* const kOutputOptions[] = {"json",      "csv",       "output", "markdown", "write",
                                      "node-info", "perf-json", "html",   "yaml"};
}

std::vector<std::pair<std::string, std::string>> CliArgs::outputs() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* key : kOutputOptions)
        for (const auto& path : all(key))
            out.emplace_back(key, path);
    return out;
}

void CliArgs::refuseSharedOutputs() const {
    const auto outs = outputs();
    std::vector<std::string> ids;
    for (const auto& [key, path] : outs)
        ids.push_back(outputIdentity(path));
    for (size_t i = 0; i < outs.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (ids[i] == ids[j])
                throw std::runtime_error(
                    outs[i].second + ": --" + outs[j].first + " " + outs[j].second + " and --" +
                    outs[i].first + " " + outs[i].second +
                    (ids[i] == "stdout" ? std::string(" both write to stdout")
                                        : std::string(" are one file")) +
                    ": the second would replace or mix with the first - give each output its own file");
}

void CliArgs::refuseOutputsOver(const std::vector<std::string>& inputs, const std::string& what) const {
    for (const auto& [key, out] : outputs()) {
        if (writesToStdout(out))
            continue;
        const std::string id = outputIdentity(out);
        for (const auto& in : inputs)
            if (sameFile(out, in) ||
                id == "path:" + std::filesystem::absolute(in).lexically_normal().string())
                throw std::runtime_error(out + ": is " + what + " (" + in +
                                         "); refusing to overwrite it - choose another output file");
    }
}

bool writesToStdout(const std::string& path) {
    return outputIdentity(path) == "stdout";
}

void CliArgs::refuseInputsAsOutputs() const {
    std::vector<std::string> inputs = positional;
    for (const char* key : {"edits", "deploy"})
        if (auto e = get(key))
            inputs.push_back(*e);
    if (auto t = get("target")) {
        inputs.push_back(*t);
        for (const auto& [name, file] : builtinTargets())
            if (name == *t)
                inputs.push_back(file);
    }
    for (const char* key : kOutputOptions)
        for (const auto& out : all(key)) {
            if (out == "-")
                continue;
            for (const auto& in : inputs)
                if (sameFile(out, in))
                    throw std::runtime_error(out + ": is an input of this command (" +
                                             (in == out ? std::string("the same path") : in) +
                                             "); refusing to overwrite it - choose another output file");
        }
}

} // namespace bpu::cli
