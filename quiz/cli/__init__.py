"""The `quiz` command: its entry point, its arguments, and one module per subcommand (each imported only
when its subcommand runs)."""
