// SPDX-License-Identifier: MIT
// What a rebuilt graph (a cut, a rewrite) carries over of a tensor: everything but its id, name and wiring,
// which the new graph's intern and link() set.
#pragma once

#include "Tensor.h"

namespace bpu {

inline void copyTensorFacts(Tensor& to, const Tensor& from) {
    to.dtype = from.dtype;
    to.shape = from.shape;
    to.declaredShape = from.declaredShape;
    to.isInitializer = from.isInitializer;
    to.isGraphInput = from.isGraphInput;
    to.storage = from.storage;
    to.externalLocation = from.externalLocation;
    to.value = from.value;
}

} // namespace bpu
