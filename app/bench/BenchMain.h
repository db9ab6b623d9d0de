// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace bench {

/// Renders the graph view for the samples (and the synthetic 10k graph) to PNGs in `dir`; false on failure.
bool writeShots(const QString& dir);
/// Deletes the widgets the GUI benchmarks keep; call before the QApplication goes.
void shutdownGui();

} // namespace bench
