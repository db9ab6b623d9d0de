// SPDX-License-Identifier: MIT
#pragma once

#include "CliArgs.h"

namespace bpu::cli {

/// `bpuscope-cli info MODEL [--batch N] [--input-shape NAME=DxD...] [--json FILE|-]`
int runInfo(const CliArgs& args);

} // namespace bpu::cli
