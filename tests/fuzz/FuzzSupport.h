// SPDX-License-Identifier: MIT
// Shared fixtures and property checks of the libFuzzer targets (tests/fuzz, issue 15).
#pragma once

#include "core/edit/Session.h"
#include "core/report/GuideRules.h"
#include "core/target/TargetProfile.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace bpu::fuzz {

/// The built-in s100 profile, loaded once.
std::shared_ptr<const TargetProfile> s100();
/// The guide's rules, loaded once (the report builder would read the file per run).
const report::GuideRules& rules();
/// A session on samples/mobilenet_v2.onnx (105 nodes: convs, depthwise convs, adds, a Gemm): the model the
/// edit and profile targets work on. Built once; callers copy it (a copy shares the graph until it edits).
const Session& baseSession();
/// The fuzzer's bytes as text.
std::string text(const uint8_t* data, size_t size);
/// A folder for files the targets need (the model importer's "path" for external-data checks).
const std::string& scratchDir();

/// Aborts (a crash the fuzzer reports) when the session's numbers break what BpuScope promises: a
/// latency that is not a finite positive number, a negative count, a JSON value that is null where a
/// number belongs. `what` says which input produced the session.
void checkSession(Session& s, const char* what);
/// Renders the report of `s` as Markdown, HTML and JSON (no calibration section: it loads other models),
/// checking that the JSON has no null latency.
void renderReport(const Session& s);

/// abort() with a message: what the fuzzer records as a crash with its input.
[[noreturn]] void fail(const std::string& why);

} // namespace bpu::fuzz
