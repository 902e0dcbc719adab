"""Exception types shared by every layer.

Foundation module: importable from every layer; imports nothing from zyxarray.
"""

from __future__ import annotations


class ZyxarrayError(Exception):
    """Base class of zyxarray's own errors."""


class CompileError(ZyxarrayError):
    """A generated kernel failed to compile. Holds the source and the compiler's log."""

    def __init__(self, message: str, source: str, log: str, command: str = "",
                 device: str = "") -> None:
        self.source = source
        self.log = log
        self.command = command
        self.device = device
        numbered = "\n".join(f"{i + 1:4d}  {line}" for i, line in enumerate(source.splitlines()))
        super().__init__(f"{message}\n--- command ---\n{command}\n--- compiler log ---\n{log}\n"
                         f"--- source ---\n{numbered}")


class DeviceError(ZyxarrayError):
    """A device or its driver reported an error; the vendor's message is included."""
