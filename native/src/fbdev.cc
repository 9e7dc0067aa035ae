// A Linux framebuffer device: the ioctls and the mapping the fbdev output needs, nothing else.
// Geometry queries throw (ENOTTY on a plain file) so a caller can inject geometry for tests.
#include <fcntl.h>
#include <linux/fb.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include "convert.h"
#include "errors.h"

namespace {

Napi::Object Bitfield(Napi::Env env, const fb_bitfield& b) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("offset", b.offset);
  o.Set("length", b.length);
  return o;
}

class VsyncWorker : public Napi::AsyncWorker {
 public:
  VsyncWorker(Napi::Env env, int fd, std::string path)
      : Napi::AsyncWorker(env), fd_(fd), path_(std::move(path)), deferred_(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override {
    __u32 crtc = 0;
    if (ioctl(fd_, FBIO_WAITFORVSYNC, &crtc) == 0) supported_ = true;
    else err_ = errno;
  }
  void OnOK() override {
    Napi::Env env = Env();
    // Most DRM fbdev emulations (bochs among them) do not implement it: that is "no vsync", not a fault.
    if (supported_ || err_ == ENOTTY || err_ == EINVAL || err_ == ENOSYS || err_ == EOPNOTSUPP)
      deferred_.Resolve(Napi::Boolean::New(env, supported_));
    else
      deferred_.Reject(ErrnoError(env, err_, "ioctl FBIO_WAITFORVSYNC", path_).Value());
  }

 private:
  int fd_;
  std::string path_;
  Napi::Promise::Deferred deferred_;
  bool supported_ = false;
  int err_ = 0;
};

class FbDevice : public Napi::ObjectWrap<FbDevice> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "FbDevice", {
      InstanceMethod("varInfo", &FbDevice::VarInfo),
      InstanceMethod("fixInfo", &FbDevice::FixInfo),
      InstanceMethod("map", &FbDevice::Map),
      InstanceMethod("draw", &FbDevice::Draw),
      InstanceMethod("clear", &FbDevice::Clear),
      InstanceMethod("pan", &FbDevice::Pan),
      InstanceMethod("waitVsync", &FbDevice::WaitVsync),
      InstanceMethod("blank", &FbDevice::Blank),
      InstanceMethod("close", &FbDevice::Close),
    });
  }

  explicit FbDevice(const Napi::CallbackInfo& info) : Napi::ObjectWrap<FbDevice>(info) {
    path_ = info[0].ToString().Utf8Value();
    fd_ = open(path_.c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0) ThrowErrno(info.Env(), "open", path_);
  }
  ~FbDevice() override { Release(); }

 private:
  void Release() {
    if (map_) munmap(map_, mapLen_);
    map_ = nullptr;
    mapLen_ = 0;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  void NeedOpen(Napi::Env env) {
    if (fd_ < 0) throw ErrnoError(env, EBADF, "framebuffer closed", path_);
  }

  Napi::Value VarInfo(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    fb_var_screeninfo v{};
    if (ioctl(fd_, FBIOGET_VSCREENINFO, &v) < 0) ThrowErrno(env, "ioctl FBIOGET_VSCREENINFO", path_);
    Napi::Object o = Napi::Object::New(env);
    o.Set("xres", v.xres);
    o.Set("yres", v.yres);
    o.Set("xresVirtual", v.xres_virtual);
    o.Set("yresVirtual", v.yres_virtual);
    o.Set("xoffset", v.xoffset);
    o.Set("yoffset", v.yoffset);
    o.Set("bitsPerPixel", v.bits_per_pixel);
    o.Set("grayscale", v.grayscale);
    o.Set("red", Bitfield(env, v.red));
    o.Set("green", Bitfield(env, v.green));
    o.Set("blue", Bitfield(env, v.blue));
    o.Set("transp", Bitfield(env, v.transp));
    return o;
  }

  Napi::Value FixInfo(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    fb_fix_screeninfo f{};
    if (ioctl(fd_, FBIOGET_FSCREENINFO, &f) < 0) ThrowErrno(env, "ioctl FBIOGET_FSCREENINFO", path_);
    Napi::Object o = Napi::Object::New(env);
    o.Set("id", std::string(f.id, strnlen(f.id, sizeof f.id)));
    o.Set("smemLen", f.smem_len);
    o.Set("lineLength", f.line_length);
    o.Set("type", f.type);
    o.Set("visual", f.visual);
    o.Set("ypanstep", f.ypanstep);
    return o;
  }

  Napi::Value Map(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    size_t len = info[0].ToNumber().Int64Value();
    if (map_) munmap(map_, mapLen_);
    map_ = nullptr;
    void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) ThrowErrno(env, "mmap", path_);
    map_ = static_cast<uint8_t*>(p);
    mapLen_ = len;
    return env.Undefined();
  }

  // draw(rgba, width, height, byteOffset, stride, format, lut?, srcStride?)
  // A srcStride larger than width*4 draws a rectangle of a larger frame (its changed part).
  Napi::Value Draw(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!map_) throw ErrnoError(env, EBADF, "draw before map", path_);
    auto src = info[0].As<Napi::Uint8Array>();
    int w = info[1].ToNumber().Int32Value(), h = info[2].ToNumber().Int32Value();
    size_t off = info[3].ToNumber().Int64Value(), stride = info[4].ToNumber().Int64Value();
    PixelFormat f = FormatFromJs(info[5].As<Napi::Object>());
    const uint8_t* lut = info.Length() > 6 && info[6].IsTypedArray() ? info[6].As<Napi::Uint8Array>().Data() : nullptr;
    size_t srcStride = info.Length() > 7 && info[7].IsNumber() ? size_t(info[7].ToNumber().Int64Value()) : size_t(w) * 4;
    if (!FormatValid(f)) throw Napi::RangeError::New(env, "unsupported pixel format");
    if (w <= 0 || h <= 0 || srcStride < size_t(w) * 4 || src.ByteLength() < size_t(h - 1) * srcStride + size_t(w) * 4) {
      throw Napi::RangeError::New(env, "frame smaller than its rows");
    }
    // The mapping is the device's memory: a write past it would fault the whole service.
    if (off + size_t(h - 1) * stride + size_t(w) * (f.bpp / 8) > mapLen_) throw Napi::RangeError::New(env, "frame does not fit the framebuffer");
    ConvertRgba(src.Data(), w, h, map_ + off, stride, f, lut, srcStride);
    return env.Undefined();
  }

  Napi::Value Clear(const Napi::CallbackInfo& info) {
    if (map_) memset(map_, 0, mapLen_);
    return info.Env().Undefined();
  }

  Napi::Value Pan(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    fb_var_screeninfo v{};
    if (ioctl(fd_, FBIOGET_VSCREENINFO, &v) < 0) ThrowErrno(env, "ioctl FBIOGET_VSCREENINFO", path_);
    v.xoffset = info[0].ToNumber().Uint32Value();
    v.yoffset = info[1].ToNumber().Uint32Value();
    if (ioctl(fd_, FBIOPAN_DISPLAY, &v) < 0) ThrowErrno(env, "ioctl FBIOPAN_DISPLAY", path_);
    return env.Undefined();
  }

  Napi::Value WaitVsync(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    auto* w = new VsyncWorker(env, fd_, path_);
    Napi::Promise p = w->Promise();
    w->Queue();
    return p;
  }

  Napi::Value Blank(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NeedOpen(env);
    int level = info[0].ToNumber().Int32Value();
    if (ioctl(fd_, FBIOBLANK, level) < 0) ThrowErrno(env, "ioctl FBIOBLANK", path_);
    return env.Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Release();
    return info.Env().Undefined();
  }

  std::string path_;
  int fd_ = -1;
  uint8_t* map_ = nullptr;
  size_t mapLen_ = 0;
};

}  // namespace

Napi::Function InitFbDevice(Napi::Env env) { return FbDevice::Init(env); }
