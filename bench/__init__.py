"""Benchmarks: scripts that print figures. Run them all with `make bench`."""
