// The Legalis CUDA prelude: what CUDA output from Legalis includes.
//
// HLSL value semantics on top of CUDA C++: vectors `lg::float4` ... with
// component-wise operators, `lg::swizzle<...>` reads and
// `lg::swizzle_ref<...>` writes, matrices `lg::float3x4` (rows of
// vectors, HLSL's `mul`), `lg::column_major<M>` for the column-major
// matrices the host shares, value arrays `lg::array<T, N>`, bit casts
// (`lg::bits32`, `lg::from_bits32` ...), the payload register helpers of
// the OptiX ABI (`lg::insert_bits`, `lg::pointer_high` ...), the HLSL
// intrinsics the writer names (`lg::dot`, `lg::saturate` ...) and the
// texture and surface object helpers (`lg::sample_2d` ...). Device code,
// with the storage types and their conversions also usable on the host.
// Part of Legalis; no third-party code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_fp16.h>

namespace lg {

typedef __half half;
typedef uint32_t uint;

template <class T, int N> struct vec;

template <class T> struct vec<T, 1> {
    T x;
    vec() = default;
    __host__ __device__ constexpr vec(T a) : x(a) {}
    template <class U> __host__ __device__ explicit constexpr vec(const vec<U, 1>& o) : x(T(o.x)) {}
    __host__ __device__ T& operator[](int i) { return (&x)[i]; }
    __host__ __device__ const T& operator[](int i) const { return (&x)[i]; }
};

template <class T> struct vec<T, 2> {
    T x, y;
    vec() = default;
    __host__ __device__ constexpr vec(T a, T b) : x(a), y(b) {}
    __host__ __device__ explicit constexpr vec(T s) : x(s), y(s) {}
    template <class U> __host__ __device__ explicit constexpr vec(const vec<U, 2>& o) : x(T(o.x)), y(T(o.y)) {}
    __host__ __device__ T& operator[](int i) { return (&x)[i]; }
    __host__ __device__ const T& operator[](int i) const { return (&x)[i]; }
};

template <class T> struct vec<T, 3> {
    T x, y, z;
    vec() = default;
    __host__ __device__ constexpr vec(T a, T b, T c) : x(a), y(b), z(c) {}
    __host__ __device__ explicit constexpr vec(T s) : x(s), y(s), z(s) {}
    template <class U> __host__ __device__ explicit constexpr vec(const vec<U, 3>& o) : x(T(o.x)), y(T(o.y)), z(T(o.z)) {}
    __host__ __device__ T& operator[](int i) { return (&x)[i]; }
    __host__ __device__ const T& operator[](int i) const { return (&x)[i]; }
};

template <class T> struct vec<T, 4> {
    T x, y, z, w;
    vec() = default;
    __host__ __device__ constexpr vec(T a, T b, T c, T d) : x(a), y(b), z(c), w(d) {}
    __host__ __device__ explicit constexpr vec(T s) : x(s), y(s), z(s), w(s) {}
    template <class U> __host__ __device__ explicit constexpr vec(const vec<U, 4>& o) : x(T(o.x)), y(T(o.y)), z(T(o.z)), w(T(o.w)) {}
    __host__ __device__ T& operator[](int i) { return (&x)[i]; }
    __host__ __device__ const T& operator[](int i) const { return (&x)[i]; }
};

#define LG_VECTORS(S, NAME) \
    typedef vec<S, 2> NAME##2; \
    typedef vec<S, 3> NAME##3; \
    typedef vec<S, 4> NAME##4;
LG_VECTORS(bool, bool)
LG_VECTORS(int8_t, char)
LG_VECTORS(int16_t, short)
LG_VECTORS(int32_t, int)
LG_VECTORS(int64_t, long)
LG_VECTORS(uint8_t, uchar)
LG_VECTORS(uint16_t, ushort)
LG_VECTORS(uint32_t, uint)
LG_VECTORS(uint64_t, ulong)
LG_VECTORS(half, half)
LG_VECTORS(float, float)
LG_VECTORS(double, double)
#undef LG_VECTORS

template <class T> struct identity { typedef T type; };
template <class T> struct scalar_of { typedef T type; static constexpr int size = 1; };
template <class T, int N> struct scalar_of<vec<T, N>> { typedef T type; static constexpr int size = N; };

// Component `i` of a scalar (itself) or a vector.
template <class T> __device__ T component(const T& v, int) { return v; }
template <class T, int N> __device__ T component(const vec<T, N>& v, int i) { return v[i]; }

// A vector from scalars and vectors, flattened in order (`float4(v.xy, 0, 1)`).
template <class T, int N> struct builder {
    vec<T, N> v;
    int k;
    template <class A> __device__ void put(const A& a) {
        for (int i = 0; i < scalar_of<A>::size && k < N; ++i) v[k++] = T(component(a, i));
    }
};
template <class T, int N, class... A> __device__ vec<T, N> make(const A&... a) {
    builder<T, N> b;
    b.k = 0;
    (b.put(a), ...);
    return b.v;
}

// Swizzles: a read makes a vector, a write goes through a reference.
template <int... I, class T, int N> __device__ vec<T, sizeof...(I)> swizzle(const vec<T, N>& v) {
    return vec<T, sizeof...(I)>(v[I]...);
}
template <class T, int N, int... I> struct swizzle_place {
    vec<T, N>& v;
    __device__ swizzle_place& operator=(const vec<T, sizeof...(I)>& value) {
        int k = 0;
        ((v[I] = value[k++]), ...);
        return *this;
    }
};
template <int... I, class T, int N> __device__ swizzle_place<T, N, I...> swizzle_ref(vec<T, N>& v) {
    return swizzle_place<T, N, I...>{v};
}

// Component-wise operators.
#define LG_BINARY(OP) \
    template <class T, int N> __device__ vec<T, N> operator OP(const vec<T, N>& a, const vec<T, N>& b) { \
        vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = T(a[i] OP b[i]); return r; } \
    template <class T, int N> __device__ vec<T, N> operator OP(const vec<T, N>& a, const typename identity<T>::type& b) { \
        vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = T(a[i] OP b); return r; } \
    template <class T, int N> __device__ vec<T, N> operator OP(const typename identity<T>::type& a, const vec<T, N>& b) { \
        vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = T(a OP b[i]); return r; } \
    template <class T, int N> __device__ vec<T, N>& operator OP##=(vec<T, N>& a, const vec<T, N>& b) { \
        for (int i = 0; i < N; ++i) a[i] = T(a[i] OP b[i]); return a; }
LG_BINARY(+)
LG_BINARY(-)
LG_BINARY(*)
LG_BINARY(/)
LG_BINARY(%)
LG_BINARY(&)
LG_BINARY(|)
LG_BINARY(^)
LG_BINARY(<<)
LG_BINARY(>>)
#undef LG_BINARY

#define LG_COMPARE(OP) \
    template <class T, int N> __device__ vec<bool, N> operator OP(const vec<T, N>& a, const vec<T, N>& b) { \
        vec<bool, N> r; for (int i = 0; i < N; ++i) r[i] = a[i] OP b[i]; return r; } \
    template <class T, int N> __device__ vec<bool, N> operator OP(const vec<T, N>& a, const typename identity<T>::type& b) { \
        vec<bool, N> r; for (int i = 0; i < N; ++i) r[i] = a[i] OP b; return r; } \
    template <class T, int N> __device__ vec<bool, N> operator OP(const typename identity<T>::type& a, const vec<T, N>& b) { \
        vec<bool, N> r; for (int i = 0; i < N; ++i) r[i] = a OP b[i]; return r; }
LG_COMPARE(==)
LG_COMPARE(!=)
LG_COMPARE(<)
LG_COMPARE(<=)
LG_COMPARE(>)
LG_COMPARE(>=)
#undef LG_COMPARE

template <class T, int N> __device__ vec<T, N> operator-(const vec<T, N>& a) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = T(-a[i]); return r;
}
template <class T, int N> __device__ vec<T, N> operator~(const vec<T, N>& a) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = T(~a[i]); return r;
}
template <int N> __device__ vec<bool, N> operator!(const vec<bool, N>& a) {
    vec<bool, N> r; for (int i = 0; i < N; ++i) r[i] = !a[i]; return r;
}
template <class T, int N> __device__ vec<T, N>& operator++(vec<T, N>& a) { for (int i = 0; i < N; ++i) ++a[i]; return a; }
template <class T, int N> __device__ vec<T, N>& operator--(vec<T, N>& a) { for (int i = 0; i < N; ++i) --a[i]; return a; }
template <class T, int N> __device__ vec<T, N> operator++(vec<T, N>& a, int) { vec<T, N> old = a; ++a; return old; }
template <class T, int N> __device__ vec<T, N> operator--(vec<T, N>& a, int) { vec<T, N> old = a; --a; return old; }

// Value arrays (HLSL arrays copy on assignment and pass by value).
template <class T, int N> struct array {
    T data[N];
    __host__ __device__ T& operator[](int i) { return data[i]; }
    __host__ __device__ const T& operator[](int i) const { return data[i]; }
};

// Matrices: R rows of C components, `m[r]` a row, as in HLSL.
template <class T, int R, int C> struct mat {
    vec<T, C> rows[R];
    mat() = default;
    template <class... A> __device__ explicit mat(const A&... a) {
        static_assert(sizeof...(A) == R || sizeof...(A) == R * C, "a matrix takes its rows or its components");
        if constexpr (sizeof...(A) == R) {
            int k = 0;
            ((rows[k++] = vec<T, C>(a)), ...);
        } else {
            int k = 0;
            ((rows[k / C][k % C] = T(a), ++k), ...);
        }
    }
    template <class U> __device__ explicit mat(const mat<U, R, C>& o) {
        for (int r = 0; r < R; ++r) rows[r] = vec<T, C>(o[r]);
    }
    __host__ __device__ vec<T, C>& operator[](int i) { return rows[i]; }
    __host__ __device__ const vec<T, C>& operator[](int i) const { return rows[i]; }
};

#define LG_MATRICES(S, NAME) \
    typedef mat<S, 2, 2> NAME##2x2; typedef mat<S, 2, 3> NAME##2x3; typedef mat<S, 2, 4> NAME##2x4; \
    typedef mat<S, 3, 2> NAME##3x2; typedef mat<S, 3, 3> NAME##3x3; typedef mat<S, 3, 4> NAME##3x4; \
    typedef mat<S, 4, 2> NAME##4x2; typedef mat<S, 4, 3> NAME##4x3; typedef mat<S, 4, 4> NAME##4x4;
LG_MATRICES(float, float)
LG_MATRICES(double, double)
LG_MATRICES(half, half)
LG_MATRICES(int32_t, int)
LG_MATRICES(uint32_t, uint)
LG_MATRICES(bool, bool)
#undef LG_MATRICES

// Column-major matrices in memory the host shares (constant buffers,
// structured buffers, the globals block): HLSL's default `column_major`
// stores C columns of R components, and `column_major<mat<T, R, C>>` holds
// exactly those bytes. The writer reads one with `rows` (an `mat`) and
// stores a whole one with `columns`; `m[r]` is a reference to row r spread
// over the columns, so `m[r][c] = x` and `m[r] = v` write only their
// components.
template <class M> struct column_major;
template <class T, int R, int C> struct column_row {
    vec<T, R>* columns;
    int r;
    __host__ __device__ T& operator[](int c) const { return columns[c][r]; }
    __host__ __device__ operator vec<T, C>() const {
        vec<T, C> v; for (int c = 0; c < C; ++c) v[c] = columns[c][r]; return v;
    }
    __host__ __device__ const column_row& operator=(const vec<T, C>& v) const {
        for (int c = 0; c < C; ++c) columns[c][r] = v[c];
        return *this;
    }
    __host__ __device__ const column_row& operator=(const column_row& o) const { return *this = vec<T, C>(o); }
};
template <class T, int R, int C> struct column_major<mat<T, R, C>> {
    vec<T, R> columns[C];
    __host__ __device__ column_row<T, R, C> operator[](int r) { return column_row<T, R, C>{columns, r}; }
};
template <class T, int R, int C> __host__ __device__ mat<T, R, C> rows(const column_major<mat<T, R, C>>& m) {
    mat<T, R, C> out;
    for (int r = 0; r < R; ++r) for (int c = 0; c < C; ++c) out[r][c] = m.columns[c][r];
    return out;
}
template <class T, int R, int C> __host__ __device__ column_major<mat<T, R, C>> columns(const mat<T, R, C>& m) {
    column_major<mat<T, R, C>> out;
    for (int r = 0; r < R; ++r) for (int c = 0; c < C; ++c) out.columns[c][r] = m[r][c];
    return out;
}
template <class T, int N> __host__ __device__ auto rows(const array<T, N>& a) -> array<decltype(rows(a[0])), N> {
    array<decltype(rows(a[0])), N> out; for (int i = 0; i < N; ++i) out[i] = rows(a[i]); return out;
}
template <class T, int N> __host__ __device__ auto columns(const array<T, N>& a) -> array<decltype(columns(a[0])), N> {
    array<decltype(columns(a[0])), N> out; for (int i = 0; i < N; ++i) out[i] = columns(a[i]); return out;
}
// A swizzle written into a row of a column-major matrix.
template <class T, int R, int C, int... I> struct column_swizzle_place {
    column_row<T, R, C> row;
    __device__ column_swizzle_place& operator=(const vec<T, sizeof...(I)>& value) {
        int k = 0;
        ((row[I] = value[k++]), ...);
        return *this;
    }
};
template <int... I, class T, int R, int C> __device__ column_swizzle_place<T, R, C, I...> swizzle_ref(const column_row<T, R, C>& row) {
    return column_swizzle_place<T, R, C, I...>{row};
}

#define LG_MATRIX_BINARY(OP) \
    template <class T, int R, int C> __device__ mat<T, R, C> operator OP(const mat<T, R, C>& a, const mat<T, R, C>& b) { \
        mat<T, R, C> m; for (int r = 0; r < R; ++r) m[r] = a[r] OP b[r]; return m; } \
    template <class T, int R, int C> __device__ mat<T, R, C> operator OP(const mat<T, R, C>& a, const typename identity<T>::type& b) { \
        mat<T, R, C> m; for (int r = 0; r < R; ++r) m[r] = a[r] OP b; return m; } \
    template <class T, int R, int C> __device__ mat<T, R, C> operator OP(const typename identity<T>::type& a, const mat<T, R, C>& b) { \
        mat<T, R, C> m; for (int r = 0; r < R; ++r) m[r] = a OP b[r]; return m; }
LG_MATRIX_BINARY(+)
LG_MATRIX_BINARY(-)
LG_MATRIX_BINARY(*)
LG_MATRIX_BINARY(/)
#undef LG_MATRIX_BINARY
template <class T, int R, int C> __device__ mat<T, R, C> operator-(const mat<T, R, C>& a) {
    mat<T, R, C> m; for (int r = 0; r < R; ++r) m[r] = -a[r]; return m;
}

// Scalar math under HLSL's names, for every floating-point type.
#define LG_FLOAT_UNARY(NAME, F, D) \
    __device__ inline float NAME(float x) { return F(x); } \
    __device__ inline double NAME(double x) { return D(x); } \
    __device__ inline half NAME(half x) { return half(F(float(x))); } \
    template <class T, int N> __device__ vec<T, N> NAME(const vec<T, N>& v) { \
        vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = NAME(v[i]); return r; }
LG_FLOAT_UNARY(sin, ::sinf, ::sin)
LG_FLOAT_UNARY(cos, ::cosf, ::cos)
LG_FLOAT_UNARY(tan, ::tanf, ::tan)
LG_FLOAT_UNARY(asin, ::asinf, ::asin)
LG_FLOAT_UNARY(acos, ::acosf, ::acos)
LG_FLOAT_UNARY(atan, ::atanf, ::atan)
LG_FLOAT_UNARY(sinh, ::sinhf, ::sinh)
LG_FLOAT_UNARY(cosh, ::coshf, ::cosh)
LG_FLOAT_UNARY(tanh, ::tanhf, ::tanh)
LG_FLOAT_UNARY(exp, ::expf, ::exp)
LG_FLOAT_UNARY(exp2, ::exp2f, ::exp2)
LG_FLOAT_UNARY(log, ::logf, ::log)
LG_FLOAT_UNARY(log2, ::log2f, ::log2)
LG_FLOAT_UNARY(log10, ::log10f, ::log10)
LG_FLOAT_UNARY(sqrt, ::sqrtf, ::sqrt)
LG_FLOAT_UNARY(rsqrt, ::rsqrtf, ::rsqrt)
LG_FLOAT_UNARY(floor, ::floorf, ::floor)
LG_FLOAT_UNARY(ceil, ::ceilf, ::ceil)
LG_FLOAT_UNARY(trunc, ::truncf, ::trunc)
LG_FLOAT_UNARY(round, ::rintf, ::rint)
#undef LG_FLOAT_UNARY

#define LG_FLOAT_BINARY(NAME, F, D) \
    __device__ inline float NAME(float x, float y) { return F(x, y); } \
    __device__ inline double NAME(double x, double y) { return D(x, y); } \
    __device__ inline half NAME(half x, half y) { return half(F(float(x), float(y))); } \
    template <class T, int N> __device__ vec<T, N> NAME(const vec<T, N>& a, const vec<T, N>& b) { \
        vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = NAME(a[i], b[i]); return r; }
LG_FLOAT_BINARY(pow, ::powf, ::pow)
LG_FLOAT_BINARY(atan2, ::atan2f, ::atan2)
LG_FLOAT_BINARY(fmod, ::fmodf, ::fmod)
#undef LG_FLOAT_BINARY

template <class T> __device__ T frac(T x) { return x - floor(x); }
template <class T> __device__ T rcp(T x) { return T(1) / x; }

template <class T> __device__ T abs(T x) { return x < T(0) ? T(-x) : x; }
template <class T, int N> __device__ vec<T, N> abs(const vec<T, N>& v) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = abs(v[i]); return r;
}
template <class T> __device__ T min(T a, T b) { return b < a ? b : a; }
template <class T> __device__ T max(T a, T b) { return a < b ? b : a; }
template <class T, int N> __device__ vec<T, N> min(const vec<T, N>& a, const vec<T, N>& b) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = min(a[i], b[i]); return r;
}
template <class T, int N> __device__ vec<T, N> max(const vec<T, N>& a, const vec<T, N>& b) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = max(a[i], b[i]); return r;
}
template <class T> __device__ T clamp(const T& x, const T& lo, const T& hi) { return min(max(x, lo), hi); }
template <class T> __device__ T saturate(T x) { return clamp(x, T(0), T(1)); }
template <class T, int N> __device__ vec<T, N> saturate(const vec<T, N>& v) {
    return clamp(v, vec<T, N>(T(0)), vec<T, N>(T(1)));
}
template <class T> __device__ T lerp(const T& a, const T& b, const T& t) { return a + (b - a) * t; }
template <class T> __device__ T sign_of(T x) { return T((x > T(0)) - (x < T(0))); }
template <class T> __device__ int sign(T x) { return int((x > T(0)) - (x < T(0))); }
template <class T, int N> __device__ vec<int, N> sign(const vec<T, N>& v) {
    vec<int, N> r; for (int i = 0; i < N; ++i) r[i] = sign(v[i]); return r;
}
template <class T> __device__ T step(T edge, T x) { return x < edge ? T(0) : T(1); }
template <class T, int N> __device__ vec<T, N> step(const vec<T, N>& edge, const vec<T, N>& x) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = step(edge[i], x[i]); return r;
}
template <class T> __device__ T smoothstep(T a, T b, T x) {
    T t = saturate((x - a) / (b - a)); return t * t * (T(3) - T(2) * t);
}
template <class T, int N> __device__ vec<T, N> smoothstep(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& x) {
    vec<T, N> r; for (int i = 0; i < N; ++i) r[i] = smoothstep(a[i], b[i], x[i]); return r;
}
template <class T> __device__ T mad(const T& a, const T& b, const T& c) { return a * b + c; }

template <class T, int N> __device__ T dot(const vec<T, N>& a, const vec<T, N>& b) {
    T s = T(0); for (int i = 0; i < N; ++i) s = s + a[i] * b[i]; return s;
}
template <class T, int N> __device__ T length(const vec<T, N>& v) { return sqrt(dot(v, v)); }
template <class T> __device__ T length(T x) { return abs(x); }
template <class T> __device__ auto distance(const T& a, const T& b) { return length(a - b); }
template <class T, int N> __device__ vec<T, N> normalize(const vec<T, N>& v) { return v * rsqrt(dot(v, v)); }
template <class T> __device__ vec<T, 3> cross(const vec<T, 3>& a, const vec<T, 3>& b) {
    return vec<T, 3>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
template <class T, int N> __device__ vec<T, N> reflect(const vec<T, N>& i, const vec<T, N>& n) {
    return i - T(2) * dot(n, i) * n;
}
template <class T, int N> __device__ vec<T, N> faceforward(const vec<T, N>& n, const vec<T, N>& i, const vec<T, N>& ng) {
    return dot(ng, i) < T(0) ? n : -n;
}

template <int N> __device__ bool all(const vec<bool, N>& v) { bool r = true; for (int i = 0; i < N; ++i) r = r && v[i]; return r; }
template <int N> __device__ bool any(const vec<bool, N>& v) { bool r = false; for (int i = 0; i < N; ++i) r = r || v[i]; return r; }
template <class T, int N> __device__ bool all(const vec<T, N>& v) { bool r = true; for (int i = 0; i < N; ++i) r = r && v[i] != T(0); return r; }
template <class T, int N> __device__ bool any(const vec<T, N>& v) { bool r = false; for (int i = 0; i < N; ++i) r = r || v[i] != T(0); return r; }
__device__ inline bool all(bool b) { return b; }
__device__ inline bool any(bool b) { return b; }

// `select(reject, accept, condition)`, component-wise.
template <class T, int N> __device__ vec<T, N> select(const vec<T, N>& r, const vec<T, N>& a, const vec<bool, N>& c) {
    vec<T, N> out; for (int i = 0; i < N; ++i) out[i] = c[i] ? a[i] : r[i]; return out;
}

__device__ inline uint32_t countbits(uint32_t x) { return uint32_t(__popc(x)); }
__device__ inline uint32_t reversebits(uint32_t x) { return __brev(x); }
__device__ inline uint32_t firstbitlow(uint32_t x) { return x == 0u ? 0xFFFFFFFFu : uint32_t(__ffs(int(x)) - 1); }
__device__ inline uint32_t firstbithigh(uint32_t x) { return x == 0u ? 0xFFFFFFFFu : uint32_t(31 - __clz(int(x))); }

// HLSL `mul`: vectors are rows on the left, columns on the right.
template <class T, int R, int C> __device__ vec<T, R> mul(const mat<T, R, C>& m, const vec<T, C>& v) {
    vec<T, R> r; for (int i = 0; i < R; ++i) r[i] = dot(m[i], v); return r;
}
template <class T, int R, int C> __device__ vec<T, C> mul(const vec<T, R>& v, const mat<T, R, C>& m) {
    vec<T, C> r(T(0)); for (int i = 0; i < R; ++i) r = r + v[i] * m[i]; return r;
}
template <class T, int R, int K, int C> __device__ mat<T, R, C> mul(const mat<T, R, K>& a, const mat<T, K, C>& b) {
    mat<T, R, C> m; for (int i = 0; i < R; ++i) m[i] = mul(a[i], b); return m;
}
template <class T, int N> __device__ T mul(const vec<T, N>& a, const vec<T, N>& b) { return dot(a, b); }
template <class T, int R, int C> __device__ mat<T, C, R> transpose(const mat<T, R, C>& m) {
    mat<T, C, R> t; for (int r = 0; r < R; ++r) for (int c = 0; c < C; ++c) t[c][r] = m[r][c]; return t;
}
template <class T> __device__ T determinant(const mat<T, 2, 2>& m) { return m[0][0] * m[1][1] - m[0][1] * m[1][0]; }
template <class T> __device__ T determinant(const mat<T, 3, 3>& m) { return dot(m[0], cross(m[1], m[2])); }

// Bit casts, as HLSL's asuint/asint/asfloat.
__device__ inline uint32_t bits32(float x) { return __float_as_uint(x); }
__device__ inline uint32_t bits32(uint32_t x) { return x; }
__device__ inline uint32_t bits32(int32_t x) { return uint32_t(x); }
__device__ inline uint32_t bits32(half x) { return uint32_t(__half_as_ushort(x)); }
__device__ inline uint32_t bits32(uint16_t x) { return uint32_t(x); }
__device__ inline uint32_t bits32(int16_t x) { return uint32_t(uint16_t(x)); }
__device__ inline uint32_t bits32(uint8_t x) { return uint32_t(x); }
__device__ inline uint32_t bits32(int8_t x) { return uint32_t(uint8_t(x)); }
__device__ inline uint32_t bits32(bool x) { return x ? 1u : 0u; }
__device__ inline uint64_t bits64(double x) { return uint64_t(__double_as_longlong(x)); }
__device__ inline uint64_t bits64(uint64_t x) { return x; }
__device__ inline uint64_t bits64(int64_t x) { return uint64_t(x); }

template <class T> struct from_bits_impl;
template <> struct from_bits_impl<float> { __device__ static float get(uint32_t b) { return __uint_as_float(b); } };
template <> struct from_bits_impl<uint32_t> { __device__ static uint32_t get(uint32_t b) { return b; } };
template <> struct from_bits_impl<int32_t> { __device__ static int32_t get(uint32_t b) { return int32_t(b); } };
template <> struct from_bits_impl<half> { __device__ static half get(uint32_t b) { return __ushort_as_half(uint16_t(b)); } };
template <> struct from_bits_impl<uint16_t> { __device__ static uint16_t get(uint32_t b) { return uint16_t(b); } };
template <> struct from_bits_impl<int16_t> { __device__ static int16_t get(uint32_t b) { return int16_t(uint16_t(b)); } };
template <> struct from_bits_impl<uint8_t> { __device__ static uint8_t get(uint32_t b) { return uint8_t(b); } };
template <> struct from_bits_impl<int8_t> { __device__ static int8_t get(uint32_t b) { return int8_t(uint8_t(b)); } };
template <> struct from_bits_impl<bool> { __device__ static bool get(uint32_t b) { return b != 0u; } };
template <class T> __device__ T from_bits32(uint32_t b) { return from_bits_impl<T>::get(b); }
template <class T> __device__ T from_bits64(uint64_t b);
template <> __device__ inline double from_bits64<double>(uint64_t b) { return __longlong_as_double(int64_t(b)); }
template <> __device__ inline uint64_t from_bits64<uint64_t>(uint64_t b) { return b; }
template <> __device__ inline int64_t from_bits64<int64_t>(uint64_t b) { return int64_t(b); }

// `asuint(x)` and friends on scalars and vectors.
template <class To, class From> __device__ To bit_cast(const From& x) { return from_bits32<To>(bits32(x)); }
template <class To, class From, int N> __device__ vec<To, N> bit_cast(const vec<From, N>& v) {
    vec<To, N> r; for (int i = 0; i < N; ++i) r[i] = bit_cast<To>(v[i]); return r;
}

// The payload register ABI (see docs/design/target-pipelines/cuda.md):
// a field of `mask` bits at bit `shift` of a 32-bit register.
__device__ inline uint32_t extract_bits(uint32_t reg, uint32_t shift, uint32_t mask) {
    return (reg >> shift) & mask;
}
__device__ inline uint32_t insert_bits(uint32_t reg, uint32_t value, uint32_t shift, uint32_t mask) {
    return (reg & ~(mask << shift)) | ((value & mask) << shift);
}
__device__ inline uint32_t high_word(uint64_t x) { return uint32_t(x >> 32); }
__device__ inline uint32_t low_word(uint64_t x) { return uint32_t(x); }
__device__ inline uint64_t join_words(uint32_t high, uint32_t low) { return (uint64_t(high) << 32) | uint64_t(low); }
// A payload over 32 registers travels as its address in two registers.
template <class T> __device__ T* pointer_from(uint32_t high, uint32_t low) {
    return reinterpret_cast<T*>(join_words(high, low));
}
template <class T> __device__ uint32_t pointer_high(T* p) { return high_word(reinterpret_cast<uint64_t>(p)); }
template <class T> __device__ uint32_t pointer_low(T* p) { return low_word(reinterpret_cast<uint64_t>(p)); }

// Launch-space values of OptiX programs as HLSL types.
__device__ inline uint3 to_uint3_(const ::uint3& v) { return uint3(v.x, v.y, v.z); }
__device__ inline float3 to_float3_(const ::float3& v) { return float3(v.x, v.y, v.z); }
__device__ inline ::float3 cuda_float3(const float3& v) { return ::make_float3(v.x, v.y, v.z); }

// Textures and surfaces (see docs/design/target-pipelines/cuda.md).
// `Texture*` resources are texture objects (`cudaTextureObject_t`),
// `RWTexture1D/2D/3D` surface objects (`cudaSurfaceObject_t`). A sampler
// is this placeholder: CUDA samples through the filtering, addressing and
// coordinate normalization the host gave the texture object, so the
// sampler argument of `Sample` is accepted and not read.
struct sampler_state { unsigned char unused; };

// The CUDA built-in type of a texel (`::float4` for `lg::float4`) and the
// conversions both ways.
template <class T> struct texel;
#define LG_TEXEL_SCALAR(S) \
    template <> struct texel<S> { \
        typedef S cuda; \
        __device__ static S from(S v) { return v; } \
        __device__ static S to(S v) { return v; } \
    };
#define LG_TEXEL_VECTORS(S, C) \
    template <> struct texel<vec<S, 2>> { \
        typedef ::C##2 cuda; \
        __device__ static vec<S, 2> from(const cuda& v) { return vec<S, 2>(v.x, v.y); } \
        __device__ static cuda to(const vec<S, 2>& v) { return ::make_##C##2(v.x, v.y); } \
    }; \
    template <> struct texel<vec<S, 4>> { \
        typedef ::C##4 cuda; \
        __device__ static vec<S, 4> from(const cuda& v) { return vec<S, 4>(v.x, v.y, v.z, v.w); } \
        __device__ static cuda to(const vec<S, 4>& v) { return ::make_##C##4(v.x, v.y, v.z, v.w); } \
    };
LG_TEXEL_SCALAR(float)
LG_TEXEL_SCALAR(int32_t)
LG_TEXEL_SCALAR(uint32_t)
LG_TEXEL_VECTORS(float, float)
LG_TEXEL_VECTORS(int32_t, int)
LG_TEXEL_VECTORS(uint32_t, uint)
#undef LG_TEXEL_SCALAR
#undef LG_TEXEL_VECTORS

// HLSL rounds an array coordinate to the nearest layer.
__device__ inline int layer(float c) { return int(rintf(c)); }
__device__ inline ::float2 cuda_float2(const float2& v) { return ::make_float2(v.x, v.y); }
__device__ inline ::float4 cuda_float4(const float3& v) { return ::make_float4(v.x, v.y, v.z, 0.0f); }

// `Sample`: filtered reads at float coordinates (the texture's own mode).
#define LG_C(T) typename texel<T>::cuda
template <class T> __device__ T sample_1d(cudaTextureObject_t t, float c) { return texel<T>::from(tex1D<LG_C(T)>(t, c)); }
template <class T> __device__ T sample_2d(cudaTextureObject_t t, const float2& c) { return texel<T>::from(tex2D<LG_C(T)>(t, c.x, c.y)); }
template <class T> __device__ T sample_3d(cudaTextureObject_t t, const float3& c) { return texel<T>::from(tex3D<LG_C(T)>(t, c.x, c.y, c.z)); }
template <class T> __device__ T sample_cube(cudaTextureObject_t t, const float3& c) { return texel<T>::from(texCubemap<LG_C(T)>(t, c.x, c.y, c.z)); }
template <class T> __device__ T sample_1d_array(cudaTextureObject_t t, const float2& c) { return texel<T>::from(tex1DLayered<LG_C(T)>(t, c.x, layer(c.y))); }
template <class T> __device__ T sample_2d_array(cudaTextureObject_t t, const float3& c) { return texel<T>::from(tex2DLayered<LG_C(T)>(t, c.x, c.y, layer(c.z))); }
template <class T> __device__ T sample_cube_array(cudaTextureObject_t t, const float4& c) { return texel<T>::from(texCubemapLayered<LG_C(T)>(t, c.x, c.y, c.z, layer(c.w))); }

// `SampleLevel`: at an explicit mip level.
template <class T> __device__ T sample_level_1d(cudaTextureObject_t t, float c, float l) { return texel<T>::from(tex1DLod<LG_C(T)>(t, c, l)); }
template <class T> __device__ T sample_level_2d(cudaTextureObject_t t, const float2& c, float l) { return texel<T>::from(tex2DLod<LG_C(T)>(t, c.x, c.y, l)); }
template <class T> __device__ T sample_level_3d(cudaTextureObject_t t, const float3& c, float l) { return texel<T>::from(tex3DLod<LG_C(T)>(t, c.x, c.y, c.z, l)); }
template <class T> __device__ T sample_level_cube(cudaTextureObject_t t, const float3& c, float l) { return texel<T>::from(texCubemapLod<LG_C(T)>(t, c.x, c.y, c.z, l)); }
template <class T> __device__ T sample_level_1d_array(cudaTextureObject_t t, const float2& c, float l) { return texel<T>::from(tex1DLayeredLod<LG_C(T)>(t, c.x, layer(c.y), l)); }
template <class T> __device__ T sample_level_2d_array(cudaTextureObject_t t, const float3& c, float l) { return texel<T>::from(tex2DLayeredLod<LG_C(T)>(t, c.x, c.y, layer(c.z), l)); }
template <class T> __device__ T sample_level_cube_array(cudaTextureObject_t t, const float4& c, float l) { return texel<T>::from(texCubemapLayeredLod<LG_C(T)>(t, c.x, c.y, c.z, layer(c.w), l)); }

// `SampleGrad`: with explicit derivatives.
template <class T> __device__ T sample_grad_1d(cudaTextureObject_t t, float c, float dx, float dy) { return texel<T>::from(tex1DGrad<LG_C(T)>(t, c, dx, dy)); }
template <class T> __device__ T sample_grad_2d(cudaTextureObject_t t, const float2& c, const float2& dx, const float2& dy) { return texel<T>::from(tex2DGrad<LG_C(T)>(t, c.x, c.y, cuda_float2(dx), cuda_float2(dy))); }
template <class T> __device__ T sample_grad_3d(cudaTextureObject_t t, const float3& c, const float3& dx, const float3& dy) { return texel<T>::from(tex3DGrad<LG_C(T)>(t, c.x, c.y, c.z, cuda_float4(dx), cuda_float4(dy))); }
template <class T> __device__ T sample_grad_cube(cudaTextureObject_t t, const float3& c, const float3& dx, const float3& dy) { return texel<T>::from(texCubemapGrad<LG_C(T)>(t, c.x, c.y, c.z, cuda_float4(dx), cuda_float4(dy))); }
template <class T> __device__ T sample_grad_1d_array(cudaTextureObject_t t, const float2& c, float dx, float dy) { return texel<T>::from(tex1DLayeredGrad<LG_C(T)>(t, c.x, layer(c.y), dx, dy)); }
template <class T> __device__ T sample_grad_2d_array(cudaTextureObject_t t, const float3& c, const float2& dx, const float2& dy) { return texel<T>::from(tex2DLayeredGrad<LG_C(T)>(t, c.x, c.y, layer(c.z), cuda_float2(dx), cuda_float2(dy))); }
#undef LG_C

// `Load`: one texel at integer coordinates and a mip level, through PTX's
// integer-coordinate fetch, which addresses texels directly whatever the
// texture's coordinate normalization and filtering (measured on an H200:
// a texture with normalized coordinates and linear filtering returns the
// exact texel), so `Load` and `Sample` work on one texture object. The
// fetch returns four components; the texel type keeps its first ones.
#define LG_FETCH(S, TY, R) \
    __device__ inline vec<S, 4> fetch_1d(S*, cudaTextureObject_t t, int x, int lod) { \
        vec<S, 4> r; \
        asm volatile("tex.level.1d.v4." TY ".s32 {%0, %1, %2, %3}, [%4, {%5}], %6;" \
                     : "=" R(r.x), "=" R(r.y), "=" R(r.z), "=" R(r.w) : "l"(t), "r"(x), "r"(lod)); \
        return r; \
    } \
    __device__ inline vec<S, 4> fetch_2d(S*, cudaTextureObject_t t, int x, int y, int lod) { \
        vec<S, 4> r; \
        asm volatile("tex.level.2d.v4." TY ".s32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;" \
                     : "=" R(r.x), "=" R(r.y), "=" R(r.z), "=" R(r.w) : "l"(t), "r"(x), "r"(y), "r"(lod)); \
        return r; \
    } \
    __device__ inline vec<S, 4> fetch_3d(S*, cudaTextureObject_t t, int x, int y, int z, int lod) { \
        vec<S, 4> r; \
        asm volatile("tex.level.3d.v4." TY ".s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}], %8;" \
                     : "=" R(r.x), "=" R(r.y), "=" R(r.z), "=" R(r.w) : "l"(t), "r"(x), "r"(y), "r"(z), "r"(lod)); \
        return r; \
    }
LG_FETCH(float, "f32", "f")
LG_FETCH(int32_t, "s32", "r")
LG_FETCH(uint32_t, "u32", "r")
#undef LG_FETCH
template <class S> __device__ S first_of(const vec<S, 4>& r, S*) { return r.x; }
template <class S> __device__ vec<S, 2> first_of(const vec<S, 4>& r, vec<S, 2>*) { return vec<S, 2>(r.x, r.y); }
template <class S> __device__ vec<S, 4> first_of(const vec<S, 4>& r, vec<S, 4>*) { return r; }
// `c` is HLSL's coordinate with the mip level last (`int3(x, y, mip)`).
template <class T, class C> __device__ T load_1d(cudaTextureObject_t t, const C& c) {
    typedef typename scalar_of<T>::type S;
    return first_of(fetch_1d((S*)0, t, int(c[0]), int(c[1])), (T*)0);
}
template <class T, class C> __device__ T load_2d(cudaTextureObject_t t, const C& c) {
    typedef typename scalar_of<T>::type S;
    return first_of(fetch_2d((S*)0, t, int(c[0]), int(c[1]), int(c[2])), (T*)0);
}
template <class T, class C> __device__ T load_3d(cudaTextureObject_t t, const C& c) {
    typedef typename scalar_of<T>::type S;
    return first_of(fetch_3d((S*)0, t, int(c[0]), int(c[1]), int(c[2]), int(c[3])), (T*)0);
}

// `RWTexture1D/2D/3D` texels: surface reads and writes at the byte x
// coordinate (x * sizeof(texel)). Out-of-range reads give zero and writes
// are dropped (`cudaBoundaryModeZero`), as in HLSL.
#define LG_C(T) typename texel<T>::cuda
template <class T> __device__ T surface_read_1d(cudaSurfaceObject_t s, int x) {
    return texel<T>::from(surf1Dread<LG_C(T)>(s, x * int(sizeof(LG_C(T))), cudaBoundaryModeZero));
}
template <class T, class C> __device__ T surface_read_2d(cudaSurfaceObject_t s, const C& c) {
    return texel<T>::from(surf2Dread<LG_C(T)>(s, int(c[0]) * int(sizeof(LG_C(T))), int(c[1]), cudaBoundaryModeZero));
}
template <class T, class C> __device__ T surface_read_3d(cudaSurfaceObject_t s, const C& c) {
    return texel<T>::from(surf3Dread<LG_C(T)>(s, int(c[0]) * int(sizeof(LG_C(T))), int(c[1]), int(c[2]), cudaBoundaryModeZero));
}
template <class T> __device__ void surface_write_1d(cudaSurfaceObject_t s, int x, const T& v) {
    surf1Dwrite<LG_C(T)>(texel<T>::to(v), s, x * int(sizeof(LG_C(T))), cudaBoundaryModeZero);
}
template <class T, class C> __device__ void surface_write_2d(cudaSurfaceObject_t s, const C& c, const T& v) {
    surf2Dwrite<LG_C(T)>(texel<T>::to(v), s, int(c[0]) * int(sizeof(LG_C(T))), int(c[1]), cudaBoundaryModeZero);
}
template <class T, class C> __device__ void surface_write_3d(cudaSurfaceObject_t s, const C& c, const T& v) {
    surf3Dwrite<LG_C(T)>(texel<T>::to(v), s, int(c[0]) * int(sizeof(LG_C(T))), int(c[1]), int(c[2]), cudaBoundaryModeZero);
}
#undef LG_C

// `GetDimensions` without a mip level: PTX's `txq` of a texture object
// and `suq` of a surface object, both in texels (measured on an H200:
// `suq.width` of a 5-float-wide surface is 5, not bytes).
__device__ inline int texture_width(cudaTextureObject_t t) { int r; asm("txq.width.b32 %0, [%1];" : "=r"(r) : "l"(t)); return r; }
__device__ inline int texture_height(cudaTextureObject_t t) { int r; asm("txq.height.b32 %0, [%1];" : "=r"(r) : "l"(t)); return r; }
__device__ inline int texture_depth(cudaTextureObject_t t) { int r; asm("txq.depth.b32 %0, [%1];" : "=r"(r) : "l"(t)); return r; }
__device__ inline int surface_width(cudaSurfaceObject_t s) { int r; asm("suq.width.b32 %0, [%1];" : "=r"(r) : "l"(s)); return r; }
__device__ inline int surface_height(cudaSurfaceObject_t s) { int r; asm("suq.height.b32 %0, [%1];" : "=r"(r) : "l"(s)); return r; }
__device__ inline int surface_depth(cudaSurfaceObject_t s) { int r; asm("suq.depth.b32 %0, [%1];" : "=r"(r) : "l"(s)); return r; }
template <class W> __device__ void texture_dimensions_1d(cudaTextureObject_t t, W& w) { w = W(texture_width(t)); }
template <class W, class H> __device__ void texture_dimensions_2d(cudaTextureObject_t t, W& w, H& h) {
    w = W(texture_width(t)); h = H(texture_height(t));
}
template <class W, class H, class D> __device__ void texture_dimensions_3d(cudaTextureObject_t t, W& w, H& h, D& d) {
    w = W(texture_width(t)); h = H(texture_height(t)); d = D(texture_depth(t));
}
template <class W> __device__ void surface_dimensions_1d(cudaSurfaceObject_t s, W& w) { w = W(surface_width(s)); }
template <class W, class H> __device__ void surface_dimensions_2d(cudaSurfaceObject_t s, W& w, H& h) {
    w = W(surface_width(s)); h = H(surface_height(s));
}
template <class W, class H, class D> __device__ void surface_dimensions_3d(cudaSurfaceObject_t s, W& w, H& h, D& d) {
    w = W(surface_width(s)); h = H(surface_height(s)); d = D(surface_depth(s));
}

#ifdef OPTIX_VERSION
// The instance transforms as HLSL `float3x4` (OptiX's 12 floats, row by row).
__device__ inline float3x4 object_to_world3x4() {
    float m[12];
    optixGetObjectToWorldTransformMatrix(m);
    return float3x4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11]);
}
__device__ inline float3x4 world_to_object3x4() {
    float m[12];
    optixGetWorldToObjectTransformMatrix(m);
    return float3x4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11]);
}
// The current hit's sphere (centre and radius) and linear swept sphere
// (its two ends, each a centre and radius, one per row).
__device__ inline float4 sphere_position_and_radius() {
    ::float4 d[1];
    optixGetSphereData(d);
    return float4(d[0].x, d[0].y, d[0].z, d[0].w);
}
__device__ inline float2x4 lss_positions_and_radii() {
    ::float4 d[2];
    optixGetLinearCurveVertexData(d);
    return float2x4(d[0].x, d[0].y, d[0].z, d[0].w, d[1].x, d[1].y, d[1].z, d[1].w);
}
// The same of the outgoing hit object (`HitObject.GetSpherePositionAndRadius`
// ...); a hit object that is no sphere or swept-sphere hit reads zeros.
__device__ inline float4 hit_object_sphere_position_and_radius() {
    ::float4 d[1] = {};
    if (optixHitObjectIsHit() && optixGetPrimitiveType(optixHitObjectGetHitKind()) == OPTIX_PRIMITIVE_TYPE_SPHERE)
        optixHitObjectGetSphereData(d);
    return float4(d[0].x, d[0].y, d[0].z, d[0].w);
}
__device__ inline float2x4 hit_object_lss_positions_and_radii() {
    ::float4 d[2] = {};
    if (optixHitObjectIsHit() && optixGetPrimitiveType(optixHitObjectGetHitKind()) == OPTIX_PRIMITIVE_TYPE_ROUND_LINEAR)
        optixHitObjectGetLinearCurveVertexData(d);
    return float2x4(d[0].x, d[0].y, d[0].z, d[0].w, d[1].x, d[1].y, d[1].z, d[1].w);
}
// An instance's transform (optixGetInstance(Inverse)TransformFromHandle:
// three float4 rows) as HLSL `float3x4`; zero when the handle is no
// instance (a null pointer).
__device__ inline float3x4 rows3x4(const ::float4* m) {
    if (m == nullptr) return float3x4();
    return float3x4(m[0].x, m[0].y, m[0].z, m[0].w, m[1].x, m[1].y, m[1].z, m[1].w,
                    m[2].x, m[2].y, m[2].z, m[2].w);
}
#endif

}  // namespace lg
