"""What is here only to be fast: nothing in it changes what a phone is told.

``polls`` answers an unchanged poll before Django's sessions and views (and before Django
itself when this process knows it unchanged); ``listening`` keeps poll versions in memory
while PostgreSQL says nothing changed; ``boards`` keeps a table's board as it was drawn
for the next phones and screens. Each piece's figure, with and without it: bench/README.md.
"""
