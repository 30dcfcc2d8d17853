"""Reviewed causes: the only way a numr failure in a consumer suite is not counted as numr's.

A numr failure is classed "reviewed" only when one entry of REVIEWED covers it: the test (a
regex over the node id, as narrow as the review), numr's exception (a regex over
"Type: message") and the evidence the review rests on, what array-api-strict did on the same
test in the same run (its outcome, and the pattern of its exception or skip reason). Anything
else is a numr failure, whatever the baseline did. Each entry was reviewed by reading the test;
the results print both exceptions next to each reviewed failure, so a review can be checked.

LABELS only names likely causes of numr failures in the results; it excuses nothing.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cause:
    name: str            # the cause, and what the test does (reviewed by reading it)
    ids: str             # regex over the test's node id
    numr: str            # regex over numr's "Type: message"
    strict: tuple        # strict's outcomes on the twin the review accepts ("any": no twin needed)
    strict_text: str = ""  # regex over strict's "Type: message" or skip / xfail reason


_MIXED = ("numr refuses mixed-kind promotion as the standard defines none, like "
          "array-api-strict; ")

REVIEWED = [
    Cause(_MIXED + "scikit-learn runs the integer-by-floating matmul part only for namespaces "
          "it lists as supporting it, and names array_api_strict among those that do not",
          r"sklearn/utils/tests/test_extmath\.py::test_randomized_range_finder_array_api_"
          r"compliance\[numr_array_api\.\w+-[\w:]+-float64\]",
          r"^DTypeMismatch: matmul: dtypes int64 and float64 do not promote", ("passed",)),
    Cause(_MIXED + "SciPy computes the expected dtype by hand for strict ('special-case for "
          "TypeError: ... cannot be type promoted together') and with xp.result_type for "
          "everyone else",
          r"scipy/special/tests/test_logsumexp\.py::TestLogSumExp::test_dtypes_ab\["
          r"numr_array_api\.\w+-(int\d+-(float|complex)\d+|(float|complex)\d+-int\d+)\]",
          r"^DTypeMismatch: (int\d+ and (float|complex)\d+|(float|complex)\d+ and int\d+) "
          r"cannot be promoted together", ("passed",)),
    Cause(_MIXED + "case 2 mixes integer y with floating x; the test casts y to float64 'for "
          "array API strict' only when the namespace is strict",
          r"scipy/stats/tests/test_correlation\.py::Test(Siegel|Theil)slopes::test_against_"
          r"mstats\[numr_array_api\.\w+-2-\w+\]",
          r"^DTypeMismatch: int64 and float64 cannot be promoted together", ("passed",)),
    Cause(_MIXED + "the metric subtracts an int64 label array from a float64 one; strict "
          "refuses the same promotion",
          r"sklearn/metrics/tests/test_common\.py::test_mixed_array_api_namespace_input_"
          r"compliance\[(f1_score|precision_score|recall_score|multilabel_confusion_matrix)-",
          r"^DTypeMismatch: subtract: dtypes int64 \('x1'\) and float64 \('x2'\) have no "
          r"promotion", ("failed",), r"int64.*float64|float64.*int64"),
    Cause(_MIXED + "the 'correa' estimator multiplies a floating array by an int64 index "
          "array; SciPy skips it for strict",
          r"scipy/stats/tests/test_(device_dtype|entropy)\.py::(TestDifferentialEntropy::)?"
          r"test_\w+\[numr_array_api\.\w+-[\w-]*correa\]",
          r"^DTypeMismatch: multiply: dtypes float(32|64) \('x1'\) and int64 \('x2'\)",
          ("skipped",), r"Invalid fancy indexing"),
    Cause(_MIXED + "the power calculation combines integer and float arrays; SciPy skips it "
          "for strict for that reason",
          r"scipy/stats/tests/test_resampling\.py::TestPower::test_ttest_1samp_power\[",
          r"^DTypeMismatch: int64 and float64 cannot be promoted together", ("skipped",),
          r"combines integer and float arrays"),
    Cause(_MIXED + "lfiltic's bad-zi case adds a bool array to a floating one; SciPy skips "
          "it for strict (promotion)",
          r"scipy/signal/tests/test_signaltools\.py::TestLinearFilter\w+::test_lfiltic_bad_zi\[",
          r"^DTypeMismatch: (float|complex)\d+ and bool cannot be promoted together",
          ("skipped",), r"cannot be promoted together"),
    Cause("softmax / log_softmax of an int64 array: numr's exp takes floating dtypes only, as "
          "the standard says; SciPy xfails the test for strict ('int->float promotion')",
          r"scipy/special/tests/test_logsumexp\.py::Test(Log)?Softmax::test_(log_)?softmax_"
          r"int_array\[",
          r"^DTypeMismatch: exp: 'x' has dtype int64, but exp accepts only floating-point",
          ("xfailed",), r"int->float promotion"),
    Cause("a Python bool as an index, which numr refuses like strict (the standard allows "
          "only integers, slices, ellipsis, None and arrays); the test guards `input[True]` "
          "with `if not (is_array_api_strict(xp) or is_dask(xp))`",
          r"scipy/ndimage/tests/test_filters\.py::TestVectorizedFilter::test_edge_cases\[",
          r"^InvalidIndex: Python bools are not valid indices", ("passed",)),
    Cause("the expected error-message regex lists strict's own message ('The array_api_strict "
          "...'); numr refuses the same input with its own message",
          r"scipy/ndimage/tests/test_filters\.py::TestVectorizedFilter::test_input_validation\[",
          r"^AssertionError: Regex pattern did not match", ("passed",)),
    Cause("a list as an index, which numr refuses like strict; SciPy skips the test for "
          "strict ('fancy indexing not supported')",
          r"scipy/signal/tests/test_signaltools\.py::TestSOSFilt::test_initial_conditions_2\[",
          r"^InvalidIndex: invalid index of type list", ("skipped",), r"fancy indexing"),
    Cause("a test for lazy namespaces (JAX, Dask): numr arrays are eager, so contains_nan "
          "answers at once instead of raising; SciPy skips it for every eager namespace it "
          "names",
          r"scipy/_lib/tests/test__util\.py::TestContainsNaN::test_array_api_lazy\[",
          r"^Failed: DID NOT RAISE TypeError", ("skipped",), r"lazy backends only"),
    Cause("min / max of a bool array, which the standard does not define (real-valued "
          "dtypes only) and numr refuses like strict; SciPy skips the test for strict",
          r"scipy/stats/tests/test_stats\.py::TestDescribe::test_boolean_input_gh24847\[",
          r"^DTypeMismatch: (min|max): 'x' has dtype bool", ("skipped",),
          r"don't accept boolean input"),
    Cause("the test runs on the second device, Mesa's OpenGL adapter on the CI machine "
          "(webgpu:1, no shader-int64); SciPy's quantile makes int64 indices there; strict's "
          "twin runs on its 'no_x64' device and fails for the same missing dtype",
          r"scipy/stats/tests/test_device_dtype\.py::test_quantile\[numr_array_api\.webgpu-"
          r"float32-",
          r"^BackendLimitation: webgpu: astype on int64 is not supported: the adapter lacks "
          r"the 'shader-int64' feature", ("failed",), r"does not support dtype=.*int64"),
    Cause("scipy.special functions compute on NumPy and return on the default device, so on "
          "a second device (webgpu:1) the result's device differs from the input's; SciPy "
          "skips the test for strict for that reason",
          r"scipy/stats/tests/test_device_dtype\.py::test_entropy\[numr_array_api\.webgpu-",
          r"^AssertionError: assert webgpu:0 == webgpu:1", ("skipped",),
          r"special functions don't work with 'device1'"),
    Cause("harrell-davis computes its weights with scipy.special (NumPy, default device) and "
          "mixes them with data on the second device; SciPy skips it for strict and on GPUs",
          r"scipy/stats/tests/test_device_dtype\.py::test_quantile\[numr_array_api\.webgpu-"
          r"float32-harrell-davis\]",
          r"^DeviceMismatch: vecdot: arrays are on different devices: 'x1' is on webgpu:0, "
          r"'x2' on webgpu:1", ("skipped",), r"'harrell-davis' not currently supported"),
    Cause("the test's own dtype is float64 and the adapter has no shader-f64 (lavapipe): "
          "numr raises BackendLimitation naming the missing feature "
          "(__array_namespace_info__ does not list float64 there)",
          r"\[numr_array_api\.webgpu-[^\]]*float64",
          r"^BackendLimitation: webgpu: .* on float64 is not supported: the adapter lacks "
          r"the 'shader-f64' feature", ("any",)),
]


def _text(rec):
    if rec is None:
        return ""
    exc = rec.get("exc")
    if exc:
        return f"{exc.get('type', '')}: {exc.get('message', '')}"
    return rec.get("reason") or ""


def reviewed_cause(nodeid, exc, twin):
    """The REVIEWED entry covering a numr failure, given strict's twin record (or None)."""
    text = f"{exc.get('type', '')}: {exc.get('message', '')}"
    for c in REVIEWED:
        if not re.search(c.ids, nodeid) or not re.search(c.numr, text):
            continue
        if "any" in c.strict:
            return c
        if twin is None or twin.get("outcome") not in c.strict:
            continue
        if c.strict_text and not re.search(c.strict_text, _text(twin)):
            continue
        return c
    return None


def twin_from_text(text):
    """The twin record ``strict_text`` wrote (for re-classifying stored results)."""
    if not text:
        return None
    outcome, _, rest = text.partition(" ")
    rest = rest[1:-1] if rest.startswith("(") and rest.endswith(")") else rest
    typ, sep, msg = rest.partition(": ")
    return {"outcome": outcome, "reason": rest,
            "exc": {"type": typ, "message": msg} if sep and outcome in ("failed", "error")
            else None}


def strict_text(twin):
    """What strict did on the twin, for the results: outcome and exception / reason."""
    if twin is None:
        return None
    t = _text(twin)
    return twin["outcome"] + (f" ({t[:300]})" if t else "")


LABELS = [
    ("cuda float64 sums in CuPy's reduction order, not NumPy's: a statistic that cancels to "
     "exactly 0.0 in NumPy is 7e-15 (SciPy asserts exact equality); see docs/cuda.md",
     r"TestKruskal::test_nan_policy_omit_raise", r"Arrays are not equal"),
]


def label(nodeid, exc):
    text = f"{exc.get('type', '')}: {exc.get('message', '')}"
    for name, id_re, exc_re in LABELS:
        if re.search(id_re, nodeid) and re.search(exc_re, text):
            return name
    return None
