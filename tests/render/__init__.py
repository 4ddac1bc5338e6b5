"""Tests of the text and SVG renderings."""
