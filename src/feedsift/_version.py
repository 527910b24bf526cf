"""The version of feedsift, in one place (read by the package root, the CLI and the User-Agent)."""

__version__ = "0.1.0"
