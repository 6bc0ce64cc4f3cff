"""The web table: a FastAPI server (app.py) for playing, watching and replaying games in a
browser. Needs the `server` extra: `pip install boardwright[server]`; start it with
`boardwright serve`."""
