// Studio-swing luma of 8-bit pixels as src/internal/luma.ts computes it, for the modules that read 8-bit pixels (luma,
// dwt, edgeAnomaly, medianResidual): y = 16 + ((65.481 R + 128.553 G) + 24.966 B) * INV_255, grey pixels
// 16 + (219 v) * INV_255, the same float64 operations in the same order (each an IEEE operation rounded to nearest, as
// V8's), so every module's luma equals the JavaScript luma bit for bit. Not a module itself (scripts/build-wasm.mjs
// builds only assembly/*.ts): everything here is inlined into its callers.
//
// The vector forms take their weights as f64x2 arguments, so each module keeps its own way of holding them across a
// loop: constants (`f64x2.splat(RED)`: luma, medianResidual), or loads from `lumaWeights()` (dwt, edgeAnomaly), which
// spare V8 rebuilding a constant vector at every use inside the loop.

/** 1 / 255 as a float64, the `INV_255` of src/internal/luma.ts (the same IEEE division, folded at compile time). */
export const INV_255: f64 = 1.0 / 255.0;

/** The weights of R, G and B, and of a grey level. */
export const RED: f64 = 65.481, GREEN: f64 = 128.553, BLUE: f64 = 24.966, GREY: f64 = 219;

/**
 * Address of the luma constants, each twice (f64x2), at these byte offsets: `AT_RED`, `AT_GREEN`, `AT_BLUE`,
 * `AT_GREY`, `AT_INV_255`, `AT_SIXTEEN`, then `AT_HALF` (0.5, for floor(y + 0.5)) and `AT_ZERO`. A function, so that a
 * module that does not load them carries no copy of them in its static data.
 */
export function lumaWeights(): usize {
  return memory.data<f64>([RED, RED, GREEN, GREEN, BLUE, BLUE, GREY, GREY, INV_255, INV_255, 16, 16, 0.5, 0.5, 0, 0], 16);
}
export const AT_RED = 0, AT_GREEN = 16, AT_BLUE = 32, AT_GREY = 48, AT_INV_255 = 64, AT_SIXTEEN = 80, AT_HALF = 96, AT_ZERO = 112;

/** Luma of the 8-bit pixel of `channels` (1 to 4; R, G, B from 3 on) samples at `p`, as `lumaBytes` computes it. */
// @ts-ignore: decorator
@inline export function pixelLuma(p: usize, channels: i32): f64 {
  return channels >= 3
    ? 16 + (RED * <f64>load<u8>(p) + GREEN * <f64>load<u8>(p, 1) + BLUE * <f64>load<u8>(p, 2)) * INV_255
    : 16 + GREY * <f64>load<u8>(p) * INV_255;
}

/** Int32 lanes 0 and 1 of `q` as float64x2. */
// @ts-ignore: decorator
@inline export function lanes01(q: v128): v128 {
  return f64x2.convert_low_i32x4_s(q);
}

/** Int32 lanes 2 and 3 of `q` as float64x2. */
// @ts-ignore: decorator
@inline export function lanes23(q: v128): v128 {
  return f64x2.convert_low_i32x4_s(i32x4.shuffle(q, q, 2, 3, 2, 3));
}

/**
 * 16 + ((kr r + kg g) + kb b) * inv of float64 lanes: the luma of two RGB pixels with the weights of `lumaWeights()`
 * (also of two grey pixels with the weights 219, 0, 0, since adding +0 leaves 219 v as it is).
 */
// @ts-ignore: decorator
@inline export function rgbLuma(r: v128, g: v128, b: v128, kr: v128, kg: v128, kb: v128, inv: v128, sixteen: v128): v128 {
  return f64x2.add(sixteen, f64x2.mul(f64x2.add(f64x2.add(f64x2.mul(kr, r), f64x2.mul(kg, g)), f64x2.mul(kb, b)), inv));
}

/** 16 + (k v) * inv of float64 lanes: the luma of two grey pixels (k = 219). */
// @ts-ignore: decorator
@inline export function greyLuma(v: v128, k: v128, inv: v128, sixteen: v128): v128 {
  return f64x2.add(sixteen, f64x2.mul(f64x2.mul(k, v), inv));
}

/** Two float64x2 rounded to float32 (as a Float32Array store rounds) in one f32x4: lanes a0 a1 b0 b1. */
// @ts-ignore: decorator
@inline export function float32x4(a: v128, b: v128): v128 {
  return i32x4.shuffle(f32x4.demote_f64x2_zero(a), f32x4.demote_f64x2_zero(b), 0, 1, 4, 5);
}

/** Float32 luma of the 4 RGB pixels whose samples are the int32 lanes of `r`, `g` and `b`. */
// @ts-ignore: decorator
@inline export function rgbLuma4(r: v128, g: v128, b: v128, kr: v128, kg: v128, kb: v128, inv: v128, sixteen: v128): v128 {
  return float32x4(rgbLuma(lanes01(r), lanes01(g), lanes01(b), kr, kg, kb, inv, sixteen), rgbLuma(lanes23(r), lanes23(g), lanes23(b), kr, kg, kb, inv, sixteen));
}

/** Float32 luma of the 4 grey pixels in the int32 lanes of `v`. */
// @ts-ignore: decorator
@inline export function greyLuma4(v: v128, k: v128, inv: v128, sixteen: v128): v128 {
  return float32x4(greyLuma(lanes01(v), k, inv, sixteen), greyLuma(lanes23(v), k, inv, sixteen));
}
