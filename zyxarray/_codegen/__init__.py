"""Kernel IR, its verifier, and one renderer per language.

Layer: ``_codegen``. Imports only ``_devices`` and the foundation modules.
"""

from __future__ import annotations

from .ir import Kernel


def render(kernel: Kernel, language: str) -> str:
    """Source text of ``kernel`` in ``language`` ("ir" is the IR's own listing)."""
    if language == "ir":
        return str(kernel)
    if language == "c":
        from .c import CRenderer
        return CRenderer().render(kernel)
    if language == "opencl":
        from .opencl import OpenCLRenderer
        return OpenCLRenderer().render(kernel)
    if language == "cuda":
        from .cuda import CUDARenderer
        return CUDARenderer().render(kernel)
    if language == "hip":
        from .hip import HIPRenderer
        return HIPRenderer().render(kernel)
    if language == "spirv":
        from .spirv import render as render_spirv
        return render_spirv(kernel)
    raise ValueError(f"no renderer for language {language!r}")
