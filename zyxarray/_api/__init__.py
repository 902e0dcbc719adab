"""The public namespace's implementation: the Array object and the standard's functions.

Layer: ``_api`` (the top). Builds graph nodes through ``_lazy``; never touches a device.
"""
