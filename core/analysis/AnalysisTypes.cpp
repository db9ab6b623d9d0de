// SPDX-License-Identifier: MIT
#include "AnalysisTypes.h"

namespace bpu {

const char* boundName(Bound b) {
    switch (b) {
    case Bound::None: return "-";
    case Bound::Compute: return "compute";
    case Bound::Memory: return "memory";
    }
    return "-";
}

const char* precisionName(Precision p) {
    switch (p) {
    case Precision::Int8: return "int8";
    case Precision::Int16: return "int16";
    case Precision::Float: return "float";
    }
    return "int8";
}

const char* padRuleName(PadRule r) {
    switch (r) {
    case PadRule::None:
        return "";
    case PadRule::Input:
        return "input";
    case PadRule::ConvLike:
        return "G4.2";
    case PadRule::General:
        return "G4.1";
    }
    return "";
}

} // namespace bpu
