"""Known causes of numr failures in the consumers' suites, matched on the exception text.

Each entry: (label, id regex or None, exception regex over "Type: message"). A match names
the cause in the results; an unmatched failure is reported with its exception and location
only. Remove an entry when its cause is fixed (the results then show whether it still fires).
"""

import re

KNOWN = [
    ("issue 13 cause 1: a NumPy scalar as a value is refused (lead)", None,
     r"'value' must be an array of numr_array_api\.\w+, got (float|int|bool|complex)\d*"),
    ("issue 13 cause 2/3: a NumPy integer scalar / index array is refused as an index (lead)",
     None, r"InvalidIndex.*(numpy|int64|int32|ndarray)"),
    ("issue 13 cause 4: NumPy cannot interpret a numr dtype (lead)", None,
     r"Cannot interpret 'numr_array_api\.\w+' as a data type"),
    ("cuda float64 sums in CuPy's reduction order, not NumPy's: a statistic that cancels to "
     "exactly 0.0 in NumPy is 7e-15 (SciPy asserts exact equality); open, see "
     "docs/cuda.md", r"TestKruskal::test_nan_policy_omit_raise",
     r"Arrays are not equal"),
]


def known_cause(nodeid, exc):
    text = f"{exc.get('type', '')}: {exc.get('message', '')}"
    for label, id_re, exc_re in KNOWN:
        if id_re and not re.search(id_re, nodeid):
            continue
        if re.search(exc_re, text):
            return label
    return None


# Tests whose body leaves array-api-strict out by name (so strict's pass says nothing about
# numr): (id regex, what the suite says). A numr failure there is classed "strict-excluded".
STRICT_EXCLUDED_IN_TEST = [
    (r"test_extmath\.py::test_randomized_range_finder_array_api_compliance\[.*float64\]",
     "sklearn runs the integer-by-floating matmul part only 'for namespaces that support "
     "integer-by-floating matmul' and names array_api_strict among those that do not; the "
     "standard has no mixed-kind promotion and numr refuses it like strict"),
    (r"special/tests/test_logsumexp\.py::TestLogSumExp::test_dtypes_ab\[.*int",
     "SciPy computes the expected dtype for strict by hand ('special-case for TypeError: "
     "array_api_strict.float32 and array_api_strict.int64 cannot be type promoted "
     "together') and with xp.result_type for everyone else; numr refuses mixed-kind "
     "promotion like strict (reviewed 2026-11-24)"),
    (r"ndimage/tests/test_filters\.py::TestVectorizedFilter::test_edge_cases\[",
     "`if not (is_array_api_strict(xp) or is_dask(xp)):` guards `input[True]`; numr, like "
     "strict, refuses a Python bool as an index (reviewed 2026-11-24)"),
    (r"ndimage/tests/test_filters\.py::TestVectorizedFilter::test_input_validation\[",
     "the expected error-message regex lists strict's own message ('The array_api_strict'); "
     "numr raises for the same input with its own message (reviewed 2026-11-24)"),
    (r"stats/tests/test_correlation\.py::Test(Siegel|Theil)slopes::test_against_mstats\[.*-2-",
     "case 2 mixes integer y with floating x; the test casts y to float64 'for array API "
     "strict [which] doesn't allow mixed type promotion' only when the namespace is strict; "
     "numr refuses mixed-kind promotion like strict, as the standard says (reviewed "
     "2026-11-26)"),
]


def strict_excluded_in_test(nodeid):
    for id_re, reason in STRICT_EXCLUDED_IN_TEST:
        if re.search(id_re, nodeid):
            return reason
    return None
