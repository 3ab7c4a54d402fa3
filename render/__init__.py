"""Pure pictures: an engine view in, image bytes out. Pillow only, never Discord."""
