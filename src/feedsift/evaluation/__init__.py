"""Evaluation: gold datasets, scoring measures, peer extractors and the benchmark runner."""
