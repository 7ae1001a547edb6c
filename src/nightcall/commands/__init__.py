"""Sub-commands of ``nightcall``: one module each, with a ``register(app)`` function."""
