// Most of a started process's resident memory is its own code: node's text and read-only data
// (V8's snapshot, ICU's tables, the compilers), cairo, pango, and their libraries, touched
// once by the start and never again by a service that idles between clock ticks. They are
// clean file pages, which the kernel may drop at any time and read back on use; dropping them
// once the start is over only does it before there is pressure (the page cache keeps them,
// so a later use is a minor fault). Only what cannot be lost is dropped:
// - private mappings that are not writable and hold no anonymous page: a page the dynamic
//   linker relocated and then made read-only (RELRO) is anonymous, and is kept;
// - of the executable and shared objects (.so, .node), which stay mapped for the life of the
//   process: a file another thread maps and unmaps (a font, fontconfig's cache) could be
//   replaced by other memory between the reading of /proc/self/smaps and the madvise;
// - when /proc/self/smaps describes the process's own memory: qemu-user answers /proc/self/maps
//   for the guest but passes smaps through from the host (its own mappings, other
//   permissions), so where the executable's lines differ between the two nothing is dropped.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "loaded-objects.h"

namespace {

std::string ReadAll(const char* path) {
  std::string out;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

bool EndsWith(const std::string& s, const char* tail) {
  size_t n = strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

bool IsLoadedObject(const std::string& path, const std::string& exe) {
  if (path.empty() || path[0] != '/' || EndsWith(path, " (deleted)")) return false;
  if (path == exe || EndsWith(path, ".node")) return true;
  size_t so = path.rfind(".so");
  return so != std::string::npos && (so + 3 == path.size() || path[so + 3] == '.');
}

// A mapping's line of /proc/self/maps (and the first line of each in smaps).
struct Header { unsigned long start, end; char perms[8]; unsigned long long inode; std::string path; };

bool ParseHeader(const std::string& line, Header* h) {
  unsigned long long off;  // 64-bit on a 32-bit ARM too, as the inode
  char dev[16];
  int used = 0;
  if (sscanf(line.c_str(), "%lx-%lx %7s %llx %15s %llu %n", &h->start, &h->end, h->perms, &off, dev, &h->inode, &used) < 6 || used == 0) return false;
  h->path = line.substr(static_cast<size_t>(used));
  return true;
}

template <typename F>
void ForEachLine(const std::string& text, F f) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    f(text.substr(pos, eol - pos));
    pos = eol + 1;
  }
}

// The mapping lines of a maps- or smaps-format text that name `exe`, as written.
std::vector<std::string> ExeLines(const std::string& text, const std::string& exe) {
  std::vector<std::string> out;
  Header h;
  ForEachLine(text, [&](const std::string& line) {
    if (ParseHeader(line, &h) && h.path == exe) out.push_back(line);
  });
  return out;
}

struct Candidate { unsigned long start, end; size_t rss; };

}  // namespace

size_t DropLoadedObjectPages() {
  char exe_buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe_buf, sizeof exe_buf - 1);
  std::string exe = n > 0 ? std::string(exe_buf, static_cast<size_t>(n)) : std::string();
  const std::string smaps = ReadAll("/proc/self/smaps");
  const std::vector<std::string> exe_lines = ExeLines(smaps, exe);
  if (exe.empty() || exe_lines.empty() || exe_lines != ExeLines(ReadAll("/proc/self/maps"), exe)) return 0;

  std::vector<Candidate> drop;
  bool candidate = false;
  Candidate cur{0, 0, 0};
  Header h;
  ForEachLine(smaps, [&](const std::string& line) {
    if (ParseHeader(line, &h)) {
      candidate = h.inode != 0 && strlen(h.perms) == 4 && h.perms[0] == 'r' && h.perms[1] == '-' && h.perms[3] == 'p' && IsLoadedObject(h.path, exe);
      cur = Candidate{h.start, h.end, 0};
      return;
    }
    if (!candidate) return;
    long kb;
    if (sscanf(line.c_str(), "Rss: %ld kB", &kb) == 1) cur.rss = static_cast<size_t>(kb) * 1024;
    else if (sscanf(line.c_str(), "Anonymous: %ld kB", &kb) == 1) {
      if (kb == 0 && cur.rss > 0) drop.push_back(cur);
      candidate = false;
    }
  });

  size_t dropped = 0;
  for (const auto& c : drop)
    if (madvise(reinterpret_cast<void*>(c.start), c.end - c.start, MADV_DONTNEED) == 0) dropped += c.rss;
  return dropped;
}
