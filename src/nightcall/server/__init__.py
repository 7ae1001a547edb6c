"""The web app: Starlette server, websocket pipeline, rooms, clock and stores."""
