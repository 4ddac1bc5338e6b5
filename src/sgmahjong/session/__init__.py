"""One table session for every screen: what the terminal game and the web table share.

A screen renders what this package works out and never rebuilds it: the rules of a quick
game and the hand label (:mod:`.match`), the AI players by name, the default opponents
and the stand-in (:mod:`.players`), an AI's decision with a safe fallback when it fails
(:mod:`.decisions`), the final standings with ties (:mod:`.standings`), and the reviews
(:mod:`.reviews`). Nothing here knows a terminal, a socket, an event loop or a database.
"""
