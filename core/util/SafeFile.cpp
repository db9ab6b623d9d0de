// SPDX-License-Identifier: MIT
#include "SafeFile.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bpu {

namespace {

std::string withArticle(const char* noun) {
    const char c = noun[0];
    const bool vowel = c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'A' || c == 'E' ||
                       c == 'I' || c == 'O' || c == 'U';
    return std::string(vowel ? "an " : "a ") + noun;
}

std::string sizeText(uint64_t bytes) {
    if (bytes >= (uint64_t{1} << 30))
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (uint64_t{1} << 20))
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

/// What a non-regular file is, for the message.
const char* typeName(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/// Checks a stat result against the kind; throws FileError.
void checkStat(const std::string& path, const struct stat& st, const FileKind& kind) {
    if (!S_ISREG(st.st_mode)) {
        const char* what = typeName(st.st_mode);
        throw FileError(path, std::strcmp(what, "not a regular file") == 0
                                  ? std::string(what)
                                  : std::string("is ") + what + ", not " + withArticle(kind.noun));
    }
    if (st.st_size == 0)
        throw FileError(path, "file is empty");
    if (static_cast<uint64_t>(st.st_size) > kind.maxBytes)
        throw FileError(path, "file is " + sizeText(static_cast<uint64_t>(st.st_size)) + ", over the " +
                                  sizeText(kind.maxBytes) + " limit for " + withArticle(kind.noun));
}

[[noreturn]] void throwErrno(const std::string& path, int err, const char* verb) {
    if (err == ENOENT || err == ENOTDIR)
        throw FileError(path, "no such file");
    throw FileError(path, std::string(verb) + std::strerror(err));
}

/// Closes the descriptor on every path out.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

FileError::FileError(std::string file, std::string problem)
    : std::runtime_error(file + ": " + problem)
    , file_(std::move(file))
    , problem_(std::move(problem)) {}

uint64_t checkUserFile(const std::string& path, const FileKind& kind) {
    if (path.empty())
        throw FileError(path, "no file name given");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throwErrno(path, errno, "cannot be accessed: ");
    checkStat(path, st, kind);
    return static_cast<uint64_t>(st.st_size);
}

OpenUserFile::OpenUserFile(const std::string& path, const FileKind& kind)
    : path_(path) {
    // stat() first gives the clearer message for a folder or a missing file; the descriptor check below is
    // what makes it safe (the path may change in between).
    checkUserFile(path, kind);
    // O_NONBLOCK: opening a FIFO never waits for a writer; O_NOCTTY: a terminal never becomes ours.
    Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
    if (f.fd < 0)
        throwErrno(path, errno, "cannot be read: ");
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throwErrno(path, errno, "cannot be read: ");
    checkStat(path, st, kind);
    size_ = static_cast<uint64_t>(st.st_size);
    std::swap(fd_, f.fd);
}

OpenUserFile::~OpenUserFile() {
    if (fd_ >= 0)
        ::close(fd_);
}

void OpenUserFile::checkReadWhole(uint64_t consumed) const {
    if (consumed < size_)
        throw FileError(path_, "cannot be read completely (the file changed while it was read)");
    if (consumed > size_)
        throw FileError(path_, "the file grew while it was read");
}

void OpenUserFile::throwReadError(int err) const {
    throwErrno(path_, err, "cannot be read: ");
}

std::string readUserFile(const std::string& path, const FileKind& kind) {
    const OpenUserFile file(path, kind);
    std::string bytes(static_cast<size_t>(file.size()), '\0');
    size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(file.descriptor(), bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            file.throwReadError(errno);
        if (n == 0)
            break;
        got += static_cast<size_t>(n);
    }
    char extra = 0;
    if (got == bytes.size() && ::read(file.descriptor(), &extra, 1) > 0)
        ++got;
    file.checkReadWhole(got);
    return bytes;
}

void writeFileAtomically(const std::string& path, const std::string& text) {
    writeFileAtomically(path, [&](const std::function<void(std::string_view)>& append) { append(text); });
}

void writeFileAtomically(const std::string& path,
                         const std::function<void(const std::function<void(std::string_view)>&)>& produce) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw FileError(path, "cannot write: is a directory");
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw FileError(path,
                        std::string("cannot write: is ") + typeName(st.st_mode) + ", not a regular file");
    std::string tmp = path + ".XXXXXX";
    Fd f{::mkstemp(tmp.data())};
    if (f.fd < 0)
        throw FileError(path, std::string("cannot write: ") + std::strerror(errno));
    auto append = [&](std::string_view text) {
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(f.fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                throw FileError(path, std::string("write failed: ") + std::strerror(errno));
            done += static_cast<size_t>(n);
        }
    };
    try {
        produce(append);
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
    // mkstemp makes the file 0600; a report or profile is an ordinary shareable file (umask() cannot be
    // read without changing it, which would race with other threads).
    ::fchmod(f.fd, 0644);
    if (::close(f.fd) != 0) {
        f.fd = -1;
        const int err = errno;
        ::unlink(tmp.c_str());
        throw FileError(path, std::string("write failed: ") + std::strerror(err));
    }
    f.fd = -1;
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw FileError(path, std::string("cannot write: ") + std::strerror(err));
    }
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa {
    }, sb{};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

} // namespace bpu
