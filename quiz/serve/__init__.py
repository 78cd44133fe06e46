"""`quiz serve`: the app in a browser, one app process per websocket (textual-serve behind aiohttp),
with a token or password, Origin and Host checks, session limits and per-user data directories.

One job a module: `tokens` (the printed token and the signed cookie), `guard` (Host, Origin),
`limits` (concurrent sessions, idle time), `passwords` (scrypt hashes), `users` (the users file),
`settings` (what the command line asked for), `process` (one app process) and `server` (the web app).
"""
