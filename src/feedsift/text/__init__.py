"""Text primitives shared by every stage: tokenisation and whitespace normalisation."""
