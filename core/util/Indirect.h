// SPDX-License-Identifier: MIT
// A value held on the heap with value semantics: copying the holder copies the value, and the holder's header
// needs only the value's declaration. C++26's std::indirect (P3019) without the allocator; replace this with
// it once the compilers we build with have it.
//
// Why: Session holds the analysis by value, and Session.h is included by most of the code; holding it through
// Indirect<AnalysisResult>, Session.h names the type only (AnalysisFwd.h), so a change to the analysis'
// structs recompiles the files that read them rather than every file that sees a session
// (docs/development.md). The holder declares its copy, move and destructor in its header and defaults them in
// its .cpp, where the value's type is complete.
#pragma once

#include <memory>

namespace bpu {

template <typename T> class Indirect {
public:
    Indirect()
        : p_(std::make_unique<T>()) {}
    Indirect(const Indirect& other)
        : p_(std::make_unique<T>(*other)) {}
    /// Leaves `other` without a value (valueless, as std::indirect's moved-from state): only assigning to it
    /// or destroying it are allowed then.
    Indirect(Indirect&& other) noexcept = default;
    Indirect& operator=(const Indirect& other) {
        if (this != &other)
            p_ = std::make_unique<T>(*other);
        return *this;
    }
    Indirect& operator=(Indirect&& other) noexcept = default;
    ~Indirect() = default;

    T& operator*() { return *p_; }
    const T& operator*() const { return *p_; }
    T* operator->() { return p_.get(); }
    const T* operator->() const { return p_.get(); }

private:
    std::unique_ptr<T> p_;
};

} // namespace bpu
