"""The failure gallery: crops of instances across the dataset, made off the UI thread, shown in
a dock, and ``detlens gallery`` headless.
"""
