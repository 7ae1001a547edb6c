"""Lupus in Tabula: the multi-night game with a Master, ghosts and seat-order tie-breaks."""
