// Errors thrown to JavaScript carry the errno name in `code` (as Node's own fs errors do),
// so callers and /status can tell ENOENT from EACCES without parsing messages.
#pragma once
#include <napi.h>
#include <string>

Napi::Error ErrnoError(Napi::Env env, int err, const std::string& syscall, const std::string& path = "");
[[noreturn]] void ThrowErrno(Napi::Env env, const std::string& syscall, const std::string& path = "");
