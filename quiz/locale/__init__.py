"""The interface's languages: the catalogues (`<lang>.toml`), looking a text up by key, and the cache
that keeps a parsed catalogue for the next start."""
