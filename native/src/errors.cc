#include "errors.h"
#include <cerrno>
#include <cstring>

Napi::Error ErrnoError(Napi::Env env, int err, const std::string& syscall, const std::string& path) {
  const char* name = strerrorname_np(err);
  std::string code = name ? name : "E" + std::to_string(err);
  std::string msg = code + ": " + strerror(err) + ", " + syscall + (path.empty() ? "" : " '" + path + "'");
  Napi::Error e = Napi::Error::New(env, msg);
  e.Set("code", Napi::String::New(env, code));
  e.Set("errno", Napi::Number::New(env, -err));
  e.Set("syscall", Napi::String::New(env, syscall));
  if (!path.empty()) e.Set("path", Napi::String::New(env, path));
  return e;
}

void ThrowErrno(Napi::Env env, const std::string& syscall, const std::string& path) {
  throw ErrnoError(env, errno, syscall, path);
}
