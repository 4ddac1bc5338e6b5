"""The subcommands of the ``sgmahjong`` command, one module each.

Each module has ``register(subparsers)`` adding its parser (with ``func`` set to its
runner, which takes the parsed arguments and returns an exit code).
"""
