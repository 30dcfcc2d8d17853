"""What every kernel of the tridiagonal eigh path (tridiag.py) shares: the prelude (the
element type R, EPS, SAFMIN, ``bad`` for inf / NaN) and the float32 / float64 constants.
Real float32 / float64 only."""

from __future__ import annotations

from ...codegen.template import Template

_PRE = Template("""alias R = ${R};
var<private> ED: u32;   // E's element offset minus D's (the kernels index E from D's base)
const EPS: R = R(${eps});
const SAFMIN: R = R(${safmin});
fn bad(x: R) -> bool { ${bad} }
""", "trd_pre")

_CONST = {
    "f32": dict(eps="5.9604644775390625e-8", safmin="1.1754943508222875e-38",
                bad="return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;",
                nan="bitcast<f32>(0x7fc00000u)"),
    "f64": dict(eps="1.1102230246251565e-16", safmin="2.2250738585072014e-308",
                bad="return (bitcast<u64>(x) & 0x7ff0000000000000lu) == 0x7ff0000000000000lu;",
                nan="bitcast<f64>(0x7ff8000000000000lu)"),
}


def prelude(t):
    """The WGSL prelude for the element type ``t`` (a WType of float32 / float64)."""
    c = _CONST[t.val]
    return _PRE.render(R=t.val, eps=c["eps"], safmin=c["safmin"], bad=c["bad"])


def nan(t):
    """A quiet NaN of ``t`` as a WGSL expression (from its bits)."""
    return _CONST[t.val]["nan"]


def needs(t):
    return ("f64", "int64") if t.val == "f64" else ()
