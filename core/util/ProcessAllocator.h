// SPDX-License-Identifier: MIT
#pragma once

namespace bpu {

/// Tunes the process allocator before the first model is read; each program (GUI, CLI, bench) calls it
/// first thing in main. With mimalloc (BPUSCOPE_MIMALLOC) it asks for transparent huge pages on the heap,
/// unless the environment already says (MIMALLOC_LARGE_OS_PAGES, which mimalloc reads itself): a model's
/// graph is hundreds of MB of small objects touched once while it is built, and on the machines we measure
/// on (virtual, Debian's THP setting "madvise") the kernel's 4 KB first-touch faults and page clearing were
/// a third to a half of `analyze` at 100k nodes (docs/performance.md, seventh pass). Without mimalloc (the
/// sanitizer builds) it does nothing.
void configureProcessAllocator();

} // namespace bpu
