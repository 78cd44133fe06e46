"""Question types, one module each (model, reading, grading, text and JSON forms); see `base.py`."""
