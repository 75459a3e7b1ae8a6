"""The bundled content: every definition of the base game and Corporate Era, as `.mars` text files."""
