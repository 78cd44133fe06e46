"""Tools for question authors: self-tests of answer keys."""
