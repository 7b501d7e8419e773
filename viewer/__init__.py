"""detlens viewer (PySide6): draws the engine's evidence on the images. Arrives with issue 4."""
