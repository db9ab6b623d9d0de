// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bpu {

/// A user file that cannot be used: what() is "<file>: <what is wrong>", the form every front end prints
/// after "bpuscope: error: ". The problem never quotes the file's bytes.
class FileError : public std::runtime_error {
public:
    FileError(std::string file, std::string problem);
    const std::string& file() const { return file_; }
    const std::string& problem() const { return problem_; }

private:
    std::string file_;
    std::string problem_;
};

/// Size limits of the files BpuScope reads, by kind: far above any real file of that kind, far below what
/// would exhaust memory or time.
namespace file_limits {
inline constexpr uint64_t kModel = (uint64_t{2} << 30) - 1; ///< protobuf cannot parse one message >= 2 GiB
inline constexpr uint64_t kJson = uint64_t{64} << 20;       ///< edit lists, projects, target profiles
inline constexpr uint64_t kText = uint64_t{16} << 20;       ///< calibration CSV, deploy settings (YAML)
} // namespace file_limits

/// What a user file is for, named in errors ("edit file", "target profile", ...).
struct FileKind {
    const char* noun;  ///< "ONNX model", "edit file", ...
    uint64_t maxBytes; ///< a file_limits constant
};

/// Reads a whole user file safely: it must exist and be a regular file (not a folder, FIFO, device or
/// socket; a symlink counts as what it points to), non-empty and at most `kind.maxBytes`. The file is opened
/// non-blocking and checked on the open descriptor, so a FIFO or device swapped in after a check is never
/// read; a file that grows while being read is cut off at the limit and refused. Throws FileError naming
/// the file and the problem.
std::string readUserFile(const std::string& path, const FileKind& kind);

/// A user file opened and checked as readUserFile does (a regular file, non-empty, within the kind's limit,
/// checked on the open descriptor), for a reader that takes it in pieces - protobuf's stream parser reads a
/// model through descriptor() with a small buffer, so a 100 MB model is never held whole beside its parsed
/// form. Closes the descriptor when destroyed. Throws FileError.
class OpenUserFile {
public:
    OpenUserFile(const std::string& path, const FileKind& kind);
    ~OpenUserFile();
    OpenUserFile(const OpenUserFile&) = delete;
    OpenUserFile& operator=(const OpenUserFile&) = delete;

    int descriptor() const { return fd_; }
    /// The size when it was opened.
    uint64_t size() const { return size_; }
    /// The reader read `consumed` bytes and then met the end of the file: throws FileError if that is not the
    /// size it had when opened (the file changed while it was read), as readUserFile refuses such a file.
    void checkReadWhole(uint64_t consumed) const;
    /// A read through descriptor() failed with `err` (errno): throws the FileError readUserFile would.
    [[noreturn]] void throwReadError(int err) const;

private:
    std::string path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

/// The same checks without reading: for files another library opens (Qt's QFile for a hash). Returns the
/// size. Throws FileError.
uint64_t checkUserFile(const std::string& path, const FileKind& kind);

/// Writes `text` to `path` through a fresh temporary file in the same folder, renamed over `path` when
/// complete: a failed run never leaves a half-written file, and no existing file (or FIFO) but `path`
/// itself is touched. Throws FileError ("cannot write: ...").
void writeFileAtomically(const std::string& path, const std::string& text);
/// The same for a text made piece by piece: `produce` is called once with a function that appends a piece
/// to the file, so a large document need not be held whole. If `produce` throws, the temporary file is
/// removed and the exception passes on; `path` is untouched.
void writeFileAtomically(const std::string& path,
                         const std::function<void(const std::function<void(std::string_view)>&)>& produce);

/// True if `a` and `b` name the same existing file (same device and inode): an output path that is an input.
bool sameFile(const std::string& a, const std::string& b);

} // namespace bpu
