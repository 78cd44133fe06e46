"""Practice: a session asks the questions of a selection one variant at a time and grades them."""
