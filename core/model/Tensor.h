// SPDX-License-Identifier: MIT
#pragma once

#include "ConstValue.h"
#include "DataType.h"
#include "Ids.h"
#include "TensorShape.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// Where an initializer's bytes live.
enum class WeightStorage {
    Embedded,        ///< raw_data / typed fields inside the .onnx file
    External,        ///< external-data file present next to the model
    ExternalMissing, ///< external-data file named but not present ("weights not present")
};

/// One value in the graph: a model input, an initializer, or a node output.
struct Tensor {
    TensorId id;
    std::string name;
    DataType dtype = DataType::Undefined;
    TensorShape shape;
    TensorShape declaredShape; ///< what the file's value_info/outputs said; fills dims inference leaves open
    bool isInitializer = false;
    bool isGraphInput = false;  ///< a real model input (not an initializer listed in graph.input)
    bool isGraphOutput = false;
    NodeId producer;            ///< invalid for inputs and initializers
    std::vector<NodeId> consumers;

    WeightStorage storage = WeightStorage::Embedded;
    std::string externalLocation; ///< for External/ExternalMissing
    std::shared_ptr<const ConstValue> value; ///< known value of a small constant (initializer or folded)

    /// Bytes of the whole tensor if its shape is known: elements x bytesPerElement(dtype).
    std::optional<int64_t> bytes() const;
    bool isActivation() const { return !isInitializer; }
};

} // namespace bpu
