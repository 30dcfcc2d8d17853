alias T = vec2<${R}>;
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
