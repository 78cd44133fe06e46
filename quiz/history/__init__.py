"""The learner's history: every graded attempt in one SQLite file, review cards scheduled by
FSRS, statistics computed from the attempts, export/import, and the learner's settings (language,
theme) in a small file beside it.

The core of the quiz (no Textual). Open the store with `store.open_history()`; a file that cannot
be used comes back as an `Unavailable` reason, never as a traceback, and is never overwritten.
"""
