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

} // namespace

const GuardedSchemas& GuardedSchemas::instance() {
    static const GuardedSchemas registry;
    return registry;
}

const onnx::OpSchema* GuardedSchemas::GetSchema(const std::string& key, const int maxInclusiveVersion,
                                                const std::string& domain) const {
    const onnx::OpSchema* real = onnx::OpSchemaRegistry::Schema(key, maxInclusiveVersion, domain);
    if (!real || !real->has_type_and_shape_inference_function() || !isGuardedOp(key, domain))
        return real;
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto& slot = c.wrapped[real];
    if (!slot) {
        slot = std::make_unique<onnx::OpSchema>(*real);
        onnx::InferenceFunction inner = real->GetTypeAndShapeInferenceFunction();
        const std::string op = key, dom = domain;
        slot->TypeAndShapeInferenceFunction([inner, op, dom](onnx::InferenceContext& ctx) {
            const AttributeLookup attr = [&ctx](const std::string& name) {
                return ctx.getAttribute(name);
            };
            std::string problem = attributeProblem(op, dom, attr);
            if (problem.empty())
                problem = inputProblem(
                    op, dom, attr,
                    [&ctx](size_t i) { return i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr; },
                    ctx.getNumInputs());
            if (problem.empty())
                problem = inferenceHazard(
                    op, dom, [&ctx](size_t i) { return i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr; },
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
