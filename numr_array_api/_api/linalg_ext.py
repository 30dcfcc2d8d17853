"""The ``linalg`` extension. (Being completed: see docs/architecture.md.)"""


def build(ctx, main):
    return {"matmul": main["matmul"], "matrix_transpose": main["matrix_transpose"],
            "tensordot": main["tensordot"], "vecdot": main["vecdot"]}
