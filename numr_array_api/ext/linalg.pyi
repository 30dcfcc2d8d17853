from typing import Final, Literal, TypeAlias, TypeVar

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "ACTIVATIONS"]

# any array-API array: the result is an array of the inputs' namespace
_A = TypeVar("_A")
_Activation: TypeAlias = Literal["none", "relu", "gelu", "gelu_erf", "silu", "sigmoid", "tanh"]

ACTIVATIONS: Final[tuple[_Activation, ...]]

def gemm_epilogue(a: _A, b: _A, /, bias: _A | None = None, *,
                  activation: _Activation = "none", residual: _A | None = None) -> _A: ...
# (grad_a, grad_b, grad_bias); grad_bias is None when bias is
def gemm_epilogue_bwd(grad: _A, a: _A, b: _A, /, bias: _A | None = None, *,
                      activation: _Activation = "none") -> tuple[_A, _A, _A | None]: ...
