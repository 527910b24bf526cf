"""Training: gold-to-block alignment, feature matrices and the model builder."""
