"""The offline runner: the real bot and its games on the local Discord (the `localdiscord` package), for `python -m
bot` without a token, the end-to-end tests and the benchmarks."""
