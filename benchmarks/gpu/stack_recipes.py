"""webgpu_linalg.py --stacks, then the webgpu client's recipe counters (captures, replays,
refusals by reason): whether the stacked calls of that harness replay their recipes.

    python benchmarks/gpu/stack_recipes.py [webgpu_linalg.py args]
Reports, never asserts."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import webgpu_linalg as wl  # noqa: E402


def main():
    args = sys.argv[1:] or ["--stacks", "--only", "cholesky,solve,inv", "--repeats", "7"]
    wl.main(args)
    import numr_array_api.webgpu as xp
    client = xp.asarray([0.0])._data.client
    r = client.recipes
    print(f"recipes: captured {r.captured}, replays {r.replays}, table {len(r.table)}, "
          f"refused {dict(r.refused)}", flush=True)


if __name__ == "__main__":
    main()
