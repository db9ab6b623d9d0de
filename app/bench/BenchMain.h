// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bench {

/// Renders the graph view for the samples (and the synthetic 10k graph) to PNGs in `dir`; false on failure.
bool writeShots(const QString& dir);
/// Renders the workbench with a drag edit in progress (yolov8n, resnet50) to PNGs in `dir`.
bool writeWorkbenchShots(const QString& dir);
/// Deletes the widgets the GUI benchmarks keep; call before the QApplication goes.
void shutdownGui();

} // namespace bench
