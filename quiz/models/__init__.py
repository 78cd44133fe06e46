"""The question model: each type's dataclass (its fields only, what authors write) and the registry
of types by name. Light on purpose: the bank and its cache need every model, and nothing heavier."""
