"""Process-wide settings.

Implicit host conversion (``numpy.asarray(x)``, ``float(x)`` on device arrays) costs a
device-to-host copy and a synchronisation; consumers such as SciPy's compiled paths rely on
it. The policy for *device* arrays is ``"warn"`` by default: it works, and tells you once per
call site. CPU arrays convert zero-copy and are never warned about.
"""

import warnings

from . import environment
from .errors import HostTransferError, InvalidArgument

__all__ = ["set_host_conversion", "get_host_conversion", "host_conversion", "check_host_conversion"]

_POLICIES = ("allow", "warn", "raise")
_state = {"policy": environment.get("NUMR_HOST_CONVERSION").lower()}
if _state["policy"] not in _POLICIES:
    _state["policy"] = "warn"


class HostConversionWarning(UserWarning):
    """An implicit device-to-host copy happened (see numr_array_api.set_host_conversion)."""


def set_host_conversion(policy):
    """Set what implicit conversion of a device array to host memory does: allow, warn or raise."""
    if policy not in _POLICIES:
        raise InvalidArgument("policy", f"must be one of {_POLICIES}, got {policy!r}")
    _state["policy"] = policy


def get_host_conversion():
    return _state["policy"]


class host_conversion:
    """Context manager: ``with host_conversion("raise"): ...`` sets the policy temporarily."""

    def __init__(self, policy):
        if policy not in _POLICIES:
            raise InvalidArgument("policy", f"must be one of {_POLICIES}, got {policy!r}")
        self.policy = policy

    def __enter__(self):
        self.saved = _state["policy"]
        _state["policy"] = self.policy
        return self

    def __exit__(self, *exc):
        _state["policy"] = self.saved


def check_host_conversion(device, what):
    """Apply the policy before an implicit device-to-host transfer of ``what``."""
    p = _state["policy"]
    if p == "allow":
        return
    msg = (f"implicit conversion of a {device} array to host memory ({what}); use "
           f"x.to_device('cpu') or numr_array_api.set_host_conversion('allow') to silence")
    if p == "raise":
        raise HostTransferError(msg)
    warnings.warn(msg, HostConversionWarning, stacklevel=3)
