// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace bpu {

/// Where an output goes and how it is written, the one rule set of every writer (issue 43,
/// docs/hardening.md):
/// - "-" is stdout;
/// - a path through the shell's own streams (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/PID/fd/N, which may
/// be
///   a regular file the shell opened), an existing FIFO or character device (`>(jq .)`, /dev/null) is opened
///   and written in place, appending (a stream is never truncated under the shell);
/// - anything else is a regular file written atomically: a temporary file beside the file a symlink chain
///   names (the links are written through, never replaced), renamed over it once complete;
/// - a folder, a missing parent folder or an unwritable one is an error before anything is written.
/// Every write and the close are checked (stdout's flush included): a failure throws FileError naming the
/// output and the reason, and an atomic write leaves the old file and no temporary behind.
class OutputFile {
public:
    enum class Mode { Stdout, InPlace, Atomic };
    using Produce = std::function<void(const std::function<void(std::string_view)>&)>;

    /// Resolves `path` and checks it can be written; throws FileError.
    static OutputFile resolve(const std::string& path);

    Mode mode() const { return mode_; }
    /// As given ("-" for stdout): what messages name.
    const std::string& path() const { return path_; }
    /// What is written: the file at the end of the symlink chain (Atomic), the path as given (InPlace).
    const std::string& target() const { return target_; }

    void write(std::string_view text) const;
    void write(const Produce& produce) const;

private:
    Mode mode_ = Mode::Stdout;
    std::string path_, target_;
};

/// What an output writes to, for telling two outputs apart: "stdout" for "-" and for any path that is the
/// process's stdout (/dev/stdout, /proc/self/fd/1, or the very file stdout is redirected to), "inode:D:I"
/// for an existing file or stream, "path:P" (P the file a symlink chain names) for one still to create;
/// a character device other than stdout ("/dev/null") is its own path each time it is named.
std::string outputIdentity(const std::string& path);

/// Flushes stdout (C stdio and std::cout) and throws FileError("stdout", ...) if anything written to it
/// failed: `> /dev/full` is an error, not a success nobody is told about.
void checkStdoutWritten();

} // namespace bpu
