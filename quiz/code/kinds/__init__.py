"""The function kinds a code question can ask for, one module per family; quiz.code.tasks lists them."""
