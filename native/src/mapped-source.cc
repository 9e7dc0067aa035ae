// mappedSource(path): an ASCII file as a JS string whose characters stay in the file: V8 holds
// an external one-byte string over a read-only private mapping of it, so the bundle's source
// (1.7 MB, which V8 keeps for as long as the script lives, for the functions it compiles
// lazily) is a file's pages the kernel can drop and read again, and only those a compilation
// read are resident, instead of a copy on the JS heap.
//
// The caller vouches that the file is ASCII (the bundle is built with esbuild's charset
// 'ascii'): one byte a character is how V8 reads it. It must be replaced by rename, never
// rewritten in place: a mapped page past a truncation would fault (SIGBUS) when read.
// An empty file gives "". Throws with errno on open, fstat or mmap failing.
//
// V8 hashes a script's whole source when it looks it up in its compilation cache, so every page
// is read once at the start; releaseMemory() (memory.cc) then drops them from the process
// (DropMappedSourcePages): they stay in the page cache, and come back when a compilation reads
// them again.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <napi.h>
#include <v8.h>
#include <algorithm>
#include <cerrno>
#include <vector>
#include "errors.h"
#include "mapped-source.h"

namespace {

// The live mappings, main thread only (strings are made and collected there).
std::vector<std::pair<const char*, size_t>> mappings;

class MappedFile : public v8::String::ExternalOneByteStringResource {
 public:
  MappedFile(const char* data, size_t length) : data_(data), length_(length) { mappings.emplace_back(data, length); }
  ~MappedFile() override {
    mappings.erase(std::remove(mappings.begin(), mappings.end(), std::make_pair(data_, length_)), mappings.end());
    munmap(const_cast<char*>(data_), length_);
  }
  const char* data() const override { return data_; }
  size_t length() const override { return length_; }

 private:
  const char* data_;
  size_t length_;
};

Napi::Value MappedSource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(env, "mappedSource(path: string)");
  std::string file = info[0].As<Napi::String>().Utf8Value();
  int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) ThrowErrno(env, "open", file.c_str());
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    throw ErrnoError(env, e, "fstat", file.c_str());
  }
  size_t size = size_t(st.st_size);
  if (size == 0) {
    close(fd);
    return Napi::String::New(env, "");
  }
  void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  close(fd);
  if (p == MAP_FAILED) throw ErrnoError(env, e, "mmap", file.c_str());
  auto* resource = new MappedFile(static_cast<const char*>(p), size);
  v8::Isolate* isolate = v8::Isolate::GetCurrent();
  v8::Local<v8::String> s;
  if (!v8::String::NewExternalOneByte(isolate, resource).ToLocal(&s)) {
    delete resource;
    throw Napi::RangeError::New(env, "file too large for a string");
  }
  // napi_value is a v8::Local<v8::Value> under another name (node's v8impl does the same cast).
  return Napi::Value(env, reinterpret_cast<napi_value>(*s));
}

}  // namespace

void DropMappedSourcePages() {
  // A private read-only mapping that was never written: dropping its pages loses nothing.
  for (const auto& [data, length] : mappings) madvise(const_cast<char*>(data), length, MADV_DONTNEED);
}

Napi::Function InitMappedSource(Napi::Env env) {
  return Napi::Function::New(env, MappedSource, "mappedSource");
}
