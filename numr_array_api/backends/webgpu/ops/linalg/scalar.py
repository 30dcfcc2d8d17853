"""Per-dtype scalar arithmetic shared by the factorisation kernels.

The kernels are written once over ``T`` (the element type) and ``R`` (its real type) with
the helpers below, so float32 / float64 / complex64 / complex128 share one text: for real
types ``cj`` is the identity and ``mul`` a product; for complex ones (vec2 re, im) they are
the conjugate and the complex product. Divisions by complex values scale the divisor first,
so |b|^2 neither overflows nor underflows before the quotient does.
"""

_REAL = """alias T = ${R};
alias R = ${R};
fn zero() -> T { return T(0.0); }
fn one() -> T { return T(1.0); }
fn re(a: T) -> R { return a; }
fn im(a: T) -> R { return R(0.0); }
fn of_re(x: R) -> T { return x; }
fn mk(x: R, y: R) -> T { return x; }
fn cj(a: T) -> T { return a; }
fn mul(a: T, b: T) -> T { return a * b; }
fn dv(a: T, b: T) -> T { return a / b; }
fn cabs1(a: T) -> R { return abs(a); }
fn maxabs(a: T) -> R { return abs(a); }
fn absq(a: T) -> R { return a * a; }
// exactly +-1 (a / abs(a) is not on NVIDIA, whose division is approximate: a det sign of
// -0.999998 after 4096 pivots, H100); NaN passes through
fn phase(a: T) -> T {
  if (a > R(0.0)) { return R(1.0); }
  if (a < R(0.0)) { return R(-1.0); }
  if (a == R(0.0)) { return zero(); }
  return a;
}
"""

_COMPLEX = """alias T = vec2<${R}>;
alias R = ${R};
fn zero() -> T { return T(R(0.0), R(0.0)); }
fn one() -> T { return T(R(1.0), R(0.0)); }
fn re(a: T) -> R { return a.x; }
fn im(a: T) -> R { return a.y; }
fn of_re(x: R) -> T { return T(x, R(0.0)); }
fn mk(x: R, y: R) -> T { return T(x, y); }
fn cj(a: T) -> T { return T(a.x, -a.y); }
fn mul(a: T, b: T) -> T { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
fn dv(a: T, b: T) -> T {
  let s = max(abs(b.x), abs(b.y));
  let c = b / s;
  let d = c.x * c.x + c.y * c.y;
  return T(a.x * c.x + a.y * c.y, a.y * c.x - a.x * c.y) / (d * s);
}
fn cabs1(a: T) -> R { return abs(a.x) + abs(a.y); }
fn maxabs(a: T) -> R { return max(abs(a.x), abs(a.y)); }
fn absq(a: T) -> R { return a.x * a.x + a.y * a.y; }
fn phase(a: T) -> T {
  let s = max(abs(a.x), abs(a.y));
  if (s == R(0.0)) { return zero(); }
  let c = a / s;
  return c / sqrt(c.x * c.x + c.y * c.y);
}
"""


def prelude(t):
    """The helper block for WType ``t`` (float32 / float64 / complex64 / complex128)."""
    if t.val.startswith("vec2"):
        return _COMPLEX.replace("${R}", t.val[5:-1])
    return _REAL.replace("${R}", t.val)


def real_of(t):
    return t.val[5:-1] if t.val.startswith("vec2") else t.val
