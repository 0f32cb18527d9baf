/* torch's float32/float64 sum in ATen's order (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum), compiled.

   The optional accelerator of gradcli/engine/sum_order.py, which computes the same additions with numpy and
   decides, as TensorIterator does, which dims the 2-D loop sees (the plan).  This file holds only the
   arithmetic: cascade_sum's 2-D loop (vectorized_inner_sum, vectorized_outer_sum, scalar_inner_sum,
   scalar_outer_sum over multi_row_sum's cascade and row_sum) and serial_for_each, which walks a range of
   the flattened iteration in 2-D steps (DimCounter::max_2d_step) and calls the loop on each.  The results
   are added into the output as ATen's CastStoreAccumulate does (the caller fills it with 0 first).

   Loaded with ctypes (no Python API).  Compile it with IEEE order kept: -O2 -fno-fast-math
   -ffp-contract=off (setup.py).  The compiler may vectorise the lane loops (each lane's additions stay in
   the order written: gcc never reassociates floating point without -ffast-math), so the bits are the same
   with or without SIMD.  Vectorized<float> has 8 lanes and Vectorized<double> 4, as in ATen's AVX2 build,
   which it uses on AVX-512 machines too. */

#include <stdint.h>
#include <string.h>

#if !defined(__GNUC__)
#error "native_sum.c uses GCC's vector extension (gcc, clang); gradcli falls back to numpy without it"
#endif

#define ILP 4    /* row_sum's ilp_factor, vectorized_outer_sum's and scalar_outer_sum's nrows */
#define LEVELS 4 /* multi_row_sum's num_levels */
#define GROUP_CHUNK 16 /* vectorized_outer_sum's groups of ILP vectors summed side by side */

static int64_t level_power(int64_t size) {
    /* max(4, CeilLog2(size) / num_levels), CeilLog2(x) = 1 for x <= 2 */
    int64_t ceil_log2 = size > 2 ? 64 - __builtin_clzll((uint64_t)size - 1) : 1;
    int64_t p = ceil_log2 / LEVELS;
    return p > 4 ? p : 4;
}

/* multi_row_sum's flush of level j - 1 into level j (acc[j] += acc[j - 1]; acc[j - 1] = 0).  A level not
   reached yet holds +0, and 0 + v is v bit for bit (no level ever holds -0: the accumulators start at +0,
   and a sum of two numbers is -0 only when both are), so the first flush copies and the final additions stop
   at the highest level reached. */
#define LEVEL_UP(W)                                                                                        \
    if (j > top) {                                                                                         \
        memcpy(acc[j], acc[j - 1], sizeof acc[j]);                                                         \
        top = j;                                                                                           \
    } else {                                                                                               \
        for (int m_ = 0; m_ < (W); ++m_) acc[j][m_] += acc[j - 1][m_];                                     \
    }                                                                                                      \
    memset(acc[j - 1], 0, sizeof acc[j - 1]);

/* DEFINE_SUM(T, NAME, LANES): the kernels for one dtype.
   multi_row_sum over NR rows of W lanes each: row k of step i is W elements, contiguous when W > 1 (a
   Vectorized<T> load) at in + i * row_stride + k * col_stride.  acc[level][k * W + l]. */
#define DEFINE_SUM(T, NAME, LANES)                                                                         \
                                                                                                           \
    static void NAME##_mrs_scalar(const char *in, int64_t row_stride, int64_t col_stride, int64_t size,    \
                                  T out[ILP]) {                                                             \
        T acc[LEVELS][ILP];                                                                                 \
        memset(acc[0], 0, sizeof acc[0]);                                                                   \
        int top = 0; /* levels above top hold 0: never added */                                             \
        const int64_t power = level_power(size), step = (int64_t)1 << power, mask = step - 1;               \
        int64_t i = 0;                                                                                      \
        while (i + step <= size) {                                                                          \
            for (int64_t j = 0; j < step; ++j, ++i) {                                                       \
                const char *base = in + i * row_stride;                                                     \
                for (int k = 0; k < ILP; ++k) acc[0][k] += *(const T *)(base + k * col_stride);             \
            }                                                                                               \
            for (int j = 1; j < LEVELS; ++j) {                                                              \
                LEVEL_UP(ILP) \
                if ((i & (mask << (j * power))) != 0) break;                                                \
            }                                                                                               \
        }                                                                                                   \
        for (; i < size; ++i) {                                                                             \
            const char *base = in + i * row_stride;                                                         \
            for (int k = 0; k < ILP; ++k) acc[0][k] += *(const T *)(base + k * col_stride);                 \
        }                                                                                                   \
        for (int j = 1; j <= top; ++j)                                                                      \
            for (int k = 0; k < ILP; ++k) acc[0][k] += acc[j][k];                                           \
        for (int k = 0; k < ILP; ++k) out[k] = acc[0][k];                                                   \
    }                                                                                                       \
                                                                                                            \
    /* acc[m] += row[m] over `count` rows of ILP vectors side by side (128 bytes), one row after the other:   \
       the 32 (float) or 16 (double) accumulators held in eight 16-byte registers, each lane's additions in \
       order (GCC's vector extension: lane-wise IEEE additions, as the compiler's own vectorised loop) */   \
    typedef T NAME##_v __attribute__((vector_size(16)));                                                    \
    /* the same from acc = `start` (0 when NULL) into `acc` */                                              \
    static inline void NAME##_add_rows_to(T *acc, const T *start, const char *in, int64_t row_stride,      \
                                          int64_t count) {                                                  \
        NAME##_v a0, a1, a2, a3, a4, a5, a6, a7, t;                                                         \
        if (start) {                                                                                        \
            memcpy(&a0, start, 16); memcpy(&a1, (const char *)start + 16, 16);                              \
            memcpy(&a2, (const char *)start + 32, 16); memcpy(&a3, (const char *)start + 48, 16);           \
            memcpy(&a4, (const char *)start + 64, 16); memcpy(&a5, (const char *)start + 80, 16);           \
            memcpy(&a6, (const char *)start + 96, 16); memcpy(&a7, (const char *)start + 112, 16);          \
        } else {                                                                                            \
            a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = (NAME##_v){0};                                          \
        }                                                                                                   \
        for (int64_t r = 0; r < count; ++r) {                                                               \
            const char *p = in + r * row_stride;                                                            \
            memcpy(&t, p, 16); a0 += t; memcpy(&t, p + 16, 16); a1 += t;                                    \
            memcpy(&t, p + 32, 16); a2 += t; memcpy(&t, p + 48, 16); a3 += t;                               \
            memcpy(&t, p + 64, 16); a4 += t; memcpy(&t, p + 80, 16); a5 += t;                               \
            memcpy(&t, p + 96, 16); a6 += t; memcpy(&t, p + 112, 16); a7 += t;                              \
        }                                                                                                   \
        memcpy(acc, &a0, 16); memcpy((char *)acc + 16, &a1, 16);                                            \
        memcpy((char *)acc + 32, &a2, 16); memcpy((char *)acc + 48, &a3, 16);                               \
        memcpy((char *)acc + 64, &a4, 16); memcpy((char *)acc + 80, &a5, 16);                               \
        memcpy((char *)acc + 96, &a6, 16); memcpy((char *)acc + 112, &a7, 16);                              \
    }                                                                                                       \
                                                                                                            \
    static inline void NAME##_add_rows(T *acc, const char *in, int64_t row_stride, int64_t count) {         \
        NAME##_add_rows_to(acc, acc, in, row_stride, count);                                                \
    }                                                                                                       \
                                                                                                            \
    /* ILP vectors per row; `packed`: the vectors are adjacent (col_stride == one vector), one run of      \
       ILP * LANES elements the compiler can add as a whole */                                              \
    static void NAME##_mrs_vector(const char *in, int64_t row_stride, int64_t col_stride, int64_t size,    \
                                  T out[ILP * LANES]) {                                                     \
        const int packed = col_stride == (int64_t)(LANES * sizeof(T));                                      \
        if (packed && size < 16) { /* fewer rows than a block (16 at least): acc[0] alone, in registers */   \
            NAME##_add_rows_to(out, NULL, in, row_stride, size);                                            \
            return;                                                                                         \
        }                                                                                                   \
        T acc[LEVELS][ILP * LANES];                                                                         \
        memset(acc[0], 0, sizeof acc[0]);                                                                   \
        int top = 0; /* levels above top hold 0: never added */                                             \
        const int64_t power = level_power(size), step = (int64_t)1 << power, mask = step - 1;               \
        int64_t i = 0;                                                                                      \
        while (i + step <= size) {                                                                          \
            if (packed) {                                                                                   \
                NAME##_add_rows(acc[0], in + i * row_stride, row_stride, step);                             \
                i += step;                                                                                  \
            } else {                                                                                        \
                for (int64_t j = 0; j < step; ++j, ++i) {                                                   \
                    const char *base = in + i * row_stride;                                                 \
                    for (int k = 0; k < ILP; ++k) {                                                         \
                        const T *v = (const T *)(base + k * col_stride);                                    \
                        for (int l = 0; l < LANES; ++l) acc[0][k * LANES + l] += v[l];                      \
                    }                                                                                       \
                }                                                                                           \
            }                                                                                               \
            for (int j = 1; j < LEVELS; ++j) {                                                              \
                LEVEL_UP(ILP * LANES) \
                if ((i & (mask << (j * power))) != 0) break;                                                \
            }                                                                                               \
        }                                                                                                   \
        if (packed && i < size) {                                                                           \
            NAME##_add_rows(acc[0], in + i * row_stride, row_stride, size - i);                             \
            i = size;                                                                                       \
        }                                                                                                   \
        for (; i < size; ++i) {                                                                             \
            const char *base = in + i * row_stride;                                                         \
            for (int k = 0; k < ILP; ++k) {                                                                 \
                const T *v = (const T *)(base + k * col_stride);                                            \
                for (int l = 0; l < LANES; ++l) acc[0][k * LANES + l] += v[l];                              \
            }                                                                                               \
        }                                                                                                   \
        for (int j = 1; j <= top; ++j)                                                                      \
            for (int m = 0; m < ILP * LANES; ++m) acc[0][m] += acc[j][m];                                   \
        for (int m = 0; m < ILP * LANES; ++m) out[m] = acc[0][m];                                           \
    }                                                                                                       \
                                                                                                            \
    /* mrs_vector (packed) on `ng` adjacent groups of ILP vectors at once, the groups' accumulators side by   \
       side: the same additions for every column, in the same order, but the rows are read a band of `step`  \
       rows at a time across all the groups (reading one group's 128 bytes down all the rows at a time      \
       walks a new page every row or two) */                                                                \
    static void NAME##_mrs_wide(const char *in, int64_t row_stride, int64_t size, int64_t ng, T *out) {    \
        const int64_t W = ILP * LANES, width = ng * W;                                                      \
        if (size < 16) {                                                                                    \
            for (int64_t g = 0; g < ng; ++g)                                                                \
                NAME##_add_rows_to(out + g * W, NULL, in + g * W * (int64_t)sizeof(T), row_stride, size);   \
            return;                                                                                         \
        }                                                                                                   \
        T acc[LEVELS][GROUP_CHUNK * ILP * LANES];                                                           \
        memset(acc[0], 0, width * sizeof(T));                                                               \
        int top = 0;                                                                                        \
        const int64_t power = level_power(size), step = (int64_t)1 << power, mask = step - 1;               \
        int64_t i = 0;                                                                                      \
        while (i + step <= size) {                                                                          \
            for (int64_t g = 0; g < ng; ++g)                                                                \
                NAME##_add_rows(acc[0] + g * W, in + g * W * (int64_t)sizeof(T) + i * row_stride,           \
                                row_stride, step);                                                          \
            i += step;                                                                                      \
            for (int j = 1; j < LEVELS; ++j) {                                                              \
                if (j > top) {                                                                              \
                    memcpy(acc[j], acc[j - 1], width * sizeof(T));                                          \
                    top = j;                                                                                \
                } else {                                                                                    \
                    for (int64_t m = 0; m < width; ++m) acc[j][m] += acc[j - 1][m];                         \
                }                                                                                           \
                memset(acc[j - 1], 0, width * sizeof(T));                                                   \
                if ((i & (mask << (j * power))) != 0) break;                                                \
            }                                                                                               \
        }                                                                                                   \
        if (i < size)                                                                                       \
            for (int64_t g = 0; g < ng; ++g)                                                                \
                NAME##_add_rows(acc[0] + g * W, in + g * W * (int64_t)sizeof(T) + i * row_stride,           \
                                row_stride, size - i);                                                      \
        for (int j = 1; j <= top; ++j)                                                                      \
            for (int64_t m = 0; m < width; ++m) acc[0][m] += acc[j][m];                                     \
        memcpy(out, acc[0], width * sizeof(T));                                                             \
    }                                                                                                       \
                                                                                                            \
    /* row_sum of scalars: the run as rows of ILP, the tail into the first partial, then the partials */   \
    static T NAME##_row_sum_scalar(const char *in, int64_t stride, int64_t size) {                          \
        T partial[ILP];                                                                                     \
        const int64_t rows = size / ILP;                                                                    \
        NAME##_mrs_scalar(in, stride * ILP, stride, rows, partial);                                         \
        for (int64_t i = rows * ILP; i < size; ++i) partial[0] += *(const T *)(in + i * stride);            \
        for (int k = 1; k < ILP; ++k) partial[0] += partial[k];                                             \
        return partial[0];                                                                                  \
    }                                                                                                       \
                                                                                                            \
    /* row_sum of vectors (LANES contiguous elements every `stride` bytes) */                               \
    static void NAME##_row_sum_vector(const char *in, int64_t stride, int64_t size, T out[LANES]) {         \
        T partial[ILP * LANES];                                                                             \
        const int64_t rows = size / ILP;                                                                    \
        NAME##_mrs_vector(in, stride * ILP, stride, rows, partial);                                         \
        for (int64_t i = rows * ILP; i < size; ++i) {                                                       \
            const T *v = (const T *)(in + i * stride);                                                      \
            for (int l = 0; l < LANES; ++l) partial[l] += v[l];                                             \
        }                                                                                                   \
        for (int k = 1; k < ILP; ++k)                                                                       \
            for (int l = 0; l < LANES; ++l) partial[l] += partial[k * LANES + l];                           \
        for (int l = 0; l < LANES; ++l) out[l] = partial[l];                                                \
    }                                                                                                       \
                                                                                                            \
    /* cascade_sum's 2-D loop: dim 0 (size0, input stride s0) reduced, dim 1 (size1, s1) kept, each result   \
       added into out[j * out_stride]; strides in bytes */                                                  \
    static void NAME##_loop2d(char *out_data, const char *in, int64_t s0, int64_t s1, int64_t os0,          \
                              int64_t os1, int64_t size0, int64_t size1) {                                  \
        const int64_t isz = sizeof(T);                                                                      \
        if (os0 != 0 && os1 == 0) { /* move the reduction to dim 0 */                                       \
            int64_t t = s0; s0 = s1; s1 = t;                                                                \
            t = os0; os0 = os1; os1 = t;                                                                    \
            t = size0; size0 = size1; size1 = t;                                                            \
        }                                                                                                   \
        if (os0 != 0 && os1 != 0) { /* not a reduction: out += in, element by element */                   \
            for (int64_t i = 0; i < size1; ++i)                                                             \
                for (int64_t j = 0; j < size0; ++j)                                                         \
                    *(T *)(out_data + i * os1 + j * os0) += *(const T *)(in + i * s1 + j * s0);             \
            return;                                                                                         \
        }                                                                                                   \
        const int64_t os = os1;                                                                             \
        if (s0 == isz && size0 >= LANES) { /* vectorized_inner_sum */                                       \
            const int64_t vec_size = size0 / LANES;                                                         \
            for (int64_t j = 0; j < size1; ++j) {                                                           \
                const char *row = in + j * s1;                                                              \
                T lanes[LANES];                                                                             \
                NAME##_row_sum_vector(row, LANES * isz, vec_size, lanes);                                   \
                T acc = 0;                                                                                  \
                for (int64_t k = vec_size * LANES; k < size0; ++k) acc += ((const T *)row)[k];              \
                for (int l = 0; l < LANES; ++l) acc += lanes[l];                                            \
                *(T *)(out_data + j * os) += acc;                                                           \
            }                                                                                               \
        } else if (s1 == isz && size1 >= LANES) { /* vectorized_outer_sum */                                \
            int64_t j = 0;                                                                                  \
            while (j + ILP * LANES <= size1) { /* multi_row_sum of ILP vectors, GROUP_CHUNK groups at once */  \
                int64_t ng = (size1 - j) / (ILP * LANES);                                                   \
                if (ng > GROUP_CHUNK) ng = GROUP_CHUNK;                                                     \
                T sums[GROUP_CHUNK * ILP * LANES];                                                          \
                NAME##_mrs_wide(in + j * isz, s0, size0, ng, sums);                                         \
                for (int64_t m = 0; m < ng * ILP * LANES; ++m) *(T *)(out_data + (j + m) * os) += sums[m];  \
                j += ng * ILP * LANES;                                                                      \
            }                                                                                               \
            for (; j + LANES <= size1; j += LANES) {                                                        \
                T sums[LANES];                                                                              \
                NAME##_row_sum_vector(in + j * isz, s0, size0, sums);                                       \
                for (int l = 0; l < LANES; ++l) *(T *)(out_data + (j + l) * os) += sums[l];                 \
            }                                                                                               \
            for (; j < size1; ++j) *(T *)(out_data + j * os) += NAME##_row_sum_scalar(in + j * isz, s0, size0); \
        } else if (s0 < s1) { /* scalar_inner_sum */                                                        \
            for (int64_t j = 0; j < size1; ++j)                                                             \
                *(T *)(out_data + j * os) += NAME##_row_sum_scalar(in + j * s1, s0, size0);                 \
        } else { /* scalar_outer_sum */                                                                     \
            int64_t j = 0;                                                                                  \
            for (; j + (ILP - 1) < size1; j += ILP) {                                                       \
                T sums[ILP];                                                                                \
                NAME##_mrs_scalar(in + j * s1, s0, s1, size0, sums);                                        \
                for (int k = 0; k < ILP; ++k) *(T *)(out_data + (j + k) * os) += sums[k];                   \
            }                                                                                               \
            for (; j < size1; ++j) *(T *)(out_data + j * os) += NAME##_row_sum_scalar(in + j * s1, s0, size0); \
        }                                                                                                   \
    }                                                                                                       \
                                                                                                            \
    /* serial_for_each over [begin, end) of the flattened iteration: ndim dims, innermost first, their      \
       sizes, input strides and output strides in bytes (0 on the reduced dims) */                          \
    int64_t gradcli_sum_##NAME(const char *in, char *out, int64_t ndim, const int64_t *shape,               \
                               const int64_t *in_strides, const int64_t *out_strides, int64_t begin,        \
                               int64_t end) {                                                               \
        if (end <= begin) return 0;                                                                         \
        if (ndim <= 1) {                                                                                    \
            int64_t si = ndim ? in_strides[0] : 0, so = ndim ? out_strides[0] : 0;                          \
            NAME##_loop2d(out + begin * so, in + begin * si, si, 0, so, 0, end - begin, 1);                 \
            return 0;                                                                                       \
        }                                                                                                   \
        if (ndim > 64) return -1;                                                                           \
        int64_t values[64];                                                                                 \
        int64_t offset = begin, linear = begin;                                                             \
        for (int64_t d = 0; d < ndim; ++d) {                                                                \
            values[d] = 0;                                                                                  \
            if (shape[d] > 0) {                                                                             \
                values[d] = linear % shape[d];                                                              \
                linear /= shape[d];                                                                         \
            }                                                                                               \
        }                                                                                                   \
        while (offset < end) {                                                                              \
            const char *pin = in;                                                                           \
            char *pout = out;                                                                               \
            for (int64_t d = 0; d < ndim; ++d) {                                                            \
                pin += values[d] * in_strides[d];                                                           \
                pout += values[d] * out_strides[d];                                                         \
            }                                                                                               \
            int64_t step0 = shape[0] - values[0];                                                           \
            if (end - offset < step0) step0 = end - offset;                                                 \
            int64_t step1 = 1;                                                                              \
            if (step0 == shape[0]) {                                                                        \
                step1 = shape[1] - values[1];                                                               \
                if ((end - offset) / shape[0] < step1) step1 = (end - offset) / shape[0];                   \
            }                                                                                               \
            NAME##_loop2d(pout, pin, in_strides[0], in_strides[1], out_strides[0], out_strides[1], step0,   \
                          step1);                                                                           \
            offset += step0 * step1;                                                                        \
            int64_t overflow = step0, d = 0;                                                                \
            if (step1 != 1) {                                                                               \
                d = 1;                                                                                      \
                overflow = step1;                                                                           \
            }                                                                                               \
            for (; d < ndim && overflow > 0; ++d) {                                                         \
                int64_t value = values[d] + overflow;                                                       \
                if (value >= shape[d]) {                                                                    \
                    overflow = 1;                                                                           \
                    value -= shape[d];                                                                      \
                } else {                                                                                    \
                    overflow = 0;                                                                           \
                }                                                                                           \
                values[d] = value;                                                                          \
            }                                                                                               \
        }                                                                                                   \
        return 0;                                                                                           \
    }

DEFINE_SUM(float, float32, 8)
DEFINE_SUM(double, float64, 4)

/* cumsum and cumprod as ATen's cpu_cum_base_kernel: each lane (a slice along `dim`) on its own, its running value
   kept in ACC (at::acc_type<T, false>: double for float too) from 0 (cumsum) or 1 (cumprod), each step stored
   rounded to T.  The lanes are independent: they are visited in whichever order reads memory best (lane after
   lane when the dim is the smaller stride, else a chunk of lanes at a time, row by row), the bits the same.
   n: the dim's size, in_ds/out_ds its strides; the lanes: ndim dims (innermost first), their sizes and strides;
   strides in bytes. */
#define CUM_CHUNK 256
#define DEFINE_CUM(T, NAME)                                                                                 \
    int64_t gradcli_cum_##NAME(const char *in, char *out, int64_t product, int64_t n, int64_t in_ds,        \
                               int64_t out_ds, int64_t ndim, const int64_t *shape, const int64_t *in_s,     \
                               const int64_t *out_s) {                                                      \
        int64_t values[64], lanes0 = ndim ? shape[0] : 1, is0 = ndim ? in_s[0] : 0, os0 = ndim ? out_s[0] : 0; \
        const double init = product ? 1.0 : 0.0;                                                            \
        if (ndim > 64) return -1;                                                                           \
        for (int64_t d = 0; d < ndim; ++d) {                                                                \
            values[d] = 0;                                                                                  \
            if (shape[d] == 0) return 0;                                                                    \
        }                                                                                                   \
        const int by_lane = (in_ds < 0 ? -in_ds : in_ds) <= (is0 < 0 ? -is0 : is0);                        \
        for (;;) {                                                                                          \
            const char *pin = in;                                                                           \
            char *pout = out;                                                                               \
            for (int64_t d = 1; d < ndim; ++d) {                                                            \
                pin += values[d] * in_s[d];                                                                 \
                pout += values[d] * out_s[d];                                                               \
            }                                                                                               \
            if (by_lane) {                                                                                  \
                for (int64_t l = 0; l < lanes0; ++l) {                                                      \
                    const char *src = pin + l * is0;                                                        \
                    char *dst = pout + l * os0;                                                             \
                    double acc = init;                                                                      \
                    if (product)                                                                            \
                        for (int64_t i = 0; i < n; ++i) {                                                   \
                            acc *= (double)*(const T *)(src + i * in_ds);                                   \
                            *(T *)(dst + i * out_ds) = (T)acc;                                              \
                        }                                                                                   \
                    else                                                                                    \
                        for (int64_t i = 0; i < n; ++i) {                                                   \
                            acc += (double)*(const T *)(src + i * in_ds);                                   \
                            *(T *)(dst + i * out_ds) = (T)acc;                                              \
                        }                                                                                   \
                }                                                                                           \
            } else {                                                                                        \
                double acc[CUM_CHUNK];                                                                      \
                for (int64_t l0 = 0; l0 < lanes0; l0 += CUM_CHUNK) {                                        \
                    const int64_t m = lanes0 - l0 < CUM_CHUNK ? lanes0 - l0 : CUM_CHUNK;                    \
                    for (int64_t l = 0; l < m; ++l) acc[l] = init;                                          \
                    for (int64_t i = 0; i < n; ++i) {                                                       \
                        const char *src = pin + l0 * is0 + i * in_ds;                                       \
                        char *dst = pout + l0 * os0 + i * out_ds;                                           \
                        if (product)                                                                        \
                            for (int64_t l = 0; l < m; ++l) {                                               \
                                acc[l] *= (double)*(const T *)(src + l * is0);                              \
                                *(T *)(dst + l * os0) = (T)acc[l];                                          \
                            }                                                                               \
                        else                                                                                \
                            for (int64_t l = 0; l < m; ++l) {                                               \
                                acc[l] += (double)*(const T *)(src + l * is0);                              \
                                *(T *)(dst + l * os0) = (T)acc[l];                                          \
                            }                                                                               \
                    }                                                                                       \
                }                                                                                           \
            }                                                                                               \
            int64_t d = 1;                                                                                  \
            for (; d < ndim; ++d) {                                                                         \
                if (++values[d] < shape[d]) break;                                                          \
                values[d] = 0;                                                                              \
            }                                                                                               \
            if (d >= ndim) return 0;                                                                        \
        }                                                                                                   \
    }

DEFINE_CUM(float, float32)
DEFINE_CUM(double, float64)

/* The layout of this library's calls, checked by the loader before it trusts the file. */
int64_t gradcli_sum_abi(void) { return 2; }
