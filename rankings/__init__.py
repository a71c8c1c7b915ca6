"""The Celtic! world ranking: Elo and Glicko-2 ratings from every rated result."""
