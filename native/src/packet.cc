// Raw Ethernet on one interface (AF_PACKET/SOCK_RAW): what a Colorlight receiver card speaks.
// Sends are batched with sendmmsg because a 512x512 panel is over a thousand frames per picture.
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <vector>
#include "errors.h"

namespace {

constexpr unsigned kBatch = 1024;  // UIO_MAXIOV bounds one sendmmsg call

int64_t NowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

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
    ifname_ = info[0].ToString().Utf8Value();
    int proto = info.Length() > 1 ? info[1].ToNumber().Int32Value() : 0;
    if (ifname_.size() >= IFNAMSIZ) throw ErrnoError(env, ENAMETOOLONG, "interface name", ifname_);
    fd_ = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
    if (fd_ < 0) ThrowErrno(env, "socket AF_PACKET", ifname_);
    ifreq ifr{};
    strncpy(ifr.ifr_name, ifname_.c_str(), IFNAMSIZ - 1);
    if (ioctl(fd_, SIOCGIFINDEX, &ifr) < 0) Fail(env, "ioctl SIOCGIFINDEX");
    sockaddr_ll sll{};
    sll.sll_family = AF_PACKET;
    sll.sll_ifindex = ifr.ifr_ifindex;
    sll.sll_protocol = htons(proto);
    if (bind(fd_, reinterpret_cast<sockaddr*>(&sll), sizeof sll) < 0) Fail(env, "bind");
    // Room for a whole large frame, so a picture rarely waits for the NIC mid-way.
    int sndbuf = 8 << 20;
    setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (proto != 0) {
      // A receiving socket (discovery, test captures) must hold a whole picture's burst;
      // FORCE passes rmem_max when we are root, plain RCVBUF is the unprivileged fallback.
      int rcvbuf = 8 << 20;
      if (setsockopt(fd_, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) < 0)
        setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    }
  }
  ~PacketSocket() override {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  [[noreturn]] void Fail(Napi::Env env, const char* what) {
    int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw ErrnoError(env, err, what, ifname_);
  }

  // sendBatch(buf, lengths: Uint32Array, timeoutMs) sends the packets laid end to end in buf.
  // Returns how many went out; throws on a real error or when the queue stays full past timeoutMs.
  Napi::Value SendBatch(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (fd_ < 0) throw ErrnoError(env, EBADF, "sendmmsg", ifname_);
    auto buf = info[0].As<Napi::Uint8Array>();
    auto lens = info[1].As<Napi::Uint32Array>();
    int timeoutMs = info.Length() > 2 ? info[2].ToNumber().Int32Value() : 50;
    size_t n = lens.ElementLength(), total = 0;
    for (size_t i = 0; i < n; i++) total += lens[i];
    if (total > buf.ByteLength()) throw Napi::RangeError::New(env, "packet lengths exceed the buffer");

    iov_.resize(n);
    msgs_.resize(n);
    uint8_t* p = buf.Data();
    for (size_t i = 0; i < n; i++) {
      iov_[i] = {p, lens[i]};
      p += lens[i];
      memset(&msgs_[i], 0, sizeof(mmsghdr));
      msgs_[i].msg_hdr.msg_iov = &iov_[i];
      msgs_[i].msg_hdr.msg_iovlen = 1;
    }
    size_t sent = 0;
    int64_t deadline = NowMs() + timeoutMs;
    while (sent < n) {
      unsigned chunk = unsigned(std::min<size_t>(n - sent, kBatch));
      int r = sendmmsg(fd_, &msgs_[sent], chunk, MSG_DONTWAIT);
      if (r > 0) {
        sent += size_t(r);
        continue;
      }
      if (r < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR) ThrowErrno(env, "sendmmsg", ifname_);
      int left = int(deadline - NowMs());
      if (left <= 0) throw ErrnoError(env, ETIMEDOUT, "sendmmsg (queue full)", ifname_);
      pollfd pfd{fd_, POLLOUT, 0};
      poll(&pfd, 1, std::min(left, 5));
    }
    return Napi::Number::New(env, double(sent));
  }

  // recv() -> Buffer | null without blocking; callers poll on a timer.
  Napi::Value Recv(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (fd_ < 0) throw ErrnoError(env, EBADF, "recv", ifname_);
    uint8_t buf[2048];
    sockaddr_ll from{};
    socklen_t fl = sizeof from;
    for (;;) {
      ssize_t r = recvfrom(fd_, buf, sizeof buf, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&from), &fl);
      if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return env.Null();
        if (errno == EINTR) continue;
        ThrowErrno(env, "recvfrom", ifname_);
      }
      // Our own transmissions loop back to a packet socket; only what arrived counts.
      if (from.sll_pkttype == PACKET_OUTGOING) continue;
      return Napi::Buffer<uint8_t>::Copy(env, buf, size_t(r));
    }
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    return info.Env().Undefined();
  }

  std::string ifname_;
  int fd_ = -1;
  std::vector<iovec> iov_;
  std::vector<mmsghdr> msgs_;
};

}  // namespace

Napi::Function InitPacketSocket(Napi::Env env) { return PacketSocket::Init(env); }
