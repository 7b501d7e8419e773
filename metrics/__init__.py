"""detlens metric engine: official-exact scene-text detection metrics with evidence."""
