"""Learning that fits the learner: a study plan up to an interview date, and item analysis for authors."""
