"""Answer inputs, one module per kind of answer; `registry.answer_widget` picks the one for a question."""
