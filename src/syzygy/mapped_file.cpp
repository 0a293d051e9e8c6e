#include "syzygy/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace arbiter::syzygy {

std::string MappedFile::map(const std::string& path) {
    unmap();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        return reason;
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        return "not a regular file";
    }
    if (info.st_size == 0) {
        ::close(fd);
        return "empty file";
    }
    void* address = ::mmap(nullptr, size_t(info.st_size), PROT_READ, MAP_SHARED, fd, 0);
    const int map_errno = errno;
    ::close(fd);  // the mapping keeps the file open
    if (address == MAP_FAILED) return std::strerror(map_errno);
    data_ = static_cast<const uint8_t*>(address);
    size_ = size_t(info.st_size);
    mapped_by_us_ = true;
    return {};
}

void MappedFile::view(std::span<const uint8_t> bytes) {
    unmap();
    data_ = bytes.data();
    size_ = bytes.size();
}

void MappedFile::unmap() {
    if (data_ && mapped_by_us_) ::munmap(const_cast<uint8_t*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
    mapped_by_us_ = false;
}

}  // namespace arbiter::syzygy
