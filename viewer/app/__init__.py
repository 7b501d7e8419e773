"""The application: ``detlens view`` (options, the display check), the main window that
composes the widgets, the session and its sides, and where the docks go.
"""
