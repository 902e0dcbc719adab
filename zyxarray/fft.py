"""zyxarray.fft: the standard's discrete Fourier transform extension.

Transforms run on the device's library table (pocketfft through NumPy for host memory);
fftfreq, rfftfreq and the shifts are graph ops. This module only re-exports the public names.
"""

from __future__ import annotations

from ._api._fft_functions import (
                                  fft,
                                  fftfreq,
                                  fftn,
                                  fftshift,
                                  hfft,
                                  ifft,
                                  ifftn,
                                  ifftshift,
                                  ihfft,
                                  irfft,
                                  irfftn,
                                  rfft,
                                  rfftfreq,
                                  rfftn,
)

__all__ = [
    "fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft",
    "irfft", "irfftn", "rfft", "rfftfreq", "rfftn",
]

# every public function takes array-likes and refuses arrays on different devices
# (see _api/_arguments.py)
from ._api._arguments import check_namespace as _check_namespace

_check_namespace(globals(), __all__)
del _check_namespace
