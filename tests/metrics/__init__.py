"""Tests of the metric engine ``metrics``; mirrors its layout. Imports neither Qt nor PIL."""
