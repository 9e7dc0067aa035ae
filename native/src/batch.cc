#include "batch.h"
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include "errors.h"

namespace {
constexpr unsigned kBatch = 1024;  // UIO_MAXIOV bounds one sendmmsg call

int64_t NowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}
}  // namespace

void BatchSender::Close() {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Napi::Value BatchSender::SendJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (fd < 0) throw ErrnoError(env, EBADF, "sendmmsg", name);
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
    int r = sendmmsg(fd, &msgs_[sent], chunk, MSG_DONTWAIT);
    if (r > 0) {
      sent += size_t(r);
      continue;
    }
    if (r < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR) ThrowErrno(env, "sendmmsg", name);
    int left = int(deadline - NowMs());
    if (left <= 0) throw ErrnoError(env, ETIMEDOUT, "sendmmsg (queue full)", name);
    pollfd pfd{fd, POLLOUT, 0};
    poll(&pfd, 1, std::min(left, 5));
  }
  return Napi::Number::New(env, double(sent));
}
