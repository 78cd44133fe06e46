"""The question format: safe YAML reading, the typed question model and its JSON Schema."""
