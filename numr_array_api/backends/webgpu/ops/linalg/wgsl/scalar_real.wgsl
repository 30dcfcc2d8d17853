alias T = ${R};
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
