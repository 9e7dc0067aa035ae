// Brightness tables without a byte-by-byte lookup. A linear-light table (src/output/pixel-format.ts
// brightnessTable) is affine wherever input and output sit on the sRGB power curve, so
//   lut[v] = floor((floor(v * K / 256) + E) / 256) + D      for v >= t, with 0 <= E < 256
// holds for some K, E, D, and the table is arbitrary only below t (the curve's linear toe), a few
// 16-entry blocks. In 16-bit lanes that is mulhi(v << 8, K), an add and a shift per channel, plus
// a shuffle lookup for the toe, blended per byte. Build() finds K, E, D and t for the table it is
// given, checking all 256 entries, so a table either takes the fast path with exactly its own
// bytes or is refused (the scalar loop then runs).
//
// Toe lookup, 16 blocks of 16 entries with one shuffle each: block k is looked up with index
// v - 16k; the shuffle gives 0 when bit 7 of the index is set, so a byte v in block j collects
// blocks max(0, j-7)..j, provided a later block k is at most 8 past j (v - 16k wraps to a
// positive index after that): so at most 9 blocks. Blocks are stored as XOR differences so that
// those collections add up to block j: S_j = T_j (j < 8), T_j ^ S_(j-8) (j >= 8), P_k = S_k ^ S_(k-1).
#include "brightness.h"
#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace {

#if defined(__x86_64__)
struct Plan {
  uint8_t lut[256];
  bool built = false, ok = false;
  int t = 0;                 // first byte value on the affine part; toe blocks = ceil(t / 16)
  uint16_t k = 0, e = 0;
  uint8_t dSub = 0;  // -D
  bool addToe = false;  // t == 16 and the line stays under the table there: add delta[v] instead of blending
  alignas(16) uint8_t blocks[16][16];
  alignas(16) uint8_t delta[16];
};

// Any (K, E) with every v >= t inside [lut*256, (lut+1)*256) works; the slope between the two
// ends of the range is within a few hundred units of K, so a small search finds one.
bool Fit(const uint8_t* lut, int t, Plan& p) {
  const int span = 255 - t;
  const long k0 = span > 0 ? long(lut[255] - lut[t]) * 65536 / span : 0;
  for (long d = 0; d <= 1024; d++) {
    for (long k : {k0 + d, k0 - d}) {
      if (k < 0 || k > 65535) continue;
      long lo = -(1L << 30), hi = 1L << 30;
      for (int v = t; v < 256 && lo <= hi; v++) {
        const long a = v * k / 256;
        lo = std::max(lo, long(lut[v]) * 256 - a);
        hi = std::min(hi, long(lut[v] + 1) * 256 - 1 - a);
      }
      if (lo > hi) continue;
      // A positive D folds into E while the sum stays in 16 bits; a negative one is a saturating
      // byte subtract after packing (the toe, where it would clip, is blended over).
      long e = ((lo % 256) + 256) % 256, dd = (lo - e) / 256;
      if (dd > 0) e += dd * 256, dd = 0;
      if (dd < -255 || 255 * k / 256 + e > 65535) continue;
      p.k = uint16_t(k), p.e = uint16_t(e), p.dSub = uint8_t(-dd);
      return true;
    }
  }
  return false;
}

void Build(const uint8_t* lut, Plan& p) {
  memcpy(p.lut, lut, 256);
  p.built = true, p.ok = false;
  for (int t = 0; t <= 144 && !p.ok; t += 16)  // at most 9 toe blocks: see the lookup's comment
    if (Fit(lut, t, p)) p.t = t, p.ok = true;
  if (!p.ok) return;
  uint8_t s[16][16];
  for (int j = 0; j < 16; j++)
    for (int l = 0; l < 16; l++) s[j][l] = lut[j * 16 + l] ^ (j >= 8 ? s[j - 8][l] : 0);
  for (int k = 0; k < 16; k++)
    for (int l = 0; l < 16; l++) p.blocks[k][l] = s[k][l] ^ (k > 0 ? s[k - 1][l] : 0);
  p.addToe = p.t == 16;
  for (int v = 0; v < 16; v++) {
    const int line = std::max(0, int((((v * 256L) * p.k >> 16) + p.e) >> 8) - p.dSub);
    p.addToe = p.addToe && lut[v] >= line;
    p.delta[v] = uint8_t(lut[v] - line);
  }
}

// Frames of one panel share one table, so a plan is built only when a table is new; a few are
// kept for controllers driving several panels at different brightness.
thread_local Plan cached[4];
thread_local unsigned nextSlot = 0;

const Plan* PlanFor(const uint8_t* lut) {
  for (const Plan& p : cached)
    if (p.built && memcmp(p.lut, lut, 256) == 0) return p.ok ? &p : nullptr;
  Plan& p = cached[nextSlot++ % 4];
  Build(lut, p);
  return p.ok ? &p : nullptr;
}

// 16 channel values held as v << 8 to floor((floor(v * K / 256) + E) / 256).
__attribute__((target("avx2"))) inline __m256i Affine16(__m256i v8, const __m256i& k, const __m256i& e) {
  return _mm256_srli_epi16(_mm256_add_epi16(_mm256_mulhi_epu16(v8, k), e), 8);
}

// Scales r, g, b (every byte, alpha included; the swizzle drops it) of 8 pixels and places them
// by `order`, a per-lane byte shuffle, then ORs in the format's transparency bits. Toe: 0 none,
// 1 one block added to the line (its index saturates past 15 to a zeroing one), 2 blocks blended.
template <int Toe, bool Alpha>
__attribute__((target("avx2"))) void Rows32Avx2(const Plan& p, const uint8_t* src, uint8_t* dst, int w, int h,
                                                  size_t srcStride, size_t stride, const uint8_t order[16], uint32_t tmask) {
  const __m256i zero = _mm256_setzero_si256(), k = _mm256_set1_epi16(short(p.k)), e = _mm256_set1_epi16(short(p.e));
  const __m256i dSub = _mm256_set1_epi8(char(p.dSub)), above15 = _mm256_set1_epi8(0x70);
  const __m256i sixteen = _mm256_set1_epi8(16), toeMax = _mm256_set1_epi8(char(p.t > 0 ? p.t - 1 : 0));
  const __m256i shuf = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(order)));
  const __m256i alpha = _mm256_set1_epi32(int(tmask));
  const __m256i delta = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(p.delta)));
  const int nb = (p.t + 15) / 16;
  __m256i tab[16];
  for (int b = 0; b < nb; b++) tab[b] = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(p.blocks[b])));
  const int vec = w / 8;
  for (int y = 0; y < h; y++) {
    const uint8_t* s = src + size_t(y) * srcStride;
    uint8_t* d = dst + size_t(y) * stride;
    for (int i = 0; i < vec; i++) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i * 32));
      __m256i out = _mm256_packus_epi16(Affine16(_mm256_unpacklo_epi8(zero, x), k, e),
                                        Affine16(_mm256_unpackhi_epi8(zero, x), k, e));
      out = _mm256_subs_epu8(out, dSub);
      if (Toe == 1) out = _mm256_adds_epu8(out, _mm256_shuffle_epi8(delta, _mm256_adds_epu8(x, above15)));
      if (Toe == 2) {
        __m256i idx = x, toe = zero;
        for (int b = 0; b < nb; b++, idx = _mm256_sub_epi8(idx, sixteen)) toe = _mm256_xor_si256(toe, _mm256_shuffle_epi8(tab[b], idx));
        const __m256i inToe = _mm256_cmpeq_epi8(_mm256_min_epu8(x, toeMax), x);
        out = _mm256_blendv_epi8(out, toe, inToe);
      }
      out = _mm256_shuffle_epi8(out, shuf);
      if (Alpha) out = _mm256_or_si256(out, alpha);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * 32), out);
    }
    for (int x = vec * 8; x < w; x++) {
      uint32_t px = 0;
      for (int c = 0; c < 4; c++)
        if (order[c] < 4) px |= uint32_t(p.lut[s[x * 4 + order[c]]]) << (8 * c);
      px |= tmask;
      memcpy(d + x * 4, &px, 4);
    }
  }
}

template <bool Alpha>
void Rows32Avx2For(const Plan& p, const uint8_t* src, uint8_t* dst, int w, int h, size_t srcStride, size_t stride,
                   const uint8_t order[16], uint32_t tmask) {
  if (p.t == 0) Rows32Avx2<0, Alpha>(p, src, dst, w, h, srcStride, stride, order, tmask);
  else if (p.addToe) Rows32Avx2<1, Alpha>(p, src, dst, w, h, srcStride, stride, order, tmask);
  else Rows32Avx2<2, Alpha>(p, src, dst, w, h, srcStride, stride, order, tmask);
}
#elif defined(__aarch64__)
// NEON looks up 64 table bytes per instruction, so the whole table is four lookups and any table
// is exact without a fit: tbx leaves lanes whose index is out of its 64 entries alone.
inline uint8x16_t Lookup(const uint8x16x4_t t[4], uint8x16_t v) {
  const uint8x16_t step = vdupq_n_u8(64);
  uint8x16_t r = vqtbl4q_u8(t[0], v);
  v = vsubq_u8(v, step), r = vqtbx4q_u8(r, t[1], v);
  v = vsubq_u8(v, step), r = vqtbx4q_u8(r, t[2], v);
  v = vsubq_u8(v, step);
  return vqtbx4q_u8(r, t[3], v);
}

void Rows32Neon(const uint8_t* lut, const uint8_t* src, uint8_t* dst, int w, int h, size_t srcStride, size_t stride,
                const int byteOf[3], uint32_t tmask) {
  const uint8x16x4_t t[4] = {vld1q_u8_x4(lut), vld1q_u8_x4(lut + 64), vld1q_u8_x4(lut + 128), vld1q_u8_x4(lut + 192)};
  const int vec = w / 16;
  for (int y = 0; y < h; y++) {
    const uint8_t* s = src + size_t(y) * srcStride;
    uint8_t* d = dst + size_t(y) * stride;
    for (int i = 0; i < vec; i++) {
      const uint8x16x4_t px = vld4q_u8(s + i * 64);  // planes r, g, b, a
      uint8x16x4_t out;
      for (int b = 0; b < 4; b++) out.val[b] = vdupq_n_u8(uint8_t(tmask >> (8 * b)));
      for (int c = 0; c < 3; c++) out.val[byteOf[c]] = Lookup(t, px.val[c]);
      vst4q_u8(d + i * 64, out);
    }
    for (int x = vec * 16; x < w; x++) {
      uint32_t v = tmask;
      for (int c = 0; c < 3; c++) v |= uint32_t(lut[s[x * 4 + c]]) << (8 * byteOf[c]);
      memcpy(d + x * 4, &v, 4);
    }
  }
}
#endif

}  // namespace

bool ConvertRows32WithTable(const uint8_t* src, int w, int h, uint8_t* dst, size_t stride, size_t srcStride,
                            const int byteOf[3], uint32_t tmask, const uint8_t* lut) {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx2")) return false;
  const Plan* p = PlanFor(lut);
  if (!p) return false;
  // order[d] = source byte for destination byte d within a pixel, 0x80 = zero.
  uint8_t order[16];
  for (int px = 0; px < 4; px++) {
    for (int b = 0; b < 4; b++) order[px * 4 + b] = 0x80;
    for (int c = 0; c < 3; c++) order[px * 4 + byteOf[c]] = uint8_t(px * 4 + c);
  }
  if (tmask) Rows32Avx2For<true>(*p, src, dst, w, h, srcStride, stride, order, tmask);
  else Rows32Avx2For<false>(*p, src, dst, w, h, srcStride, stride, order, tmask);
  return true;
#elif defined(__aarch64__)
  Rows32Neon(lut, src, dst, w, h, srcStride, stride, byteOf, tmask);
  return true;
#else
  (void)src, (void)w, (void)h, (void)dst, (void)stride, (void)srcStride, (void)byteOf, (void)tmask, (void)lut;
  return false;
#endif
}
