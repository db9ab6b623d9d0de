// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QString>

namespace bpu::ui {

/// The status bar's estimate: target, latency per image, FPS and batch, then the deployment (rich text);
/// without it when `withDeployment` is false (a narrow window).
QString estimateText(const Snapshot& s, bool withDeployment = true);
/// The least the status bar shows of the estimate in a narrow window: the board latency and FPS.
QString minimalEstimateText(const Snapshot& s);
/// What the estimate is made of: BPU/CPU/folded nodes, segments, Q/DQ passes and padding waste (plain).
QString breakdownText(const Snapshot& s);
/// What changed against the baseline (latency, FPS, CPU nodes, segments, Q/DQ passes, padding waste), each
/// coloured better/worse; empty when nothing did.
QString deltaText(const Snapshot& s);

} // namespace bpu::ui
