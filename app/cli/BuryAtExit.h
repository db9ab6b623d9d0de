// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

namespace bpu::cli {

/// Hands a command's big objects (a 100k-node graph and its analysis) to the operating system at exit
/// instead of freeing them node by node: that teardown was 8% of an `analyze` at 100k nodes, spent just
/// before the process ends. The pointer stays in a static list, so leak checkers see the memory as
/// reachable: clang's driver does the same (-disable-free, llvm::BuryPointer). Call it on the way out of a
/// command that succeeded; on an error the objects are freed as usual.
template <class T> void buryAtExit(std::unique_ptr<T> owned) {
    static auto* graveyard = new std::vector<void*>; // never freed: it is what keeps them reachable
    graveyard->push_back(owned.release());
}

} // namespace bpu::cli
