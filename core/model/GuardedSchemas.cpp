// SPDX-License-Identifier: MIT
#include "GuardedSchemas.h"

#include "NodeChecks.h"
#include "OnnxConvert.h"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>

namespace bpu {

namespace {

/// Wrapped copies of onnx's schemas, made on first use and kept for the process (onnx's own schemas live
/// as long).
struct Cache {
    std::mutex mutex;
    std::map<const onnx::OpSchema*, std::unique_ptr<onnx::OpSchema>> wrapped;
};

Cache& cache() {
    static Cache* c = new Cache; // never destroyed: inference may run on worker threads until exit
    return *c;
}

/// Range's output length from its scalar inputs' values, as onnx computes it: a zero delta, a difference
/// past int64 or a length no device could hold is refused here (onnx would divide by zero, overflow int64 or
/// cast an infinite double).
std::string rangeProblem(onnx::InferenceContext& ctx) {
    if (ctx.getNumInputs() < 3)
        return {};
    double v[3];
    for (size_t i = 0; i < 3; ++i) {
        const onnx::TensorProto* t = ctx.getInputData(i);
        if (!t)
            return {}; // not a constant: onnx infers no length
        const auto c = constFromTensorProto(*t);
        if (!c || c->size() != 1)
            return {};
        v[i] = c->at(0);
    }
    const double start = v[0], limit = v[1], delta = v[2];
    if (delta == 0)
        return "Range: delta is 0";
    const double n = std::ceil((limit - start) / delta);
    if (!std::isfinite(n) || n > 1099511627776.0 || std::fabs(limit - start) > 9.0e18)
        return "Range from " + std::to_string(start) + " to " + std::to_string(limit) + " by " +
               std::to_string(delta) + " has more than 2^40 elements";
    return {};
}

/// What onnx 1.12's inference functions take for granted of every node, whatever the op: each required
/// attribute present (Scan-9 reads num_scan_inputs through a null pointer when it is not) and each required
/// input typed (EyeLike copies the shape of an input whose type is unknown from a null pointer). A node
/// that breaks either gets no inferred shape, with the reason; onnx's checker refuses such a model too.
std::string schemaProblem(const onnx::OpSchema& schema, onnx::InferenceContext& ctx) {
    for (const auto& [name, attr] : schema.attributes())
        if (attr.required && !ctx.getAttribute(name))
            return "attribute '" + name + "' is required by " + schema.Name() + " but missing";
    // Only inputs that must be tensors: BpuScope types every tensor it knows, while an optional or sequence
    // value reaches onnx untyped and its inference copes (OptionalHasElement).
    const auto& formals = schema.inputs();
    for (size_t i = 0; i < formals.size() && i < ctx.getNumInputs(); ++i) {
        if (formals[i].GetOption() != onnx::OpSchema::Single || ctx.getInputType(i))
            continue;
        bool tensorOnly = !formals[i].GetTypes().empty();
        for (const auto* type : formals[i].GetTypes())
            tensorOnly &= type && type->rfind("tensor(", 0) == 0;
        if (tensorOnly)
            return "input " + std::to_string(i) + " has no known type";
    }
    return {};
}

} // namespace

const GuardedSchemas& GuardedSchemas::instance() {
    static const GuardedSchemas registry;
    return registry;
}

const onnx::OpSchema* GuardedSchemas::GetSchema(const std::string& key, const int maxInclusiveVersion,
                                                const std::string& domain) const {
    const onnx::OpSchema* real = onnx::OpSchemaRegistry::Schema(key, maxInclusiveVersion, domain);
    if (!real || !real->has_type_and_shape_inference_function())
        return real;
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto& slot = c.wrapped[real];
    if (!slot) {
        slot = std::make_unique<onnx::OpSchema>(*real);
        onnx::InferenceFunction inner = real->GetTypeAndShapeInferenceFunction();
        const std::string op = key, dom = domain;
        const bool guarded = isGuardedOp(key, domain);
        slot->TypeAndShapeInferenceFunction([inner, op, dom, guarded, real](onnx::InferenceContext& ctx) {
            const AttributeLookup attr = [&ctx](const std::string& name) {
                return ctx.getAttribute(name);
            };
            std::string problem = schemaProblem(*real, ctx);
            if (!guarded) {
                if (!problem.empty())
                    fail_shape_inference(problem);
                inner(ctx);
                return;
            }
            if (problem.empty())
                problem = attributeProblem(op, dom, attr);
            if (problem.empty())
                problem = inputProblem(
                    op, dom, attr,
                    [&ctx](size_t i) { return i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr; },
                    ctx.getNumInputs());
            if (problem.empty())
                problem = inferenceHazard(
                    op, dom,
                    [&ctx](size_t i) { return i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr; },
                    ctx.getNumInputs());
            if (problem.empty() && op == "Range")
                problem = rangeProblem(ctx);
            if (!problem.empty())
                fail_shape_inference(problem);
            inner(ctx);
        });
    }
    return slot.get();
}

} // namespace bpu
