# SPDX-License-Identifier: MIT
# Included by tests/CMakeLists.txt and tests/fuzz/CMakeLists.txt (a sibling directory, which does not see the
# former's variables), so every ctest test runs under the same sanitizer options and timeout.
# Under the sanitizers (the asan presets) every report fails the test, leaks included (suppressions: what
# Qt's and fontconfig's libraries keep for the process lifetime), and tests get more time: ASan runs about
# two to three times slower. BPUSCOPE_SANITIZER_ENV starts with ';' when set, to append to an ENVIRONMENT list.
set(BPUSCOPE_SANITIZER_ENV "")
set(BPUSCOPE_TEST_TIMEOUT 600)
if(BPUSCOPE_SANITIZE)
  set(BPUSCOPE_SANITIZER_ENV ";ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1;\
LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/sanitizers/lsan.supp:print_suppressions=0;\
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  set(BPUSCOPE_TEST_TIMEOUT 1500)
endif()

# The tests' own code is a driver: optimising it and describing every variable of it for a debugger is most of
# what compiling a test file costs (tst_edits.cpp: 29.8 s at -O2 -g, 11.0 s at -Og -g1; docs/development.md),
# and buys nothing, since the engine they test is compiled as the product is. -g1 keeps line tables, so
# backtraces (sanitizer reports included) still name file and line. Not in Debug, which wants -O0 -g.
set(BPUSCOPE_TEST_COMPILE_OPTIONS $<$<NOT:$<CONFIG:Debug>>:-Og -g1>)
