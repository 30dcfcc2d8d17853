"""Quasi-random sequences: Sobol (Joe & Kuo directions), Halton, Latin hypercube."""
