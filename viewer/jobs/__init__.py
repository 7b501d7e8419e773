"""Work off the UI thread: reading and evaluating a set, the dataset check (in a child process
for large sets), and quiet garbage collection while they run.
"""
