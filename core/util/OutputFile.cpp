// SPDX-License-Identifier: MIT
#include "OutputFile.h"

#include "SafeFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace bpu {

namespace fs = std::filesystem;

namespace {

/// The shell's own streams: written in place whatever they resolve to.
bool isStreamPath(const fs::path& p) {
    const std::string s = p.lexically_normal().string();
    if (s.rfind("/dev/std", 0) == 0 || s.rfind("/dev/fd/", 0) == 0)
        return true;
    return s.rfind("/proc/", 0) == 0 && s.find("/fd/") != std::string::npos;
}

void writeAll(int fd, const std::string& name, std::string_view text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw FileError(name, std::string("write failed: ") + std::strerror(n < 0 ? errno : EIO));
        done += static_cast<size_t>(n);
    }
}

} // namespace

OutputFile OutputFile::resolve(const std::string& path) {
    OutputFile out;
    out.path_ = path;
    out.target_ = path;
    if (path == "-") {
        out.mode_ = Mode::Stdout;
        return out;
    }
    if (path.empty())
        throw FileError(path, "cannot write: empty path");
    // Follow the symlink chain by hand: a dangling link still names the file to create, and a hop through
    // the shell's streams must be seen before the kernel's magic links turn it into the file behind them.
    fs::path p = fs::absolute(path);
    std::error_code ec;
    for (int hop = 0;; ++hop) {
        if (isStreamPath(p)) {
            out.mode_ = Mode::InPlace;
            return out;
        }
        if (!fs::is_symlink(fs::symlink_status(p, ec)))
            break;
        if (hop == 40)
            throw FileError(path, "cannot write: too many levels of symbolic links");
        const fs::path next = fs::read_symlink(p, ec);
        if (ec)
            throw FileError(path, "cannot write: " + ec.message());
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    p = p.lexically_normal();
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw FileError(path, "cannot write: is a directory");
        if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)) {
            out.mode_ = Mode::InPlace;
            return out;
        }
        if (!S_ISREG(st.st_mode))
            throw FileError(path, "cannot write: is a block device");
    }
    const fs::path dir = p.parent_path();
    if (!fs::is_directory(dir, ec))
        throw FileError(path, "cannot write: no folder " + dir.string());
    if (::access(dir.c_str(), W_OK) != 0)
        throw FileError(path, "cannot write: folder " + dir.string() + " is not writable");
    out.mode_ = Mode::Atomic;
    out.target_ = p.string();
    return out;
}

void OutputFile::write(std::string_view text) const {
    write([&](const std::function<void(std::string_view)>& append) { append(text); });
}

void OutputFile::write(const Produce& produce) const {
    switch (mode_) {
    case Mode::Stdout: {
        checkStdoutWritten(); // what was printed before goes first, and must have arrived
        produce([](std::string_view piece) {
            if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size())
                throw FileError("stdout", std::string("write failed: ") + std::strerror(errno ? errno : EIO));
        });
        checkStdoutWritten();
        return;
    }
    case Mode::InPlace: {
        const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0)
            throw FileError(path_, std::string("cannot write: ") + std::strerror(errno));
        try {
            produce([&](std::string_view piece) { writeAll(fd, path_, piece); });
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (::close(fd) != 0)
            throw FileError(path_, std::string("write failed: ") + std::strerror(errno));
        return;
    }
    case Mode::Atomic:
        try {
            writeFileAtomically(target_, produce);
        } catch (const FileError& e) {
            throw FileError(path_, e.problem()); // named as the user gave it
        }
        return;
    }
}

std::string outputIdentity(const std::string& path) {
    if (path == "-")
        return "stdout";
    struct stat st {
    }, out{};
    if (::stat(path.c_str(), &st) == 0) {
        if (::fstat(STDOUT_FILENO, &out) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
            return "stdout";
        if (S_ISCHR(st.st_mode)) // /dev/null twice discards twice: no output is lost or mixed
            return "device:" + std::to_string(st.st_rdev) + ":" + path;
        return "inode:" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    }
    try {
        return "path:" + OutputFile::resolve(path).target();
    } catch (const FileError&) {
        return "path:" + fs::absolute(path).lexically_normal().string(); // the writer will say why
    }
}

void checkStdoutWritten() {
    // The first failing flush says why (errno); a later one may find nothing left to write.
    errno = 0;
    std::cout.flush();
    int err = errno;
    if (std::fflush(stdout) != 0 && err == 0)
        err = errno;
    if (std::ferror(stdout) || !std::cout)
        throw FileError("stdout", std::string("write failed: ") + std::strerror(err ? err : EIO));
}

} // namespace bpu
