# SciPy tests that failed on numr cuda only: full tracebacks. bash scipy_diag.sh BACKEND
# (after benchmarks/gpu/prep.sh)
SITE=$(python3 -c "import scipy, os; print(os.path.dirname(os.path.dirname(scipy.__file__)))")
W=/tmp/scipy-diag; mkdir -p $W; printf "[pytest]\n" > $W/pytest.ini
REPO=$PWD
  (cd $W && SCIPY_ARRAY_API=1 NUMR_CONSUMERS_SUITE=scipy NUMR_CONSUMERS_BACKEND=${1:-cuda} \
   NUMR_CONSUMERS_LOG=$W/log NUMR_CONSUMERS_EXCLUDE=$W/ex NUMR_CONSUMERS_TEST_TIMEOUT=300 \
   PYTHONPATH=$REPO/conformance/consumers:$REPO:$PYTHONPATH python3 -m pytest -p plugin \
   -p no:cacheprovider -c $W/pytest.ini --rootdir $SITE -q --tb=long -W ignore::DeprecationWarning \
   --pyargs scipy.stats.tests.test_stats scipy.stats.tests.test_axis_nan_policy -m array_api_backends \
   -k "(TestCumfreq or TestRelfreq or TestKruskal or broadcast_concatenate) and numr")
