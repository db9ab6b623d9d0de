// SPDX-License-Identifier: MIT
#include "BenchProcess.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bench {

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_maxrss) / 1024.0;
}

namespace {

/// GNU time: it runs the program as its own child and writes that child's peak RSS (%M, KB) to a file.
constexpr const char* kTime = "/usr/bin/time";

} // namespace

ProcessRun runProcess(const std::vector<std::string>& argv) {
    char outPath[] = "/tmp/bpuscope-bench-out-XXXXXX";
    const int outFd = mkstemp(outPath);
    if (outFd < 0)
        return {};
    close(outFd);
    char rssPath[] = "/tmp/bpuscope-bench-rss-XXXXXX";
    const int rssFd = mkstemp(rssPath);
    if (rssFd < 0)
        return {};
    close(rssFd);
    struct Remove {
        const char* path;
        ~Remove() { std::remove(path); }
    } removeOut{outPath}, removeRss{rssPath};
    // A child's ru_maxrss starts from the RSS of the process it was spawned from: Linux carries the old
    // address space's high-water mark across exec. This bench holds sessions of 100k-node models (hundreds
    // of MB), so every child it spawns directly "peaks" at least that high (python's load of a 10k model
    // read 348 MB). GNU time is a small process: the program it forks starts from its size, not ours.
    const bool viaTime = access(kTime, X_OK) == 0;
    std::vector<std::string> command = argv;
    if (viaTime)
        command.insert(command.begin(), {kTime, "-f", "%M", "-o", rssPath});
    std::vector<char*> args;
    for (const auto& a : command)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outPath, O_WRONLY | O_TRUNC, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    ProcessRun r;
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int err = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0)
        return r;
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) != pid)
        return r;
    r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.cpuMs = (double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3);
    // (With time in between, wait4 still counts the program's CPU: a child's usage includes the children it
    // waited for. Its maxrss would be time's own, inherited from us.)
    r.peakRssMb = double(ru.ru_maxrss) / 1024.0;
    if (viaTime) {
        std::ifstream rss(rssPath);
        double kb = 0;
        if (rss >> kb)
            r.peakRssMb = kb / 1024.0;
    }
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::ifstream in(outPath);
    r.out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return r;
}

} // namespace bench
