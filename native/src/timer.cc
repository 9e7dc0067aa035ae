// The frame loop's clock: one timerfd (CLOCK_MONOTONIC) watched by a uv_poll_t on node's own
// event loop, calling back into JS through MakeCallback (node runs the microtasks after it, as
// after any callback of its own).
//
// Why not setTimeout: every setTimeout makes a Timeout, a timer list for its duration when none
// is pending, and an async-context entry when it fires, some 0.75 KB of young-generation heap a
// frame at 50 frames a second; and node's timers count whole milliseconds from the start of the
// loop's turn, so a grid of 20 ms frames is kept only by re-arming each one. A timerfd is
// re-armed in place with microseconds, and a wake-up makes only what every turn of node's event
// loop makes (56 bytes: node 20's check phase, Environment::CheckImmediate, creates an empty
// object as the resource of its native immediates each turn, whatever ran; found with gdb).
// A setTimeout wake-up makes some 450 (both measured in test/render/frame-clock.test.ts).
//
//   new FrameTimer(callback)  one timerfd; the callback gets no arguments
//   arm(us)                   fires once, us microseconds from now; <= 0 fires at the next poll
//                             (whole microseconds: a small integer crosses from JS unboxed)
//   disarm()                  nothing fires (the loop may exit while disarmed)
//   close()                   releases the fd; arm() afterwards throws EBADF
#include <sys/timerfd.h>
#include <unistd.h>
#include <uv.h>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include "errors.h"

namespace {

class FrameTimer : public Napi::ObjectWrap<FrameTimer> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "FrameTimer", {
      InstanceMethod("arm", &FrameTimer::Arm),
      InstanceMethod("disarm", &FrameTimer::Disarm),
      InstanceMethod("close", &FrameTimer::Close),
    });
  }

  explicit FrameTimer(const Napi::CallbackInfo& info) : Napi::ObjectWrap<FrameTimer>(info), context_(info.Env(), "mlds:frame-timer") {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsFunction()) throw Napi::TypeError::New(env, "new FrameTimer(callback: () => void)");
    callback_ = Napi::Persistent(info[0].As<Napi::Function>());
    fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd_ < 0) ThrowErrno(env, "timerfd_create", "frame timer");
    uv_loop_t* loop = nullptr;
    napi_get_uv_event_loop(env, &loop);
    poll_ = new uv_poll_t;
    if (int rc = uv_poll_init(loop, poll_, fd_); rc != 0) {
      delete poll_;
      poll_ = nullptr;
      ::close(fd_);
      fd_ = -1;
      throw ErrnoError(env, -rc, "uv_poll_init", "frame timer");
    }
    poll_->data = this;
  }

  ~FrameTimer() override { Release(); }

 private:
  Napi::Value Arm(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!poll_) throw ErrnoError(env, EBADF, "arm", "frame timer");
    double us = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : 0;
    // it_value zero would disarm: the earliest expiry is one nanosecond.
    int64_t ns = std::isfinite(us) && us > 0 ? int64_t(us * 1e3) : 1;
    if (ns < 1) ns = 1;
    itimerspec spec{};
    spec.it_value.tv_sec = time_t(ns / 1000000000);
    spec.it_value.tv_nsec = long(ns % 1000000000);
    if (timerfd_settime(fd_, 0, &spec, nullptr) != 0) ThrowErrno(env, "timerfd_settime", "frame timer");
    // The fd stays in node's epoll set from the first arm to close(): stopping and starting the
    // poll for every frame cost three epoll_ctl calls a frame. While nothing is armed the handle
    // is unreferenced, so it keeps no process alive.
    if (!polling_) {
      uv_poll_start(poll_, UV_READABLE, OnReadable);
      polling_ = true;
    }
    uv_ref(reinterpret_cast<uv_handle_t*>(poll_));
    return env.Undefined();
  }

  Napi::Value Disarm(const Napi::CallbackInfo& info) {
    if (poll_) {
      itimerspec off{};
      timerfd_settime(fd_, 0, &off, nullptr);
      uv_unref(reinterpret_cast<uv_handle_t*>(poll_));
    }
    return info.Env().Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Release();
    return info.Env().Undefined();
  }

  void Stop() {
    if (polling_) uv_poll_stop(poll_);
    polling_ = false;
  }

  // The handle outlives this object until libuv has closed it: it is freed in the close callback.
  void Release() {
    if (!poll_) return;
    Stop();
    poll_->data = reinterpret_cast<void*>(intptr_t(fd_));
    uv_close(reinterpret_cast<uv_handle_t*>(poll_), [](uv_handle_t* h) {
      ::close(int(intptr_t(h->data)));
      delete reinterpret_cast<uv_poll_t*>(h);
    });
    poll_ = nullptr;
    fd_ = -1;
  }

  static void OnReadable(uv_poll_t* handle, int status, int) {
    auto* self = static_cast<FrameTimer*>(handle->data);
    uint64_t expirations;
    // Drained whatever happened: an expiry re-armed before this poll reads EAGAIN and waits.
    if (status < 0 || read(self->fd_, &expirations, sizeof expirations) != sizeof expirations) return;
    // One shot: nothing more comes until the next arm(), and the process may exit meanwhile.
    uv_unref(reinterpret_cast<uv_handle_t*>(handle));
    Napi::Env env = self->Env();
    Napi::HandleScope scope(env);
    try {
      self->callback_.MakeCallback(self->Value(), {}, self->context_);
    } catch (const Napi::Error& e) {
      // As a throwing setTimeout callback: the process's uncaught-exception handling decides.
      napi_fatal_exception(env, e.Value());
    }
  }

  Napi::FunctionReference callback_;
  Napi::AsyncContext context_;
  uv_poll_t* poll_ = nullptr;
  int fd_ = -1;
  bool polling_ = false;
};

}  // namespace

Napi::Function InitFrameTimer(Napi::Env env) { return FrameTimer::Init(env); }
