"""The fleet demo service: a small Pecan/WSME API built on the library.

Run it with ``python -m pecan_microversions.demo``.
"""
