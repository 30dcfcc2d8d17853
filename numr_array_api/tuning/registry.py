"""The knobs: every tuning value of the library declared once, resolved once per adapter.

A knob has a name, a type, a default (the portable choice for an adapter no table knows),
the values the tune command tries, and a line of documentation. Its value on an adapter is,
later sources winning:

    declared default < the adapter's shipped table (tables/*.json) < the table the tune
    command wrote for it (or NUMR_TUNING_TABLE) < NUMR_TUNING < force() / override()

Values are resolved into one dict per adapter on first use and after every change, so a
lookup on a hot path is two dict reads. ``epoch()`` names the state the values come from
(it changes with every change, and comes back with the state); caches whose entries depend
on knob values (plans, recipes) put it in their keys.

Overrides are process-wide (they are for benchmarks comparing variants and for tests), not
per thread: a thread that overrides while another runs kernels changes both.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any, Iterator

from .._core import environment
from .._core.errors import InvalidArgument
from . import tables

__all__ = ["Knob", "declare", "knobs", "get", "override", "force", "epoch", "values",
           "unforce_all", "changed"]

_TYPES = (bool, int, float, str)


@dataclass(frozen=True)
class Knob:
    """One tuning value. ``choices``: the values the tune command measures (for a ``str``
    knob also the only legal values); ``lo`` / ``hi``: the legal range of a number."""

    name: str
    type: type
    default: Any
    doc: str
    family: str
    choices: tuple = ()
    lo: float | None = None
    hi: float | None = None
    tunable: bool = True
    env: str = ""   # a user-facing variable (_core/environment.py) that also sets it

    def __post_init__(self):
        if self.type not in _TYPES:
            raise TypeError(f"knob {self.name}: type {self.type!r}")
        object.__setattr__(self, "default", self.coerce(self.default))
        object.__setattr__(self, "choices", tuple(self.coerce(c) for c in self.choices))

    def coerce(self, value: Any) -> Any:
        """``value`` (or its text from the environment / a table) as this knob's type,
        checked against its range / choices."""
        t = self.type
        try:
            if t is bool:
                if isinstance(value, str):
                    s = value.strip().lower()
                    if s not in ("1", "0", "true", "false", "on", "off", "yes", "no"):
                        raise ValueError(value)
                    v = s in ("1", "true", "on", "yes")
                else:
                    v = bool(value)
            elif t is int:
                if isinstance(value, float) and not value.is_integer():
                    raise ValueError(value)
                v = int(value.strip() if isinstance(value, str) else value)
            elif t is float:
                v = float(value)
            else:
                v = str(value).strip()
        except (TypeError, ValueError):
            raise InvalidArgument(self.name, f"must be a {t.__name__}, got {value!r}") from None
        if t is str and self.choices and v not in self.choices:
            raise InvalidArgument(self.name, f"must be one of {self.choices}, got {v!r}")
        if t in (int, float) and ((self.lo is not None and v < self.lo) or
                                  (self.hi is not None and v > self.hi)):
            raise InvalidArgument(self.name, f"must be in [{self.lo}, {self.hi}], got {v!r}")
        return v


_lock = threading.RLock()
_KNOBS: dict[str, Knob] = {}
_forced: dict[str, Any] = {}
_stack: list[dict[str, Any]] = []
_epoch = [0]
_generation = [0]                        # tables or environment re-read, knobs declared, GEMM pins
_epochs: dict[tuple, int] = {}           # override state -> its epoch
_last_epoch = [0]
_views: dict[Any, dict[str, Any]] = {}   # adapter descriptor key (or None) -> resolved values
_env_overrides: dict[str, Any] | None = None


def declare(*items: Knob) -> None:
    """Add knobs to the registry (each family's module under ``tuning.knobs`` calls this at
    import)."""
    global _env_overrides
    with _lock:
        for k in items:
            if k.name in _KNOBS and _KNOBS[k.name] != k:
                raise ValueError(f"knob {k.name} declared twice")
            _KNOBS[k.name] = k
        _generation[0] += 1
        _changed()
        _env_overrides = None   # a knob declared later may have its own variable


def knobs(family: str | None = None) -> dict[str, Knob]:
    """The declared knobs (of one family)."""
    return {n: k for n, k in _KNOBS.items() if family is None or k.family == family}


def _knob(name: str) -> Knob:
    try:
        return _KNOBS[name]
    except KeyError:
        raise InvalidArgument("name", f"no tuning knob {name!r} (see "
                              "numr_array_api.tuning.knobs())") from None


def parse_assignments(text: str, source: str) -> dict[str, Any]:
    """'A=1,B=x' -> {A: 1, B: 'x'}, typed and checked (``source`` names it in errors)."""
    out = {}
    for item in text.replace(";", ",").split(","):
        item = item.strip()
        if not item:
            continue
        if "=" not in item:
            raise InvalidArgument(source, f"expected NAME=value items, got {item!r}")
        k, v = (s.strip() for s in item.split("=", 1))
        out[k] = _knob(k).coerce(v)
    return out


def _env() -> dict[str, Any]:
    """The environment's values: a knob's own user-facing variable, then NUMR_TUNING."""
    global _env_overrides
    if _env_overrides is None:
        vals = {}
        for k in _KNOBS.values():
            text = environment.get(k.env) if k.env else ""
            if text:
                try:
                    vals[k.name] = k.coerce(text)
                except InvalidArgument as exc:
                    raise InvalidArgument(k.env, str(exc)) from None
        vals.update(parse_assignments(environment.get("NUMR_TUNING"), "NUMR_TUNING"))
        _env_overrides = vals
    return _env_overrides


def _changed() -> None:
    # the epoch names the state (forced values and override layers), so a block that ends
    # returns the caches to what they held before it and a process alternating two variants
    # (the tune command, A/B benchmarks) replays each variant's plans instead of re-recording
    state = (_generation[0], tuple(sorted(_forced.items())),
             tuple(tuple(sorted(layer.items())) for layer in _stack))
    e = _epochs.get(state)
    if e is None:
        if len(_epochs) >= 4096:    # forgotten states get fresh numbers: a miss, never a mix-up
            _epochs.clear()
        _last_epoch[0] += 1
        e = _epochs[state] = _last_epoch[0]
    _epoch[0] = e
    _views.clear()


def changed() -> None:
    """Drop every resolved view (a table was written or the environment re-read)."""
    global _env_overrides
    with _lock:
        _env_overrides = None
        _generation[0] += 1
        _changed()


def _resolve(key, table: dict[str, Any]) -> dict[str, Any]:
    vals = {n: k.default for n, k in _KNOBS.items()}
    for n, v in table.items():
        if n in _KNOBS:
            vals[n] = v
    vals.update(_env())
    vals.update(_forced)
    for layer in _stack:
        vals.update(layer)
    _views[key] = vals
    return vals


def values(client=None) -> dict[str, Any]:
    """Every knob's value (on ``client``'s adapter): read-only by convention."""
    key = None if client is None else client
    v = _views.get(key)
    if v is not None:
        return v
    with _lock:
        table = {}
        if client is not None:
            for n, v in tables.values_for(client).items():
                k = _KNOBS.get(n)
                if k is None:
                    continue
                try:
                    table[n] = k.coerce(v)
                except ValueError:
                    continue   # a row from another numr version: ignored
        return _resolve(key, table)


def get(name: str, client=None) -> Any:
    """The value of knob ``name`` (on ``client``'s adapter; without a client, the
    portable value with overrides)."""
    v = _views.get(client)
    if v is None:
        v = values(client)
    return v[name]


def epoch() -> int:
    """Changes whenever any knob value may have changed; the same override state (the same
    forced values and override blocks since the tables were read) has the same epoch."""
    return _epoch[0]


@contextlib.contextmanager
def override(**assignments: Any) -> Iterator[None]:
    """``with tuning.override(CHOL_NB=64): ...``: knob values for the block (process-wide),
    above the tables and ``force``."""
    layer = {n: _knob(n).coerce(v) for n, v in assignments.items()}
    with _lock:
        _stack.append(layer)
        _changed()
    try:
        yield
    finally:
        with _lock:
            _stack.remove(layer)
            _changed()


def force(**assignments: Any) -> None:
    """Pin knob values until unpinned (``force(NAME=None)``); benchmarks comparing
    variants in one process use it."""
    with _lock:
        for n, v in assignments.items():
            if v is None:
                _forced.pop(n, None)
            else:
                _forced[n] = _knob(n).coerce(v)
        _changed()


def unforce_all() -> None:
    with _lock:
        _forced.clear()
        _changed()


tables._on_reload.append(changed)
