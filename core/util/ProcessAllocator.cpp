// SPDX-License-Identifier: MIT
#include "ProcessAllocator.h"

#ifdef BPUSCOPE_WITH_MIMALLOC
#include <mimalloc.h>

#include <cstdlib>
#endif

namespace bpu {

void configureProcessAllocator() {
#ifdef BPUSCOPE_WITH_MIMALLOC
    // Only segments mimalloc maps from now on are advised; the few it mapped for static initialisation stay
    // as they are. An explicit MIMALLOC_LARGE_OS_PAGES=0 turns this off (for comparing the two).
    if (!std::getenv("MIMALLOC_LARGE_OS_PAGES"))
        mi_option_enable(mi_option_large_os_pages);
#endif
}

} // namespace bpu
