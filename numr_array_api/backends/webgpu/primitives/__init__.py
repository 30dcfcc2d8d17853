"""Building blocks shared by several kernel families.

slabs.py     split work over data larger than one binding / buffer into boxes
scan.py      the device-wide scan of the rows of a view (inclusive, exclusive, total):
             sorting, sets, mask compaction, cumulative ops; its kernel in scan.wgsl
compact.py   stream compaction: the flat positions of a mask's true elements, and
             ``data[mask]`` (``select_rows``)
gather.py    gather / scatter through integer indices, fused with their bounds check
             (TakeSpec, NUMR_WEBGPU_INDEX_CHECK), at any size
keys.py      order-preserving unsigned sort keys of every dtype, computed from raw bits
radix.py     the device-wide sort: a stable LSD radix sort of the rows of a view, moving
             positions (RadixPlan); real keys go to radix_keys.py, short rows to rowsort.py
radix_keys.py  the key-carrying radix path for real dtypes: raw bits as u32 planes, every
             pass's histogram from one read, constant-digit passes skipped on the device,
             subgroup or workgroup-memory ranking (SORT_RANK); the first pass reads a
             contiguous 32-bit source itself
radix_wgsl.py  WGSL pieces radix_keys.py and radix_sweep.py share: the key of carried bits,
             subgroup matching (lanes with equal digits), the bitmask ranking's frame
radix_sweep.py the one-sweep scatter of radix_keys.py's passes (SORT_SWEEP): a pass in
             one launch by decoupled look-back over tile digit counts
rowsort.py   short rows sorted in workgroup memory by a bitonic network, a workgroup per
             row (or per few rows); its kernel in rowsort.wgsl
"""
