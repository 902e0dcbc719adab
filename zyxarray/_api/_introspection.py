"""What users can read about the engine: ``explain`` and the ``debug`` context manager.

Layer: ``_api``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import _debug
from .._lazy.realize import PlannedKernel
from .._lazy.realize import explain as _explain
from ._array_object import Array

debug = _debug.debug


@dataclass
class Plan:
    """The kernels that realizing some arrays would run, in order."""

    kernels: list[PlannedKernel]

    def __len__(self) -> int:
        return len(self.kernels)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.kernels)

    def __getitem__(self, i: int) -> PlannedKernel:
        return self.kernels[i]

    def __str__(self) -> str:
        if not self.kernels:
            return "nothing to run: every array is already computed"
        head = f"{len(self.kernels)} kernel(s)\n"
        return head + "\n".join(f"--- [{i}] {k}" for i, k in enumerate(self.kernels))

    __repr__ = __str__


def explain(*arrays: Array) -> Plan:
    """The plan that realizing ``arrays`` would execute, without running anything."""
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"explain: expected arrays, got {type(a).__name__}")
    return Plan(_explain(*(a._node for a in arrays)))
