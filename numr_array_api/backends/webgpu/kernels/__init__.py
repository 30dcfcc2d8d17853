"""Kernels the runtime itself needs: strided copy, fill, cast, and the N-ary elementwise
template that copy, cast and the elementwise functions share.

nary.py         the N-ary strided / broadcast elementwise template (NarySpec): up to 3
                inputs, a fresh output or a strided scatter, boxes beyond one binding
launch_plan.py  LaunchPlan: the eager hot path of a repeated N-ary launch into a fresh
                contiguous output
_map.py         copy and cast as the N-ary template with one input and the identity op
                (``map_into``, ``map_into_block``)
copy.py         strided copy to a new contiguous storage, bit-exact for every dtype
cast.py         casts between all numr dtypes, following NumPy's ``astype``
fill.py         FillSpec: a new contiguous storage filled with one scalar's bit pattern
"""
