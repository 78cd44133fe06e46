"""Text for the terminal: numbers, maths in Unicode, and variants and results as text and JSON."""
