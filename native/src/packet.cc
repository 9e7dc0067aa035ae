// Raw Ethernet on one interface (AF_PACKET/SOCK_RAW): what a Colorlight receiver card speaks.
// Sends are batched with sendmmsg because a 512x512 panel is over a thousand frames per picture.
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include "batch.h"
#include "errors.h"

namespace {

class PacketSocket : public Napi::ObjectWrap<PacketSocket> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "PacketSocket", {
      InstanceMethod("sendBatch", &PacketSocket::SendBatch),
      InstanceMethod("recv", &PacketSocket::Recv),
      InstanceMethod("close", &PacketSocket::Close),
    });
  }

  // new PacketSocket(ifname, etherTypeToReceive) — 0 receives nothing (send-only socket).
  explicit PacketSocket(const Napi::CallbackInfo& info) : Napi::ObjectWrap<PacketSocket>(info) {
    Napi::Env env = info.Env();
    tx_.name = info[0].ToString().Utf8Value();
    int proto = info.Length() > 1 ? info[1].ToNumber().Int32Value() : 0;
    if (tx_.name.size() >= IFNAMSIZ) throw ErrnoError(env, ENAMETOOLONG, "interface name", tx_.name);
    tx_.fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
    if (tx_.fd < 0) ThrowErrno(env, "socket AF_PACKET", tx_.name);
    ifreq ifr{};
    strncpy(ifr.ifr_name, tx_.name.c_str(), IFNAMSIZ - 1);
    if (ioctl(tx_.fd, SIOCGIFINDEX, &ifr) < 0) Fail(env, "ioctl SIOCGIFINDEX");
    sockaddr_ll sll{};
    sll.sll_family = AF_PACKET;
    sll.sll_ifindex = ifr.ifr_ifindex;
    sll.sll_protocol = htons(proto);
    if (bind(tx_.fd, reinterpret_cast<sockaddr*>(&sll), sizeof sll) < 0) Fail(env, "bind");
    // Room for a whole large frame, so a picture rarely waits for the NIC mid-way.
    int sndbuf = 8 << 20;
    setsockopt(tx_.fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (proto != 0) {
      // A receiving socket (discovery, test captures) must hold a whole picture's burst;
      // FORCE passes rmem_max when we are root, plain RCVBUF is the unprivileged fallback.
      int rcvbuf = 8 << 20;
      if (setsockopt(tx_.fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) < 0)
        setsockopt(tx_.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    }
  }

 private:
  [[noreturn]] void Fail(Napi::Env env, const char* what) {
    int err = errno;
    tx_.Close();
    throw ErrnoError(env, err, what, tx_.name);
  }

  Napi::Value SendBatch(const Napi::CallbackInfo& info) { return tx_.SendJs(info); }

  // recv() -> Buffer | null without blocking; callers poll on a timer.
  Napi::Value Recv(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (tx_.fd < 0) throw ErrnoError(env, EBADF, "recv", tx_.name);
    uint8_t buf[2048];
    sockaddr_ll from{};
    socklen_t fl = sizeof from;
    for (;;) {
      ssize_t r = recvfrom(tx_.fd, buf, sizeof buf, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&from), &fl);
      if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return env.Null();
        if (errno == EINTR) continue;
        ThrowErrno(env, "recvfrom", tx_.name);
      }
      // Our own transmissions loop back to a packet socket; only what arrived counts.
      if (from.sll_pkttype == PACKET_OUTGOING) continue;
      return Napi::Buffer<uint8_t>::Copy(env, buf, size_t(r));
    }
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    tx_.Close();
    return info.Env().Undefined();
  }

  BatchSender tx_;
};

}  // namespace

Napi::Function InitPacketSocket(Napi::Env env) { return PacketSocket::Init(env); }
