"""Building blocks shared by several kernel families.

slabs.py   split work over data larger than one binding / buffer into boxes
scan.py    the device-wide scan and compaction plans (sorting, sets, masks, cumulative ops)
"""
