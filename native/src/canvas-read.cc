// Reading a node-canvas canvas's pixels where cairo keeps them, without the copy toBuffer('raw')
// makes. That copy was a new Buffer of the whole strip every frame (0.33 MB for the 640x160
// scroll's 640x128 strip, 1 MB for each 1920x128 one): written, read once by the converter,
// freed; and the Buffer's own objects were the largest allocation left on the JS heap a frame.
//
//   canvasReader(CanvasClass, format)  -> read | null   null when node-canvas's library is not
//                                                        loaded or lacks a symbol below
//   read(canvas, x, width, height, dst, dstOffset, dstStride)
//       converts canvas columns [x, x+width) of rows [0, height) into dst at dstOffset, rows
//       dstStride bytes apart, in `format`: the converter's path for a frame, so the same bytes.
//
// How the surface is reached, and why it is safe enough to rely on:
// - node-canvas (3.x) wraps each Canvas with node-addon-api's ObjectWrap, which hands napi_wrap
//   the C++ Canvas object; napi_unwrap gives it back to any addon of the same isolate.
// - Canvas::ensureSurface() is exported by canvas.node (node-canvas marks the inline accessors
//   built on it, data() and stride(), DLL_PUBLIC for other addons). Under the Itanium C++ ABI
//   (x86-64 and arm64 alike) a non-virtual member function takes `this` as its first argument.
// - cairo's functions are looked up through canvas.node's handle, so they are the same cairo
//   that drew the pixels; the helper does not link cairo itself.
// - read() refuses anything that is not an instance of the Canvas class it was given (so no
//   other wrapped object reaches ensureSurface), any surface that is not an opaque RGB24 image,
//   and rectangles outside it. The surface is flushed first, as toBuffer does.
#include <dlfcn.h>
#include <link.h>
#include <napi.h>
#include <cstring>
#include <string>
#include "convert.h"

namespace {

constexpr int kCairoSurfaceTypeImage = 0;  // CAIRO_SURFACE_TYPE_IMAGE
constexpr int kCairoFormatRgb24 = 1;       // CAIRO_FORMAT_RGB24

struct Cairo {
  void* (*ensureSurface)(void* canvas);
  void (*flush)(void* surface);
  int (*type)(void* surface);
  int (*format)(void* surface);
  int (*width)(void* surface);
  int (*height)(void* surface);
  int (*stride)(void* surface);
  unsigned char* (*data)(void* surface);
};

struct Reader {
  Napi::FunctionReference canvasClass;
  PixelFormat format;
  Cairo cairo;
};

int FindCanvasNode(struct dl_phdr_info* info, size_t, void* out) {
  const char* name = info->dlpi_name;
  size_t n = name ? std::strlen(name) : 0;
  static const char suffix[] = "/canvas.node";
  if (n >= sizeof suffix - 1 && std::strcmp(name + n - (sizeof suffix - 1), suffix) == 0) {
    *static_cast<std::string*>(out) = name;
    return 1;
  }
  return 0;
}

template <typename F>
bool Find(void* handle, const char* symbol, F& into) {
  into = reinterpret_cast<F>(dlsym(handle, symbol));
  return into != nullptr;
}

bool LoadCairo(Cairo& c) {
  std::string path;
  dl_iterate_phdr(FindCanvasNode, &path);
  if (path.empty()) return false;
  // RTLD_NOLOAD: the library node already loaded, or nothing; the handle is kept for the process.
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return false;
  return Find(handle, "_ZN6Canvas13ensureSurfaceEv", c.ensureSurface) &&
         Find(handle, "cairo_surface_flush", c.flush) &&
         Find(handle, "cairo_surface_get_type", c.type) &&
         Find(handle, "cairo_image_surface_get_format", c.format) &&
         Find(handle, "cairo_image_surface_get_width", c.width) &&
         Find(handle, "cairo_image_surface_get_height", c.height) &&
         Find(handle, "cairo_image_surface_get_stride", c.stride) &&
         Find(handle, "cairo_image_surface_get_data", c.data);
}

Napi::Value Read(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* r = static_cast<Reader*>(info.Data());
  if (info.Length() < 7 || !info[0].IsObject() || !info[0].As<Napi::Object>().InstanceOf(r->canvasClass.Value()))
    throw Napi::TypeError::New(env, "read(canvas: Canvas, x, width, height, dst, dstOffset, dstStride)");
  void* canvas = nullptr;
  if (napi_unwrap(env, info[0], &canvas) != napi_ok || !canvas) throw Napi::TypeError::New(env, "not a live canvas");
  int x = info[1].As<Napi::Number>().Int32Value(), w = info[2].As<Napi::Number>().Int32Value();
  int h = info[3].As<Napi::Number>().Int32Value();
  auto dst = info[4].As<Napi::Uint8Array>();
  int64_t off = info[5].As<Napi::Number>().Int64Value(), dstStride = info[6].As<Napi::Number>().Int64Value();
  void* surface = r->cairo.ensureSurface(canvas);
  if (!surface || r->cairo.type(surface) != kCairoSurfaceTypeImage || r->cairo.format(surface) != kCairoFormatRgb24)
    throw Napi::TypeError::New(env, "not an opaque image canvas");
  if (x < 0 || w <= 0 || h <= 0 || x + w > r->cairo.width(surface) || h > r->cairo.height(surface))
    throw Napi::RangeError::New(env, "rectangle outside the canvas");
  size_t rowBytes = size_t(w) * (r->format.bpp / 8);
  if (off < 0 || dstStride < int64_t(rowBytes) || size_t(off) + size_t(h - 1) * size_t(dstStride) + rowBytes > dst.ByteLength())
    throw Napi::RangeError::New(env, "destination too small for the rectangle");
  r->cairo.flush(surface);
  int srcStride = r->cairo.stride(surface);
  const uint8_t* src = r->cairo.data(surface);
  if (!src) throw Napi::Error::New(env, "canvas has no pixels");
  ConvertRgba(src + size_t(x) * 4, w, h, dst.Data() + off, size_t(dstStride), r->format, nullptr, size_t(srcStride));
  return env.Undefined();
}

Napi::Value CanvasReader(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsFunction() || !info[1].IsObject())
    throw Napi::TypeError::New(env, "canvasReader(CanvasClass, format)");
  PixelFormat f = FormatFromJs(info[1].As<Napi::Object>());
  if (!FormatValid(f)) throw Napi::RangeError::New(env, "unsupported pixel format");
  Cairo cairo{};
  if (!LoadCairo(cairo)) return env.Null();
  auto* r = new Reader{Napi::Persistent(info[0].As<Napi::Function>()), f, cairo};
  env.AddCleanupHook([r]() { delete r; });
  return Napi::Function::New(env, Read, "read", r);
}

}  // namespace

Napi::Function InitCanvasReader(Napi::Env env) {
  return Napi::Function::New(env, CanvasReader, "canvasReader");
}
