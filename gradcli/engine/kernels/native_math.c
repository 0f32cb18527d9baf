/* Compiled elementwise math, operation by operation as the numpy emulations it was ported from compute it (the
   references: tests/engine/test_native_math.py checks each pair bit for bit):
   - the fused multiply-add (fma, fmaf: IEEE, rounded once, as the FMA instructions in torch's kernels) over
     arrays (kernels/fused.py);
   - SLEEF's expf and exp, as torch 2.13's Vectorized<float/double>::exp calls them inside sigmoid, silu, ...
     (Sleef_expf16_u10 / Sleef_expd8_u10, FMA flavour: kernels/sleef.py);
   - the sum of squared deviations of a whole-tensor variance, in torch's order, and Welford's running mean and
     sum of squares of a variance over dims (ops/aggregates.py);
   - the C library's scalar functions mapped over arrays (kernels/libm.py: the same function, so the same bits);
   - MKL's float32 sin and cos, exp and sqrt (VML_HA) as torch hands whole float tensors to them (kernels/mkl_exp.py, mkl_sqrt.py);
   - SLEEF's powf as Vectorized<float>::pow calls it (Sleef_powf16_u10, AVX512 flavour: xpowf, with logkf through
     vgetexp/vgetmant, expkf, double-float arithmetic with fused multiply-adds: kernels/float32.py).
   Built with -ffp-contract=off: every fused multiply-add is an explicit fma/fmaf, every other operation rounds
   on its own. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef VARIANT
/* The kernels below are compiled twice: for CPUs with FMA instructions (fmaf becomes one instruction, 2x
   faster) and for any x86-64 or other CPU (fmaf is the C library's, as exact).  Same bits either way. */
typedef struct { float hi, lo; } df;
static inline float bits_to_float_plain(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
#define VARIANT(name) name##_any
#include "native_math.c"
#undef VARIANT
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define HAVE_FMA_VARIANT 1
#pragma GCC push_options
#pragma GCC target("fma")
#define VARIANT(name) name##_fma
#include "native_math.c"
#undef VARIANT
#pragma GCC pop_options
#endif


int64_t gradcli_math_abi(void) { return 8; }

#ifdef HAVE_FMA_VARIANT
#define DISPATCH(name, args) do { if (__builtin_cpu_supports("fma")) { name##_fma args; return; } \
                                  name##_any args; } while (0)
#else
#define DISPATCH(name, args) name##_any args
#endif

/* out[i] = a[i * a_step] * b[i * b_step] + c[i * c_step] rounded once, for i < n (a step of 0 repeats one value) */
void gradcli_fma_float32(const float *a, int64_t a_step, const float *b, int64_t b_step, const float *c,
                         int64_t c_step, float *out, int64_t n) {
    DISPATCH(fma32_loop, (a, a_step, b, b_step, c, c_step, out, n));
}

void gradcli_fma_float64(const double *a, int64_t a_step, const double *b, int64_t b_step, const double *c,
                         int64_t c_step, double *out, int64_t n) {
    DISPATCH(fma64_loop, (a, a_step, b, b_step, c, c_step, out, n));
}

/* out[i] = SLEEF's expf(x[i]) / exp(x[i]), as torch's Vectorized<float/double>::exp */
void gradcli_sleef_expf(const float *x, float *out, int64_t n) { DISPATCH(expf_loop, (x, out, n)); }

void gradcli_sleef_exp(const double *x, double *out, int64_t n) { DISPATCH(exp_loop, (x, out, n)); }

/* mean_out[r], var_out[r]: torch's RowwiseMoments of row r (rows of `size` contiguous elements) */
void gradcli_rowwise_moments_float32(const float *x, int64_t rows, int64_t size, float *mean_out, float *var_out) {
    DISPATCH(moments32_rows, (x, rows, size, mean_out, var_out));
}

void gradcli_layer_norm_affine_float32(const float *x, int64_t rows, int64_t n, const float *mean,
                                       const float *rstd, const float *w, const float *b, float *out) {
    DISPATCH(layer_norm32_affine, (x, rows, n, mean, rstd, w, b, out));
}

void gradcli_layer_norm_affine_float64(const double *x, int64_t rows, int64_t n, const double *mean,
                                       const double *rstd, const double *w, const double *b, double *out) {
    DISPATCH(layer_norm64_affine, (x, rows, n, mean, rstd, w, b, out));
}

void gradcli_bn_stats_image_float32(const float *x, int64_t rows, int64_t channels, int64_t image, float *mean,
                               float *squares) {
    DISPATCH(bn_stats_image_float32, (x, rows, channels, image, mean, squares));
}

void gradcli_bn_stats_rows_float32(const float *x, int64_t rows, int64_t channels, int64_t threads, float *buffer,
                              float *mean, float *squares) {
    DISPATCH(bn_stats_rows_float32, (x, rows, channels, threads, buffer, mean, squares));
}

void gradcli_bn_output_float32(const float *x, int64_t rows, int64_t channels, int64_t image, const float *alpha,
                          const float *beta, float *out) {
    DISPATCH(bn_output_float32, (x, rows, channels, image, alpha, beta, out));
}

void gradcli_bn_stats_image_float64(const double *x, int64_t rows, int64_t channels, int64_t image, double *mean,
                               double *squares) {
    DISPATCH(bn_stats_image_float64, (x, rows, channels, image, mean, squares));
}

void gradcli_bn_stats_rows_float64(const double *x, int64_t rows, int64_t channels, int64_t threads, double *buffer,
                              double *mean, double *squares) {
    DISPATCH(bn_stats_rows_float64, (x, rows, channels, threads, buffer, mean, squares));
}

void gradcli_bn_output_float64(const double *x, int64_t rows, int64_t channels, int64_t image, const double *alpha,
                          const double *beta, double *out) {
    DISPATCH(bn_output_float64, (x, rows, channels, image, alpha, beta, out));
}

void gradcli_layer_norm_buffers_float32(const float *dy, const float *x, const float *mean, const float *rstd,
                                        int64_t rows, int64_t n, int64_t threads, float *gamma, float *beta) {
    DISPATCH(ln_buffers32, (dy, x, mean, rstd, rows, n, threads, gamma, beta));
}

void gradcli_layer_norm_buffers_float64(const double *dy, const double *x, const double *mean, const double *rstd,
                                        int64_t rows, int64_t n, int64_t threads, double *gamma, double *beta) {
    DISPATCH(ln_buffers64, (dy, x, mean, rstd, rows, n, threads, gamma, beta));
}

void gradcli_bn_plane_sums_float32(const float *x, const float *dy, const float *mean, int64_t rows, int64_t channels,
                              int64_t image, double *total, double *dotp) {
    DISPATCH(bn_plane_sums_float32, (x, dy, mean, rows, channels, image, total, dotp));
}

void gradcli_bn_row_sums_float32(const float *x, const float *dy, const float *mean, int64_t rows, int64_t channels,
                            int64_t threads, float *buffer, double *total, double *dotp) {
    DISPATCH(bn_row_sums_float32, (x, dy, mean, rows, channels, threads, buffer, total, dotp));
}

void gradcli_bn_input_grad_float32(const float *x, const float *dy, const float *mean, const float *k,
                                   const float *grad_mean, const float *invstd, const float *w, int64_t rows,
                                   int64_t channels, int64_t image, int64_t train, float *out) {
    DISPATCH(bn_input_grad_float32, (x, dy, mean, k, grad_mean, invstd, w, rows, channels, image, (int)train, out));
}

void gradcli_bn_input_grad_float64(const double *x, const double *dy, const double *mean, const double *k,
                                   const double *grad_mean, const double *invstd, const double *w, int64_t rows,
                                   int64_t channels, int64_t image, int64_t train, double *out) {
    DISPATCH(bn_input_grad_float64, (x, dy, mean, k, grad_mean, invstd, w, rows, channels, image, (int)train, out));
}

void gradcli_bn_plane_sums_float64(const double *x, const double *dy, const double *mean, int64_t rows, int64_t channels,
                              int64_t image, double *total, double *dotp) {
    DISPATCH(bn_plane_sums_float64, (x, dy, mean, rows, channels, image, total, dotp));
}

void gradcli_bn_row_sums_float64(const double *x, const double *dy, const double *mean, int64_t rows, int64_t channels,
                            int64_t threads, double *buffer, double *total, double *dotp) {
    DISPATCH(bn_row_sums_float64, (x, dy, mean, rows, channels, threads, buffer, total, dotp));
}

/* group_norm over contiguous planes of `image` elements (kernels/moments.py's group_norm_forward/backward say the
   order): out = fma(scale[p], x, shift[p]); ds[p], db[p] = the AVX2 sums of dy * x and dy (the partial vector's
   product fused with `fuse_tail`); dx = fma(c1[p], dy, c2[p] * x) + c3[p] */
void gradcli_gn_affine_float32(const float *x, int64_t planes, int64_t image, const float *scale, const float *shift,
                               float *out) {
    DISPATCH(gn_affine_float32, (x, planes, image, scale, shift, out));
}

void gradcli_gn_affine_float64(const double *x, int64_t planes, int64_t image, const double *scale,
                               const double *shift, double *out) {
    DISPATCH(gn_affine_float64, (x, planes, image, scale, shift, out));
}

void gradcli_gn_sums_float32(const float *dy, const float *x, int64_t planes, int64_t image, int64_t fuse_tail,
                             float *ds, float *db) {
    DISPATCH(gn_sums_float32, (dy, x, planes, image, fuse_tail, ds, db));
}

void gradcli_gn_sums_float64(const double *dy, const double *x, int64_t planes, int64_t image, int64_t fuse_tail,
                             double *ds, double *db) {
    DISPATCH(gn_sums_float64, (dy, x, planes, image, fuse_tail, ds, db));
}

void gradcli_gn_dx_float32(const float *dy, const float *x, int64_t planes, int64_t image, const float *c1,
                           const float *c2, const float *c3, float *out) {
    DISPATCH(gn_dx_float32, (dy, x, planes, image, c1, c2, c3, out));
}

void gradcli_gn_dx_float64(const double *dy, const double *x, int64_t planes, int64_t image, const double *c1,
                           const double *c2, const double *c3, double *out) {
    DISPATCH(gn_dx_float64, (dy, x, planes, image, c1, c2, c3, out));
}

void gradcli_rowwise_moments_float64(const double *x, int64_t rows, int64_t size, double *mean_out,
                                     double *var_out) {
    DISPATCH(moments64_rows, (x, rows, size, mean_out, var_out));
}

/* out[i] = SLEEF's powf(x[i * x_step], y[i * y_step]) for i < n (a step of 0 repeats one value) */
void gradcli_sleef_powf(const float *x, int64_t x_step, const float *y, int64_t y_step, float *out, int64_t n) {
    DISPATCH(powf_loop, (x, x_step, y, y_step, out, n));
}

/* -- MKL's vector exp and sqrt (VML_HA), as torch hands whole tensors to them: kernels/mkl_exp.py and mkl_sqrt.py
   describe the algorithms; their tables (2**(j/n) as hi + lo, the rsqrt seeds) come from there.  No fused
   multiply-adds: every operation rounds on its own, as MKL's SSE code does. */

static inline uint32_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline uint64_t f64_bits(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
static inline double f64_from(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }

void gradcli_mkl_exp_float32(const float *x, float *out, int64_t n, const float *hi, const float *lo) {
    const float c1 = 0x1.715476p+7f, shifter = 0x1.8p+23f, ln2_hi = -0.0054168701171875f, ln2_lo = 0x1.bd0106p-20f;
    const float main_path = 0x1.5d589ep+6f;
    for (int64_t i = 0; i < n; i++) {
        float xi = x[i];
        if (!(fabsf(xi) <= main_path)) { out[i] = expf(xi); continue; }  /* MKL's other path: the C library's */
        float t = xi * c1 + shifter;
        float nn = t - shifter;
        uint32_t tb = f32_bits(t);
        uint32_t j = tb & 127;
        float r = nn * ln2_hi + xi;
        r = nn * ln2_lo + r;
        float q = r * r * 0.5f + r;
        float value = (q * hi[j] + lo[j]) + hi[j];
        out[i] = value * bits_to_float_plain(((tb << 16) + 0x3F800000u) & 0x7F800000u);
    }
}

void gradcli_mkl_exp_float64(const double *x, double *out, int64_t n, const double *hi, const double *lo) {
    const double c1 = 0x1.71547652b82fep+6, shifter = 0x1.8p+52, ln2_hi = 0x1.62e42fefa0000p-7,
                 ln2_lo = 0x1.cf79abc9e3b3ap-46, p4 = 0x1.111112d9f549bp-7, p3 = 0x1.555573f218b93p-5,
                 p2 = 0x1.555555555653ep-3, p1 = 0x1.fffffffffdb3bp-2, main_path = 0x1.6232a4086232ap+9;
    for (int64_t i = 0; i < n; i++) {
        double xi = x[i];
        if (!(fabs(xi) <= main_path)) { out[i] = exp(xi); continue; }
        double t = xi * c1 + shifter;
        double nn = t - shifter;
        uint64_t tb = f64_bits(t);
        uint64_t j = tb & 63;
        double r = (xi - nn * ln2_hi) - nn * ln2_lo;
        double q = (((r * p4 + p3) * r + p2) * r + p1) * (r * r) + r;
        double value = (q * hi[j] + lo[j]) + hi[j];
        out[i] = f64_from(f64_bits(value) + ((tb << 46) & 0xFFF0000000000000ull));
    }
}

void gradcli_mkl_sqrt_float32(const float *x, float *out, int64_t n, const int32_t *seeds) {
    for (int64_t i = 0; i < n; i++) {
        float xi = x[i];
        int32_t bits = (int32_t)f32_bits(xi);
        if (bits < 0x00800000 || bits >= 0x7F7FF001) {  /* zero, subnormal, negative, inf, nan, huge */
            out[i] = xi < 0 ? NAN : sqrtf(xi);
            continue;
        }
        int32_t exponent = (bits >> 23) & 0xFF;
        int32_t seed = seeds[(((exponent + 1) & 1) << 12) | ((bits >> 11) & 0xFFF)];
        float y = bits_to_float_plain((uint32_t)(seed - ((exponent - 127) >> 1) * (1 << 23)));
        float half = 0.5f, sv = xi * y, h = y * half;
        float e = half - sv * h;
        sv = sv * e + sv;
        h = h * e + h;
        out[i] = (xi - sv * sv) * h + sv;
    }
}

void gradcli_mkl_sqrt_float64(const double *x, double *out, int64_t n, const int32_t *seeds) {
    const double c1 = 0x1.ffffffffffe71p-2, c2 = 0x1.80000000000f6p-2, c3 = 0x1.40000b13001d9p-2,
                 c4 = 0x1.1800032338cbbp-2;
    for (int64_t i = 0; i < n; i++) {
        double xi = x[i];
        int64_t bits = (int64_t)f64_bits(xi);
        int64_t high = bits >> 32;
        if (high < 0x00100000 || high >= 0x7FD00000) {  /* zero, subnormal, negative, inf, nan, >= 2**1022 */
            out[i] = xi < 0 ? NAN : sqrt(xi);
            continue;
        }
        int64_t exponent = (bits >> 52) & 0x7FF;
        int64_t half_k = (exponent - 1023) >> 1;
        double x0 = xi * f64_from((uint64_t)(1023 - 2 * half_k) << 52);
        double y = (double)bits_to_float_plain((uint32_t)seeds[(((exponent + 1) & 1) << 12) | ((bits >> 40) & 0xFFF)]);
        double x_hi = f64_from(f64_bits(x0) & 0xFFFFFFFFF8000000ull);
        double x_lo = x0 - x_hi;
        double w = y * y;
        double e = (1.0 - x_hi * w) - x_lo * w;
        double t = (((e * c4 + c3) * e + c2) * e + c1) * e;
        double root = x_hi * y + (x_lo * y + (t * y) * x0);
        out[i] = root * f64_from((uint64_t)(1023 + half_k) << 52);
    }
}

/* -- MKL's float32 sin and cos for |x| <= 10000 (kernels/float32.py: the quotient from a float32 product, the
   reduction by pi in three pieces in double, one odd polynomial); other lanes are left to the caller. */

static const double TRIG_PI[3] = {0x1.921fb54000000p+1, 0x1.10b4610000000p-29, 0x1.a626330000000p-57};
static const double TRIG_C3 = -0x1.55554bc83664ep-3, TRIG_C5 = 0x1.110ed3804f162p-7, TRIG_C7 = -0x1.9f6ffeeae10d5p-13,
                    TRIG_C9 = 0x1.5dbdf0ea5eb5bp-19;

/* rint of |v| < 2**51 without a call: adding and removing 1.5 * 2**52 rounds to nearest, ties to even */
static inline double trig_rint(double v) { volatile double shifted = v + 0x1.8p52; return shifted - 0x1.8p52; }

static inline double trig_odd_poly(double r) {
    double s = r * r;
    return r + (r * s) * (((TRIG_C9 * s + TRIG_C7) * s + TRIG_C5) * s + TRIG_C3);
}

static inline double trig_reduced(float x, double halves) {
    double xd = (double)x;
    return ((xd - halves * (TRIG_PI[0] / 2)) - halves * (TRIG_PI[1] / 2)) - halves * (TRIG_PI[2] / 2);
}

void gradcli_mkl_sin_float32(const float *x, float *out, int64_t n) {
    const float inv_pi = (float)0.3183098861837907;
    for (int64_t i = 0; i < n; i++) {
        float xf = fabsf(x[i]) <= 10000.0f ? x[i] : 0.0f;
        double k = trig_rint((double)(xf * inv_pi));
        double p = trig_odd_poly(trig_reduced(xf, 2 * k));
        float value = (float)(((int64_t)k & 1) ? -p : p);
        out[i] = x[i] == 0 ? x[i] : value;
    }
}

void gradcli_mkl_cos_float32(const float *x, float *out, int64_t n) {
    const float inv_pi = (float)0.3183098861837907, half_pi = (float)1.5707963267948966;
    for (int64_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        float xf = a <= 10000.0f ? a : 0.0f;
        double k = trig_rint((double)((xf + half_pi) * inv_pi)) - 1;
        double p = trig_odd_poly(trig_reduced(xf, 2 * k + 1));
        out[i] = (float)(((int64_t)k & 1) == 0 ? -p : p);
    }
}

/* -- the sum of squared deviations from a mean, in double, one element after another (torch's std_var_all_cpu
   loop: `d = x - mean; s += d * d`, from 0.0), over n contiguous elements. */

double gradcli_squared_deviations_float32(const float *x, int64_t n, double mean) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) { double d = (double)x[i] - mean; s += d * d; }
    return s;
}

double gradcli_squared_deviations_float64(const double *x, int64_t n, double mean) {
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) { double d = x[i] - mean; s += d * d; }
    return s;
}

/* -- ATen's WelfordOps::reduce (SharedReduceOps.h) in double, one sequence per output (std_var_kernel's
   binary_kernel_reduce with more than one output: each output's elements one after another, in TensorIterator's
   order): mean += delta / n; m2 += delta * (x - mean), no fused multiply-add (torch's bits: none).  `rows`
   sequences of `k` elements, the r-th starting at x + r * row_stride, its elements `step` apart. */

#define WELFORD(T, NAME)                                                                                   \
    void NAME(const T *x, int64_t rows, int64_t k, int64_t row_stride, int64_t step, double *mean_out,     \
              double *m2_out) {                                                                            \
        for (int64_t r = 0; r < rows; r++) {                                                               \
            const T *p = x + r * row_stride;                                                               \
            double mean = 0.0, m2 = 0.0;                                                                   \
            for (int64_t i = 0; i < k; i++) {                                                              \
                double v = (double)p[i * step], delta = v - mean;                                          \
                mean = mean + delta / (double)(i + 1);                                                     \
                m2 = m2 + delta * (v - mean);                                                              \
            }                                                                                              \
            mean_out[r] = mean;                                                                            \
            m2_out[r] = m2;                                                                                \
        }                                                                                                  \
    }
WELFORD(float, gradcli_welford_float32)
WELFORD(double, gradcli_welford_float64)

/* -- the C library's scalar functions over arrays (kernels/libm.py): out[i] = fn(x[i]) in the argument's type,
   or a double function of float arguments rounded to float (`float_through_double`), as Python's math module
   computes on a float32 value. */

void gradcli_map_float64(double (*fn)(double), const double *x, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = fn(x[i]);
}

void gradcli_map_float32(float (*fn)(float), const float *x, float *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = fn(x[i]);
}

void gradcli_map_float_through_double(double (*fn)(double), const float *x, float *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = (float)fn((double)x[i]);
}

#else  /* the kernels, compiled once per VARIANT */

static inline df VARIANT(df_add2_ff)(float x, float y) { float s = x + y, v = s - x; df r = {s, (x - (s - v)) + (y - v)}; return r; }
static inline df VARIANT(df_add2_pf)(df x, float y) { float s = x.hi + y, v = s - x.hi; df r = {s, ((x.hi - (s - v)) + (y - v)) + x.lo}; return r; }
static inline df VARIANT(df_add2_pp)(df x, df y) { float s = x.hi + y.hi, v = s - x.hi; df r = {s, ((x.hi - (s - v)) + (y.hi - v)) + (x.lo + y.lo)}; return r; }
static inline df VARIANT(df_add_pp)(df x, df y) { float s = x.hi + y.hi; df r = {s, (((x.hi - s) + y.hi) + x.lo) + y.lo}; return r; }
static inline df VARIANT(df_add_fp)(float x, df y) { float s = x + y.hi; df r = {s, ((x - s) + y.hi) + y.lo}; return r; }
static inline df VARIANT(df_mul_pf)(df x, float y) { float s = x.hi * y; df r = {s, fmaf(x.lo, y, fmaf(x.hi, y, -s))}; return r; }
static inline df VARIANT(df_mul_pp)(df x, df y) { float s = x.hi * y.hi; df r = {s, fmaf(x.hi, y.lo, fmaf(x.lo, y.hi, fmaf(x.hi, y.hi, -s)))}; return r; }
static inline df VARIANT(df_sq)(df x) { float s = x.hi * x.hi; df r = {s, fmaf(x.hi + x.hi, x.lo, fmaf(x.hi, x.hi, -s))}; return r; }
static inline df VARIANT(df_div)(df n, df d) {
    float t = 1.0f / d.hi, s = n.hi * t, u = fmaf(t, n.hi, -s);
    float v = fmaf(-d.lo, t, fmaf(-d.hi, t, 1.0f));
    df r = {s, fmaf(s, v, fmaf(n.lo, t, u))};
    return r;
}

static inline float VARIANT(bits_to_float)(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

static inline float VARIANT(sleef_ldexpf)(float x, int32_t q) {  /* vldexp_vf_vf_vi2: four partial scalings, then the rest */
    int32_t m = q >> 31;
    m = (((m + q) >> 6) - m) * 16;
    q = q - m * 4;
    m += 0x7f;
    m = m < 0 ? 0 : (m > 0xff ? 0xff : m);
    float u = VARIANT(bits_to_float)((uint32_t)m << 23);
    x = (((x * u) * u) * u) * u;
    return x * VARIANT(bits_to_float)((uint32_t)(q + 0x7f) << 23);
}

static inline df VARIANT(logkf)(float d) {  /* log(d) as a pair, d > 0; AVX512: vgetexp / vgetmant into [0.75, 1.5) */
    float scaled = d * (float)(1.0 / 0.75);
    /* frexp of the exact double of a float (subnormal floats are normal doubles); d finite and nonzero here,
       or the caller replaces the result */
    uint64_t bs, bd;
    double scaled_d = (double)scaled, dd = (double)d;
    memcpy(&bs, &scaled_d, 8);
    memcpy(&bd, &dd, 8);
    float e = isinf(scaled) ? 128.0f : (float)((int)((bs >> 52) & 0x7ff) - 1023);
    bd = (bd & ~(0x7ffULL << 52)) | (1022ULL << 52);  /* the mantissa in [0.5, 1) */
    double md;
    memcpy(&md, &bd, 8);
    float m = (float)(md < 0.75 ? md * 2 : md);
    df x = VARIANT(df_div)(VARIANT(df_add2_ff)(-1.0f, m), VARIANT(df_add2_ff)(1.0f, m));
    df x2 = VARIANT(df_sq)(x);
    float t = fmaf(fmaf(0.240320354700088500976562f, x2.hi, 0.285112679004669189453125f), x2.hi,
                   0.400007992982864379882812f);
    df ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    df s = VARIANT(df_mul_pf)(ln2, e);
    df x_twice = {x.hi * 2.0f, x.lo * 2.0f};
    s = VARIANT(df_add_pp)(s, x_twice);
    df c = {0.66666662693023681640625f, 3.69183861259614332084311e-09f};
    return VARIANT(df_add_pp)(s, VARIANT(df_mul_pp)(VARIANT(df_mul_pp)(x2, x), VARIANT(df_add2_pp)(VARIANT(df_mul_pf)(x2, t), c)));
}

static inline float VARIANT(expkf)(df d) {
    float u = (d.hi + d.lo) * (float)1.442695040888963407359924681001892137426645954152985934135449406931;
    int32_t q = fabsf(u) < 2147483648.0f ? (int32_t)rintf(u) : INT32_MIN;
    float qf = (float)q;
    df s = VARIANT(df_add2_pf)(d, qf * -0.693145751953125f);
    s = VARIANT(df_add2_pf)(s, qf * -1.428606765330187045e-06f);
    float hi = s.hi + s.lo;
    df s2 = {hi, (s.hi - hi) + s.lo};
    u = 0.00136324646882712841033936f;
    u = fmaf(u, s2.hi, 0.00836596917361021041870117f);
    u = fmaf(u, s2.hi, 0.0416710823774337768554688f);
    u = fmaf(u, s2.hi, 0.166665524244308471679688f);
    u = fmaf(u, s2.hi, 0.499999850988388061523438f);
    df t = VARIANT(df_add_fp)(1.0f, VARIANT(df_add_pp)(s2, VARIANT(df_mul_pf)(VARIANT(df_sq)(s2), u)));
    float out = VARIANT(sleef_ldexpf)(t.hi + t.lo, q);
    return d.hi < -104.0f ? 0.0f : out;
}

static inline float VARIANT(sleef_powf)(float x, float y) {
    float ay = fabsf(y);
    int yisint = (truncf(y) == y) || (ay > 16777216.0f);
    int yisodd = yisint && ((((int64_t)(ay < 16777216.0f ? truncf(y) : 0.0f)) & 1) == 1);
    float ax = fabsf(x);
    float out = VARIANT(expkf)(VARIANT(df_mul_pf)(VARIANT(logkf)(ax), y));
    if (isnan(out)) out = INFINITY;
    out = out * (x > 0 ? 1.0f : (yisint ? (yisodd ? -1.0f : 1.0f) : NAN));
    float efx = signbit(y) ? -(ax - 1.0f) : ax - 1.0f;
    if (isinf(y)) out = efx < 0 ? 0.0f : (efx == 0 ? 1.0f : INFINITY);
    if (isinf(x) || x == 0) {
        float edge = ((signbit(y) != 0) ^ (x == 0)) ? 0.0f : INFINITY;
        out = copysignf(edge, yisodd ? x : 1.0f);
    }
    if (isnan(x) || isnan(y)) out = NAN;
    if (y == 0 || x == 1) out = 1.0f;
    return out;
}

/* contiguous operands, the common case: a loop the compiler vectorises (O3's cost model; -O2's refuses a loop
   that needs a scalar epilogue).  A fused multiply-add is exactly rounded in a vector lane as in a scalar one. */
__attribute__((optimize("O3")))
static void VARIANT(fma32_contiguous)(const float *restrict a, const float *restrict b, const float *restrict c,
                                      float *restrict out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = fmaf(a[i], b[i], c[i]);
}

__attribute__((optimize("O3")))
static void VARIANT(fma64_contiguous)(const double *restrict a, const double *restrict b, const double *restrict c,
                                      double *restrict out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = fma(a[i], b[i], c[i]);
}

__attribute__((optimize("O3")))
static void VARIANT(fma32_number_first)(float a, const float *restrict b, const float *restrict c,
                                        float *restrict out, int64_t n) {  /* lerp's and the optimisers' a * t + c */
    for (int64_t i = 0; i < n; i++) out[i] = fmaf(a, b[i], c[i]);
}

__attribute__((optimize("O3")))
static void VARIANT(fma64_number_first)(double a, const double *restrict b, const double *restrict c,
                                        double *restrict out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = fma(a, b[i], c[i]);
}

static void VARIANT(fma32_loop)(const float *a, int64_t a_step, const float *b, int64_t b_step, const float *c,
                                 int64_t c_step, float *out, int64_t n) {
    if (a_step == 1 && b_step == 1 && c_step == 1) {
        VARIANT(fma32_contiguous)(a, b, c, out, n);
        return;
    }
    if (a_step == 0 && b_step == 1 && c_step == 1) {
        VARIANT(fma32_number_first)(a[0], b, c, out, n);
        return;
    }
    for (int64_t i = 0; i < n; i++) out[i] = fmaf(a[i * a_step], b[i * b_step], c[i * c_step]);
}

static void VARIANT(fma64_loop)(const double *a, int64_t a_step, const double *b, int64_t b_step, const double *c,
                                 int64_t c_step, double *out, int64_t n) {
    if (a_step == 1 && b_step == 1 && c_step == 1) {
        VARIANT(fma64_contiguous)(a, b, c, out, n);
        return;
    }
    if (a_step == 0 && b_step == 1 && c_step == 1) {
        VARIANT(fma64_number_first)(a[0], b, c, out, n);
        return;
    }
    for (int64_t i = 0; i < n; i++) out[i] = fma(a[i * a_step], b[i * b_step], c[i * c_step]);
}

static inline float VARIANT(sleef_expf)(float d) {  /* xexpf (Sleef_expf16_u10) */
    float qr = rintf(d * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    int32_t q = fabsf(qr) < 2147483648.0f ? (int32_t)qr : 0;
    float qf = (float)q;
    float s = fmaf(qf, -0.693145751953125f, d);
    s = fmaf(qf, -1.428606765330187045e-06f, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    u = 1.0f + fmaf(s * s, u, s);
    u = VARIANT(sleef_ldexpf)(u, q);
    if (d < -104.0f) u = 0.0f;
    if (100.0f < d) u = INFINITY;
    return u;
}

static inline double VARIANT(pow2i)(int64_t q) {
    uint64_t bits = ((uint64_t)(q + 0x3ff)) << 52;
    double out;
    memcpy(&out, &bits, 8);
    return out;
}

static inline double VARIANT(sleef_exp)(double d) {  /* xexp (Sleef_expd8_u10), Estrin's scheme as SLEEF's POLY10 */
    double u = rint(d * 1.442695040888963407359924681001892137426645954152985934135449406931);
    int64_t q = fabs(u) < 2147483648.0 ? (int64_t)u : 0;
    if (!isfinite(u)) u = 0.0;
    double s = (isfinite(d) ? d : 0.0) - u * 0.69314718055966295651160180568695068359375;
    s = fma(u, -0.28235290563031577122588448175013436025525412068e-12, s);
    double s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
    double p98 = fma(s, 0.2081276378237164457e-8, 0.2511210703042288022e-7);
    double p76 = fma(s, 0.2755762628169491192e-6, 0.2755723402025388239e-5);
    double p54 = fma(s, 0.2480158687479686264e-4, 0.1984126989855865850e-3);
    double p32 = fma(s, 0.1388888888914497797e-2, 0.8333333333314938210e-2);
    double p10 = fma(s, 0.4166666666666602598e-1, 0.1666666666666669072e+0);
    double poly8 = fma(s4, fma(s2, p76, p54), fma(s2, p32, p10));
    u = fma(s8, p98, poly8);
    u = fma(u, s, 0.5);
    u = fma(u, s, 1.0);
    u = fma(u, s, 1.0);
    int64_t half = q >> 1;
    u = u * VARIANT(pow2i)(half) * VARIANT(pow2i)(q - half);
    if (d < -1000) u = 0.0;
    if (709.78271114955742909217217426 < d) u = INFINITY;
    return isnan(d) ? d : u;
}

static void VARIANT(expf_loop)(const float *x, float *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = VARIANT(sleef_expf)(x[i]);
}

static void VARIANT(exp_loop)(const double *x, double *out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = VARIANT(sleef_exp)(x[i]);
}

static void VARIANT(powf_loop)(const float *x, int64_t x_step, const float *y, int64_t y_step, float *out,
                                int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = VARIANT(sleef_powf)(x[i * x_step], y[i * y_step]);
}

/* torch's RowwiseMoments (moments_utils.h, kernels/moments.py's numpy form, which says which steps are fused): each
   row's mean and biased variance in the row's type.  LANES: Vectorized<T>::size() of ATen's AVX2 build. */
#define ROWWISE_MOMENTS(NAME, T, LANES, FMA)                                                                \
    static void VARIANT(NAME)(const T *x, int64_t rows, int64_t size, T *mean_out, T *var_out) {          \
        T inverse[16];                                                                                     \
        for (int j = 0; j < 16; j++) inverse[j] = (T)1 / (T)(j + 1);                                       \
        for (int64_t r = 0; r < rows; r++) {                                                               \
            const T *row = x + r * size;                                                                   \
            int64_t n = size / LANES, chunks = (n + 15) / 16;                                              \
            int depth = chunks <= 2 ? 1 : 64 - __builtin_clzll((uint64_t)chunks - 1);                      \
            int64_t m0s[64];                                                                               \
            T m1s[64][LANES], m2s[64][LANES];                                                              \
            for (int d = 0; d < depth; d++) {                                                              \
                m0s[d] = 0;                                                                                \
                for (int l = 0; l < LANES; l++) m1s[d][l] = m2s[d][l] = 0;                                 \
            }                                                                                              \
            for (int64_t i = 0; i <= chunks + depth; i++) {                                                \
                /* i < chunks: one chunk, merged into level 0, then the cascade; after: the folds */       \
                int64_t m0_add; T *m1_add, *m2_add; int into;                                              \
                T m1[LANES], m2[LANES];                                                                    \
                if (i < chunks) {                                                                          \
                    const T *p = row + i * 16 * LANES;                                                     \
                    m0_add = n - i * 16 < 16 ? n - i * 16 : 16;                                            \
                    for (int l = 0; l < LANES; l++) m1[l] = m2[l] = 0;                                     \
                    for (int64_t j = 0; j < m0_add; j++)                                                   \
                        for (int l = 0; l < LANES; l++) {                                                  \
                            T v = p[j * LANES + l], delta = v - m1[l];                                     \
                            m1[l] = FMA(delta, inverse[j], m1[l]);                                         \
                            m2[l] = FMA(delta, v - m1[l], m2[l]);                                          \
                        }                                                                                  \
                    m1_add = m1; m2_add = m2; into = 0;                                                    \
                } else if (i - chunks + 1 < depth) {                                                       \
                    int level = (int)(i - chunks + 1);                                                     \
                    m0_add = m0s[level]; m1_add = m1s[level]; m2_add = m2s[level]; into = 0;               \
                } else {                                                                                   \
                    continue;                                                                              \
                }                                                                                          \
                for (int64_t mask = i + 1, level = 0;; mask >>= 1, level++) {                              \
                    int64_t total = m0s[into] + m0_add;                                                    \
                    T c = total == 0 ? (T)0 : (T)m0_add / (T)total, m0 = (T)m0s[into];                     \
                    for (int l = 0; l < LANES; l++) {                                                      \
                        T delta = m1_add[l] - m1s[into][l];                                                \
                        m1s[into][l] = m1s[into][l] + c * delta;                                           \
                        m2s[into][l] = FMA(delta, delta * c * m0, m2s[into][l] + m2_add[l]);               \
                    }                                                                                      \
                    m0s[into] = total;                                                                     \
                    /* the cascade after a chunk: level j - 1 into level j while the count's bits say so */ \
                    if (i >= chunks || level + 1 >= depth || (mask & 1)) break;                            \
                    m0_add = m0s[level]; m1_add = m1s[level]; m2_add = m2s[level];                         \
                    into = (int)level + 1;                                                                 \
                    for (int l = 0; l < LANES; l++) { m1[l] = m1_add[l]; m2[l] = m2_add[l]; }              \
                    m1_add = m1; m2_add = m2;                                                              \
                    m0s[level] = 0;                                                                        \
                    for (int l = 0; l < LANES; l++) m1s[level][l] = m2s[level][l] = 0;                     \
                }                                                                                          \
            }                                                                                              \
            int64_t m0 = 0;                                                                                \
            T m1 = 0, m2 = 0;                                                                              \
            for (int64_t k = n * LANES; k < size; k++) {                                                   \
                T v = row[k], delta = v - m1;                                                              \
                m0++;                                                                                      \
                m1 = m1 + delta / (T)m0;                                                                   \
                m2 = m2 + delta * (v - m1);                                                                \
            }                                                                                              \
            for (int l = 0; l < LANES; l++) {                                                              \
                int64_t total = m0 + n;                                                                    \
                T c = total == 0 ? (T)0 : (T)n / (T)total, delta = m1s[0][l] - m1;                         \
                m1 = FMA(c, delta, m1);                                                                    \
                m2 = m2 + FMA(delta * delta * c, (T)m0, m2s[0][l]);                                        \
                m0 = total;                                                                                \
            }                                                                                              \
            mean_out[r] = m1;                                                                              \
            var_out[r] = m2 / (T)size;                                                                     \
        }                                                                                                  \
    }
ROWWISE_MOMENTS(moments32_rows, float, 8, fmaf)
ROWWISE_MOMENTS(moments64_rows, double, 4, fma)
#undef ROWWISE_MOMENTS

/* layer_norm's output step (layer_norm_kernel.cpp's second pass), row r with mean[r], rstd[r]: with weight and
   bias fma((x - mean) * rstd, w, b); weight only (x - mean) * rstd * w + 0; bias only fma(x - mean, rstd, b);
   neither (x - mean) * rstd.  w, b may be NULL. */
#define LAYER_NORM_AFFINE(NAME, T, FMA)                                                                     \
    static void VARIANT(NAME)(const T *x, int64_t rows, int64_t n, const T *mean, const T *rstd, const T *w, \
                              const T *b, T *out) {                                                         \
        for (int64_t r = 0; r < rows; r++) {                                                                \
            const T *row = x + r * n, m = mean[r], s = rstd[r];                                             \
            T *o = out + r * n;                                                                             \
            if (w && b) for (int64_t j = 0; j < n; j++) o[j] = FMA((row[j] - m) * s, w[j], b[j]);           \
            else if (w) for (int64_t j = 0; j < n; j++) o[j] = (row[j] - m) * s * w[j] + (T)0;              \
            else if (b) for (int64_t j = 0; j < n; j++) o[j] = FMA(row[j] - m, s, b[j]);                    \
            else for (int64_t j = 0; j < n; j++) o[j] = (row[j] - m) * s;                                   \
        }                                                                                                   \
    }
LAYER_NORM_AFFINE(layer_norm32_affine, float, fmaf)
LAYER_NORM_AFFINE(layer_norm64_affine, double, fma)
#undef LAYER_NORM_AFFINE

/* batch_norm (kernels/moments.py's numpy forms say the order): the statistics of a contiguous (N, C, image)
   input with image > 1, per channel in memory order, in double; of an (N, C) input with N > threads, each
   thread's rows into a buffer in T (the squares fused), the buffers added in double; the output
   x * alpha[c] + beta[c] fused. */
#define BATCH_NORM(SUFFIX, T, FMA)                                                                          \
    static void VARIANT(bn_stats_image_##SUFFIX)(const T *x, int64_t rows, int64_t channels, int64_t image, \
                                                 T *mean_out, T *squares_out) {                             \
        int64_t count = rows * image;                                                                       \
        for (int64_t c = 0; c < channels; c++) {                                                            \
            double sum = 0;                                                                                 \
            for (int64_t n = 0; n < rows; n++)                                                              \
                for (int64_t i = 0; i < image; i++) sum += x[(n * channels + c) * image + i];               \
            T mean = (T)(sum / (double)count);                                                              \
            double squares = 0;                                                                             \
            for (int64_t n = 0; n < rows; n++)                                                              \
                for (int64_t i = 0; i < image; i++) {                                                       \
                    T d = x[(n * channels + c) * image + i] - mean;                                         \
                    squares += (double)(d * d);                                                             \
                }                                                                                           \
            mean_out[c] = mean;                                                                             \
            squares_out[c] = (T)squares;                                                                    \
        }                                                                                                   \
    }                                                                                                       \
    static void VARIANT(bn_stats_rows_##SUFFIX)(const T *x, int64_t rows, int64_t channels, int64_t threads, \
                                                T *buffer, T *mean_out, T *squares_out) {                   \
        int64_t chunk = (rows + threads - 1) / threads;                                                     \
        for (int pass = 0; pass < 2; pass++) {                                                              \
            for (int64_t k = 0; k < threads * channels; k++) buffer[k] = 0;                                 \
            for (int64_t t = 0; t < threads; t++)                                                           \
                for (int64_t i = t * chunk; i < rows && i < (t + 1) * chunk; i++)                           \
                    for (int64_t c = 0; c < channels; c++) {                                                \
                        T v = x[i * channels + c], *b = buffer + t * channels + c;                          \
                        if (pass == 0) *b = v + *b;                                                         \
                        else { T d = v - mean_out[c]; *b = FMA(d, d, *b); }                                 \
                    }                                                                                       \
            for (int64_t c = 0; c < channels; c++) {                                                        \
                double sum = 0;                                                                             \
                for (int64_t t = 0; t < threads; t++) sum += buffer[t * channels + c];                      \
                if (pass == 0) mean_out[c] = (T)(sum / (double)rows);                                       \
                else squares_out[c] = (T)sum;                                                               \
            }                                                                                               \
        }                                                                                                   \
    }                                                                                                       \
    static void VARIANT(bn_output_##SUFFIX)(const T *x, int64_t rows, int64_t channels, int64_t image,      \
                                            const T *alpha, const T *beta, T *out) {                        \
        for (int64_t n = 0; n < rows; n++)                                                                  \
            for (int64_t c = 0; c < channels; c++) {                                                        \
                const T *p = x + (n * channels + c) * image;                                                \
                T *o = out + (n * channels + c) * image, a = alpha[c], b = beta[c];                         \
                for (int64_t i = 0; i < image; i++) o[i] = FMA(p[i], a, b);                                 \
            }                                                                                               \
    }
BATCH_NORM(float32, float, fmaf)
BATCH_NORM(float64, double, fma)
#undef BATCH_NORM

/* layer_norm's backward buffers (kernels/moments.py's layer_norm_backward): rows split into `threads` ranges
   as at::parallel_for splits them; thread t's buffers gamma[t * n + j] += dy * (rstd * x - rstd * mean) and
   beta[t * n + j] += dy, the first fused twice (fma(dy, fma(a, x, b), acc)); the caller zeroes them. */
#define LAYER_NORM_BUFFERS(NAME, T, FMA)                                                                    \
    static void VARIANT(NAME)(const T *dy, const T *x, const T *mean, const T *rstd, int64_t rows, int64_t n, \
                              int64_t threads, T *gamma, T *beta) {                                         \
        int64_t chunk = (rows + threads - 1) / threads;                                                     \
        for (int64_t t = 0; t < threads; t++)                                                               \
            for (int64_t i = t * chunk; i < rows && i < (t + 1) * chunk; i++) {                             \
                T a = rstd[i], b = -a * mean[i];                                                            \
                const T *dy_row = dy + i * n, *x_row = x + i * n;                                           \
                T *g = gamma + t * n, *bb = beta + t * n;                                                   \
                if (gamma) for (int64_t j = 0; j < n; j++) g[j] = FMA(dy_row[j], FMA(a, x_row[j], b), g[j]); \
                if (beta) for (int64_t j = 0; j < n; j++) bb[j] = dy_row[j] + bb[j];                         \
            }                                                                                               \
    }
LAYER_NORM_BUFFERS(ln_buffers32, float, fmaf)
LAYER_NORM_BUFFERS(ln_buffers64, double, fma)
#undef LAYER_NORM_BUFFERS

/* batch_norm's backward (kernels/moments.py's batch_norm_backward says the order and the fused steps).
   FOLD: vec_reduce_all of AVX2 lanes with + (float: 128-, 64-, 32-bit shuffles; double: lane by lane). */
static inline float VARIANT(fold8_f)(const float *a) {
    float b[8], c[8];
    for (int l = 0; l < 8; l++) b[l] = a[l] + a[(l + 4) % 8];
    static const int s64[8] = {2, 3, 0, 1, 6, 7, 4, 5}, s32[8] = {1, 0, 3, 2, 5, 4, 7, 6};
    for (int l = 0; l < 8; l++) c[l] = b[l] + b[s64[l]];
    return c[0] + c[s32[0]];
}
static inline double VARIANT(fold4_d)(const double *a) { return ((a[0] + a[1]) + a[2]) + a[3]; }

#define BATCH_NORM_BACKWARD(SUFFIX, T, LANES, FOLD, FMA)                                                    \
    /* per (n, c) plane of `image` elements: the vectorised sum of dy and of (x - mean) * dy */             \
    static void VARIANT(bn_plane_sums_##SUFFIX)(const T *x, const T *dy, const T *mean, int64_t rows,       \
                                                int64_t channels, int64_t image, double *total, double *dotp) { \
        for (int64_t c = 0; c < channels; c++) total[c] = dotp[c] = 0;                                      \
        for (int64_t n = 0; n < rows; n++)                                                                  \
            for (int64_t c = 0; c < channels; c++) {                                                        \
                const T *xp = x + (n * channels + c) * image, *gp = dy + (n * channels + c) * image;         \
                T m = mean[c], s, d;                                                                        \
                if (image < LANES) {                                                                        \
                    s = gp[0]; d = (xp[0] - m) * gp[0];                                                     \
                    for (int64_t j = 1; j < image; j++) { s = s + gp[j]; d = d + (xp[j] - m) * gp[j]; }      \
                } else {                                                                                    \
                    T sa[LANES], da[LANES];                                                                 \
                    int64_t full = image - image % LANES;                                                   \
                    for (int l = 0; l < LANES; l++) { sa[l] = gp[l]; da[l] = (xp[l] - m) * gp[l]; }          \
                    for (int64_t j = LANES; j < full; j += LANES)                                           \
                        for (int l = 0; l < LANES; l++) {                                                   \
                            sa[l] = sa[l] + gp[j + l];                                                      \
                            da[l] = da[l] + (xp[j + l] - m) * gp[j + l];                                    \
                        }                                                                                   \
                    for (int64_t j = full; j < image; j++) {                                                \
                        sa[j - full] = sa[j - full] + gp[j];                                                \
                        da[j - full] = FMA(xp[j] - m, gp[j], da[j - full]);                                 \
                    }                                                                                       \
                    s = FOLD(sa); d = FOLD(da);                                                             \
                }                                                                                           \
                total[c] += s;                                                                              \
                dotp[c] += d;                                                                               \
            }                                                                                               \
    }                                                                                                       \
    /* (N, C): one buffer per thread for the sum and for dotp (fused), added in double */                   \
    static void VARIANT(bn_row_sums_##SUFFIX)(const T *x, const T *dy, const T *mean, int64_t rows,         \
                                              int64_t channels, int64_t threads, T *buffer, double *total,   \
                                              double *dotp) {                                               \
        int64_t chunk = (rows + threads - 1) / threads;                                                     \
        for (int64_t c = 0; c < channels; c++) total[c] = dotp[c] = 0;                                      \
        for (int64_t t = 0; t < threads; t++) {                                                             \
            T *sb = buffer, *db = buffer + channels;                                                        \
            for (int64_t c = 0; c < channels; c++) sb[c] = db[c] = 0;                                       \
            for (int64_t i = t * chunk; i < rows && i < (t + 1) * chunk; i++)                               \
                for (int64_t c = 0; c < channels; c++) {                                                    \
                    T g = dy[i * channels + c];                                                             \
                    sb[c] = sb[c] + g;                                                                      \
                    db[c] = FMA(x[i * channels + c] - mean[c], g, db[c]);                                   \
                }                                                                                           \
            for (int64_t c = 0; c < channels; c++) { total[c] += sb[c]; dotp[c] += db[c]; }                 \
        }                                                                                                   \
    }                                                                                                   \
    /* dx of an image > 1: training ((dy - grad_mean) - (x - mean) * k fused) * invstd * w per element;      \
       evaluation dy * invstd * w, each product rounded as numpy's two multiplications */                   \
    static void VARIANT(bn_input_grad_##SUFFIX)(const T *x, const T *dy, const T *mean, const T *k,          \
                                                const T *grad_mean, const T *invstd, const T *w,            \
                                                int64_t rows, int64_t channels, int64_t image, int train,   \
                                                T *out) {                                                   \
        for (int64_t n = 0; n < rows; n++)                                                                  \
            for (int64_t c = 0; c < channels; c++) {                                                        \
                const T *xp = x + (n * channels + c) * image, *gp = dy + (n * channels + c) * image;         \
                T *o = out + (n * channels + c) * image, m = mean[c], s = invstd[c], wc = w[c];             \
                if (train) {                                                                                \
                    T kc = k[c], gm = grad_mean[c];                                                         \
                    for (int64_t i = 0; i < image; i++) o[i] = FMA(-(xp[i] - m), kc, gp[i] - gm) * s * wc; \
                } else {                                                                                    \
                    for (int64_t i = 0; i < image; i++) o[i] = gp[i] * s * wc;                              \
                }                                                                                           \
            }                                                                                               \
    }
BATCH_NORM_BACKWARD(float32, float, 8, VARIANT(fold8_f), fmaf)
BATCH_NORM_BACKWARD(float64, double, 4, VARIANT(fold4_d), fma)
#undef BATCH_NORM_BACKWARD

/* group_norm (kernels/moments.py: group_norm_forward's affine step, group_norm_backward's per-plane sums and dx) */
#define GROUP_NORM(SUFFIX, T, LANES, FOLD, FMA)                                                             \
    static void VARIANT(gn_affine_##SUFFIX)(const T *x, int64_t planes, int64_t image, const T *scale,      \
                                            const T *shift, T *out) {                                       \
        for (int64_t p = 0; p < planes; p++) {                                                              \
            const T *xp = x + p * image, a = scale[p], b = shift[p];                                        \
            T *o = out + p * image;                                                                         \
            for (int64_t i = 0; i < image; i++) o[i] = FMA(a, xp[i], b);                                    \
        }                                                                                                   \
    }                                                                                                       \
    static void VARIANT(gn_sums_##SUFFIX)(const T *dy, const T *x, int64_t planes, int64_t image,           \
                                          int64_t fuse_tail, T *ds, T *db) {                                \
        for (int64_t p = 0; p < planes; p++) {                                                              \
            const T *xp = x + p * image, *gp = dy + p * image;                                              \
            T s, d;                                                                                         \
            if (image < LANES) {                                                                            \
                s = image ? gp[0] : 0; d = image ? gp[0] * xp[0] : 0;                                       \
                for (int64_t j = 1; j < image; j++) { s = s + gp[j]; d = d + gp[j] * xp[j]; }              \
            } else {                                                                                        \
                T sa[LANES], da[LANES];                                                                     \
                int64_t full = image - image % LANES;                                                       \
                for (int l = 0; l < LANES; l++) { sa[l] = gp[l]; da[l] = gp[l] * xp[l]; }                   \
                for (int64_t j = LANES; j < full; j += LANES)                                               \
                    for (int l = 0; l < LANES; l++) {                                                       \
                        sa[l] = sa[l] + gp[j + l];                                                          \
                        da[l] = da[l] + gp[j + l] * xp[j + l];                                              \
                    }                                                                                       \
                for (int64_t j = full; j < image; j++) {                                                    \
                    sa[j - full] = sa[j - full] + gp[j];                                                    \
                    da[j - full] = fuse_tail ? FMA(gp[j], xp[j], da[j - full]) : da[j - full] + gp[j] * xp[j]; \
                }                                                                                           \
                s = FOLD(sa); d = FOLD(da);                                                                 \
            }                                                                                               \
            ds[p] = d;                                                                                      \
            db[p] = s;                                                                                      \
        }                                                                                                   \
    }                                                                                                       \
    static void VARIANT(gn_dx_##SUFFIX)(const T *dy, const T *x, int64_t planes, int64_t image, const T *c1, \
                                        const T *c2, const T *c3, T *out) {                                 \
        for (int64_t p = 0; p < planes; p++) {                                                              \
            const T *xp = x + p * image, *gp = dy + p * image, a = c1[p], b = c2[p], c = c3[p];             \
            T *o = out + p * image;                                                                         \
            for (int64_t i = 0; i < image; i++) o[i] = FMA(a, gp[i], b * xp[i]) + c;                        \
        }                                                                                                   \
    }
GROUP_NORM(float32, float, 8, VARIANT(fold8_f), fmaf)
GROUP_NORM(float64, double, 4, VARIANT(fold4_d), fma)
#undef GROUP_NORM

#endif
