// sd_notify(3) without libsystemd: one datagram on an AF_UNIX socket to $NOTIFY_SOCKET.
// Node has no Unix datagram sockets, so the service's READY=1, STATUS= and WATCHDOG=1 go
// through here.
//
// Layout: the message is newline-separated VAR=value assignments in one datagram
// ("READY=1\nSTATUS=ready: 2 displays"). The address is a path ("/run/systemd/notify"),
// or, when it starts with '@', a Linux abstract socket: sun_path[0] = '\0' followed by the
// rest of the name, and the address length counts exactly the name (no terminating NUL).
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include "errors.h"

namespace {

// sdNotify(address, message) -> undefined; throws an errno Error (ENOENT: no such socket,
// ECONNREFUSED: nobody listens, EINVAL: an address that does not fit sockaddr_un).
Napi::Value SdNotify(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsString() || !info[1].IsString()) {
    throw Napi::TypeError::New(env, "sdNotify(address: string, message: string)");
  }
  std::string address = info[0].As<Napi::String>().Utf8Value();
  std::string message = info[1].As<Napi::String>().Utf8Value();
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  bool abstract = !address.empty() && address[0] == '@';
  // A path needs its NUL inside sun_path; an abstract name has the leading NUL instead.
  if (address.size() < 2 || address.size() > sizeof sa.sun_path - (abstract ? 0 : 1) ||
      (!abstract && address[0] != '/')) {
    throw ErrnoError(env, EINVAL, "sd_notify address", address);
  }
  std::memcpy(sa.sun_path, address.data(), address.size());
  if (abstract) sa.sun_path[0] = '\0';
  socklen_t len = socklen_t(offsetof(sockaddr_un, sun_path) + address.size() + (abstract ? 0 : 1));

  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) ThrowErrno(env, "socket", address);
  ssize_t n = sendto(fd, message.data(), message.size(), MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&sa), len);
  int err = errno;
  close(fd);
  if (n < 0) throw ErrnoError(env, err, "sendto", address);
  if (size_t(n) != message.size()) throw ErrnoError(env, EMSGSIZE, "sendto", address);
  return env.Undefined();
}

}  // namespace

Napi::Function InitSdNotify(Napi::Env env) { return Napi::Function::New(env, SdNotify, "sdNotify"); }
