"""Text for the terminal: maths in Unicode, plain JSON-ready data, and text fitted to a width (a variant
or a result as text or JSON is its type's to say, in `quiz.types.present`)."""
