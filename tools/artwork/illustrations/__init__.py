"""The drawings behind make_artwork.py, one module per illustration (hero, mark, portraits,
crowd, cards, social, donate) over shared helpers (base, geometry, canvas, motifs, output)."""
