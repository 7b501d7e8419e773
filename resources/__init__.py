"""Bundled resources of detlens (the demo data set), installed as the package
``detlens_resources`` by the build configuration (``pyproject.toml``) and read with
``importlib.resources``; ``scripts/make_demo_data.py`` generates ``demo/``."""
