"""Generator of the bundled detlens demo dataset (run via scripts/make_demo_data.py)."""
