"""Tournament writes: create, register, start, pair, withdraw, finish."""
