// SPDX-License-Identifier: MIT
// Benchmark family: big-but-legal input (issue 15).
//
//   import/if_chain/<N>    import of a chain of N If nodes (each body one Identity) built with onnx's
//   protobuf
//                          API: import was quadratic in control-flow nodes (every If was inferred against
//                          every tensor of the model; 8,000 took 33 s). Linear means us_per_if stays flat as
//                          N doubles.
//   edits/batch/<N>        N placement overrides applied as one edit list (applyEditList) (what the GUI does
//   with an edit edits/sequential/<N>   list) against N separate applies, each re-estimating; on
//   mobilenet_v2. The batch
//                          re-estimates once: its time per edit falls as N grows, the sequential one does
//                          not.
//
// Run: bpuscope-bench --benchmark_filter='import/if_chain|edits/' --benchmark_counters_tabular=true
#include "BenchSupport.h"

#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <onnx/onnx_pb.h>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace {

/// x -> If_0 -> If_1 -> ... -> If_{n-1}, each body passing the previous output through an Identity.
std::string ifChain(int n) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("bpuscope-bench-ifchain-" + std::to_string(n) + ".onnx"))
            .string();
    if (std::filesystem::exists(path))
        return path;
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("if_chain");
    auto input = [](onnx::ValueInfoProto* v, const std::string& name, int type, std::vector<int64_t> dims) {
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        auto* s = t->mutable_shape();
        for (int64_t d : dims)
            s->add_dim()->set_dim_value(d);
    };
    input(g->add_input(), "cond", onnx::TensorProto::BOOL, {});
    input(g->add_input(), "x", onnx::TensorProto::FLOAT, {1, 4});
    std::string prev = "x";
    for (int i = 0; i < n; ++i) {
        auto* node = g->add_node();
        node->set_op_type("If");
        node->set_name("if" + std::to_string(i));
        node->add_input("cond");
        const std::string out = "y" + std::to_string(i);
        node->add_output(out);
        for (const char* branch : {"then_branch", "else_branch"}) {
            auto* a = node->add_attribute();
            a->set_name(branch);
            a->set_type(onnx::AttributeProto::GRAPH);
            auto* body = a->mutable_g();
            body->set_name(std::string(branch) + std::to_string(i));
            auto* id = body->add_node();
            id->set_op_type("Identity");
            id->add_input(prev);
            const std::string bodyOut = std::string(branch) + "_" + std::to_string(i);
            id->add_output(bodyOut);
            input(body->add_output(), bodyOut, onnx::TensorProto::FLOAT, {1, 4});
        }
        prev = out;
    }
    g->add_output()->set_name(prev);
    std::ofstream(path, std::ios::binary) << m.SerializeAsString();
    return path;
}

void BM_IfChainImport(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const std::string path = ifChain(n);
    for (auto _ : state) {
        bpu::Graph g = bpu::ModelImporter::load(path);
        benchmark::DoNotOptimize(g.nodes.data());
    }
    state.counters["us_per_if"] = benchmark::Counter(
        double(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// N placement overrides cycling over the sample's nodes, alternating BPU and CPU.
bpu::EditList overrides(const bpu::Graph& g, int n) {
    bpu::EditList out;
    for (int i = 0; i < n; ++i)
        out.push_back(
            std::make_shared<bpu::SetPlacementEdit>(g.nodes[size_t(i * 7919) % g.nodes.size()].name,
                                                    (i / 3) % 2 ? bpu::Placement::CPU : bpu::Placement::BPU));
    return out;
}

void BM_EditList(benchmark::State& state, bool batch) {
    const bpu::Graph* g = bench::sample("mobilenet_v2.onnx");
    if (!g) {
        state.SkipWithError("samples/mobilenet_v2.onnx missing");
        return;
    }
    const int n = static_cast<int>(state.range(0));
    const bpu::Session base(*g, bench::s100());
    for (auto _ : state) {
        state.PauseTiming();
        bpu::Session s = base;
        auto edits = overrides(*g, n);
        state.ResumeTiming();
        if (batch) {
            bpu::applyEditList(s, edits); // one composite, one re-estimate
        } else {
            for (auto& e : edits)
                e->apply(s);
        }
        benchmark::DoNotOptimize(s.cost().totalUs);
    }
    state.counters["us_per_edit"] = benchmark::Counter(
        double(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

[[maybe_unused]] const bool registered = [] {
    for (int n : {1000, 2000, 4000, 8000})
        benchmark::RegisterBenchmark(("import/if_chain/" + std::to_string(n)).c_str(), BM_IfChainImport)
            ->Arg(n)
            ->Unit(benchmark::kMillisecond);
    for (int n : {100, 1000, 20000})
        benchmark::RegisterBenchmark(("edits/batch/" + std::to_string(n)).c_str(), BM_EditList, true)
            ->Arg(n)
            ->Unit(benchmark::kMillisecond);
    for (int n : {100, 1000})
        benchmark::RegisterBenchmark(("edits/sequential/" + std::to_string(n)).c_str(), BM_EditList, false)
            ->Arg(n)
            ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace
