#include "convert.h"
#include "brightness.h"
#include <cstring>

namespace {

// x86-64 baseline (SSE2) lacks the byte shuffles these loops want; pick AVX2 at load time when present.
#if defined(__x86_64__)
#define HOT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define HOT_LOOP
#endif

int Field(const Napi::Object& o, const char* name, const char* key) {
  Napi::Value v = o.Get(name);
  if (!v.IsObject()) return 0;
  return v.As<Napi::Object>().Get(key).ToNumber().Int32Value();
}

inline uint32_t Pack(uint32_t c, int off, int len) {
  return len <= 0 ? 0 : (len >= 8 ? c << (len - 8) : c >> (8 - len)) << off;
}

// The common layouts get loops with constant shifts so the compiler vectorises them;
// these run on every frame of every panel, the generic path only on odd hardware.
inline uint32_t Load32(const uint8_t* s) {
  uint32_t p;
  memcpy(&p, s, 4);  // unaligned-safe; compiles to one load
  return p;
}

// Without a brightness table each pixel is one 32-bit word (R in the low byte on little-endian
// hosts) and the conversion is lane-wise masks and shifts, which vectorise cleanly.
template <bool Lut>
HOT_LOOP void RowXrgb8888(const uint8_t* __restrict s, uint32_t* __restrict d, int w, uint32_t tmask, const uint8_t* lut) {
  for (int x = 0; x < w; x++, s += 4) {
    if (Lut) {
      d[x] = (uint32_t(lut[s[0]]) << 16) | (uint32_t(lut[s[1]]) << 8) | lut[s[2]] | tmask;
    } else {
      uint32_t p = Load32(s);
      d[x] = ((p & 0xff) << 16) | (p & 0xff00) | ((p >> 16) & 0xff) | tmask;
    }
  }
}

template <bool Lut>
HOT_LOOP void Row32(const uint8_t* __restrict s, uint32_t* __restrict d, int w, const PixelFormat& f, uint32_t tmask, const uint8_t* lut) {
  const int ro = f.off[0], go = f.off[1], bo = f.off[2];
  for (int x = 0; x < w; x++, s += 4) {
    uint32_t r, g, b;
    if (Lut) {
      r = lut[s[0]], g = lut[s[1]], b = lut[s[2]];
    } else {
      uint32_t p = Load32(s);
      r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
    }
    d[x] = (r << ro) | (g << go) | (b << bo) | tmask;
  }
}

template <bool Lut>
HOT_LOOP void RowRgb565(const uint8_t* __restrict s, uint16_t* __restrict d, int w, const uint8_t* lut) {
  for (int x = 0; x < w; x++, s += 4) {
    if (Lut) {
      uint32_t r = lut[s[0]], g = lut[s[1]], b = lut[s[2]];
      d[x] = uint16_t(((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3));
    } else {
      uint32_t p = Load32(s);
      d[x] = uint16_t(((p & 0xf8) << 8) | ((p >> 5) & 0x7e0) | ((p >> 19) & 0x1f));
    }
  }
}

template <bool Lut>
void Row24(const uint8_t* s, uint8_t* d, int w, int ri, int gi, int bi, const uint8_t* lut) {
  for (int x = 0; x < w; x++, s += 4, d += 3) {
    d[ri] = Lut ? lut[s[0]] : s[0];
    d[gi] = Lut ? lut[s[1]] : s[1];
    d[bi] = Lut ? lut[s[2]] : s[2];
  }
}

void RowGeneric(const uint8_t* s, uint8_t* d, int w, const PixelFormat& f, const uint8_t* lut) {
  const int bytes = f.bpp / 8;
  const uint32_t t = Pack(0xff, f.off[3], f.len[3]);
  for (int x = 0; x < w; x++, s += 4, d += bytes) {
    uint32_t r = lut ? lut[s[0]] : s[0], g = lut ? lut[s[1]] : s[1], b = lut ? lut[s[2]] : s[2];
    uint32_t v = Pack(r, f.off[0], f.len[0]) | Pack(g, f.off[1], f.len[1]) | Pack(b, f.off[2], f.len[2]) | t;
    for (int i = 0; i < bytes; i++) d[i] = uint8_t(v >> (8 * i));  // framebuffers are little-endian here
  }
}

bool Is(const PixelFormat& f, int bpp, int ro, int rl, int go, int gl, int bo, int bl) {
  return f.bpp == bpp && f.off[0] == ro && f.len[0] == rl && f.off[1] == go && f.len[1] == gl &&
         f.off[2] == bo && f.len[2] == bl;
}

bool Bytewise(const PixelFormat& f) {
  for (int c = 0; c < 3; c++)
    if (f.len[c] != 8 || f.off[c] % 8 != 0) return false;
  return f.len[3] == 0 || (f.len[3] == 8 && f.off[3] % 8 == 0);
}

template <bool Lut>
void ConvertT(const uint8_t* src, int w, int h, uint8_t* dst, size_t stride, const PixelFormat& f, const uint8_t* lut, size_t srcStride) {
  const uint32_t tmask = Pack(0xff, f.off[3], f.len[3]);
  const bool row32 = f.bpp == 32 && Bytewise(f);
  for (int y = 0; y < h; y++) {
    const uint8_t* s = src + size_t(y) * srcStride;
    uint8_t* d = dst + size_t(y) * stride;
    if (Is(f, 32, 16, 8, 8, 8, 0, 8)) RowXrgb8888<Lut>(s, reinterpret_cast<uint32_t*>(d), w, tmask, lut);
    else if (row32) Row32<Lut>(s, reinterpret_cast<uint32_t*>(d), w, f, tmask, lut);
    else if (Is(f, 16, 11, 5, 5, 6, 0, 5)) RowRgb565<Lut>(s, reinterpret_cast<uint16_t*>(d), w, lut);
    else if (f.bpp == 24 && Bytewise(f)) Row24<Lut>(s, d, w, f.off[0] / 8, f.off[1] / 8, f.off[2] / 8, lut);
    else RowGeneric(s, d, w, f, lut);
  }
}

}  // namespace

PixelFormat FormatFromJs(const Napi::Object& o) {
  PixelFormat f{};
  f.bpp = o.Get("bitsPerPixel").ToNumber().Int32Value();
  const char* names[4] = {"red", "green", "blue", "transp"};
  for (int c = 0; c < 4; c++) {
    f.off[c] = Field(o, names[c], "offset");
    f.len[c] = Field(o, names[c], "length");
  }
  return f;
}

bool FormatValid(const PixelFormat& f) {
  if (f.bpp != 8 && f.bpp != 16 && f.bpp != 24 && f.bpp != 32) return false;
  for (int c = 0; c < 4; c++)
    if (f.off[c] < 0 || f.len[c] < 0 || f.len[c] > 16 || f.off[c] + f.len[c] > f.bpp) return false;
  return true;
}

void ConvertRgba(const uint8_t* src, int w, int h, uint8_t* dst, size_t stride, const PixelFormat& f, const uint8_t* lut, size_t srcStride) {
  if (srcStride == 0) srcStride = size_t(w) * 4;
  if (lut && f.bpp == 32 && Bytewise(f)) {
    const int byteOf[3] = {f.off[0] / 8, f.off[1] / 8, f.off[2] / 8};
    if (ConvertRows32WithTable(src, w, h, dst, stride, srcStride, byteOf, Pack(0xff, f.off[3], f.len[3]), lut)) return;
  }
  if (lut) ConvertT<true>(src, w, h, dst, stride, f, lut, srcStride);
  else ConvertT<false>(src, w, h, dst, stride, f, nullptr, srcStride);
}

// convert(rgba, width, height, dst, dstOffset, stride, format, lut?, srcStride?) for packet
// payloads, tests and benchmarks: the framebuffer's code path, into an ordinary buffer.
// A srcStride larger than width*4 converts a column strip, e.g. one packet's share of every row.
Napi::Value ConvertJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto src = info[0].As<Napi::Uint8Array>();
  int w = info[1].ToNumber().Int32Value(), h = info[2].ToNumber().Int32Value();
  auto dst = info[3].As<Napi::Uint8Array>();
  size_t off = info[4].ToNumber().Int64Value(), stride = info[5].ToNumber().Int64Value();
  PixelFormat f = FormatFromJs(info[6].As<Napi::Object>());
  const uint8_t* lut = nullptr;
  if (info.Length() > 7 && info[7].IsTypedArray()) {
    auto l = info[7].As<Napi::Uint8Array>();
    if (l.ByteLength() != 256) throw Napi::RangeError::New(env, "brightness table must have 256 entries");
    lut = l.Data();
  }
  size_t srcStride = info.Length() > 8 && info[8].IsNumber() ? size_t(info[8].ToNumber().Int64Value()) : size_t(w) * 4;
  if (!FormatValid(f)) throw Napi::RangeError::New(env, "unsupported pixel format");
  if (w <= 0 || h <= 0 || srcStride < size_t(w) * 4 || src.ByteLength() < (h - 1) * srcStride + size_t(w) * 4)
    throw Napi::RangeError::New(env, "source smaller than its rows");
  if (stride < size_t(w) * (f.bpp / 8) || off + (h - 1) * stride + size_t(w) * (f.bpp / 8) > dst.ByteLength())
    throw Napi::RangeError::New(env, "destination too small for the frame");
  ConvertRgba(src.Data(), w, h, dst.Data() + off, stride, f, lut, srcStride);
  return env.Undefined();
}
