"""detlens test suite (a package: modules import their builders from ``tests.support``)."""
