// SPDX-License-Identifier: MIT
#include "SingleAssignment.h"

#include "Graph.h"
#include "ImportError.h"
#include "ModelChecks.h"

#include <onnx/onnx_pb.h>

namespace bpu {

void SingleAssignment::write(const onnx::NodeProto& n, int index, TensorId out) {
    const Tensor& t = g_.tensor(out);
    if (t.isInitializer || t.isGraphInput)
        throw ImportError(path_, nodeLabel(n, index) + " writes '" + t.name +
                                     "', which is a model input or initializer");
    if (writer_.size() <= out.value)
        writer_.resize(g_.tensors.size(), -1);
    if (const int first = writer_[out.value]; first == index) {
        // The node is not in the graph yet (it is added once all its outputs are written): its message is
        // built from the file's proto alone, which names both slots.
        throw ImportError(path_, nodeLabel(n, index) + " lists '" + t.name +
                                     "' as more than one of its outputs (" + outputSlots(n, t.name) +
                                     "): a value has one producer");
    } else if (first >= 0) {
        throw ImportError(path_, nodeLabel(n, index) + " writes '" + t.name + "', which " +
                                     nodeLabel(*g_.nodes[size_t(first)].proto, first) +
                                     " already produces (a value has one producer)");
    }
    writer_[out.value] = index;
}

void SingleAssignment::modelOutput(TensorId out) const {
    const Tensor& t = g_.tensor(out);
    const bool written = out.value < writer_.size() && writer_[out.value] >= 0;
    if (!written && !t.isInitializer && !t.isGraphInput)
        throw ImportError(path_, "model output '" + t.name +
                                     "' is not produced by any node and is not an input or initializer");
}

} // namespace bpu
