// A connected UDP socket with batched sends, for DDP: one sendmmsg per picture instead of one
// send per 1440-byte packet. Connected, so an ICMP "port unreachable" from a receiver that went
// away comes back as ECONNREFUSED on a later send, or from takeError() between sends.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cerrno>
#include "batch.h"
#include "errors.h"

namespace {

class UdpSocket : public Napi::ObjectWrap<UdpSocket> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "UdpSocket", {
      InstanceMethod("sendBatch", &UdpSocket::SendBatch),
      InstanceMethod("takeError", &UdpSocket::TakeError),
      InstanceMethod("close", &UdpSocket::Close),
    });
  }

  // new UdpSocket(ipv4Address, port)
  explicit UdpSocket(const Napi::CallbackInfo& info) : Napi::ObjectWrap<UdpSocket>(info) {
    Napi::Env env = info.Env();
    std::string host = info[0].ToString().Utf8Value();
    int port = info[1].ToNumber().Int32Value();
    tx_.name = host + ":" + std::to_string(port);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(uint16_t(port));
    if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) throw ErrnoError(env, EINVAL, "inet_pton", host);
    tx_.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (tx_.fd < 0) ThrowErrno(env, "socket", tx_.name);
    int sndbuf = 4 << 20;
    setsockopt(tx_.fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (connect(tx_.fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) < 0) {
      int err = errno;
      tx_.Close();
      throw ErrnoError(env, err, "connect", tx_.name);
    }
  }

 private:
  Napi::Value SendBatch(const Napi::CallbackInfo& info) { return tx_.SendJs(info); }

  // takeError() -> Error | null: the error the kernel recorded for the socket since the last
  // send or call (SO_ERROR, which also clears it). The ICMP that says a receiver refused a
  // picture arrives after the sendmmsg that carried it has returned; without this it would
  // only show up by failing the next picture.
  Napi::Value TakeError(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (tx_.fd < 0) return env.Null();
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(tx_.fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
    if (err == 0) return env.Null();
    return ErrnoError(env, err, "send (reported afterwards)", tx_.name).Value();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    tx_.Close();
    return info.Env().Undefined();
  }

  BatchSender tx_;
};

}  // namespace

Napi::Function InitUdpSocket(Napi::Env env) { return UdpSocket::Init(env); }
