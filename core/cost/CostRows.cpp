// SPDX-License-Identifier: MIT
#include "CostRows.h"

#include "CostModel.h"

#include "core/analysis/Passes.h"

#include <cstdio>

namespace bpu {

namespace {

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a, b, c, d);
    return buf;
}

int64_t elementsOf(const Graph& g, TensorId t) {
    return t.valid() ? g.tensor(t).shape.elements().value_or(0) : 0;
}

/// The node that really writes a model output: through the boundary ops the deployment removed.
NodeId effectiveProducer(const Graph& g, const AnalysisResult& r, TensorId t) {
    NodeId p = g.tensor(t).producer;
    for (size_t guard = 0; p.valid() && r.nodes[p.value].removedByDeploy && guard < g.nodes.size(); ++guard) {
        NodeId next;
        for (TensorId in : g.node(p).inputs)
            if (in.valid() && !g.tensor(in).isInitializer && !g.tensor(in).value) {
                next = g.tensor(in).producer;
                break;
            }
        p = next;
    }
    return p;
}

void addInputConversions(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                         const DeploySettings& deploy, CostEstimate& e) {
    const double perUs = t.vectorElementsPerCycle.value * t.bpuClockGhz.value * 1e3; // elements per us
    for (TensorId in : g.inputs) {
        const Tensor& tensor = g.tensor(in);
        const ResolvedInput ri = resolveInput(deploy, g, tensor.name);
        if (!isImageType(ri.type) || tensor.shape.rank() != 4)
            continue;
        const int64_t elements = elementsOf(g, in);
        if (elements <= 0)
            continue;
        CostRow row;
        row.kind = CostRowKind::InputConversion;
        row.tensor = in;
        for (NodeId cns : tensor.consumers)
            if (onBpuGraph(r.nodes[cns.value])) {
                row.node = cns;
                break;
            }
        row.elements = elements;
        row.onBpu = true;
        row.us = double(elements) * t.inputConversionPasses.value / perUs;
        row.label = std::string(inputRuntimeTypeName(ri.type)) + " input '" + tensor.name + "' converted" +
                    (ri.norm != NormType::NoPreprocess ? " and normalised" : "") + " on the BPU";
        row.formula = std::to_string(elements) + " elements x input_conversion_passes " +
                      fmt("%g / (vector_elements_per_cycle %g x bpu_clock_ghz %g)",
                          t.inputConversionPasses.value, t.vectorElementsPerCycle.value, t.bpuClockGhz.value);
        e.bpuUs += row.us;
        e.rows.push_back(std::move(row));
    }
}

void addQdqPasses(const Graph& g, const AnalysisResult& r, const TargetProfile& t, CostEstimate& e) {
    for (const auto& p : r.qdq) {
        const Tensor& tensor = g.tensor(p.tensor);
        CostRow row;
        row.kind = p.kind == "quantize" ? CostRowKind::Quantize : CostRowKind::Dequantize;
        row.tensor = p.tensor;
        row.node = CostModel::qdqOwner(g, p);
        row.elements = p.elements;
        row.us = double(p.elements) / t.qdqElementsPerUs.value;
        row.label = p.kind + " '" + tensor.name + "' (" + p.where + ")";
        row.formula =
            std::to_string(p.elements) + fmt(" elements / qdq_elements_per_us %g", t.qdqElementsPerUs.value);
        e.qdqUs += row.us;
        e.rows.push_back(std::move(row));
    }
}

void addRequantizes(const Graph& g, const AnalysisResult& r, const TargetProfile& t, CostEstimate& e) {
    auto quantized = [](Precision p) {
        return p == Precision::Int8 || p == Precision::Int16;
    };
    const double perUs = t.vectorElementsPerCycle.value * t.bpuClockGhz.value * 1e3;
    for (const auto& tensor : g.tensors) {
        const NodeId p = tensor.producer;
        if (!p.valid() || tensor.value || !onBpuGraph(r.nodes[p.value]))
            continue;
        const NodeAnalysis& pa = r.nodes[p.value];
        if (!quantized(pa.precision))
            continue;
        NodeId reader;
        for (NodeId cns : tensor.consumers) {
            const NodeAnalysis& ca = r.nodes[cns.value];
            // Inside a fused group the conv's output stage writes the group's precision: no boundary.
            if (ca.placement == Placement::BPU && quantized(ca.precision) && ca.precision != pa.precision &&
                !(pa.fusionGroup.valid() && pa.fusionGroup == ca.fusionGroup)) {
                reader = cns;
                break;
            }
        }
        if (!reader.valid())
            continue;
        CostRow row;
        row.kind = CostRowKind::Requantize;
        row.tensor = tensor.id;
        row.node = reader;
        row.elements = elementsOf(g, tensor.id);
        row.onBpu = true;
        row.us = t.layerFixedUs() + double(row.elements) * t.requantizeVectorPasses.value / perUs;
        row.label = std::string("requantize '") + tensor.name + "' " + precisionName(pa.precision) + " -> " +
                    precisionName(r.nodes[reader.value].precision);
        row.formula = fmt("layer_fixed_cycles %g / bpu_clock_ghz %g + ", t.layerFixedCycles.value,
                          t.bpuClockGhz.value) +
                      std::to_string(row.elements) +
                      fmt(" elements x requantize_vector_passes %g / (vector_elements_per_cycle %g x clock)",
                          t.requantizeVectorPasses.value, t.vectorElementsPerCycle.value);
        e.bpuUs += row.us;
        e.rows.push_back(std::move(row));
    }
}

void addTransitions(const Graph& g, const AnalysisResult& r, const TargetProfile& t, CostEstimate& e) {
    // One row per switch of units: the runtime enters a BPU segment once, however many tensors the CPU hands
    // it, and leaves it once (the transition pass).
    for (const Transition& x : r.transitions) {
        CostRow row;
        row.kind = CostRowKind::Transition;
        row.node = x.receiver;
        row.us = t.cpuBpuSwitchUs.value;
        row.label =
            std::string(x.toBpu ? "CPU->BPU: entering" : "BPU->CPU: leaving") + " BPU segment " +
            std::to_string(x.segment) +
            (x.receiver.valid() ? " ('" + g.node(x.receiver).name + "' waits for it)" : std::string());
        row.formula = fmt("cpu_bpu_switch_us %g per switch of units", t.cpuBpuSwitchUs.value);
        e.transitionUs += row.us;
        e.rows.push_back(std::move(row));
    }
}

} // namespace

int64_t runtimeIoBytes(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                       const DeploySettings& deploy) {
    int64_t bytes = 0;
    for (TensorId in : g.inputs) {
        const Tensor& tensor = g.tensor(in);
        const ResolvedInput ri = resolveInput(deploy, g, tensor.name);
        const auto& d = tensor.shape.dims;
        if (isImageType(ri.type) && d.size() == 4 && d[2] > 0 && d[3] > 0) {
            bytes += static_cast<int64_t>(double(std::max<int64_t>(d[0], 1)) * double(d[2]) * double(d[3]) *
                                          bytesPerPixel(ri.type));
            continue;
        }
        // A featuremap reaches the BPU at the precision of the op that reads it (int8 unless set otherwise).
        Precision p = Precision::Float;
        for (NodeId cns : tensor.consumers)
            if (onBpuGraph(r.nodes[cns.value]))
                p = r.nodes[cns.value].precision;
        bytes += elementsOf(g, in) * bytesAtPrecision(p, bytesPerElement(tensor.dtype));
    }
    for (TensorId out : g.outputs) {
        const NodeId p = effectiveProducer(g, r, out);
        const int64_t elements = elementsOf(g, out);
        if (!p.valid() || !onBpuGraph(r.nodes[p.value])) {
            bytes += elements * std::max<int64_t>(1, bytesPerElement(g.tensor(out).dtype));
            continue;
        }
        const NodeAnalysis& a = r.nodes[p.value];
        const bool accumulator =
            a.placement == Placement::BPU && (a.opClass == OpClass::Conv || a.opClass == OpClass::Matmul);
        bytes += elements * (accumulator ? static_cast<int64_t>(t.quantizedConvOutputBytes.value)
                                         : bytesAtPrecision(a.precision, 1));
    }
    return bytes;
}

namespace {

// One row per kind: the label the report and the GUI print, and the JSON key.
struct KindNames {
    CostRowKind kind;
    const char* name;
    const char* key;
};
constexpr KindNames kKindNames[] = {
    {CostRowKind::InputConversion, "input conversion", "input_conversion"},
    {CostRowKind::Quantize, "quantize", "quantize"},
    {CostRowKind::Dequantize, "dequantize", "dequantize"},
    {CostRowKind::Requantize, "requantize", "requantize"},
    {CostRowKind::Transition, "CPU<->BPU transition", "transition"},
    {CostRowKind::RuntimeOverhead, "runtime overhead", "runtime_overhead"},
};

const KindNames* namesOf(CostRowKind k) {
    for (const auto& n : kKindNames)
        if (n.kind == k)
            return &n;
    return nullptr;
}

} // namespace

const char* costRowKindName(CostRowKind k) {
    const KindNames* n = namesOf(k);
    return n ? n->name : "?";
}

const char* costRowKindKey(CostRowKind k) {
    const KindNames* n = namesOf(k);
    return n ? n->key : "?";
}

void addCostRows(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                 const DeploySettings& deploy, CostEstimate& e) {
    addInputConversions(g, r, t, deploy, e);
    addQdqPasses(g, r, t, e);
    addRequantizes(g, r, t, e);
    addTransitions(g, r, t, e);

    CostRow row;
    row.kind = CostRowKind::RuntimeOverhead;
    e.runtimeIoBytes = runtimeIoBytes(g, r, t, deploy);
    const double ioUs = double(e.runtimeIoBytes) / (t.cpuBandwidthGBs.value * 1e3);
    row.elements = e.runtimeIoBytes;
    row.us = t.runtimeFixedUs.value + ioUs;
    row.label = "runtime overhead per inference (submit, wait, I/O buffers)";
    row.formula = fmt("runtime_fixed_us %g + ", t.runtimeFixedUs.value) + std::to_string(e.runtimeIoBytes) +
                  fmt(" I/O bytes / cpu_bandwidth_gbs %g = %.0f us", t.cpuBandwidthGBs.value, row.us);
    e.runtimeUs += row.us;
    e.rows.push_back(std::move(row));
}

} // namespace bpu
